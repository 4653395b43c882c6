//! The command line: `dynalint check / rules / explain / calls / model`. Only this
//! module exits the process (through the code [`main`] returns).
//!
//! Exit codes: 0 nothing at or above the fail level, 1 findings at or above it,
//! 2 usage, config, model or IO errors.

mod args;
mod calls;
mod check;
mod model_cmd;
mod progress;
mod rules_cmd;
mod simulate_cmd;

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;

pub use args::{Cli, Command, Format};

/// Exit code: nothing at or above the fail level.
pub const EXIT_OK: i32 = 0;
/// Exit code: findings at or above the fail level.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code: usage, config, model or IO error.
pub const EXIT_ERROR: i32 = 2;

const SUBCOMMANDS: &[&str] = &[
    "check", "rules", "explain", "calls", "model", "lsp", "serve", "simulate", "help",
];

/// Runs the CLI and returns the exit code.
pub fn main(argv: Vec<OsString>) -> i32 {
    let argv = default_to_check(argv);
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
        }
    };
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Rules(a) => rules_cmd::rules(a),
        Command::Explain(a) => rules_cmd::explain(a),
        Command::Calls(a) => calls::run(a),
        Command::Model(a) => model_cmd::run(a),
        Command::Simulate(a) => simulate_cmd::run(a),
        Command::Serve(a) => {
            match crate::engine::server::run(std::net::SocketAddr::new(a.bind, a.port)) {
                Ok(()) => EXIT_OK,
                Err(e) => error(e),
            }
        }
        Command::Lsp => match crate::lsp::run_stdio() {
            Ok(()) => EXIT_OK,
            Err(e) => error(format!("language server: {e}")),
        },
    };
    let _ = std::io::stdout().flush();
    code
}

/// `dynalint`, `dynalint src/`, `dynalint --format json` all mean `dynalint check …`.
fn default_to_check(mut argv: Vec<OsString>) -> Vec<OsString> {
    let first = argv.get(1).map(|a| a.to_string_lossy().into_owned());
    let keep = match first.as_deref() {
        None => false,
        Some(a) => SUBCOMMANDS.contains(&a) || matches!(a, "-h" | "--help" | "-V" | "--version"),
    };
    if !keep {
        argv.insert(1.min(argv.len()), OsString::from("check"));
    }
    argv
}

/// `cargo dynalint …` runs `cargo-dynalint dynalint …`: drop cargo's extra argument.
pub fn cargo_shim_args(mut argv: Vec<OsString>) -> Vec<OsString> {
    if argv.get(1).is_some_and(|a| a == "dynalint") {
        argv.remove(1);
    }
    if let Some(first) = argv.first_mut() {
        *first = OsString::from("cargo dynalint");
    }
    argv
}

/// Prints an error line the way every subcommand does.
fn error(message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    EXIT_ERROR
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn check_is_the_default_subcommand() {
        assert_eq!(
            default_to_check(os(&["dynalint"])),
            os(&["dynalint", "check"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "src"])),
            os(&["dynalint", "check", "src"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "--format", "json"])),
            os(&["dynalint", "check", "--format", "json"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "rules"])),
            os(&["dynalint", "rules"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "--help"])),
            os(&["dynalint", "--help"])
        );
    }

    #[test]
    fn cargo_shim_drops_the_subcommand_name() {
        assert_eq!(
            cargo_shim_args(os(&["/bin/cargo-dynalint", "dynalint", "check", "."])),
            os(&["cargo dynalint", "check", "."])
        );
        assert_eq!(
            cargo_shim_args(os(&["cargo-dynalint"])),
            os(&["cargo dynalint"])
        );
    }
}
