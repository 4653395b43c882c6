//! One dynalint project: a folder with a `dynalint.toml`, its model, its source files
//! as on disk, and the last analysis of them (with the editor's open documents laid
//! over the disk).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use globset::GlobSet;

use crate::analysis::{self, Analysis};
use crate::model::{self, Model, ModelProblem};
use crate::rules::RuleSelection;
use crate::source::{FilePath, SourceFile};
use crate::workspace;

use super::guard::{self, Crash};

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
    /// `.rs` files of the project as on disk; `None` until first walked.
    disk: Option<BTreeMap<PathBuf, SourceFile>>,
    exclude: GlobSet,
    /// The last analysis, and the texts it saw.
    pub snapshot: Option<Snapshot>,
}

/// The result of one analysis of a project.
pub struct Snapshot {
    pub analysis: Analysis,
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
            disk: None,
            exclude: GlobSet::empty(),
            snapshot: None,
        };
        p.reload_model(text);
        p
    }

    /// Loads the model again, from `text` when the file is open, else from disk.
    /// Returns true when `[lint]` changed (the walk must be redone).
    pub fn reload_model(&mut self, text: Option<&str>) -> bool {
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

    /// True when `path` is a `.rs` file this project checks.
    pub fn contains_source(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "rs")
            && path
                .strip_prefix(&self.root)
                .is_ok_and(|rel| !self.exclude.is_match(rel))
    }

    /// Forgets what is known of a file on disk and reads it again (created, changed
    /// or deleted outside the editor).
    pub fn refresh_disk_file(&mut self, path: &Path) {
        let fresh = self
            .contains_source(path)
            .then(|| workspace::read_source(path).ok())
            .flatten();
        let Some(disk) = &mut self.disk else { return };
        disk.remove(path);
        if let Some(f) = fresh {
            disk.insert(path.to_path_buf(), f);
        }
    }

    /// Walks the project again on next analysis (a folder changed wholesale).
    pub fn forget_disk(&mut self) {
        self.disk = None;
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
        let sources = match workspace::collect_sources(
            std::slice::from_ref(&self.root),
            &self.root,
            &exclude,
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
        let mut notes = self.ensure_disk();
        let Some(model) = &self.model else {
            // No model ever loaded: nothing can be bound, and the model problems say why.
            self.snapshot = Some(Snapshot {
                analysis: Analysis::default(),
                files: HashMap::new(),
                crashed: Vec::new(),
            });
            return notes;
        };
        let mut files: BTreeMap<&Path, &SourceFile> = self
            .disk
            .iter()
            .flatten()
            .map(|(p, f)| (p.as_path(), f))
            .collect();
        for f in open {
            if self.contains_source(&f.path) {
                files.insert(&f.path, f);
            }
        }
        let files: Vec<SourceFile> = files.into_values().cloned().collect();
        let selection = RuleSelection::default();
        let run = |fs: &[SourceFile]| {
            if let Some(hook) = hook {
                fs.iter().for_each(hook);
            }
            analysis::analyze(model, fs, &selection)
        };
        let guarded = guard::analyze_guarded(&files, &run);
        for c in &guarded.crashed {
            notes.push(format!(
                "analysis of {} panicked and was skipped: {}",
                c.file.display(),
                c.message
            ));
        }
        let mut files: HashMap<FilePath, SourceFile> =
            files.into_iter().map(|f| (f.path.clone(), f)).collect();
        // Rules may point into the model (labels on a table's declaration).
        files.insert(self.config.path.clone(), self.config.clone());
        self.snapshot = Some(Snapshot {
            analysis: guarded.analysis,
            files,
            crashed: guarded.crashed,
        });
        notes
    }
}
