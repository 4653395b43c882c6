//! Rust source → [`Operation`] IR. Only this module knows tree-sitter.
//!
//! Two phases, so the LSP can re-index one changed file, each a folder, over the
//! syntax helpers both read the text with; each folder imports only those before it:
//!
//! - `syntax/`: tokenizer and macro shadow text, the per-thread parser, node helpers
//!   and parent links, local name lookup, interned names;
//! - `index/`: the per-file phase, one file's facts;
//! - `link/`: the cross-file phase, binding every file's facts together;
//! - `incremental/`: what an edit re-does (the LSP's re-index, its last parse, its
//!   re-link); neither phase knows it.
//!
//! `ir.rs` (the contract), `sdk.rs` (what the scanner knows of the SDKs) and
//! `stats.rs` are the vocabulary every folder shares.
//!
//! - [`index_file`] (per file, pure, cacheable, run in parallel with rayon): tokenises
//!   the file, builds its share of the call graph from tokens, and — when the byte
//!   pre-filter lets it through — parses it with tree-sitter (one cached parser per
//!   worker thread) and folds every builder chain into an `Operation`. Names it cannot
//!   resolve alone (a `const` in another module, `self.table` set in a constructor, a
//!   struct passed to `serde_dynamo::to_item`, a helper fn's return value) stay
//!   *pending references*.
//! - [`link`] (whole crate, cheap: lookups only): resolves pending references against
//!   every file's constants, constructors and structs, splices builders that helper
//!   functions receive, and decides hot/cold with a breadth-first search of the call
//!   graph from the request entry points.
//!
//! **The byte pre-filter.** A file is parsed for calls only if its bytes contain one of
//! [`sdk::MARKERS`] (one regex search of their alternation: a client method such as
//! `query()`, a `*FluentBuilder`/`*InputBuilder` type a helper could receive, a typed
//! batch or transaction builder, a rusoto request struct such as `QueryInput`; `check`'s lean
//! index also defers a file none of whose markers is in code, `index::markers_in_code`).
//! Any request must name one of
//! them in the file that builds it, so a file without them cannot hold a call — but
//! for one shape: a chain on a builder that a helper in another file returns
//! (`recent_orders(&c, id).send()`). Skipped files record, from their tokens, the calls
//! they chain into a builder setter; [`link`] re-indexes (parsing) those that chain a
//! function some file's builder is returned from. Such a
//! file is still indexed for what *other* files need: its functions and calls (and
//! route registrations, entry attributes) come from the tokenizer, which costs a small
//! fraction of a parse; its consts, statics, `lazy_static!`s, structs, `use`s and
//! constructors (fns in an `impl` that build `Self { .. }`) are kept byte for byte in a
//! *sparse* copy of the text where everything else is blanked to spaces, and only that
//! is parsed — offsets stay the file's, and the parse costs what those items cost.
//! An SDK's generated code (smithy-rs's header above the file's first code, see
//! [`index::generated_sdk_code`]) names every marker but makes no application request:
//! nothing of it goes into the index.
//!
//! **Macros.** tree-sitter leaves macro arguments as token trees. Before parsing, a
//! same-length *shadow* of the text rewrites expression-like macros (`vec![..]` →
//! `    [..]`, `format!(..)` → `format (..)`, `hashmap!{k => v}` → an array,
//! `lazy_static! {..}` → plain statics), so calls inside them are parsed like any
//! other expression; node text is always sliced from the original.
//!
//! The scanner never fails: syntax errors give operations from what parsed plus a
//! [`ScanProblem`] each; oversized files are skipped with a note; every walk over the
//! tree is iterative or depth-guarded.

mod incremental;
mod index;
pub mod ir;
mod link;
mod sdk;
mod stats;
mod syntax;

use std::sync::Arc;

use rayon::prelude::*;

pub use create_table::TableDecl;
pub use incremental::relink::LinkState;
pub use incremental::LastParse;
pub use index::create_table;
pub use index::{may_call_dynamodb, module_of, FileIndex};
pub use ir::*;
pub use stats::ScanStats;

use crate::model::Model;
use crate::source::{FilePath, SourceFile};

/// Reads a file's text again (see [`ScanSettings::reread`]).
pub type Reread = fn(&std::path::Path) -> Option<Arc<str>>;

/// What the scanner needs from the model: only the path globs of `[lint]`, and the
/// folder they are relative to.
#[derive(Debug, Clone, Default)]
pub struct ScanSettings {
    pub hot_paths: Vec<String>,
    pub cold_paths: Vec<String>,
    /// The folder of `dynalint.toml`: `src/api/**` matches `src/api/x.rs` under it,
    /// whatever path the file was reached by (`./sub/dir`, an absolute path).
    pub root: Option<std::path::PathBuf>,
    /// Reads a file's text again, for a caller that indexed it with
    /// [`index_file_lean`] and let its text go (the CLI reads from disk; `None` when
    /// it cannot be read). Without it, a file's index keeps what link may need.
    pub reread: Option<Reread>,
}

impl ScanSettings {
    pub fn from_model(model: &Model) -> Self {
        let root = model
            .path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    std::path::Path::new(".")
                } else {
                    p
                }
            })
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()));
        Self {
            hot_paths: model.lint.hot_paths.clone(),
            cold_paths: model.lint.cold_paths.clone(),
            root,
            reread: None,
        }
    }
}

/// Operations found, and what could not be read. Scanning never fails.
#[derive(Debug, Default)]
pub struct ScanResult {
    pub operations: Vec<Operation>,
    pub problems: Vec<ScanProblem>,
    /// Tables the code declares with `create_table` / `update_table`.
    pub tables: Vec<TableDecl>,
    /// Columns the project's ORM schemas declare unique, from every file (parsed or
    /// not): what names one item of a table the code keeps in DynamoDB too.
    pub unique_columns: Vec<UniqueColumn>,
    /// What the scan worked on and its phases' times (`check --stats`).
    pub stats: ScanStats,
    /// For each operation, whether it is one the last link (the LSP's, `LinkState`)
    /// handed out, unchanged: a re-link keeps most. Empty when not known.
    pub reused: Vec<bool>,
}

/// The per-file phase: what one file says, independent of every other file.
pub fn index_file(file: &SourceFile, settings: &ScanSettings) -> FileIndex {
    index::index_file(file, settings)
}

/// [`index_file`] of an edited file, reusing the parse of its version before
/// (`last`, from the previous call); gives this version's parse, for the next edit.
pub fn index_file_again(
    file: &SourceFile,
    settings: &ScanSettings,
    last: Option<LastParse>,
) -> (FileIndex, Option<LastParse>) {
    incremental::index_file_again(file, settings, last)
}

/// [`index::index_file_lean`]: the per-file phase keeping only what the link needs when
/// the file can be read again ([`ScanSettings::reread`]).
pub fn index_file_lean(file: &SourceFile, settings: &ScanSettings) -> FileIndex {
    index::index_file_lean(file, settings)
}

/// [`index_file_lean`] of a text read from `path`, with no [`SourceFile`] built.
pub fn index_text_lean(path: &FilePath, text: &Arc<str>, settings: &ScanSettings) -> FileIndex {
    index::index_text_lean(path, text, settings)
}

/// The cross-file phase over indexes from [`index_file`] (in any order).
pub fn link(files: &[Arc<FileIndex>], settings: &ScanSettings) -> ScanResult {
    link::link(files, settings)
}

/// [`link`] after an indexing pass the caller ran and timed (`index_time`); the
/// indexes are freed on the workers afterwards.
pub fn link_indexed(
    mut indexes: Vec<Arc<FileIndex>>,
    settings: &ScanSettings,
    index_time: std::time::Duration,
    report: Report<'_>,
) -> ScanResult {
    report("following calls across files", 0, 0);
    // The indexes are let go of below: the link may move their operations.
    let mut result = link::link_owned(&mut indexes, settings);
    result.stats.index = index_time;
    // Freeing every file's index is real work too: spread over the workers instead of
    // running after the link on one thread; a large file's operations, most of its
    // index, in runs of their own (one file of 40,000 calls freed them on one core).
    indexes.into_par_iter().for_each(|index| {
        if let Ok(mut index) = Arc::try_unwrap(index) {
            let ops = std::mem::take(&mut index.ops);
            rayon::join(
                || ops.into_par_iter().with_min_len(256).for_each(drop),
                || drop(index),
            );
        }
    });
    result
}

/// Scans a set of files together (constants and the call graph cross files).
pub fn scan(files: &[SourceFile], settings: &ScanSettings) -> ScanResult {
    scan_reporting(files, settings, &|_, _, _| {})
}

/// What a long run reports: its phase, and how many of how many items are done
/// (`0, 0` for a phase without a count).
pub type Report<'a> = &'a (dyn Fn(&'static str, usize, usize) + Sync);

/// [`scan`], saying how far it is: per file while parsing, then the linking phase.
pub fn scan_reporting(
    files: &[SourceFile],
    settings: &ScanSettings,
    report: Report<'_>,
) -> ScanResult {
    let total = files.len();
    let started = std::time::Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    report("parsing", 0, total);
    let indexes: Vec<Arc<FileIndex>> = files
        .par_iter()
        .map(|f| {
            let index = Arc::new(index_file(f, settings));
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            report("parsing", n, total);
            index
        })
        .collect();
    link_indexed(indexes, settings, started.elapsed(), report)
}

/// Only parses (no folding, no index): the baseline the benchmark compares against.
pub fn parse_only(file: &SourceFile) -> bool {
    syntax::parse::parse(file.text.as_bytes()).is_some()
}
