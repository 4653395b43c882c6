//! `check` over a large tree without holding every file at once: each file is read,
//! indexed lean ([`scanner::index_file_lean`]) and its text dropped, unless it has
//! allow comments (suppressions read every one). The texts later phases read — the
//! files of requests and table declarations (rules and inference name their lines),
//! those findings point into — are read again once the scan is done and its indexes
//! freed ([`ensure_texts`], [`scanned_files`], [`diagnostic_files`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::report::Diagnostic;
use crate::scanner::{self, FileIndex, Operation, ScanResult, ScanSettings};
use crate::source::{FilePath, SourceFile};
use crate::workspace::{read_source, Note};

/// A scan of files read one at a time.
#[derive(Debug, Default)]
pub struct Streamed {
    pub scanned: ScanResult,
    /// The texts of files with allow comments and of `given`, in the order scanned.
    pub files: Vec<SourceFile>,
    /// Files that could not be read.
    pub notes: Vec<Note>,
    /// Files scanned, and their bytes.
    pub checked: usize,
    pub bytes: usize,
}

/// One file indexed: its index, its text when kept, and its size.
type Indexed = (Arc<FileIndex>, Option<SourceFile>, usize);

/// Reads, indexes and links `paths` then `given` (texts not on disk, such as stdin's,
/// indexed in full and kept), keeping only the texts later phases read.
pub fn scan_paths(
    paths: &[PathBuf],
    given: Vec<SourceFile>,
    settings: &ScanSettings,
    report: scanner::Report<'_>,
) -> Streamed {
    let settings = ScanSettings {
        reread: Some(reread),
        ..settings.clone()
    };
    let started = std::time::Instant::now();
    let total = paths.len() + given.len();
    let done = AtomicUsize::new(0);
    report("parsing", 0, total);
    let read: Vec<Result<Indexed, Note>> = paths
        .par_iter()
        .map(|p| {
            let file = read_source(p)?;
            let index = scanner::index_file_lean(&file, &settings);
            let bytes = file.text.len();
            let kept = read_later(&file).then_some(file);
            report("parsing", done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok((Arc::new(index), kept, bytes))
        })
        .collect();
    let mut out = Streamed::default();
    let mut indexes = Vec::with_capacity(read.len() + given.len());
    for r in read {
        match r {
            Ok((index, kept, bytes)) => {
                indexes.push(index);
                out.files.extend(kept);
                out.checked += 1;
                out.bytes += bytes;
            }
            Err(note) => out.notes.push(note),
        }
    }
    for file in given {
        indexes.push(Arc::new(scanner::index_file(&file, &settings)));
        report("parsing", done.fetch_add(1, Ordering::Relaxed) + 1, total);
        out.checked += 1;
        out.bytes += file.text.len();
        out.files.push(file);
    }
    out.scanned = scanner::link_indexed(indexes, &settings, started.elapsed(), report);
    out
}

/// Whether a text is kept while scanning: suppressions read every allow comment.
/// Others are read again after the scan, when the indexes are gone.
fn read_later(file: &SourceFile) -> bool {
    file.text.contains("dynalint:")
}

/// A file's text read again ([`ScanSettings::reread`]).
fn reread(path: &Path) -> Option<Arc<str>> {
    read_source(path).ok().map(|f| f.text)
}

/// Reads the texts of `paths` that `files` lacks (one that cannot be read is left
/// out, as it would have been at the start).
pub fn ensure_texts<'a>(
    files: &mut Vec<SourceFile>,
    paths: impl IntoIterator<Item = &'a FilePath>,
) {
    let have: HashSet<FilePath> = files.iter().map(|f| f.path.clone()).collect();
    let mut missing: Vec<&FilePath> = paths.into_iter().filter(|p| !have.contains(*p)).collect();
    missing.sort();
    missing.dedup();
    files.extend(missing.into_iter().filter_map(|p| read_source(p).ok()));
}

/// Every file an operation names: its own, its requests', and those of its hot chain
/// and of the loop at its call site.
pub fn operation_files(operations: &[Operation]) -> Vec<&FilePath> {
    let mut out = Vec::new();
    let mut stack: Vec<&Operation> = operations.iter().collect();
    while let Some(op) = stack.pop() {
        out.push(&op.file);
        if let Some(hot) = &op.context.hot {
            out.extend(hot.chain.iter().map(|s| &s.file));
        }
        if let Some(c) = op.context.in_loop.as_ref().and_then(|l| l.caller.as_ref()) {
            out.push(&c.file);
        }
        stack.extend(&op.children);
    }
    out
}

/// The files of a scan's requests (see [`operation_files`]) and table declarations:
/// what the rules and inference name lines in.
pub fn scanned_files(scanned: &ScanResult) -> Vec<&FilePath> {
    let mut out = operation_files(&scanned.operations);
    out.extend(scanned.tables.iter().map(|t| &t.file));
    out
}

/// Every file a finding points into: its place, its labels and its fix.
pub fn diagnostic_files(diagnostics: &[Diagnostic]) -> Vec<&FilePath> {
    let mut out = Vec::new();
    for d in diagnostics {
        out.push(&d.location.file);
        out.extend(d.labels.iter().map(|l| &l.location.file));
        out.extend(
            d.fix
                .iter()
                .flat_map(|f| &f.edits)
                .map(|e| &e.location.file),
        );
    }
    out
}
