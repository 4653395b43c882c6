//! `cargo dynalint …`: cargo runs this as `cargo-dynalint dynalint …`. It runs the
//! `dynalint` installed beside it (or the one on `PATH`) with cargo's extra argument
//! dropped. It does not link the library, so it is a small program rather than a second
//! copy of dynalint (`cargo install` puts both in `~/.cargo/bin`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{exit, Command};

fn main() {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == "dynalint") {
        args.remove(0);
    }
    let beside = std::env::current_exe().ok().and_then(|exe| {
        let p = exe
            .parent()?
            .join(format!("dynalint{}", std::env::consts::EXE_SUFFIX));
        p.is_file().then_some(p)
    });
    let program = beside.unwrap_or_else(|| PathBuf::from("dynalint"));
    let mut cmd = Command::new(&program);
    cmd.args(&args);
    // clap names the program after argv[0]: usage lines say `cargo dynalint`.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::arg0(&mut cmd, "cargo dynalint");
    match cmd.status() {
        // A signal has no code; 2 is dynalint's "could not run" code.
        Ok(status) => exit(status.code().unwrap_or(2)),
        Err(e) => {
            eprintln!(
                "error: cannot run `{}`: {e}\n  = help: install dynalint with `cargo install --locked --path .`",
                program.display()
            );
            exit(2)
        }
    }
}
