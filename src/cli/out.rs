//! Writing to stdout. A reader that closes the pipe early (`dynalint check | head -1`)
//! ends the output quietly, as clippy and ruff do: the rest is dropped, no panic. Any
//! other write error (a full disk, `> /dev/full`) is an I/O error: said once, and the
//! run exits 2 ([`failed`]).

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout's reader has gone; later writes are dropped.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Set when a write failed for another reason than a closed pipe.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Whether the output could not be written (other than to a closed pipe): the report
/// is lost, so the run is an I/O error whatever its findings.
pub(crate) fn failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

/// Writes `text` to stdout; a closed pipe is not an error.
pub(crate) fn print(text: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    if let Err(e) = written {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != ErrorKind::BrokenPipe {
            FAILED.store(true, Ordering::Relaxed);
            eprintln!("error: cannot write the output: {e}");
        }
    }
}

/// [`print`] with a newline.
pub(crate) fn println(text: &str) {
    print(&format!("{text}\n"));
}

/// `print!` through [`print`].
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::out::print(&format!($($t)*)) };
}

/// `println!` through [`println`].
macro_rules! outln {
    ($($t:tt)*) => { $crate::cli::out::println(&format!($($t)*)) };
}

pub(crate) use {out, outln};
