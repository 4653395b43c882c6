//! What `dynalint serve` serves: one engine behind a lock, in memory or kept in a data
//! directory ([`super::persist`]), and the work DynamoDB does in the background
//! (Time to Live deleting expired items, streams trimming records older than 24 hours,
//! the log compacted into a snapshot).

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

use super::clock::Clock;
use super::db::Engine;
use super::error::{DynamoError, DynamoResult, ErrorKind};
use super::persist::{PersistError, Recovery, Store, StoreOptions, Tracked};

/// Items Time to Live examines per table per round of background work: a table of a
/// million items is swept every few minutes, and a round holds the engine briefly.
pub const TTL_SWEEP_ITEMS: usize = 10_000;

/// How often the background work runs in `dynalint serve`.
pub const BACKGROUND_EVERY: Duration = Duration::from_secs(1);

struct State {
    engine: Engine,
    /// What the store tracks beside the engine; `None` in memory.
    tracked: Option<Tracked>,
}

/// An engine shared by the server's threads, durable or not.
pub struct Database {
    state: Mutex<State>,
    store: Option<Store>,
}

/// What one round of background work did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Background {
    /// Items Time to Live deleted.
    pub expired: usize,
    /// Whether the log was compacted into a new snapshot.
    pub compacted: bool,
}

impl Database {
    /// An in-memory database reading time from `clock`.
    pub fn in_memory(clock: Clock) -> Database {
        Database {
            state: Mutex::new(State {
                engine: Engine::with_clock(clock),
                tracked: None,
            }),
            store: None,
        }
    }

    /// A database kept in `dir` (created if missing), loaded from what it holds.
    pub fn open(
        dir: &Path,
        clock: Clock,
        options: StoreOptions,
    ) -> Result<(Database, Recovery), PersistError> {
        let (engine, tracked, store, recovery) = Store::open(dir, clock, options)?;
        Ok((
            Database {
                state: Mutex::new(State {
                    engine,
                    tracked: Some(tracked),
                }),
                store: Some(store),
            },
            recovery,
        ))
    }

    /// True when writes are kept on disk.
    pub fn is_durable(&self) -> bool {
        self.store.is_some()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on the engine (for tests and tools: what it changes is not logged).
    pub fn with_engine<R>(&self, f: impl FnOnce(&mut Engine) -> R) -> R {
        f(&mut self.lock().engine)
    }

    /// Answers one request, as [`Engine::handle`]; when durable, only once what it
    /// changed (or, for a read, what it saw) is on disk.
    pub fn handle(&self, op: &str, body: &Value) -> DynamoResult<Value> {
        let mut state = self.lock();
        if let Some(why) = self.store.as_ref().and_then(Store::failed) {
            return Err(unavailable(&why));
        }
        // The engine answers every input with a value or an error; should a bug panic
        // anyway, the client gets a 500, and what the request changed before the panic
        // is logged like any change, so memory and disk stay the same.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            state.engine.handle(op, body)
        }))
        .unwrap_or_else(|_| {
            Err(DynamoError::new(
                ErrorKind::InternalServer,
                "Internal server error",
            ))
        });
        let State { engine, tracked } = &mut *state;
        let wait = match (&self.store, tracked) {
            (Some(store), Some(tracked)) => Some(store.commit(engine, tracked, op, body)),
            _ => None,
        };
        drop(state);
        if let (Some(store), Some(lsn)) = (&self.store, wait) {
            store.wait(lsn).map_err(|why| unavailable(&why))?;
        }
        result
    }

    /// One round of background work: Time to Live, stream trimming, and compaction
    /// when the log has grown. Its deletions are logged like any write.
    pub fn background(&self) -> Result<Background, PersistError> {
        let mut state = self.lock();
        let expired = state.engine.expire_items(TTL_SWEEP_ITEMS);
        state.engine.trim_streams();
        let wait = match (&self.store, &mut state.tracked) {
            (Some(store), Some(tracked)) => Some(store.commit_changes(tracked)),
            _ => None,
        };
        let Some(store) = &self.store else {
            return Ok(Background {
                expired,
                compacted: false,
            });
        };
        let compaction = if store.wants_compaction() {
            let (generation, lsn) = store.rotate()?;
            Some((generation, lsn, state.engine.clone()))
        } else {
            None
        };
        drop(state);
        if let Some(lsn) = wait {
            store.wait(lsn).map_err(|why| PersistError::Damaged {
                path: store.dir().to_path_buf(),
                why,
            })?;
        }
        let compacted = compaction.is_some();
        if let Some((generation, lsn, copy)) = compaction {
            store.snapshot(generation, lsn, &copy)?;
        }
        Ok(Background { expired, compacted })
    }

    /// Runs [`Database::background`] every `every` on a thread of its own until the
    /// returned handle is dropped. A failure is reported on stderr once.
    pub fn start_background(self: &Arc<Self>, every: Duration) -> BackgroundThread {
        let (stop, stopped) = mpsc::channel::<()>();
        let db = Arc::clone(self);
        let thread = std::thread::Builder::new()
            .name("dynalint-background".into())
            .spawn(move || {
                let mut reported = false;
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if let Err(e) = db.background() {
                        if !reported {
                            eprintln!("dynalint serve: background work failed: {e}");
                            reported = true;
                        }
                    }
                }
            })
            .ok();
        BackgroundThread {
            stop: Some(stop),
            thread,
        }
    }
}

fn unavailable(why: &str) -> DynamoError {
    DynamoError::new(
        ErrorKind::InternalServer,
        format!("The data directory cannot be written ({why}); restart dynalint serve"),
    )
}

/// The thread running a database's background work; stops it when dropped.
pub struct BackgroundThread {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for BackgroundThread {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
