//! One dynalint project: a folder with a `dynalint.toml`, its model, its source files
//! as on disk, and the last analysis of them (with the editor's open documents laid
//! over the disk). A folder without one is a project too: its model is inferred from
//! its templates and `create_table` calls on every analysis (`infer`), until a
//! `dynalint.toml` appears where `config_path` says.

use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::GlobSet;
use rayon::prelude::*;

use crate::analysis::{self, Analysis, RuleCache};
use crate::infer;
use crate::model::import::{self, Imported};
use crate::model::{self, Model, ModelProblem};
use crate::project::{Cancel, ProjectError};
use crate::rules::RuleSelection;
use crate::scanner::{self, FileIndex, LastParse, LinkState, ScanSettings};
use crate::source::{FilePath, SourceFile};
use crate::workspace;

use super::guard::{self, panic_message, Crash};

/// A hook run on every file before analysis; tests use it to inject a panic.
pub type FileHook = dyn Fn(&SourceFile) + Send + Sync;

/// A project and what the server knows of it.
pub struct Project {
    /// The canonical path of its `dynalint.toml`.
    pub config_path: PathBuf,
    /// The folder of `dynalint.toml`: the root of the source walk.
    pub root: PathBuf,
    /// The model last loaded without problems; kept while the file is being edited
    /// into a broken state, so Rust files keep their findings meanwhile.
    pub model: Option<Model>,
    /// The text of `dynalint.toml` as last loaded (positions of model problems).
    pub config: SourceFile,
    /// Problems of the last load; empty when it loaded.
    pub model_problems: Vec<ModelProblem>,
    /// No `dynalint.toml` exists at `config_path`: the model is inferred.
    pub inferred: bool,
    /// The templates found under the root, read once until a file that may be one
    /// changes (the server watches their extensions).
    imported: Option<Imported>,
    /// `.rs` files of the project as on disk; `None` until first walked. Whatever
    /// changes it drops `laid`.
    disk: Option<BTreeMap<PathBuf, SourceFile>>,
    /// The last analysis's files: `disk` with the open documents laid over it.
    laid: Option<Laid>,
    /// Sources in other languages that name DynamoDB, found by the same walk.
    other_languages: Vec<workspace::OtherSources>,
    exclude: GlobSet,
    /// The last analysis, and the texts it saw; shared with the session, which
    /// answers requests from it while the next analysis runs on a worker.
    pub snapshot: Option<Arc<Snapshot>>,
    /// Each file's scanner index with the text it was made from: an edit re-indexes
    /// one file, and only the cross-file link runs over all of them.
    indexes: Indexes,
    /// The last parse of each file being edited (a few), which the next edit's parse
    /// reuses.
    parses: HashMap<FilePath, LastParse>,
    /// The run of the indexes (`Indexes::run`) whose files, and the model's text,
    /// are exactly the snapshot's `files`: the next run over the same files only
    /// replaces the edited ones.
    snapshot_files_of: Option<u64>,
    /// The settings the indexes were made with; other settings invalidate them.
    indexed_with: Option<(Vec<String>, Vec<String>)>,
    /// Rule findings of unchanged calls, reused across runs.
    rule_cache: RuleCache,
    /// The last link, reused when an edit leaves what a file offers the others as
    /// it was (see `scanner::LinkState`).
    link_state: LinkState,
}

/// Each file's index with the text it was made from, in the order of the files
/// analysed (by path): a run over the same files finds each at its own position,
/// without hashing every path.
#[derive(Default)]
struct Indexes {
    entries: Vec<Indexed>,
    /// Which analysis made them (counted from 1).
    run: u64,
}

struct Indexed {
    path: FilePath,
    text: Arc<str>,
    index: Arc<FileIndex>,
}

/// The files an analysis saw: the disk's, in path order, with the open documents
/// laid over them at `over` (`None` when one is not on disk: the list is then made
/// again next time).
struct Laid {
    files: Vec<SourceFile>,
    over: Option<Vec<usize>>,
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

/// The result of one analysis of a project.
pub struct Snapshot {
    pub analysis: Analysis,
    /// Without a `dynalint.toml`: what inferring the model could not use (a template
    /// that does not read, a `create_table` skipped), shown where it is.
    pub model_notes: Vec<infer::InferNote>,
    /// Every file the analysis saw, by path: spans in `analysis` index into these.
    pub files: HashMap<FilePath, SourceFile>,
    pub crashed: Vec<Crash>,
}

impl Snapshot {
    /// The analysed text of a file.
    pub fn file(&self, path: &Path) -> Option<&SourceFile> {
        self.files.get(path)
    }
}

impl Project {
    /// A project for `config_path`, with its model loaded from `text` (an open
    /// document) or from disk. Source files are read on first analysis.
    pub fn new(config_path: PathBuf, text: Option<&str>) -> Self {
        let root = config_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut p = Self {
            config: SourceFile::new(config_path.clone(), ""),
            config_path,
            root,
            model: None,
            model_problems: Vec::new(),
            inferred: false,
            imported: None,
            disk: None,
            laid: None,
            other_languages: Vec::new(),
            exclude: GlobSet::empty(),
            snapshot: None,
            indexes: Indexes::default(),
            snapshot_files_of: None,
            parses: HashMap::new(),
            indexed_with: None,
            rule_cache: RuleCache::new(),
            link_state: LinkState::new(),
        };
        p.reload_model(text);
        p
    }

    /// Loads the model again, from `text` when the file is open, else from disk.
    /// Returns true when `[lint]` changed (the walk must be redone).
    pub fn reload_model(&mut self, text: Option<&str>) -> bool {
        self.inferred = text.is_none() && !self.config_path.exists();
        if self.inferred {
            // Inferred on each analysis; `[lint]` is the default.
            self.model_problems.clear();
            self.config = SourceFile::new(self.config_path.clone(), "");
            let was_file = self
                .model
                .take()
                .is_some_and(|m| m.lint != Default::default());
            if was_file {
                self.exclude = GlobSet::empty();
                self.disk = None;
                self.laid = None;
            }
            return was_file;
        }
        let text = match text {
            Some(t) => t.to_string(),
            None => match std::fs::read_to_string(&self.config_path) {
                Ok(t) => t,
                Err(e) => {
                    self.config = SourceFile::new(self.config_path.clone(), "");
                    self.model_problems = vec![ModelProblem::new(
                        Default::default(),
                        format!("cannot read `{}`: {e}", self.config_path.display()),
                    )];
                    return false;
                }
            },
        };
        self.config = SourceFile::new(self.config_path.clone(), text);
        match model::load_str(&self.config_path, &self.config.text) {
            Ok(m) => {
                self.model_problems.clear();
                let lint_changed = self.model.as_ref().is_none_or(|old| old.lint != m.lint);
                if lint_changed {
                    self.exclude = workspace::glob_set("exclude", &m.lint.exclude)
                        .unwrap_or_else(|_| GlobSet::empty());
                    self.disk = None;
                    self.laid = None;
                }
                self.model = Some(m);
                lint_changed
            }
            Err(problems) => {
                self.model_problems = problems;
                false
            }
        }
    }

    /// Whether the last analysis reused the link before it (one file changed, and
    /// not what it offers the others).
    pub fn link_was_incremental(&self) -> bool {
        self.link_state.was_incremental()
    }

    /// True when `path` is a `.rs` file this project checks.
    pub fn contains_source(&self, path: &Path) -> bool {
        let deep_enough = |rel: &Path| {
            self.reach()
                .max_depth()
                .is_none_or(|d| rel.components().count() <= d)
        };
        path.extension().is_some_and(|e| e == "rs")
            && path
                .strip_prefix(&self.root)
                .is_ok_and(|rel| deep_enough(rel) && !self.exclude.is_match(rel))
    }

    /// How much of its folder the project holds: all of it with a `dynalint.toml`,
    /// else as `workspace::reach_of` says (a loose file's folder is not walked down).
    fn reach(&self) -> workspace::Reach {
        match self.inferred {
            true => workspace::reach_of(&self.root),
            false => workspace::Reach::Tree,
        }
    }

    /// Forgets what is known of a file on disk and reads it again (created, changed
    /// or deleted outside the editor).
    pub fn refresh_disk_file(&mut self, path: &Path) {
        let fresh = self
            .contains_source(path)
            .then(|| workspace::read_source(path).ok())
            .flatten();
        self.laid = None;
        let Some(disk) = &mut self.disk else { return };
        disk.remove(path);
        if let Some(f) = fresh {
            disk.insert(path.to_path_buf(), f);
        }
    }

    /// Walks the project again on next analysis (a folder changed wholesale, or a
    /// file that is not Rust: a `Cargo.toml` changes which crates see which, so the
    /// next link is a whole one, reading the manifests again).
    pub fn forget_disk(&mut self) {
        self.disk = None;
        self.laid = None;
        self.imported = None;
        self.link_state = LinkState::new();
    }

    /// Reads the templates again on next analysis (one changed, was added or removed);
    /// true when the model is inferred, so the change can matter.
    pub fn forget_templates(&mut self) -> bool {
        self.imported = None;
        self.inferred
    }

    /// Reads every source file when not yet done; returns notes about skipped files.
    fn ensure_disk(&mut self) -> Vec<String> {
        if self.disk.is_some() {
            return Vec::new();
        }
        let exclude = self
            .model
            .as_ref()
            .map(|m| m.lint.exclude.clone())
            .unwrap_or_default();
        let mut notes = Vec::new();
        let sources = match workspace::collect_sources_within(
            std::slice::from_ref(&self.root),
            &self.root,
            &exclude,
            self.reach(),
            None,
        ) {
            Ok(s) => s,
            Err(e) => {
                notes.push(e.to_string());
                Default::default()
            }
        };
        notes.extend(
            sources
                .notes
                .iter()
                .map(|n| format!("{}: {}", n.path.display(), n.message)),
        );
        self.other_languages = sources.other_languages;
        self.laid = None;
        self.disk = Some(
            sources
                .files
                .into_iter()
                .map(|f| (f.path.to_path_buf(), f))
                .collect(),
        );
        notes
    }

    /// Analyses the project with `open` documents over the disk, keeps the result as
    /// the snapshot, and returns notes worth logging.
    pub fn analyze(&mut self, open: &[&SourceFile], hook: Option<&FileHook>) -> Vec<String> {
        self.analyze_until(open, hook, &Cancel::new())
            .unwrap_or_default()
    }

    /// [`Project::analyze`], stopping with [`ProjectError::Cancelled`] between its
    /// phases (the walk, the index, the link) once `cancel` is raised: a newer edit
    /// makes this analysis's answer useless. A cancelled analysis leaves no snapshot
    /// (the next one makes its own) and every cache consistent.
    pub fn analyze_until(
        &mut self,
        open: &[&SourceFile],
        hook: Option<&FileHook>,
        cancel: &Cancel,
    ) -> Result<Vec<String>, ProjectError> {
        cancel.check()?;
        let mut notes = self.ensure_disk();
        cancel.check()?;
        let had_model = self.model.is_some();
        let placeholder = self
            .inferred
            .then(|| Model::empty(Arc::from(self.config_path.as_path())));
        let Some(model) = self.model.take().or(placeholder) else {
            // No model ever loaded: nothing can be bound, and the model problems say why.
            self.snapshot_files_of = None;
            self.snapshot = Some(Arc::new(Snapshot {
                analysis: Analysis::default(),
                model_notes: Vec::new(),
                files: HashMap::new(),
                crashed: Vec::new(),
            }));
            return Ok(notes);
        };
        let laid = self.lay_files(open);
        let files = &laid.files;
        // The last link lent its operations to the snapshot: the link keeps them for
        // the next one (the snapshot is replaced below).
        // (A copy when the session still shows the snapshot, as it does while this
        // runs on a worker.)
        if let Some(s) = &mut self.snapshot {
            let operations = match Arc::get_mut(s) {
                Some(s) => std::mem::take(&mut s.analysis.operations),
                None => s.analysis.operations.clone(),
            };
            self.link_state.give_back(operations);
        }
        // The last snapshot's texts by path, brought up to date below when the files
        // are the same but for the edited ones (most keystrokes).
        let last_files = self
            .snapshot
            .take()
            .filter(|_| self.snapshot_files_of == Some(self.indexes.run))
            .map(|s| Arc::try_unwrap(s).map_or_else(|s| s.files.clone(), |s| s.files));
        self.snapshot_files_of = None;
        let Some((analysis, crashed, inferred, changed)) =
            self.analyze_incrementally(&model, files, hook, cancel)
        else {
            // What was taken goes back; the laid files are those the indexes saw.
            self.model = had_model.then_some(model);
            self.laid = Some(laid);
            return Err(ProjectError::Cancelled);
        };
        let (inferred, model_notes, templates) = match inferred {
            Some(i) => (Some(i.model), i.located, i.files),
            None => (None, Vec::new(), Vec::new()),
        };
        self.model = Some(inferred.unwrap_or(model));
        let guarded = guard::Guarded { analysis, crashed };
        for c in &guarded.crashed {
            notes.push(format!(
                "analysis of {} panicked and was skipped: {}",
                c.file.display(),
                c.message
            ));
        }
        // Only the edited files' texts change when the files are the same as last time
        // (the model's text is put in again below); templates come and go with an
        // inferred model, whose map is made again each time.
        let mut files: HashMap<FilePath, SourceFile> = match (last_files, changed) {
            (Some(mut last), Some(changed)) if !self.inferred => {
                for i in changed {
                    if let Some(f) = files.get(i) {
                        last.insert(f.path.clone(), f.clone());
                    }
                }
                last
            }
            _ => files.iter().map(|f| (f.path.clone(), f.clone())).collect(),
        };
        self.laid = Some(laid);
        if !self.inferred {
            self.snapshot_files_of = Some(self.indexes.run);
        }
        // Rules may point into the model (labels on a table's declaration).
        files.insert(self.config.path.clone(), self.config.clone());
        // An inferred model's are its templates: findings and notes point into them.
        let noted = model_notes.iter().map(|n| n.file.clone());
        for t in templates.into_iter().chain(noted) {
            if files.contains_key(t.as_path()) {
                continue;
            }
            // Decoded as importing read it (a UTF-16 template too): spans agree.
            if let Ok(text) = crate::encoding::read_to_string(&t) {
                let f = SourceFile::new(t, text);
                files.insert(f.path.clone(), f);
            }
        }
        self.snapshot = Some(Arc::new(Snapshot {
            analysis: guarded.analysis,
            model_notes,
            files,
            crashed: guarded.crashed,
        }));
        Ok(notes)
    }

    /// The files to analyse, by path as the disk map is: the open documents laid over
    /// it. The last analysis's list is brought up to date when it can be (the disk's
    /// texts put back where documents were, these laid instead): made again, it was
    /// a copy of every file's path and text, and their drop, on each keystroke.
    fn lay_files(&mut self, open: &[&SourceFile]) -> Laid {
        let open: Vec<&SourceFile> = (open.iter().copied())
            .filter(|f| self.contains_source(&f.path))
            .collect();
        if let (Some(mut laid), Some(disk)) = (self.laid.take(), &self.disk) {
            let mut fits = laid.over.is_some();
            for i in laid.over.take().into_iter().flatten() {
                let back = (laid.files.get(i)).and_then(|f| disk.get(&*f.path));
                match (back, laid.files.get_mut(i)) {
                    (Some(d), Some(slot)) => *slot = d.clone(),
                    _ => fits = false,
                }
            }
            let mut over = Vec::with_capacity(open.len());
            for f in &open {
                match laid.files.binary_search_by(|g| (*g.path).cmp(&*f.path)) {
                    Ok(i) => {
                        if let Some(slot) = laid.files.get_mut(i) {
                            *slot = (*f).clone();
                            over.push(i);
                        }
                    }
                    // A document the disk does not have: the list is made again.
                    Err(_) => fits = false,
                }
            }
            if fits {
                laid.over = Some(over);
                return laid;
            }
        }
        let mut files: Vec<SourceFile> =
            self.disk.iter().flatten().map(|(_, f)| f.clone()).collect();
        let mut over = Some(Vec::with_capacity(open.len()));
        for f in open {
            match files.binary_search_by(|g| (*g.path).cmp(&*f.path)) {
                Ok(i) => {
                    files[i] = f.clone();
                    if let Some(o) = &mut over {
                        o.push(i);
                    }
                }
                Err(i) => {
                    files.insert(i, f.clone());
                    // The positions moved, and the list has a file the disk does not.
                    over = None;
                }
            }
        }
        Laid { files, over }
    }

    /// Indexes the files whose text changed since the last run (each behind
    /// `catch_unwind`: a file that makes the scanner panic is left out and reported),
    /// then links every index and runs the rules. Should the cross-file phase panic,
    /// the files are analysed again from scratch with the culprit isolated.
    ///
    /// Also returns, when `files` are the paths of the last run's files (in order),
    /// the positions of those whose text changed; `None` when cancelled after the
    /// index or the link (the indexes kept are those of the texts indexed).
    fn analyze_incrementally(
        &mut self,
        model: &Model,
        files: &[SourceFile],
        hook: Option<&FileHook>,
        cancel: &Cancel,
    ) -> Option<Incremental> {
        let settings = ScanSettings::from_model(model);
        let key = (settings.hot_paths.clone(), settings.cold_paths.clone());
        if self.indexed_with.as_ref() != Some(&key) {
            // Runs keep counting: `snapshot_files_of` names one.
            self.indexes = Indexes {
                entries: Vec::new(),
                run: self.indexes.run,
            };
            self.parses.clear();
            self.indexed_with = Some(key);
        }
        // The parses are taken, not lent: an edited file's re-index moves the items
        // its last index kept instead of copying them (see `scanner::LastParse`).
        let parses = std::sync::Mutex::new(std::mem::take(&mut self.parses));
        let cache = &self.indexes;
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
                    self.indexes
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
            self.indexes.entries.clear();
        }
        self.indexes.run += 1;
        for (i, (f, r)) in files.iter().zip(indexed).enumerate() {
            let Ok((index, parse)) = r else { continue };
            if let Some(p) = parse {
                parsed.insert(f.path.clone(), p);
            }
            if !in_place {
                self.indexes.push(f, Arc::clone(&index));
            } else if let Some(e) = self.indexes.entries.get_mut(i) {
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
        self.parses = parsed;
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
        let rule_cache = &mut self.rule_cache;
        let link_state = &mut self.link_state;
        let root = self.root.clone();
        let imported = match (&self.imported, self.inferred) {
            (Some(i), true) => Some(i.clone()),
            (None, true) => {
                let i = import::discover_to(&root, depth);
                self.imported = Some(i.clone());
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
                self.link_state = LinkState::new();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture_project() -> Project {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp");
        let config = std::fs::canonicalize(root.join("dynalint.toml")).unwrap();
        Project::new(config, None)
    }

    fn full(project: &Project, open: &[&SourceFile]) -> Vec<(PathBuf, usize, &'static str)> {
        let mut files: BTreeMap<PathBuf, SourceFile> = project
            .disk
            .iter()
            .flatten()
            .map(|(p, f)| (p.clone(), f.clone()))
            .collect();
        for f in open {
            files.insert(f.path.to_path_buf(), (*f).clone());
        }
        let files: Vec<SourceFile> = files.into_values().collect();
        let model = project.model.as_ref().unwrap();
        let scanned = scanner::scan(&files, &ScanSettings::from_model(model));
        let selection = RuleSelection::default();
        key(&analysis::analyze(
            analysis::Input::new(model, &files, &selection),
            scanned,
            None,
        ))
    }

    fn key(a: &Analysis) -> Vec<(PathBuf, usize, &'static str)> {
        a.diagnostics
            .iter()
            .map(|d| (d.location.file.to_path_buf(), d.location.span.start, d.rule))
            .collect()
    }

    /// The rules of the project's current findings.
    fn rule_ids(p: &Project) -> Vec<&'static str> {
        let snapshot = p.snapshot.as_ref().expect("the project was analysed");
        snapshot
            .analysis
            .diagnostics
            .iter()
            .map(|d| d.rule)
            .collect()
    }

    #[test]
    fn without_a_dynalint_toml_the_model_is_inferred_until_one_appears() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_no-model/sam-handler");
        std::fs::create_dir_all(root.join("src")).unwrap();
        for f in ["template.yaml", "src/main.rs"] {
            std::fs::copy(fixture.join(f), root.join(f)).unwrap();
        }
        // A crate: a folder with no manifest would be a loose file's, not walked down.
        std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"orders\"\n").unwrap();
        let mut p = Project::new(root.join("dynalint.toml"), None);
        assert!(p.inferred && p.model_problems.is_empty());
        p.analyze(&[], None);
        let rules = rule_ids(&p);
        assert!(rules.contains(&"rejected-request"), "{rules:?}");
        let model = p.model.as_ref().unwrap();
        assert_eq!(model.tables.len(), 1);
        assert_eq!(model.tables[0].name, "{Stage}-orders");

        // A `dynalint.toml` that declares no table: the template no longer counts.
        std::fs::write(root.join("dynalint.toml"), "[lint]\n").unwrap();
        p.reload_model(None);
        assert!(!p.inferred);
        p.analyze(&[], None);
        let rules = rule_ids(&p);
        assert!(!rules.contains(&"rejected-request"), "{rules:?}");
    }

    /// What inference could not use is kept with its place, and the files it is in
    /// are in the snapshot, so the editor can show each note where it is.
    #[test]
    fn inference_notes_are_kept_with_their_files() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"setup\"\n").unwrap();
        std::fs::write(
            root.join("src/lib.rs"),
            "async fn setup(c: &Client, names: &Names) {\n    c.create_table().table_name(names.pick()).send().await;\n}\n",
        )
        .unwrap();
        std::fs::write(
            root.join("template.yaml"),
            "AWSTemplateFormatVersion: '2010-09-09'\nResources: [Type: AWS::DynamoDB::Table\n",
        )
        .unwrap();
        let mut p = Project::new(root.join("dynalint.toml"), None);
        p.analyze(&[], None);
        let snap = p.snapshot.as_ref().unwrap();
        let on = |f: &str| {
            snap.model_notes
                .iter()
                .filter(|n| n.file == root.join(f))
                .map(|n| (n.line, n.message.clone()))
                .collect::<Vec<_>>()
        };
        let code = on("src/lib.rs");
        assert_eq!(code.len(), 1, "{:?}", snap.model_notes);
        assert_eq!(code[0].0, 2);
        assert!(code[0].1.contains("`create_table` is skipped"), "{code:?}");
        assert_eq!(on("template.yaml").len(), 1, "{:?}", snap.model_notes);
        assert!(snap.file(&root.join("template.yaml")).is_some());
        let d = super::super::convert::inference_note(
            &snap.model_notes[0],
            snap.file(&snap.model_notes[0].file).unwrap(),
        );
        assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::INFORMATION));
    }

    #[test]
    fn incremental_analysis_matches_a_full_one_after_edits() {
        let mut p = fixture_project();
        p.analyze(&[], None);
        let first = key(&p.snapshot.as_ref().unwrap().analysis);
        assert!(first.iter().any(|d| d.2 == "scan-in-hot-path"), "{first:?}");
        assert_eq!(first, full(&p, &[]));

        // Unroute the handler in another file: only main.rs is re-indexed, and the
        // hot finding in repo.rs goes, exactly as a full analysis says.
        let main = p.root.join("src/main.rs");
        let text = std::fs::read_to_string(&main)
            .unwrap()
            .replace("get(handlers::list_posts)", "get(|| async { \"ok\" })");
        let edited = SourceFile::new(main, text);
        p.analyze(&[&edited], None);
        let second = key(&p.snapshot.as_ref().unwrap().analysis);
        assert_ne!(first, second);
        assert_eq!(second, full(&p, &[&edited]));

        // Back to the disk text: the cached indexes give the first result again.
        p.analyze(&[], None);
        assert_eq!(key(&p.snapshot.as_ref().unwrap().analysis), first);
    }

    /// The files an analysis sees, brought up to date from the last analysis's list,
    /// are those made afresh from the disk and the open documents, whichever
    /// documents come and go (one the disk does not have among them), and so is the
    /// answer.
    #[test]
    fn the_files_laid_over_the_disk_are_those_made_afresh() {
        let mut p = fixture_project();
        p.analyze(&[], None);
        let main = p.root.join("src/main.rs");
        let repo = p.root.join("src/repo.rs");
        let edit = |path: &Path, tail: &str| {
            let text = std::fs::read_to_string(path).unwrap() + tail;
            SourceFile::new(path.to_path_buf(), text)
        };
        let (m1, r1, m2) = (
            edit(&main, "// a\n"),
            edit(&repo, "// b\n"),
            edit(&main, "// c\n"),
        );
        let new = SourceFile::new(p.root.join("src/new.rs"), "fn f() {}\n");
        let steps: Vec<Vec<&SourceFile>> = vec![
            vec![&m1],
            vec![&m1, &r1],
            vec![&r1],
            vec![&new, &r1],
            vec![&m2],
            vec![],
            vec![&m2, &r1],
        ];
        for open in steps {
            p.analyze(&open, None);
            let mut fresh: BTreeMap<PathBuf, String> = (p.disk.iter().flatten())
                .map(|(path, f)| (path.clone(), f.text.to_string()))
                .collect();
            for f in &open {
                fresh.insert(f.path.to_path_buf(), f.text.to_string());
            }
            let laid: Vec<(PathBuf, String)> = (p.laid.as_ref().unwrap().files.iter())
                .map(|f| (f.path.to_path_buf(), f.text.to_string()))
                .collect();
            assert_eq!(laid, fresh.into_iter().collect::<Vec<_>>());
            let analysis = &p.snapshot.as_ref().unwrap().analysis;
            assert_eq!(key(analysis), full(&p, &open));
        }
    }

    /// An edited file's re-index takes its last parse (moving the items it keeps)
    /// and leaves this version's in its place: every keystroke after the first keeps
    /// items, and the answer is a full analysis's each time.
    #[test]
    fn each_edit_leaves_its_parse_for_the_next() {
        let mut p = fixture_project();
        p.analyze(&[], None);
        let repo = p.root.join("src/repo.rs");
        let mut text = std::fs::read_to_string(&repo).unwrap();
        for n in 0..4 {
            text.push_str(&format!("// edit {n}\n"));
            let edited = SourceFile::new(repo.clone(), text.clone());
            p.analyze(&[&edited], None);
            let analysis = &p.snapshot.as_ref().unwrap().analysis;
            assert_eq!(key(analysis), full(&p, &[&edited]));
            let kept = p
                .parses
                .iter()
                .find(|(path, _)| ***path == *repo)
                .and_then(|(_, parse)| parse.items_kept());
            if n == 0 {
                assert_eq!(kept, Some(0));
            } else {
                assert!(kept.is_some_and(|k| k > 0), "edit {n}: {kept:?}");
            }
        }
    }
}
