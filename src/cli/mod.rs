//! The command line: `dynalint check / rules / explain / calls / model / lsp`.
//! Only this module exits the process.

use std::ffi::OsString;

/// Runs the CLI and returns the exit code.
pub fn main(_argv: Vec<OsString>) -> i32 {
    0
}

/// `cargo dynalint …` runs `cargo-dynalint dynalint …`: drop cargo's extra argument.
pub fn cargo_shim_args(mut argv: Vec<OsString>) -> Vec<OsString> {
    if argv.get(1).is_some_and(|a| a == "dynalint") {
        argv.remove(1);
    }
    argv
}
