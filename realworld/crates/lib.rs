//! Empty: this package only pins the crates whose sources the corpus test scans.
