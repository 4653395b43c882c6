//! `dynalint serve --data-dir DIR`: the engine's state kept on disk, so tables and
//! items survive a restart, and every write acknowledged to a client survives a
//! `kill -9` (or a power cut) at any moment.
//!
//! **Design: an append-only log with group commit, compacted into snapshots.** The
//! engine keeps serving from memory; the disk only has to remember the changes. Each
//! request's changes (items stored and deleted, with their time; a table's settings
//! when they change; a transaction's idempotency token) are one checksummed record
//! ([`frame`]) appended to the log in the order the engine applied them; the reply
//! waits until `fdatasync` has returned for it ([`log`]). Concurrent requests share
//! syncs: whoever waits first writes and syncs everything appended so far, so with
//! 200 writers one sync acknowledges a round of writes instead of one. When the log
//! outgrows the last snapshot, the state is written to a new snapshot ([`files`]:
//! temporary file, sync, rename, directory sync) and older files are removed.
//!
//! Why not an embedded store such as SQLite (what DynamoDB Local uses, one file per
//! access key and region, or one `shared-local-instance.db` with `-sharedDb`): the
//! engine's tables and indexes already live in memory, so SQLite would only be a
//! second copy of every item plus a C library to build. A sync per commit bounds an
//! acknowledged-write store at one write per sync (about 5 ms on this project's
//! machine: 200 writes a second) unless commits are grouped, and SQLite does not group
//! the commits of concurrent writers; grouping them ourselves over SQLite would be
//! this log with more parts. The log is also simple to reason about for crashes:
//!
//! - a record is acknowledged only after the sync that covers it, and records are
//!   appended in the engine's order, so every acknowledged write is in the file
//!   before anything written after it, and a read waits for what it saw to be synced;
//! - a crash can only leave a partial or unsynced record at the end; its checksum or
//!   length gives it away ([`frame::Next::Torn`]), it is never loaded, and its bytes
//!   are moved aside (`log-N.torn-OFFSET`) with a note, not silently deleted;
//! - one record holds a whole request's changes (a transaction's 100 items), so a
//!   request is replayed entirely or not at all;
//! - a snapshot only ever replaces nothing: it is a new generation, complete before
//!   its rename, and the log of the same generation began (under the engine's lock)
//!   exactly where the snapshot's state was taken.
//!
//! Without `--data-dir` nothing here runs: tables keep no journal, and the in-memory
//! path pays one `Option` check per write.

pub mod codec;
pub mod files;
pub mod frame;
pub mod log;
pub mod recover;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;
use thiserror::Error;

use super::clock::Clock;
use super::db::Engine;
use super::journal::Journal;
use codec::{entry_of, Entry, Record, TableMeta};

pub use recover::{Recovery, TornTail};

/// Why the data directory could not be opened or written.
#[derive(Debug, Error)]
pub enum PersistError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: another `dynalint serve` is using this data directory", dir.display())]
    Locked { dir: PathBuf },
    #[error("{}: {why}", path.display())]
    Damaged { path: PathBuf, why: String },
}

/// When to compact, and how.
#[derive(Debug, Clone, Copy)]
pub struct StoreOptions {
    /// A new snapshot is written once the log holds more than this many bytes and
    /// more than the last snapshot did.
    pub compact_after_bytes: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            compact_after_bytes: 64 << 20,
        }
    }
}

/// Operations that never change a table's settings: after any other one, the
/// tables' settings are compared with what the log last said.
const ITEM_OPERATIONS: &[&str] = &[
    "PutItem",
    "GetItem",
    "DeleteItem",
    "UpdateItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
    "ExecuteStatement",
    "BatchExecuteStatement",
    "ExecuteTransaction",
    "DescribeTable",
    "ListTables",
    "DescribeTimeToLive",
    "ListTagsOfResource",
    "ListStreams",
    "DescribeStream",
    "GetShardIterator",
    "GetRecords",
];

/// What the store remembers beside the engine, under the engine's lock: the journal
/// the tables write to, and the table settings and tokens the log already holds.
#[derive(Debug)]
pub struct Tracked {
    journal: Journal,
    metas: BTreeMap<String, TableMeta>,
    tokens: usize,
}

impl Tracked {
    /// Starts tracking `engine` as it now is (everything in it already logged).
    pub fn new(engine: &mut Engine) -> Tracked {
        Tracked {
            journal: engine.attach_journal(),
            metas: metas(engine),
            tokens: engine.transaction_tokens.len(),
        }
    }
}

fn metas(engine: &Engine) -> BTreeMap<String, TableMeta> {
    engine
        .tables
        .iter()
        .map(|(name, t)| (name.clone(), TableMeta::of(t)))
        .collect()
}

/// The durable side of a database: its directory, its lock and its log.
pub struct Store {
    dir: PathBuf,
    _lock: File,
    log: log::Log,
    /// The generation of the log being appended to.
    generation: AtomicU64,
    /// The size of the last snapshot (0 when there is none).
    snapshot_bytes: AtomicU64,
    compacting: AtomicBool,
    options: StoreOptions,
}

impl Store {
    /// Opens (or creates) the data directory `dir`: takes its lock, loads the newest
    /// snapshot, replays the logs after it (dropping a torn tail with a note), and
    /// continues the last log. The engine reads time from `clock`.
    pub fn open(
        dir: &Path,
        clock: Clock,
        options: StoreOptions,
    ) -> Result<(Engine, Tracked, Store, Recovery), PersistError> {
        std::fs::create_dir_all(dir).map_err(files::io_error(dir))?;
        let lock = files::lock(dir)?;
        let recovered = recover::recover(dir, clock)?;
        let mut engine = recovered.engine;
        let tracked = Tracked::new(&mut engine);
        let store = Store {
            dir: dir.to_path_buf(),
            _lock: lock,
            log: log::Log::new(recovered.log, recovered.log_bytes, recovered.lsn),
            generation: AtomicU64::new(recovered.generation),
            snapshot_bytes: AtomicU64::new(recovered.snapshot_bytes),
            compacting: AtomicBool::new(false),
            options,
        };
        Ok((engine, tracked, store, recovered.report))
    }

    /// The data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Why the store can no longer write, if it cannot.
    pub fn failed(&self) -> Option<String> {
        self.log.failed()
    }

    /// Logs what the request `op` (with `body`) just changed in `engine`, which the
    /// caller still holds locked; returns the batch to wait for before answering
    /// (the last one appended when this request changed nothing: what it read).
    pub fn commit(&self, engine: &Engine, tracked: &mut Tracked, op: &str, body: &Value) -> u64 {
        let mut entries = Vec::new();
        if !ITEM_OPERATIONS.contains(&op) {
            let now = metas(engine);
            for name in tracked.metas.keys() {
                if !now.contains_key(name) {
                    entries.push(Entry::Drop { name: name.clone() });
                }
            }
            for (name, meta) in &now {
                if tracked.metas.get(name) != Some(meta) {
                    entries.push(Entry::Table(meta.clone()));
                }
            }
            tracked.metas = now;
        }
        entries.extend(tracked.journal.take().iter().map(entry_of));
        if op == "TransactWriteItems" && engine.transaction_tokens.len() != tracked.tokens {
            tracked.tokens = engine.transaction_tokens.len();
            let token = body.get("ClientRequestToken").and_then(Value::as_str);
            if let Some((token, (items, answer))) =
                token.and_then(|t| engine.transaction_tokens.get_key_value(t))
            {
                entries.push(Entry::Token {
                    token: token.clone(),
                    items: items.clone(),
                    answer: answer.clone(),
                });
            }
        }
        self.append(entries)
    }

    /// Logs the item changes background work made (Time to Live); the batch to wait
    /// for.
    pub fn commit_changes(&self, tracked: &mut Tracked) -> u64 {
        self.append(tracked.journal.take().iter().map(entry_of).collect())
    }

    /// Appends one batch of entries (nothing when there are none); the batch to wait
    /// for.
    pub fn append(&self, entries: Vec<Entry>) -> u64 {
        if entries.is_empty() {
            return self.log.appended();
        }
        let lsn = self.log.appended() + 1;
        let appended = self
            .log
            .append(&files::encode(&Record::Batch { lsn, entries }));
        debug_assert_eq!(
            appended, lsn,
            "batches are appended under the engine's lock"
        );
        appended
    }

    /// Returns once batch `lsn` is on disk.
    pub fn wait(&self, lsn: u64) -> Result<(), String> {
        self.log.wait(lsn)
    }

    /// True when the log has grown enough to be compacted into a snapshot.
    pub fn wants_compaction(&self) -> bool {
        let log = self.log.bytes();
        log > self.options.compact_after_bytes
            && log > self.snapshot_bytes.load(Ordering::SeqCst)
            && !self.compacting.load(Ordering::SeqCst)
    }

    /// First half of a compaction, under the engine's lock: the log continues in a
    /// new generation, whose snapshot will be the engine's state as it is now.
    /// Returns that generation and the last batch the snapshot holds.
    pub fn rotate(&self) -> Result<(u64, u64), PersistError> {
        self.compacting.store(true, Ordering::SeqCst);
        let next = self.generation.load(Ordering::SeqCst) + 1;
        let result = files::create_log(&self.dir, next).and_then(|(file, bytes)| {
            self.log
                .rotate(file, bytes)
                .map_err(|why| PersistError::Damaged {
                    path: self.dir.join(files::name(files::Kind::Log, next - 1)),
                    why,
                })
        });
        if let Err(e) = result {
            self.compacting.store(false, Ordering::SeqCst);
            return Err(e);
        }
        self.generation.store(next, Ordering::SeqCst);
        Ok((next, self.log.appended()))
    }

    /// Second half, without the lock: writes the snapshot of `state` (a copy taken
    /// under the lock at [`Store::rotate`]) and removes the files it replaces.
    pub fn snapshot(&self, generation: u64, lsn: u64, state: &Engine) -> Result<(), PersistError> {
        let result = files::write_snapshot(&self.dir, generation, lsn, state).and_then(|bytes| {
            self.snapshot_bytes.store(bytes, Ordering::SeqCst);
            files::remove_older(&self.dir, generation)
        });
        self.compacting.store(false, Ordering::SeqCst);
        result
    }
}

#[cfg(test)]
mod tests;
