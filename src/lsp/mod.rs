//! The language server. Only this module knows the LSP crates.
