//! A project an editor holds: its `dynalint.toml` followed as it is edited (the model
//! last loaded without problems kept meanwhile, so Rust files keep their findings), its
//! source files as on disk with the open documents laid over them, and the last
//! analysis, made again after each change re-indexing only the edited files
//! (`incremental.rs`). A folder without a `dynalint.toml` is a project too: its model
//! is inferred from its templates and `create_table` calls on every analysis, until a
//! `dynalint.toml` appears where `config_path` says.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::GlobSet;

use crate::analysis::{Analysis, RuleCache};
use crate::infer::ModelSource;
use crate::model::import::Imported;
use crate::model::{self, Model, ModelProblem};
use crate::scanner::{LastParse, LinkState};
use crate::source::{FilePath, SourceFile};
use crate::workspace;

use super::guard;
use super::incremental::Indexes;
use super::{Cancel, Project, ProjectError, Snapshot};

/// A hook run on every file before analysis; tests use it to inject a panic.
pub type FileHook = dyn Fn(&SourceFile) + Send + Sync;

/// What a project an editor holds keeps between analyses (empty for one the CLI
/// opened, which is analysed once).
pub(super) struct Live {
    /// The canonical path of its `dynalint.toml`.
    pub(super) config_path: PathBuf,
    /// The text of `dynalint.toml` as last loaded (positions of model problems).
    pub(super) config: SourceFile,
    /// Problems of the last load; empty when it loaded.
    pub(super) model_problems: Vec<ModelProblem>,
    /// No `dynalint.toml` exists at `config_path`: the model is inferred.
    pub(super) inferred: bool,
    /// The templates found under the root, read once until a file that may be one
    /// changes (the server watches their extensions).
    pub(super) imported: Option<Imported>,
    /// `.rs` files of the project as on disk; `None` until first walked. Whatever
    /// changes it drops `laid`.
    pub(super) disk: Option<BTreeMap<PathBuf, SourceFile>>,
    /// The last analysis's files: `disk` with the open documents laid over it.
    pub(super) laid: Option<Laid>,
    pub(super) exclude: GlobSet,
    /// The last analysis, and the texts it saw; shared with the front end, which
    /// answers requests from it while the next analysis runs on a worker.
    pub(super) snapshot: Option<Arc<Snapshot>>,
    /// Each file's scanner index with the text it was made from: an edit re-indexes
    /// one file, and only the cross-file link runs over all of them.
    pub(super) indexes: Indexes,
    /// The last parse of each file being edited (a few), which the next edit's parse
    /// reuses.
    pub(super) parses: HashMap<FilePath, LastParse>,
    /// The run of the indexes (`Indexes::run`) whose files, and the model's text,
    /// are exactly the snapshot's `files`: the next run over the same files only
    /// replaces the edited ones.
    pub(super) snapshot_files_of: Option<u64>,
    /// The settings the indexes were made with; other settings invalidate them.
    pub(super) indexed_with: Option<(Vec<String>, Vec<String>)>,
    /// Rule findings of unchanged calls, reused across runs.
    pub(super) rule_cache: RuleCache,
    /// The last link, reused when an edit leaves what a file offers the others as
    /// it was (see `scanner::LinkState`).
    pub(super) link_state: LinkState,
}

impl Default for Live {
    fn default() -> Self {
        Self {
            config_path: PathBuf::new(),
            config: SourceFile::new(PathBuf::new(), ""),
            model_problems: Vec::new(),
            inferred: false,
            imported: None,
            disk: None,
            laid: None,
            exclude: GlobSet::empty(),
            snapshot: None,
            indexes: Indexes::default(),
            parses: HashMap::new(),
            snapshot_files_of: None,
            indexed_with: None,
            rule_cache: RuleCache::new(),
            link_state: LinkState::new(),
        }
    }
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("config_path", &self.config_path)
            .field("inferred", &self.inferred)
            .finish_non_exhaustive()
    }
}

/// The files an analysis saw: the disk's, in path order, with the open documents
/// laid over them at `over` (`None` when one is not on disk: the list is then made
/// again next time).
pub(super) struct Laid {
    pub(super) files: Vec<SourceFile>,
    pub(super) over: Option<Vec<usize>>,
}

impl Project {
    /// The project an editor holds for `config_path` (its `dynalint.toml`, which need
    /// not exist: the model is then inferred), with its model loaded from `text` (an
    /// open document) or from disk. Source files are read on first analysis.
    pub fn watched(config_path: PathBuf, text: Option<&str>) -> Self {
        let root = config_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut p = Self::bare(root, Model::empty(Arc::from(config_path.as_path())));
        p.model_loaded = false;
        p.live = Live {
            config: SourceFile::new(config_path.clone(), ""),
            config_path,
            ..Live::default()
        };
        p.reload_model(text);
        p
    }

    /// Loads the model again, from `text` when the file is open, else from disk.
    /// Returns true when `[lint]` changed (the walk must be redone).
    pub fn reload_model(&mut self, text: Option<&str>) -> bool {
        self.live.inferred = text.is_none() && !self.live.config_path.exists();
        if self.live.inferred {
            // Inferred on each analysis; `[lint]` is the default.
            self.live.model_problems.clear();
            self.live.config = SourceFile::new(self.live.config_path.clone(), "");
            let was_file = self.model_loaded && self.model.lint != Default::default();
            self.unload_model();
            if was_file {
                self.live.exclude = GlobSet::empty();
                self.live.disk = None;
                self.live.laid = None;
            }
            return was_file;
        }
        let text = match text {
            Some(t) => t.to_string(),
            None => match std::fs::read_to_string(&self.live.config_path) {
                Ok(t) => t,
                Err(e) => {
                    self.live.config = SourceFile::new(self.live.config_path.clone(), "");
                    self.live.model_problems = vec![ModelProblem::new(
                        Default::default(),
                        format!("cannot read `{}`: {e}", self.live.config_path.display()),
                    )];
                    return false;
                }
            },
        };
        self.live.config = SourceFile::new(self.live.config_path.clone(), text);
        match model::load_str(&self.live.config_path, &self.live.config.text) {
            Ok(m) => {
                self.live.model_problems.clear();
                let lint_changed = !self.model_loaded || self.model.lint != m.lint;
                if lint_changed {
                    self.live.exclude = workspace::glob_set("exclude", &m.lint.exclude)
                        .unwrap_or_else(|_| GlobSet::empty());
                    self.live.disk = None;
                    self.live.laid = None;
                }
                self.source = ModelSource::Config(self.live.config_path.clone());
                self.model = m;
                self.model_loaded = true;
                lint_changed
            }
            Err(problems) => {
                self.live.model_problems = problems;
                false
            }
        }
    }

    /// Whether the last analysis reused the link before it (one file changed, and
    /// not what it offers the others).
    pub fn link_was_incremental(&self) -> bool {
        self.live.link_state.was_incremental()
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
                .is_ok_and(|rel| deep_enough(rel) && !self.live.exclude.is_match(rel))
    }

    /// How much of its folder the project holds: all of it with a `dynalint.toml`,
    /// else as `workspace::reach_of` says (a loose file's folder is not walked down).
    pub(super) fn reach(&self) -> workspace::Reach {
        match self.live.inferred {
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
        self.live.laid = None;
        let Some(disk) = &mut self.live.disk else {
            return;
        };
        disk.remove(path);
        if let Some(f) = fresh {
            disk.insert(path.to_path_buf(), f);
        }
    }

    /// Walks the project again on next analysis (a folder changed wholesale, or a
    /// file that is not Rust: a `Cargo.toml` changes which crates see which, so the
    /// next link is a whole one, reading the manifests again).
    pub fn forget_disk(&mut self) {
        self.live.disk = None;
        self.live.laid = None;
        self.live.imported = None;
        self.live.link_state = LinkState::new();
    }

    /// Reads the templates again on next analysis (one changed, was added or removed);
    /// true when the model is inferred, so the change can matter.
    pub fn forget_templates(&mut self) -> bool {
        self.live.imported = None;
        self.live.inferred
    }

    /// Reads every source file when not yet done; returns notes about skipped files.
    fn ensure_disk(&mut self) -> Vec<String> {
        if self.live.disk.is_some() {
            return Vec::new();
        }
        let exclude = match self.model_loaded {
            true => self.model.lint.exclude.clone(),
            false => Vec::new(),
        };
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
        self.live.laid = None;
        self.live.disk = Some(
            sources
                .files
                .into_iter()
                .map(|f| (f.path.to_path_buf(), f))
                .collect(),
        );
        notes
    }

    /// Analyses the project with the editor's `open` documents laid over the disk,
    /// re-indexing only the files whose text changed since the last analysis and
    /// re-linking only what they can change; keeps the result as the
    /// [`Project::snapshot`] and returns notes worth logging. `hook` runs on every
    /// file indexed (tests inject a panic with it: such a file is left out and
    /// reported in the snapshot's `crashed`).
    ///
    /// Stops with [`ProjectError::Cancelled`] between its phases (the walk, the
    /// index, the link) once `cancel` is raised: a newer edit makes this analysis's
    /// answer useless. A cancelled analysis leaves no snapshot (the next one makes
    /// its own) and every cache consistent.
    pub fn analyze_edits(
        &mut self,
        open: &[&SourceFile],
        hook: Option<&FileHook>,
        cancel: &Cancel,
    ) -> Result<Vec<String>, ProjectError> {
        cancel.check()?;
        let mut notes = self.ensure_disk();
        cancel.check()?;
        let had_model = self.model_loaded;
        // Without a model loaded, an inferred project's is the empty one `unload_model`
        // left (inference makes the real one).
        if !had_model && !self.live.inferred {
            // No model ever loaded: nothing can be bound, and the model problems say why.
            self.live.snapshot_files_of = None;
            self.live.snapshot = Some(Arc::new(Snapshot {
                analysis: Analysis::default(),
                model_notes: Vec::new(),
                files: HashMap::new(),
                crashed: Vec::new(),
            }));
            return Ok(notes);
        }
        let placeholder = Model::empty(Arc::from(self.live.config_path.as_path()));
        let model = std::mem::replace(&mut self.model, placeholder);
        let laid = self.lay_files(open);
        let files = &laid.files;
        // The last link lent its operations to the snapshot: the link keeps them for
        // the next one (the snapshot is replaced below).
        // (A copy when the session still shows the snapshot, as it does while this
        // runs on a worker.)
        if let Some(s) = &mut self.live.snapshot {
            let operations = match Arc::get_mut(s) {
                Some(s) => std::mem::take(&mut s.analysis.operations),
                None => s.analysis.operations.clone(),
            };
            self.live.link_state.give_back(operations);
        }
        // The last snapshot's texts by path, brought up to date below when the files
        // are the same but for the edited ones (most keystrokes).
        let last_files = (self.live.snapshot.take())
            .filter(|_| self.live.snapshot_files_of == Some(self.live.indexes.run))
            .map(|s| Arc::try_unwrap(s).map_or_else(|s| s.files.clone(), |s| s.files));
        self.live.snapshot_files_of = None;
        let Some((analysis, crashed, inferred, changed)) =
            self.analyze_incrementally(&model, files, hook, cancel)
        else {
            // What was taken goes back; the laid files are those the indexes saw.
            self.model = model;
            self.model_loaded = had_model;
            self.live.laid = Some(laid);
            return Err(ProjectError::Cancelled);
        };
        let (inferred, model_notes, templates) = match inferred {
            Some(i) => {
                self.source = i.source;
                (Some(i.model), i.located, i.files)
            }
            None => (None, Vec::new(), Vec::new()),
        };
        self.model = inferred.unwrap_or(model);
        self.model_loaded = true;
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
            (Some(mut last), Some(changed)) if !self.live.inferred => {
                for i in changed {
                    if let Some(f) = files.get(i) {
                        last.insert(f.path.clone(), f.clone());
                    }
                }
                last
            }
            _ => files.iter().map(|f| (f.path.clone(), f.clone())).collect(),
        };
        self.live.laid = Some(laid);
        if !self.live.inferred {
            self.live.snapshot_files_of = Some(self.live.indexes.run);
        }
        // Rules may point into the model (labels on a table's declaration).
        files.insert(self.live.config.path.clone(), self.live.config.clone());
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
        self.live.snapshot = Some(Arc::new(Snapshot {
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
        if let (Some(mut laid), Some(disk)) = (self.live.laid.take(), &self.live.disk) {
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
        let mut files: Vec<SourceFile> = self
            .live
            .disk
            .iter()
            .flatten()
            .map(|(_, f)| f.clone())
            .collect();
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

    /// Forgets the model loaded: an inferred project's is made by each analysis.
    fn unload_model(&mut self) {
        self.model = Model::empty(Arc::from(self.live.config_path.as_path()));
        self.model_loaded = false;
    }

    /// The last finished analysis of [`Project::analyze_edits`], none before the
    /// first.
    pub fn snapshot(&self) -> Option<&Arc<Snapshot>> {
        self.live.snapshot.as_ref()
    }

    /// The model, once one has loaded (or an analysis inferred it); the last that
    /// loaded while `dynalint.toml` is being edited into a broken state.
    pub fn loaded_model(&self) -> Option<&Model> {
        self.model_loaded.then_some(&self.model)
    }

    /// Problems of the last load of `dynalint.toml`; empty when it loaded.
    pub fn model_problems(&self) -> &[ModelProblem] {
        &self.live.model_problems
    }

    /// The text of `dynalint.toml` as last loaded (empty when there is none).
    pub fn config(&self) -> &SourceFile {
        &self.live.config
    }

    /// Whether no `dynalint.toml` exists where the project looks for it: the model is
    /// inferred on every analysis.
    pub fn infers_model(&self) -> bool {
        self.live.inferred
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;
    use crate::rules::RuleSelection;
    use crate::scanner::{self, ScanSettings};

    fn fixture_project() -> Project {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp");
        let config = std::fs::canonicalize(root.join("dynalint.toml")).unwrap();
        Project::watched(config, None)
    }

    fn full(project: &Project, open: &[&SourceFile]) -> Vec<(PathBuf, usize, &'static str)> {
        let mut files: BTreeMap<PathBuf, SourceFile> = project
            .live
            .disk
            .iter()
            .flatten()
            .map(|(p, f)| (p.clone(), f.clone()))
            .collect();
        for f in open {
            files.insert(f.path.to_path_buf(), (*f).clone());
        }
        let files: Vec<SourceFile> = files.into_values().collect();
        let model = project.loaded_model().unwrap();
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
        let snapshot = p.live.snapshot.as_ref().expect("the project was analysed");
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
        let mut p = Project::watched(root.join("dynalint.toml"), None);
        assert!(p.live.inferred && p.live.model_problems.is_empty());
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let rules = rule_ids(&p);
        assert!(rules.contains(&"rejected-request"), "{rules:?}");
        let model = p.loaded_model().unwrap();
        assert_eq!(model.tables.len(), 1);
        assert_eq!(model.tables[0].name, "{Stage}-orders");

        // A `dynalint.toml` that declares no table: the template no longer counts.
        std::fs::write(root.join("dynalint.toml"), "[lint]\n").unwrap();
        p.reload_model(None);
        assert!(!p.live.inferred);
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
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
        let mut p = Project::watched(root.join("dynalint.toml"), None);
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let snap = p.live.snapshot.as_ref().unwrap();
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
        assert!(
            code[0].1.contains("`create_table` of `{pick}` is skipped"),
            "{code:?}"
        );
        assert_eq!(on("template.yaml").len(), 1, "{:?}", snap.model_notes);
        assert!(snap.file(&root.join("template.yaml")).is_some());
        let d = crate::lsp::convert::inference_note(
            &snap.model_notes[0],
            snap.file(&snap.model_notes[0].file).unwrap(),
        );
        assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::INFORMATION));
    }

    #[test]
    fn incremental_analysis_matches_a_full_one_after_edits() {
        let mut p = fixture_project();
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let first = key(&p.live.snapshot.as_ref().unwrap().analysis);
        assert!(first.iter().any(|d| d.2 == "scan-in-hot-path"), "{first:?}");
        assert_eq!(first, full(&p, &[]));

        // Unroute the handler in another file: only main.rs is re-indexed, and the
        // hot finding in repo.rs goes, exactly as a full analysis says.
        let main = p.root.join("src/main.rs");
        let text = std::fs::read_to_string(&main)
            .unwrap()
            .replace("get(handlers::list_posts)", "get(|| async { \"ok\" })");
        let edited = SourceFile::new(main, text);
        p.analyze_edits(&[&edited], None, &Cancel::new()).unwrap();
        let second = key(&p.live.snapshot.as_ref().unwrap().analysis);
        assert_ne!(first, second);
        assert_eq!(second, full(&p, &[&edited]));

        // Back to the disk text: the cached indexes give the first result again.
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
        assert_eq!(key(&p.live.snapshot.as_ref().unwrap().analysis), first);
    }

    /// The files an analysis sees, brought up to date from the last analysis's list,
    /// are those made afresh from the disk and the open documents, whichever
    /// documents come and go (one the disk does not have among them), and so is the
    /// answer.
    #[test]
    fn the_files_laid_over_the_disk_are_those_made_afresh() {
        let mut p = fixture_project();
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
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
            p.analyze_edits(&open, None, &Cancel::new()).unwrap();
            let mut fresh: BTreeMap<PathBuf, String> = (p.live.disk.iter().flatten())
                .map(|(path, f)| (path.clone(), f.text.to_string()))
                .collect();
            for f in &open {
                fresh.insert(f.path.to_path_buf(), f.text.to_string());
            }
            let laid: Vec<(PathBuf, String)> = (p.live.laid.as_ref().unwrap().files.iter())
                .map(|f| (f.path.to_path_buf(), f.text.to_string()))
                .collect();
            assert_eq!(laid, fresh.into_iter().collect::<Vec<_>>());
            let analysis = &p.live.snapshot.as_ref().unwrap().analysis;
            assert_eq!(key(analysis), full(&p, &open));
        }
    }

    /// An edited file's re-index takes its last parse (moving the items it keeps)
    /// and leaves this version's in its place: every keystroke after the first keeps
    /// items, and the answer is a full analysis's each time.
    #[test]
    fn each_edit_leaves_its_parse_for_the_next() {
        let mut p = fixture_project();
        p.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let repo = p.root.join("src/repo.rs");
        let mut text = std::fs::read_to_string(&repo).unwrap();
        for n in 0..4 {
            text.push_str(&format!("// edit {n}\n"));
            let edited = SourceFile::new(repo.clone(), text.clone());
            p.analyze_edits(&[&edited], None, &Cancel::new()).unwrap();
            let analysis = &p.live.snapshot.as_ref().unwrap().analysis;
            assert_eq!(key(analysis), full(&p, &[&edited]));
            let kept = p
                .live
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
