//! The data directory's files: `log-<generation>` (batches appended since the
//! snapshot of the same generation), `snapshot-<generation>` (the whole state when
//! that log began), `LOCK` (held while a server uses the directory), and what a torn
//! log tail is moved to (`log-<generation>.torn-<offset>`). Every file is created or
//! replaced so that a crash at any moment leaves either the old file or the new one,
//! whole: written, synced, renamed into place, and the directory synced.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::codec::{self, Record, FORMAT};
use super::frame;
use super::PersistError;
use crate::engine::db::Engine;

/// Items per snapshot record: large enough to amortise framing, small enough that
/// reading one back needs little memory.
const SNAPSHOT_CHUNK: usize = 512;

/// A log or snapshot file and its generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Snapshot,
    Log,
}

/// The file name of a log or snapshot of `generation`.
pub fn name(kind: Kind, generation: u64) -> String {
    match kind {
        Kind::Snapshot => format!("snapshot-{generation:010}"),
        Kind::Log => format!("log-{generation:010}"),
    }
}

/// What a file name says: a log or snapshot and its generation.
pub fn parse_name(name: &str) -> Option<(Kind, u64)> {
    let (kind, digits) = if let Some(d) = name.strip_prefix("snapshot-") {
        (Kind::Snapshot, d)
    } else {
        (Kind::Log, name.strip_prefix("log-")?)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((kind, digits.parse().ok()?))
}

pub(super) fn io_error(path: &Path) -> impl Fn(io::Error) -> PersistError + '_ {
    move |source| PersistError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Makes a directory entry (a file created, renamed or removed in `dir`) durable.
pub fn sync_dir(dir: &Path) -> Result<(), PersistError> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_error(dir))?;
    }
    // Elsewhere a directory cannot be opened to sync it; renames are durable there
    // once the file itself is (NTFS journals its metadata).
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Takes the directory's lock, so that two servers never append to one log.
pub fn lock(dir: &Path) -> Result<File, PersistError> {
    let path = dir.join("LOCK");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_error(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(PersistError::Locked {
            dir: dir.to_path_buf(),
        }),
        Err(fs::TryLockError::Error(e)) => Err(io_error(&path)(e)),
    }
}

/// The logs and snapshots in `dir`, sorted; leftover temporary files are removed
/// (a snapshot whose writing a crash interrupted).
pub fn list(dir: &Path) -> Result<Vec<(Kind, u64)>, PersistError> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.ends_with(".tmp") {
            let path = entry.path();
            fs::remove_file(&path).map_err(io_error(&path))?;
        } else if let Some(file) = parse_name(name) {
            found.push(file);
        }
    }
    found.sort();
    Ok(found)
}

/// Creates log `generation` holding only its first record, synced with its
/// directory entry; the file, open for appending, and its length.
pub fn create_log(dir: &Path, generation: u64) -> Result<(File, u64), PersistError> {
    let path = dir.join(name(Kind::Log, generation));
    let mut bytes = Vec::new();
    let header = Record::Log {
        format: FORMAT,
        generation,
    };
    frame::write(&mut bytes, &encode(&header));
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(&path)
        .map_err(io_error(&path))?;
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_error(&path))?;
    sync_dir(dir)?;
    Ok((file, bytes.len() as u64))
}

/// A record as JSON bytes.
pub fn encode(record: &Record) -> Vec<u8> {
    // Records are plain data (strings, numbers, maps): serialising cannot fail.
    serde_json::to_vec(record).unwrap_or_default()
}

/// Writes `engine`'s whole state as snapshot `generation` (after batch `lsn`):
/// into a temporary file, synced, renamed into place, the directory synced. Returns
/// the snapshot's size in bytes.
pub fn write_snapshot(
    dir: &Path,
    generation: u64,
    lsn: u64,
    engine: &Engine,
) -> Result<u64, PersistError> {
    let path = dir.join(name(Kind::Snapshot, generation));
    let tmp = dir.join(format!("{}.tmp", name(Kind::Snapshot, generation)));
    let file = File::create(&tmp).map_err(io_error(&tmp))?;
    let mut out = BufWriter::new(file);
    let mut written = 0u64;
    let mut entries = 0u64;
    let mut frame_buf = Vec::new();
    let mut emit = |record: &Record, out: &mut BufWriter<File>| -> io::Result<()> {
        frame_buf.clear();
        frame::write(&mut frame_buf, &encode(record));
        written += frame_buf.len() as u64;
        out.write_all(&frame_buf)
    };
    let header = Record::Snapshot {
        format: FORMAT,
        generation,
        lsn,
    };
    emit(&header, &mut out).map_err(io_error(&tmp))?;
    for table in engine.tables.values() {
        codec::table_state(table, SNAPSHOT_CHUNK, &mut |group| {
            entries += group.len() as u64;
            emit(&Record::State { entries: group }, &mut out)
        })
        .map_err(io_error(&tmp))?;
    }
    let tokens: Vec<codec::Entry> = engine
        .transaction_tokens
        .iter()
        .map(|(token, (items, answer))| codec::Entry::Token {
            token: token.clone(),
            items: items.clone(),
            answer: answer.clone(),
        })
        .collect();
    for group in tokens.chunks(SNAPSHOT_CHUNK) {
        entries += group.len() as u64;
        emit(
            &Record::State {
                entries: group.to_vec(),
            },
            &mut out,
        )
        .map_err(io_error(&tmp))?;
    }
    emit(&Record::End { entries }, &mut out).map_err(io_error(&tmp))?;
    let file = out
        .into_inner()
        .map_err(|e| io_error(&tmp)(e.into_error()))?;
    file.sync_all().map_err(io_error(&tmp))?;
    drop(file);
    fs::rename(&tmp, &path).map_err(io_error(&path))?;
    sync_dir(dir)?;
    Ok(written)
}

/// Removes the logs and snapshots older than `generation` (what a newer snapshot
/// makes unnecessary).
pub fn remove_older(dir: &Path, generation: u64) -> Result<(), PersistError> {
    let mut removed = false;
    for (kind, g) in list(dir)? {
        if g < generation {
            let path = dir.join(name(kind, g));
            fs::remove_file(&path).map_err(io_error(&path))?;
            removed = true;
        }
    }
    if removed {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Where the torn tail of log `generation` found at `offset` is kept.
pub fn torn_path(dir: &Path, generation: u64, offset: u64) -> PathBuf {
    dir.join(format!("{}.torn-{offset}", name(Kind::Log, generation)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_strangers_are_ignored() {
        for kind in [Kind::Log, Kind::Snapshot] {
            assert_eq!(parse_name(&name(kind, 42)), Some((kind, 42)));
        }
        for other in [
            "LOCK",
            "log-",
            "log-12.torn-5",
            "snapshot-1.tmp",
            "notes.txt",
        ] {
            assert_eq!(parse_name(other), None, "{other}");
        }
    }

    #[test]
    fn a_second_server_cannot_take_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock(dir.path()).unwrap();
        assert!(matches!(lock(dir.path()), Err(PersistError::Locked { .. })));
        drop(held);
        assert!(lock(dir.path()).is_ok());
    }
}
