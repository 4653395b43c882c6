//! Progress on a terminal's stderr, only for runs that take more than a second.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A background ticker showing `checking: done/total files`.
pub struct Progress {
    state: Arc<State>,
    thread: Option<std::thread::JoinHandle<()>>,
}

struct State {
    done: AtomicUsize,
    total: AtomicUsize,
    phase: Mutex<&'static str>,
    stop: AtomicBool,
    shown: AtomicBool,
}

impl Progress {
    pub fn start() -> Self {
        let state = Arc::new(State {
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            phase: Mutex::new("reading"),
            stop: AtomicBool::new(false),
            shown: AtomicBool::new(false),
        });
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
                let phase = s.phase.lock().map(|p| *p).unwrap_or("checking");
                let line = render(
                    phase,
                    s.done.load(Ordering::Relaxed),
                    s.total.load(Ordering::Relaxed),
                );
                eprint!("\r\x1b[2K{line}");
                let _ = std::io::stderr().flush();
                s.shown.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Self {
            state,
            thread: Some(thread),
        }
    }

    pub fn update(&self, done: usize, total: usize) {
        self.state.done.store(done, Ordering::Relaxed);
        self.state.total.store(total, Ordering::Relaxed);
    }

    /// A phase with its count (`0, 0`: no count); what analysis reports.
    pub fn set(&self, phase: &'static str, done: usize, total: usize) {
        if let Ok(mut p) = self.state.phase.lock() {
            *p = phase;
        }
        self.update(done, total);
    }
}

/// The progress line: `parsing: 3/9 files`, or the phase alone when it has no count.
fn render(phase: &str, done: usize, total: usize) -> String {
    if total == 0 {
        format!("{phase}…")
    } else {
        format!("{phase}: {done}/{total} files")
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
        assert_eq!(render("parsing", 3, 9), "parsing: 3/9 files");
        assert_eq!(render("checking rules", 0, 0), "checking rules…");
    }
}
