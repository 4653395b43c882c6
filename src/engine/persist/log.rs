//! The append-only log with group commit. Batches are appended in memory, in the
//! order the engine applied them (the caller holds the engine's lock); a request then
//! waits until its batch is on disk. The first waiter writes everything appended so
//! far and calls `fdatasync` once for all of it, while later batches gather behind it
//! for the next round: with many clients writing at once, one sync acknowledges a
//! whole round of writes, and a lone client pays one sync per write.

use std::fs::File;
use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::frame;

/// The log file being appended to, and its state.
pub struct Log {
    state: Mutex<State>,
    /// Signalled when a round of writing ends.
    written: Condvar,
}

struct State {
    /// Framed batches appended but not yet written.
    pending: Vec<u8>,
    /// The last batch appended.
    appended: u64,
    /// The last batch known to be on disk.
    durable: u64,
    /// A thread is writing and syncing (it has taken `file`).
    writing: bool,
    file: Option<File>,
    /// The file's length once everything pending is written.
    bytes: u64,
    /// Why the log cannot be written any more; set once, for good.
    failed: Option<String>,
}

impl Log {
    /// Appends to `file`, which holds `bytes` bytes ending with batch `lsn`.
    pub fn new(file: File, bytes: u64, lsn: u64) -> Log {
        Log {
            state: Mutex::new(State {
                pending: Vec::new(),
                appended: lsn,
                durable: lsn,
                writing: false,
                file: Some(file),
                bytes,
                failed: None,
            }),
            written: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Appends one framed batch; its number (the last one's plus one).
    pub fn append(&self, payload: &[u8]) -> u64 {
        let mut s = self.lock();
        let before = s.pending.len();
        frame::write(&mut s.pending, payload);
        s.bytes += (s.pending.len() - before) as u64;
        s.appended += 1;
        s.appended
    }

    /// The last batch appended: what a read must wait for, so that nothing it sees
    /// can be lost in a crash.
    pub fn appended(&self) -> u64 {
        self.lock().appended
    }

    /// The file's length once everything appended is written.
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// Why the log failed, if it did.
    pub fn failed(&self) -> Option<String> {
        self.lock().failed.clone()
    }

    /// Returns once batch `lsn` and all before it are on disk, writing them itself
    /// unless another thread is already doing so. Fails, now and for good, when the
    /// file cannot be written or synced.
    pub fn wait(&self, lsn: u64) -> Result<(), String> {
        let mut s = self.lock();
        loop {
            if let Some(why) = &s.failed {
                return Err(why.clone());
            }
            if s.durable >= lsn {
                return Ok(());
            }
            if s.writing {
                s = self.written.wait(s).unwrap_or_else(|p| p.into_inner());
                continue;
            }
            s = self.write_round(s);
        }
    }

    /// Writes and syncs everything pending, without holding the lock meanwhile.
    fn write_round<'a>(&'a self, mut s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        let Some(mut file) = s.file.take() else {
            s.failed = Some("the log file is gone".into());
            return s;
        };
        s.writing = true;
        let batch = std::mem::take(&mut s.pending);
        let upto = s.appended;
        drop(s);
        let result = file.write_all(&batch).and_then(|()| file.sync_data());
        let mut s = self.lock();
        s.file = Some(file);
        s.writing = false;
        match result {
            Ok(()) => s.durable = s.durable.max(upto),
            // After a failed sync the kernel may have dropped the pages: nothing after
            // this point can be acknowledged (PostgreSQL's lesson, "fsyncgate").
            Err(e) => s.failed = Some(format!("cannot write the log: {e}")),
        }
        self.written.notify_all();
        s
    }

    /// Makes everything appended durable, then continues in `next` (a new log file
    /// holding `header`, already synced). No batch may be appended meanwhile: the
    /// caller holds the engine's lock.
    pub fn rotate(&self, next: File, bytes: u64) -> Result<(), String> {
        let lsn = self.appended();
        self.wait(lsn)?;
        let mut s = self.lock();
        while s.writing {
            s = self.written.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.file = Some(next);
        s.bytes = bytes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn concurrent_writers_share_syncs_and_every_batch_lands_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let file = File::create(&path).unwrap();
        let log = Arc::new(Log::new(file, 0, 0));
        let order = Arc::new(Mutex::new(()));
        let threads: Vec<_> = (0..16)
            .map(|t| {
                let (log, order) = (Arc::clone(&log), Arc::clone(&order));
                std::thread::spawn(move || {
                    for i in 0..25 {
                        // As the engine's lock does: append in the order applied.
                        let lsn = {
                            let _engine = order.lock().unwrap();
                            log.append(format!("{t}:{i}").as_bytes())
                        };
                        log.wait(lsn).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(log.appended(), 400);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len() as u64, log.bytes());
        let mut r = frame::Reader::new(&bytes[..], 0, bytes.len() as u64);
        let mut seen = 0;
        while let frame::Next::Record(_) = r.read_next().unwrap() {
            seen += 1;
        }
        assert_eq!(seen, 400);
    }

    #[test]
    fn a_failed_write_fails_every_wait_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        std::fs::write(&path, b"").unwrap();
        // Opened for reading only: every write fails, as on a full or broken disk.
        let log = Log::new(File::open(&path).unwrap(), 0, 0);
        let lsn = log.append(b"lost");
        let err = log.wait(lsn).unwrap_err();
        assert!(err.starts_with("cannot write the log"), "{err}");
        assert_eq!(log.failed(), Some(err.clone()));
        // Even a batch already waited for cannot be confirmed any more.
        assert_eq!(log.wait(0), Err(err));
    }
}
