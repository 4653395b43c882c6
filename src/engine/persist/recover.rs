//! Opening a data directory: the newest snapshot, then every log from its generation
//! on, batch by batch. Only the last log may end in a torn record (a crash cut its
//! last write short): its bytes are moved to `log-N.torn-OFFSET` and the log is cut
//! back to its last whole record, with a note. Anything else that does not read (a
//! damaged snapshot, a torn record followed by another log, batches out of order) is
//! an error naming the file and offset: loading part of the data would be worse.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::codec::{self, Record, FORMAT};
use super::files::{self, io_error, Kind};
use super::frame::{self, Next};
use super::PersistError;
use crate::engine::clock::Clock;
use crate::engine::db::Engine;

/// A torn record dropped from the end of a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TornTail {
    /// The log it ended.
    pub log: PathBuf,
    /// Where the torn record began: the log now ends there.
    pub offset: u64,
    /// How many bytes were dropped.
    pub bytes: u64,
    /// Where they were kept.
    pub kept: PathBuf,
    /// What was wrong with the record.
    pub why: &'static str,
    /// Intact records follow the torn one: the unsynced writes of the crash, or
    /// damage in the middle of the file (then the kept bytes are worth a look).
    pub later_records: bool,
}

/// What opening a data directory found.
#[derive(Debug, Clone)]
pub struct Recovery {
    /// The data directory.
    pub dir: PathBuf,
    /// Tables loaded.
    pub tables: usize,
    /// Items loaded, in all tables.
    pub items: usize,
    /// The generation of the snapshot loaded.
    pub snapshot: Option<u64>,
    /// Batches replayed from logs after it.
    pub batches: u64,
    /// Torn records dropped from the end of the last log.
    pub torn: Vec<TornTail>,
    /// Time taken to load, in seconds.
    pub seconds: f64,
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tables, {} items from {} in {:.3} s (",
            self.tables,
            self.items,
            self.dir.display(),
            self.seconds
        )?;
        if let Some(g) = self.snapshot {
            write!(f, "snapshot {g} and ")?;
        }
        write!(f, "{} logged batches)", self.batches)?;
        for t in &self.torn {
            write!(
                f,
                "; note: {} ended in {} at byte {}, written by a crash and never acknowledged: dropped {} bytes, kept in {}",
                t.log.display(),
                t.why,
                t.offset,
                t.bytes,
                t.kept.display()
            )?;
            if t.later_records {
                write!(
                    f,
                    " (intact records follow it: unsynced writes of the crash, or damage worth a look)"
                )?;
            }
        }
        Ok(())
    }
}

/// The state a directory holds and where to continue its log.
pub struct Recovered {
    /// The state loaded.
    pub engine: Engine,
    /// The last log, open for appending.
    pub log: File,
    /// Its length.
    pub log_bytes: u64,
    /// The last batch replayed.
    pub lsn: u64,
    /// The last log's generation.
    pub generation: u64,
    /// The size of the snapshot loaded (0 without one).
    pub snapshot_bytes: u64,
    /// What to tell the user.
    pub report: Recovery,
}

fn damaged(path: &Path, why: impl Into<String>) -> PersistError {
    PersistError::Damaged {
        path: path.to_path_buf(),
        why: why.into(),
    }
}

fn decode(path: &Path, offset: u64, payload: &[u8]) -> Result<Record, PersistError> {
    serde_json::from_slice(payload).map_err(|e| {
        damaged(
            path,
            format!("the record at byte {offset} is not one this version of dynalint reads: {e}"),
        )
    })
}

/// Loads `dir` into an engine reading time from `clock`.
pub fn recover(dir: &Path, clock: Clock) -> Result<Recovered, PersistError> {
    let start = Instant::now();
    let found = files::list(dir)?;
    let snapshot = found
        .iter()
        .filter(|(k, _)| *k == Kind::Snapshot)
        .map(|(_, g)| *g)
        .max();
    let mut engine = Engine::with_clock(clock);
    let (mut lsn, snapshot_bytes) = match snapshot {
        Some(g) => load_snapshot(dir, g, &mut engine)?,
        None => (0, 0),
    };
    let base = snapshot.unwrap_or(0);
    let logs: Vec<u64> = found
        .iter()
        .filter(|(k, g)| *k == Kind::Log && *g >= base)
        .map(|(_, g)| *g)
        .collect();
    for (i, g) in logs.iter().enumerate() {
        if *g != base + i as u64 {
            let missing = base + i as u64;
            return Err(damaged(
                &dir.join(files::name(Kind::Log, *g)),
                format!(
                    "{} is missing: the changes it held cannot be replayed",
                    files::name(
                        if i == 0 && snapshot.is_none() {
                            Kind::Snapshot
                        } else {
                            Kind::Log
                        },
                        missing
                    )
                ),
            ));
        }
    }
    let mut batches = 0;
    let mut torn = Vec::new();
    let mut last = None;
    for (i, g) in logs.iter().enumerate() {
        let is_last = i + 1 == logs.len();
        let replayed = replay_log(dir, *g, &mut engine, &mut lsn)?;
        batches += replayed.batches;
        if let Some(t) = replayed.torn {
            if !is_last {
                return Err(damaged(
                    &t.log,
                    format!(
                        "{} at byte {}, yet a newer log follows: the file is damaged",
                        t.why, t.offset
                    ),
                ));
            }
            torn.push(t);
        }
        if is_last {
            last = Some((*g, replayed.end));
        }
    }
    let (generation, log, log_bytes) = match last {
        Some((g, end)) => {
            let path = dir.join(files::name(Kind::Log, g));
            let file = OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(io_error(&path))?;
            (g, file, end)
        }
        None => {
            let (file, bytes) = files::create_log(dir, base)?;
            (base, file, bytes)
        }
    };
    // Files a finished compaction no longer needed, left by a crash before it could
    // remove them.
    files::remove_older(dir, base)?;
    let report = Recovery {
        dir: dir.to_path_buf(),
        tables: engine.tables.len(),
        items: engine.tables.values().map(|t| t.item_count()).sum(),
        snapshot,
        batches,
        torn,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok(Recovered {
        engine,
        log,
        log_bytes,
        lsn,
        generation,
        snapshot_bytes,
        report,
    })
}

/// Loads snapshot `generation`; the last batch it holds and its size.
fn load_snapshot(
    dir: &Path,
    generation: u64,
    engine: &mut Engine,
) -> Result<(u64, u64), PersistError> {
    let path = dir.join(files::name(Kind::Snapshot, generation));
    let file = File::open(&path).map_err(io_error(&path))?;
    let len = file.metadata().map_err(io_error(&path))?.len();
    let mut reader = frame::Reader::new(BufReader::new(file), 0, len);
    let mut lsn = None;
    let mut entries = 0u64;
    loop {
        let offset = reader.offset;
        let payload = match reader.read_next().map_err(io_error(&path))? {
            Next::Record(p) => p,
            Next::End => return Err(damaged(&path, "the snapshot ends before its last record")),
            Next::Torn(why) => {
                return Err(damaged(&path, format!("{why} at byte {offset}")));
            }
        };
        match (decode(&path, offset, &payload)?, lsn) {
            (
                Record::Snapshot {
                    format,
                    generation: g,
                    lsn: l,
                },
                None,
            ) if format == FORMAT && g == generation => lsn = Some(l),
            (Record::State { entries: list }, Some(_)) => {
                for entry in &list {
                    codec::apply(engine, entry).map_err(|e| {
                        damaged(&path, format!("the record at byte {offset} holds {}", e.0))
                    })?;
                }
                entries += list.len() as u64;
            }
            (Record::End { entries: n }, Some(l)) if n == entries => return Ok((l, len)),
            _ => {
                return Err(damaged(
                    &path,
                    format!("unexpected record at byte {offset}"),
                ))
            }
        }
    }
}

struct Replayed {
    batches: u64,
    torn: Option<TornTail>,
    /// Where the log now ends.
    end: u64,
}

/// Replays log `generation` after batch `lsn`; cuts a torn tail off it.
fn replay_log(
    dir: &Path,
    generation: u64,
    engine: &mut Engine,
    lsn: &mut u64,
) -> Result<Replayed, PersistError> {
    let path = dir.join(files::name(Kind::Log, generation));
    let bytes = fs::read(&path).map_err(io_error(&path))?;
    let mut reader = frame::Reader::new(&bytes[..], 0, bytes.len() as u64);
    let mut batches = 0;
    let mut header = false;
    let torn = loop {
        let offset = reader.offset;
        let payload = match reader.read_next().map_err(io_error(&path))? {
            Next::Record(p) => p,
            Next::End => break None,
            Next::Torn(why) => break Some((offset, why)),
        };
        match decode(&path, offset, &payload)? {
            Record::Log {
                format,
                generation: g,
            } if !header && format == FORMAT && g == generation => header = true,
            Record::Batch { lsn: n, entries } if header => {
                if n != *lsn + 1 {
                    return Err(damaged(
                        &path,
                        format!("batch {n} at byte {offset} follows batch {}", *lsn),
                    ));
                }
                for entry in &entries {
                    codec::apply(engine, entry).map_err(|e| {
                        damaged(&path, format!("the batch at byte {offset} holds {}", e.0))
                    })?;
                }
                *lsn = n;
                batches += 1;
            }
            _ => {
                return Err(damaged(
                    &path,
                    format!("unexpected record at byte {offset}"),
                ))
            }
        }
    };
    let Some((offset, why)) = torn else {
        if !header {
            // Created by a crash before its first record was written: start it again.
            let (_, end) = files::create_log(dir, generation)?;
            return Ok(Replayed {
                batches,
                torn: None,
                end,
            });
        }
        return Ok(Replayed {
            batches,
            torn: None,
            end: bytes.len() as u64,
        });
    };
    let tail = &bytes[offset as usize..];
    let kept = files::torn_path(dir, generation, offset);
    let mut out = File::create(&kept).map_err(io_error(&kept))?;
    out.write_all(tail)
        .and_then(|()| out.sync_all())
        .map_err(io_error(&kept))?;
    let end = if header {
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(io_error(&path))?;
        file.set_len(offset)
            .and_then(|()| file.sync_all())
            .map_err(io_error(&path))?;
        files::sync_dir(dir)?;
        offset
    } else {
        files::create_log(dir, generation)?.1
    };
    Ok(Replayed {
        batches,
        torn: Some(TornTail {
            log: path,
            offset,
            bytes: tail.len() as u64,
            kept,
            why,
            later_records: frame::holds_a_record(tail),
        }),
        end,
    })
}
