//! Progress on stderr: on a terminal, one line redrawn, only for runs that take more
//! than a second; with `DYNALINT_PROGRESS=lines`, every phase on a line of its own,
//! on any stderr (for logs, and for the tests that check each slow phase reports).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The environment variable that asks for progress as lines.
pub const PROGRESS_ENV: &str = "DYNALINT_PROGRESS";

/// A phase and its count, shown as `parsing: 3/9 files` (see [`render`]).
pub struct Progress {
    state: Arc<State>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Lines mode: the last line written, so a phase is written once as it starts
    /// and once as its count completes.
    lines: Option<Mutex<(&'static str, String)>>,
}

struct State {
    done: AtomicUsize,
    total: AtomicUsize,
    phase: Mutex<(&'static str, &'static str)>,
    stop: AtomicBool,
    shown: AtomicBool,
}

impl Progress {
    /// Progress for a command's run, or `None` where nobody would see it: lines when
    /// `DYNALINT_PROGRESS=lines`, else the redrawn line on a terminal (unless `quiet`).
    pub fn for_stderr(quiet: bool) -> Option<Self> {
        if std::env::var(PROGRESS_ENV).is_ok_and(|v| v == "lines") {
            return Some(Self::lines());
        }
        (!quiet && std::io::stderr().is_terminal()).then(Self::start)
    }

    fn state() -> Arc<State> {
        Arc::new(State {
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            phase: Mutex::new(("reading", "files")),
            stop: AtomicBool::new(false),
            shown: AtomicBool::new(false),
        })
    }

    fn lines() -> Self {
        Self {
            state: Self::state(),
            thread: None,
            lines: Some(Mutex::new(("", String::new()))),
        }
    }

    /// A background ticker redrawing the line on a terminal.
    pub fn start() -> Self {
        let state = Self::state();
        let s = state.clone();
        let thread = std::thread::spawn(move || {
            // Quiet for the first second: fast runs show nothing.
            for _ in 0..10 {
                if s.stop.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            while !s.stop.load(Ordering::Relaxed) {
                eprint!("\r\x1b[2K{}", s.line());
                let _ = std::io::stderr().flush();
                s.shown.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Self {
            state,
            thread: Some(thread),
            lines: None,
        }
    }

    /// The current phase's count.
    pub fn update(&self, done: usize, total: usize) {
        self.state.done.store(done, Ordering::Relaxed);
        self.state.total.store(total, Ordering::Relaxed);
        self.write_line(done, total);
    }

    /// A phase with its count of files (`0, 0`: no count); what analysis reports.
    pub fn set(&self, phase: &'static str, done: usize, total: usize) {
        self.set_counting(phase, "files", done, total);
    }

    /// A phase counting `unit`s (`""`: the phase names what it counts).
    pub fn set_counting(&self, phase: &'static str, unit: &'static str, done: usize, total: usize) {
        if let Ok(mut p) = self.state.phase.lock() {
            *p = (phase, unit);
        }
        self.update(done, total);
    }

    /// Lines mode: the line, when its phase starts or its count completes. The count
    /// is the caller's, not the shared one: files are counted on several threads, and
    /// a slower thread's smaller count could overwrite the last one before it is shown.
    fn write_line(&self, done: usize, total: usize) {
        let Some(last) = &self.lines else { return };
        let Ok(mut last) = last.lock() else { return };
        let (phase, unit) = self.state.phase();
        let line = render(phase, unit, done, total);
        if last.1 != line && (last.0 != phase || done == total) {
            eprintln!("{line}");
            *last = (phase, line);
        }
    }
}

impl State {
    fn phase(&self) -> (&'static str, &'static str) {
        self.phase
            .lock()
            .map(|p| *p)
            .unwrap_or(("checking", "files"))
    }

    fn line(&self) -> String {
        let (phase, unit) = self.phase();
        render(
            phase,
            unit,
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// The progress line: `parsing: 3/9 files`, `replaying calls: 2/5`, or the phase
/// alone when it has no count.
fn render(phase: &str, unit: &str, done: usize, total: usize) -> String {
    match (total, unit) {
        (0, _) => format!("{phase}…"),
        (_, "") => format!("{phase}: {done}/{total}"),
        _ => format!("{phase}: {done}/{total} {unit}"),
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if self.state.shown.load(Ordering::Relaxed) {
            eprint!("\r\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn a_phase_without_a_count_shows_no_stale_count() {
        assert_eq!(render("parsing", "files", 3, 9), "parsing: 3/9 files");
        assert_eq!(render("checking rules", "files", 0, 0), "checking rules…");
        assert_eq!(render("replaying calls", "", 2, 5), "replaying calls: 2/5");
    }
}
