//! The command line: `dynalint check / rules / explain / calls / model`. Only this
//! module exits the process (through the code [`main`] returns).
//!
//! Exit codes: 0 nothing at or above the fail level, 1 findings at or above it,
//! 2 usage, config, model or IO errors.

mod args;
mod calls;
mod check;
mod diff;
mod init_cmd;
mod model_cmd;
mod open;
mod out;
mod progress;
mod rules_cmd;
mod simulate_cmd;
mod statistics;

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
    "check", "rules", "explain", "calls", "init", "model", "lsp", "serve", "simulate", "help",
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
        Command::Init(a) => init_cmd::run(a),
        Command::Model(a) => model_cmd::run(a),
        Command::Simulate(a) => simulate_cmd::run(a),
        Command::Serve(a) => {
            let defaults = crate::engine::server::DEFAULT_LIMITS;
            let limits = crate::engine::http::Limits {
                max_connections: a
                    .max_connections
                    .map_or(defaults.max_connections, |n| n as usize),
                request_timeout: std::time::Duration::from_secs_f64(a.request_timeout),
                idle_timeout: std::time::Duration::from_secs_f64(a.idle_timeout),
                max_in_flight: a.max_in_flight as usize,
                ..defaults
            };
            let data = crate::engine::server::DataDir {
                path: a.data_dir,
                options: crate::engine::persist::StoreOptions {
                    compact_after_bytes: a.compact_after << 20,
                },
            };
            match crate::engine::server::run(
                std::net::SocketAddr::new(a.bind, a.port),
                limits,
                data,
            ) {
                Ok(()) => EXIT_OK,
                Err(e) => error(e),
            }
        }
        Command::Lsp => match crate::lsp::run_stdio() {
            Ok(()) => EXIT_OK,
            Err(e) => error(format!("language server: {e}")),
        },
    };
    let flushed = std::io::stdout().flush();
    // The report was lost (a full disk, `> /dev/full`): an I/O error, exit 2.
    if out::failed() || flushed.is_err_and(|e| e.kind() != std::io::ErrorKind::BrokenPipe) {
        return EXIT_ERROR;
    }
    code
}

/// `dynalint`, `dynalint src/`, `dynalint --format json` all mean `dynalint check …`;
/// `dynalint --format json check` moves the subcommand first. A first word that is no
/// path but looks like a subcommand (`dynalint chek`) is left to clap, which says
/// "did you mean `check`".
fn default_to_check(mut argv: Vec<OsString>) -> Vec<OsString> {
    let words: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let Some(first) = words.get(1) else {
        argv.push(OsString::from("check"));
        return argv;
    };
    if SUBCOMMANDS.contains(&first.as_str())
        || matches!(first.as_str(), "-h" | "--help" | "-V" | "--version")
    {
        return argv;
    }
    if let Some(i) = subcommand_after_flags(&words) {
        let sub = argv.remove(i);
        argv.insert(1, sub);
        return argv;
    }
    if !first.starts_with('-')
        && !std::path::Path::new(first).exists()
        && looks_like_subcommand(first)
    {
        return argv;
    }
    argv.insert(1, OsString::from("check"));
    argv
}

/// The index of a subcommand that only flags (and their values) come before.
fn subcommand_after_flags(words: &[String]) -> Option<usize> {
    for i in 1..words.len() {
        let w = words[i].as_str();
        if SUBCOMMANDS.contains(&w) {
            return Some(i);
        }
        let is_flag = w.starts_with('-') && w != "-";
        let is_value = words[i - 1].starts_with("--") && !words[i - 1].contains('=');
        if !is_flag && !is_value {
            return None;
        }
    }
    None
}

/// A word close enough to a subcommand's name to be a typo of it.
fn looks_like_subcommand(word: &str) -> bool {
    SUBCOMMANDS
        .iter()
        .any(|s| strsim::jaro_winkler(word, s) > 0.8)
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
        assert_eq!(
            default_to_check(os(&["dynalint", "-"])),
            os(&["dynalint", "check", "-"])
        );
    }

    #[test]
    fn flags_before_the_subcommand_move_after_it() {
        assert_eq!(
            default_to_check(os(&["dynalint", "--format", "json", "check", "src"])),
            os(&["dynalint", "check", "--format", "json", "src"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "--quiet", "calls"])),
            os(&["dynalint", "calls", "--quiet"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "src", "check"])),
            os(&["dynalint", "check", "src", "check"]),
            "after a path, `check` is a path"
        );
    }

    #[test]
    fn a_typo_of_a_subcommand_is_left_to_clap() {
        assert_eq!(
            default_to_check(os(&["dynalint", "chek"])),
            os(&["dynalint", "chek"])
        );
        assert_eq!(
            default_to_check(os(&["dynalint", "no-such-dir"])),
            os(&["dynalint", "check", "no-such-dir"])
        );
    }
}
