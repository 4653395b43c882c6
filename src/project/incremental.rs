//! What an edit re-does: each file's scanner index kept with the text it was made
//! from, so that an analysis re-indexes only the files whose text changed (item by
//! item, from their last parse) and re-links only what the edit can change, with a
//! file that makes the scanner panic left out and reported.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::{self, Analysis};
use crate::infer;
use crate::model::import;
use crate::model::Model;
use crate::rules::RuleSelection;
use crate::scanner::{self, FileIndex, LastParse, LinkState, ScanSettings};
use crate::source::{FilePath, SourceFile};

use super::guard::{self, panic_message, Crash};
use super::{Cancel, FileHook, Project};

/// Each file's index with the text it was made from, in the order of the files
/// analysed (by path): a run over the same files finds each at its own position,
/// without hashing every path.
#[derive(Default)]
pub(super) struct Indexes {
    entries: Vec<Indexed>,
    /// Which analysis made them (counted from 1).
    pub(super) run: u64,
}

struct Indexed {
    path: FilePath,
    text: Arc<str>,
    index: Arc<FileIndex>,
}

impl Indexes {
    fn push(&mut self, f: &SourceFile, index: Arc<FileIndex>) {
        self.entries.push(Indexed {
            path: f.path.clone(),
            text: Arc::clone(&f.text),
            index,
        });
    }

    /// Whether `files` are exactly the files indexed, in the same order.
    fn same_paths(&self, files: &[SourceFile]) -> bool {
        self.entries.len() == files.len()
            && self
                .entries
                .iter()
                .zip(files)
                .all(|(e, f)| Arc::ptr_eq(&e.path, &f.path) || e.path == f.path)
    }

    /// The entry of `path`, which the `i`-th file usually is.
    fn get(&self, i: usize, path: &FilePath) -> Option<&Indexed> {
        // A file from disk shares its path with its entry; else equal bytes are an
        // equal path. `Path`'s own `==` walks the components, which was a noticeable
        // part of a keystroke over a large workspace's files.
        match self.entries.get(i) {
            Some(e)
                if Arc::ptr_eq(&e.path, path)
                    || e.path.as_os_str() == path.as_os_str()
                    || *e.path == **path =>
            {
                Some(e)
            }
            _ => self.find(path),
        }
    }

    fn find(&self, path: &Path) -> Option<&Indexed> {
        let i = self
            .entries
            .binary_search_by(|e| (*e.path).cmp(path))
            .ok()?;
        self.entries.get(i)
    }
}

/// What `Project::analyze_incrementally` makes: the analysis, the files that
/// crashed, the inferred model (without a `dynalint.toml`), and the positions of the
/// files whose text changed (when the files are the last run's).
type Incremental = (
    Analysis,
    Vec<Crash>,
    Option<infer::Inferred>,
    Option<Vec<usize>>,
);

impl Project {
    /// Indexes the files whose text changed since the last run (each behind
    /// `catch_unwind`: a file that makes the scanner panic is left out and reported),
    /// then links every index and runs the rules. Should the cross-file phase panic,
    /// the files are analysed again from scratch with the culprit isolated.
    ///
    /// Also returns, when `files` are the paths of the last run's files (in order),
    /// the positions of those whose text changed; `None` when cancelled after the
    /// index or the link (the indexes kept are those of the texts indexed).
    pub(super) fn analyze_incrementally(
        &mut self,
        model: &Model,
        files: &[SourceFile],
        hook: Option<&FileHook>,
        cancel: &Cancel,
    ) -> Option<Incremental> {
        let settings = ScanSettings::from_model(model);
        let key = (settings.hot_paths.clone(), settings.cold_paths.clone());
        if self.live.indexed_with.as_ref() != Some(&key) {
            // Runs keep counting: `snapshot_files_of` names one.
            self.live.indexes = Indexes {
                entries: Vec::new(),
                run: self.live.indexes.run,
            };
            self.live.parses.clear();
            self.live.indexed_with = Some(key);
        }
        // The parses are taken, not lent: an edited file's re-index moves the items
        // its last index kept instead of copying them (see `scanner::LastParse`).
        let parses = std::sync::Mutex::new(std::mem::take(&mut self.live.parses));
        let cache = &self.live.indexes;
        let same_paths = cache.same_paths(files);
        type Made = (Arc<FileIndex>, Option<LastParse>);
        let indexed: Vec<Result<Made, String>> = files
            .par_iter()
            .enumerate()
            .map(|(i, f)| {
                let before = cache.get(i, &f.path);
                if let Some(e) = before {
                    if Arc::ptr_eq(&e.text, &f.text) || *e.text == *f.text {
                        return Ok((Arc::clone(&e.index), None));
                    }
                }
                catch_unwind(AssertUnwindSafe(|| {
                    if let Some(hook) = hook {
                        hook(f);
                    }
                    // A file indexed before is being edited: its parse is kept for
                    // the next edit to reuse.
                    if before.is_some() {
                        let last = parses.lock().ok().and_then(|mut p| p.remove(&f.path));
                        let (index, parse) = scanner::index_file_again(f, &settings, last);
                        (Arc::new(index), parse)
                    } else {
                        (Arc::new(scanner::index_file(f, &settings)), None)
                    }
                }))
                .map_err(|p| panic_message(p.as_ref()))
            })
            .collect();
        let mut crashed = Vec::new();
        let mut indexes = Vec::with_capacity(files.len());
        let mut parsed: HashMap<FilePath, LastParse> = HashMap::new();
        let mut changed = Vec::new();
        for (i, (f, r)) in files.iter().zip(&indexed).enumerate() {
            let unchanged = same_paths
                && self
                    .live
                    .indexes
                    .get(i, &f.path)
                    .is_some_and(|e| Arc::ptr_eq(&e.text, &f.text));
            if !unchanged {
                changed.push(i);
            }
            if let Err(message) = r {
                crashed.push(Crash {
                    file: f.path.clone(),
                    message: message.clone(),
                });
            }
        }
        // The parses of files edited before and unchanged since stay valid; a few
        // files' are kept (compared before the entries are brought up to date below).
        const KEPT_PARSES: usize = 8;
        let fresh_parses = indexed
            .iter()
            .filter(|r| matches!(r, Ok((_, Some(_)))))
            .count();
        if fresh_parses < KEPT_PARSES {
            let left = parses
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for (path, p) in left {
                let now = files
                    .binary_search_by(|f| (*f.path).cmp(&path))
                    .ok()
                    .and_then(|i| Some((i, indexed.get(i)?.as_ref().ok()?)));
                let unchanged = now.is_some_and(|(i, (index, _))| {
                    self.live
                        .indexes
                        .get(i, &path)
                        .is_some_and(|e| Arc::ptr_eq(&e.index, index))
                });
                if unchanged && parsed.len() + fresh_parses < KEPT_PARSES {
                    parsed.entry(path).or_insert(p);
                }
            }
        }
        // The same files as last time, none crashed (most keystrokes): the entries are
        // brought up to date in place, touching only the edited files' (making the list
        // again counted every file's path, text and index in and out).
        let in_place = same_paths && crashed.is_empty();
        if !in_place {
            self.live.indexes.entries.clear();
        }
        self.live.indexes.run += 1;
        for (i, (f, r)) in files.iter().zip(indexed).enumerate() {
            let Ok((index, parse)) = r else { continue };
            if let Some(p) = parse {
                parsed.insert(f.path.clone(), p);
            }
            if !in_place {
                self.live.indexes.push(f, Arc::clone(&index));
            } else if let Some(e) = self.live.indexes.entries.get_mut(i) {
                if !Arc::ptr_eq(&e.index, &index) {
                    *e = Indexed {
                        path: f.path.clone(),
                        text: Arc::clone(&f.text),
                        index: Arc::clone(&index),
                    };
                } else if !Arc::ptr_eq(&e.text, &f.text) {
                    // Same index, text equal but another copy (a document reopened).
                    e.text = Arc::clone(&f.text);
                }
            }
            indexes.push(index);
        }
        self.live.parses = parsed;
        if cancel.is_cancelled() {
            return None;
        }
        // Every file but those that crashed: without a crash, `files` themselves.
        let healthy_owned: Vec<SourceFile>;
        let healthy_files: &[SourceFile] = if crashed.is_empty() {
            files
        } else {
            let out: std::collections::HashSet<&Path> = crashed.iter().map(|c| &*c.file).collect();
            healthy_owned = files
                .iter()
                .filter(|f| !out.contains(&*f.path))
                .cloned()
                .collect();
            &healthy_owned
        };
        let selection = RuleSelection::default();
        let depth = self.reach().max_depth();
        let rule_cache = &mut self.live.rule_cache;
        let link_state = &mut self.live.link_state;
        let root = self.root.clone();
        let imported = match (&self.live.imported, self.live.inferred) {
            (Some(i), true) => Some(i.clone()),
            (None, true) => {
                let i = import::discover_to(&root, depth);
                self.live.imported = Some(i.clone());
                Some(i)
            }
            (_, false) => None,
        };
        let linked = catch_unwind(AssertUnwindSafe(|| {
            let scanned = link_state.link(&indexes, &settings);
            // The link lent its operations to `scanned`: dropped, the next link is whole.
            if cancel.is_cancelled() {
                return None;
            }
            Some(match imported {
                Some(imported) => {
                    let inf = infer::infer_with(
                        &root,
                        imported,
                        &scanned.tables,
                        &scanned.operations,
                        healthy_files,
                    );
                    let input = analysis::Input {
                        other_languages: &self.other_languages,
                        ..analysis::Input::new(&inf.model, healthy_files, &selection)
                    };
                    let a = analysis::analyze(input, scanned, Some(rule_cache));
                    (a, Some(inf))
                }
                None => {
                    let input = analysis::Input {
                        other_languages: &self.other_languages,
                        ..analysis::Input::new(model, healthy_files, &selection)
                    };
                    (analysis::analyze(input, scanned, Some(rule_cache)), None)
                }
            })
        }));
        // A crash leaves a file out of the indexes: their paths are no longer the files'.
        let changed = (same_paths && crashed.is_empty()).then_some(changed);
        match linked {
            Ok(Some((a, inferred))) => Some((a, crashed, inferred, changed)),
            Ok(None) => None,
            Err(_) => {
                // Whatever the panic left half-done is not reused.
                self.live.link_state = LinkState::new();
                let run = |fs: &[SourceFile]| {
                    let scanned = scanner::scan(fs, &ScanSettings::from_model(model));
                    analysis::analyze(analysis::Input::new(model, fs, &selection), scanned, None)
                };
                let g = guard::analyze_guarded(healthy_files, &run);
                crashed.extend(g.crashed);
                Some((g.analysis, crashed, None, None))
            }
        }
    }
}
