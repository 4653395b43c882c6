//! A corpus tree analysed in this process, as `dynalint check` analyses it from the
//! tree's root: the hand-written model (`realworld/<name>/dynalint.toml`) or, without
//! one, the model inferred from the tree; then one analysis per variant, with one file's
//! text replaced and the model changed as a defect needs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use dynalint::analysis;
use dynalint::diagnostic::Diagnostic;
use dynalint::infer;
use dynalint::model::{self, import::Imported, Model};
use dynalint::rules::RuleSelection;
use dynalint::scanner::{self, FileIndex, Operation, ScanSettings};
use dynalint::source::SourceFile;
use dynalint::workspace::{self, OtherSources};

/// A tree, read once.
pub struct Project {
    /// The hand-written model, or `None`: inferred from the tree on every run (a
    /// rewrite may change what the code declares).
    model_text: Option<String>,
    /// The templates the tree holds, read once (inference only).
    imported: Imported,
    /// Every Rust file of the tree, with `dynalint:` comments made inert: the harness
    /// compares findings, and an allow comment covers a call by its line, which a
    /// rewrite moves.
    pub files: Vec<SourceFile>,
    other_languages: Vec<OtherSources>,
    /// What the scanner needs of the model (its path globs; a patch changes none).
    settings: ScanSettings,
    /// Each file's index, made once: a variant indexes only the file it changes and
    /// links them all again, as the editor's re-link does.
    indexes: Vec<Arc<FileIndex>>,
}

/// What one analysis gave.
pub struct Run {
    pub model: Model,
    pub operations: Vec<Operation>,
    pub diagnostics: Vec<Diagnostic>,
}

/// A change to the model a variant makes (a reference, an attribute, an index).
pub type ModelPatch<'a> = &'a (dyn Fn(&mut Model) + Sync);

/// The model's path as the CLI sees it from the tree's root.
const MODEL_PATH: &str = "dynalint.toml";

impl Project {
    /// Reads the tree's sources (and, without a model, its templates). The process's
    /// working folder becomes `tree`, as for `dynalint check .` run there; the runs
    /// that follow rely on it.
    pub fn load(tree: &Path, model: Option<&Path>) -> Result<Self, String> {
        std::env::set_current_dir(tree).map_err(|e| format!("{}: {e}", tree.display()))?;
        let model_text = match model {
            Some(p) => {
                Some(std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?)
            }
            None => None,
        };
        let exclude = match &model_text {
            Some(text) => load_model(text)?.lint.exclude,
            None => Vec::new(),
        };
        let read =
            workspace::collect_sources(&[PathBuf::from(".")], Path::new("."), &exclude, None)
                .map_err(|e| e.to_string())?;
        let files: Vec<SourceFile> = read
            .files
            .into_iter()
            .map(|f| {
                if f.text.contains("dynalint:") {
                    SourceFile::new(
                        f.path.to_path_buf(),
                        f.text.replace("dynalint:", "dynalint;"),
                    )
                } else {
                    f
                }
            })
            .collect();
        let settings = match &model_text {
            Some(text) => ScanSettings::from_model(&load_model(text)?),
            None => ScanSettings::default(),
        };
        let indexes = files
            .par_iter()
            .map(|f| Arc::new(scanner::index_file(f, &settings)))
            .collect();
        let imported = if model_text.is_none() {
            model::import::discover(Path::new("."))
        } else {
            Imported::default()
        };
        Ok(Self {
            model_text,
            imported,
            files,
            other_languages: read.other_languages,
            settings,
            indexes,
        })
    }

    /// The original text of a file of the tree, or of the hand-written model.
    pub fn text_of(&self, path: &Path) -> Option<&str> {
        if path == Path::new(MODEL_PATH) {
            return self.model_text.as_deref();
        }
        self.files
            .iter()
            .find(|f| &*f.path == path)
            .map(|f| &*f.text)
    }

    /// True when the model is the hand-written one.
    pub fn has_model(&self) -> bool {
        self.model_text.is_some()
    }

    /// Analyses the tree with file `replaced.0`'s text replaced by `replaced.1`, and the
    /// model changed by `patch`.
    pub fn run(
        &self,
        replaced: Option<(usize, &str)>,
        patch: Option<ModelPatch<'_>>,
    ) -> Result<Run, String> {
        let mut files = self.files.clone();
        let mut indexes = self.indexes.clone();
        if let Some((i, text)) = replaced {
            let path = files[i].path.to_path_buf();
            files[i] = SourceFile::new(path, text.to_string());
            indexes[i] = Arc::new(scanner::index_file(&files[i], &self.settings));
        }
        let scanned = scanner::link(&indexes, &self.settings);
        let selection = RuleSelection::default();
        let (model, analysis) = match &self.model_text {
            Some(text) => {
                let mut model = load_model(text)?;
                if let Some(p) = patch {
                    p(&mut model);
                }
                let a = analysis::analyze(
                    analysis::Input {
                        other_languages: &self.other_languages,
                        ..analysis::Input::new(&model, &files, &selection)
                    },
                    scanned,
                    None,
                );
                (model, a)
            }
            None => {
                let mut model = infer::infer_with(
                    Path::new("."),
                    self.imported.clone(),
                    &scanned.tables,
                    &scanned.operations,
                    &files,
                )
                .model;
                if let Some(p) = patch {
                    p(&mut model);
                }
                let a = analysis::analyze(
                    analysis::Input {
                        other_languages: &self.other_languages,
                        ..analysis::Input::new(&model, &files, &selection)
                    },
                    scanned,
                    None,
                );
                (model, a)
            }
        };
        Ok(Run {
            model,
            operations: analysis.operations,
            diagnostics: analysis.diagnostics,
        })
    }
}

fn load_model(text: &str) -> Result<Model, String> {
    model::load_str(Path::new(MODEL_PATH), text).map_err(|problems| {
        let first = problems
            .first()
            .map(|p| format!("{p:?}"))
            .unwrap_or_default();
        format!("the model does not load: {first}")
    })
}
