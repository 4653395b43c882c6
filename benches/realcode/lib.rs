//! Empty: the benchmark reads the dependencies' sources, it never builds them.
