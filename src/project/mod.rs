//! The project host: one owner of a project's state that every front end holds and
//! asks, as rust-analyzer's `AnalysisHost` and ruff's workspace are. A [`Project`]
//! opens a root (its `dynalint.toml` found and loaded, or its model inferred), takes
//! the files' texts (from disk, stdin, an editor's buffers), and answers
//! [`Project::analyze`] with diagnostics, notes and figures.
//!
//! It never prints and never picks an exit code: what goes wrong is a
//! [`ProjectError`], said by the front end. An analysis stops early, between its
//! phases, when the caller raises its [`Cancel`] flag; a project is plain data, so it
//! can move to the thread that analyses it.
//!
//! The CLI's commands open one with [`Open`]: `check` has each file read, indexed
//! and let go ([`Texts::Streamed`], memory bounded by the largest files, not the
//! tree), the others keep every text. The editor holds one per `dynalint.toml`
//! ([`Project::watched`], `live.rs`): it follows the model's and the files' changes
//! and analyses again with the open documents laid over the disk
//! ([`Project::analyze_edits`]), re-indexing only what changed (`incremental.rs`),
//! a file that makes the scanner panic left out (`guard.rs`).

mod cancel;
mod config;
mod error;
pub mod guard;
mod incremental;
mod live;
mod snapshot;

pub use cancel::Cancel;
pub use config::{find_config, governing_config, load_config, require_config};
pub use error::ProjectError;
pub use live::FileHook;
pub use snapshot::Snapshot;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::analysis::{self, stream};
use crate::diagnostic::Diagnostic;
use crate::infer::{self, ModelSource};
use crate::model::Model;
use crate::rules::RuleSelection;
use crate::scanner::{self, Report, ScanProblem, ScanResult, ScanSettings, ScanStats};
use crate::source::SourceFile;
use crate::workspace::{self, display_path, Note, OtherSources, Reach};

/// How a project's model is found.
#[derive(Debug, Clone, Default)]
pub enum Config {
    /// The nearest `dynalint.toml` at or above the first path; without one, the model
    /// is inferred from the project around it.
    #[default]
    Find,
    /// This file (`--config`).
    File(PathBuf),
    /// None is read, even if one exists: the model is inferred from the first path, a
    /// folder, whole (`dynalint init`, which writes one).
    Infer,
}

/// Whether a project keeps every text it read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Texts {
    /// Every text stays in memory: it can be analysed again with some texts changed.
    #[default]
    Kept,
    /// Each file is read, indexed and let go as it is read; only the texts later
    /// phases read come back ([`analysis::stream`]). For one analysis of a large tree.
    Streamed,
}

/// A text given rather than read from disk: stdin's.
#[derive(Debug, Clone)]
pub struct Given {
    /// The file it stands for (`--stdin-filename`): its model is found from there.
    pub name: Option<PathBuf>,
    pub text: String,
}

/// What to open: the paths to check, where the model comes from, what texts to take.
#[derive(Debug, Clone, Default)]
pub struct Open {
    /// Files and folders to check; none is the current folder.
    pub paths: Vec<PathBuf>,
    pub config: Config,
    /// A text that is not on disk (stdin's), checked with the files.
    pub given: Option<Given>,
    pub texts: Texts,
}

/// An open project: its model, where it came from, and the texts of its sources.
#[derive(Debug)]
pub struct Project {
    model: Model,
    /// The `dynalint.toml`, when there is one.
    model_file: Option<SourceFile>,
    source: ModelSource,
    /// What inferring the model (or `import = [..]`) could not use (`file:line: message`).
    model_notes: Vec<String>,
    /// An inferred model's notes with their places, and the templates it was read from.
    inferred: Option<(Vec<infer::InferNote>, Vec<PathBuf>)>,
    root: PathBuf,
    /// The sources; with [`Texts::Streamed`], only the texts later phases read.
    files: Vec<SourceFile>,
    /// Rust files checked, and their bytes.
    checked: usize,
    bytes: usize,
    texts: Texts,
    /// Files skipped (unreadable, binary, too large) and why.
    notes: Vec<Note>,
    /// The scan of the sources made while opening (an inferred model is read from
    /// it, or [`Texts::Streamed`]), for the first analysis to use.
    scanned: Option<ScanResult>,
    /// Sources in other languages that name DynamoDB (not checked).
    other_languages: Vec<OtherSources>,
    /// With [`Texts::Streamed`]: what each text held when scanned, to tell a text read
    /// again from one saved since.
    fingerprints: stream::Fingerprints,
    /// How long opening took: walking, reading and (streamed) scanning.
    opened_in: Duration,
    /// Whether `model` is one loaded or inferred (an editor's project may have none
    /// yet: its `dynalint.toml` never loaded, or its model not yet inferred).
    model_loaded: bool,
    /// What an editor's project keeps between analyses ([`Project::watched`]).
    live: live::Live,
}

/// What an analysis found.
#[derive(Debug)]
pub struct Analyzed {
    /// Sorted by (file, offset, rule); suppressions applied.
    pub diagnostics: Vec<Diagnostic>,
    /// Every DynamoDB call found.
    pub operations: Vec<scanner::Operation>,
    /// What the scanner could not read (a syntax error), with its place.
    pub problems: Vec<ScanProblem>,
    /// Every text the findings and notes point into: the sources, the
    /// `dynalint.toml`, the templates that declare the model's tables.
    pub files: Vec<SourceFile>,
    /// What the scan worked on, and its phases' times.
    pub scan_stats: ScanStats,
    /// Time spent running the rules and applying suppressions.
    pub rules_time: Duration,
}

impl Project {
    /// Opens a project: finds and loads its model (or infers it, which scans the
    /// sources) and reads its sources, saying each phase to `report`.
    pub fn open(open: &Open, report: Report<'_>) -> Result<Self, ProjectError> {
        let started = std::time::Instant::now();
        let paths = if open.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            open.paths.clone()
        };
        // The model of a given text is found from the file it stands for.
        let given_name = open.given.as_ref().and_then(|g| g.name.as_deref());
        let discover_from = match given_name {
            Some(name) => vec![parent_or_cwd(name)],
            None => paths.clone(),
        };
        let loaded = match &open.config {
            Config::Infer => {
                if let Some(missing) = paths.iter().find(|p| !p.exists()) {
                    return Err(ProjectError::Missing {
                        path: missing.clone(),
                    });
                }
                None
            }
            Config::Find => find_config(&discover_from, None)?,
            Config::File(c) => find_config(&discover_from, Some(c))?,
        };
        let loaded = match loaded {
            Some(c) => Some(load_config(&c)?),
            None => None,
        };
        let (root, reach) = match (&loaded, &open.config) {
            (Some((_, file)), _) => (
                file.path
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default(),
                Reach::Tree,
            ),
            (None, Config::Infer) => (paths[0].clone(), Reach::Tree),
            (None, _) => {
                // A given text stands for its file: a loose one is a project of its own.
                let start = given_name.unwrap_or_else(|| {
                    discover_from
                        .first()
                        .map_or(Path::new("."), |p| p.as_path())
                });
                let found = workspace::project_of(start);
                (found.dir, found.reach)
            }
        };
        let root = if root.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            root
        };
        let exclude = loaded
            .as_ref()
            .map(|(m, _)| m.lint.exclude.clone())
            .unwrap_or_default();
        let given: Vec<SourceFile> = open
            .given
            .iter()
            .map(|g| {
                let name = g.name.clone().unwrap_or_else(|| PathBuf::from("<stdin>"));
                SourceFile::new(name, g.text.clone())
            })
            .collect();
        // The given text is checked beside the paths, not one of them.
        let paths: Vec<PathBuf> = match &open.given {
            Some(_) => open.paths.clone(),
            None => paths,
        };
        let mut fingerprints = stream::Fingerprints::new();
        let (mut sources, mut scanned) = match open.texts {
            Texts::Streamed => {
                let found = workspace::find_sources(&paths, &root, &exclude)?;
                let settings = match &loaded {
                    Some((m, _)) => ScanSettings::from_model(m),
                    None => ScanSettings::default(),
                };
                let streamed = stream::scan_paths(&found.paths, given, &settings, report);
                let mut notes = found.notes;
                notes.extend(streamed.notes);
                fingerprints = streamed.fingerprints;
                let sources = Sources {
                    files: streamed.files,
                    checked: streamed.checked,
                    bytes: streamed.bytes,
                    notes,
                    other_languages: found.other_languages,
                };
                (sources, Some(streamed.scanned))
            }
            Texts::Kept => {
                let reading = |done: usize, total: usize| report("reading", done, total);
                let mut read = match open.config {
                    // `init` walks only the folder it writes for, as deep as it goes.
                    Config::Infer => workspace::collect_sources(
                        std::slice::from_ref(&root),
                        &root,
                        &[],
                        Some(&reading),
                    )?,
                    _ => workspace::collect_sources(&paths, &root, &exclude, Some(&reading))?,
                };
                read.files.extend(given);
                let sources = Sources {
                    checked: read.files.len(),
                    bytes: read.files.iter().map(|f| f.text.len()).sum(),
                    files: read.files,
                    notes: read.notes,
                    other_languages: read.other_languages,
                };
                (sources, None)
            }
        };
        if let Some((model, file)) = loaded {
            // What `import = [..]` could not use, said as inference's notes are.
            let model_notes = model
                .import_notes
                .iter()
                .map(|n| {
                    let mut n = n.clone();
                    n.path = std::sync::Arc::from(PathBuf::from(display_path(&n.path)));
                    n.to_string()
                })
                .collect();
            return Ok(Self {
                source: ModelSource::Config(file.path.to_path_buf()),
                model,
                model_file: Some(file),
                model_notes,
                inferred: None,
                root,
                files: sources.files,
                checked: sources.checked,
                bytes: sources.bytes,
                texts: open.texts,
                notes: sources.notes,
                scanned,
                other_languages: sources.other_languages,
                fingerprints,
                opened_in: started.elapsed(),
                model_loaded: true,
                live: live::Live::default(),
            });
        }
        let scanned = match scanned.take() {
            Some(s) => s,
            None => scanner::scan_reporting(&sources.files, &ScanSettings::default(), report),
        };
        if open.texts == Texts::Streamed {
            // Inference names the lines of requests: their texts, if let go.
            let changed = stream::ensure_texts(
                &mut sources.files,
                stream::scanned_files(&scanned),
                &fingerprints,
            );
            sources.notes.extend(changed);
        }
        report("inferring the model", 0, 0);
        let inferred = infer::infer(
            &root,
            reach,
            &scanned.tables,
            &scanned.operations,
            &sources.files,
        );
        Ok(Self {
            model: inferred.model,
            model_file: None,
            source: inferred.source,
            model_notes: inferred.notes,
            inferred: Some((inferred.located, inferred.files)),
            root,
            files: sources.files,
            checked: sources.checked,
            bytes: sources.bytes,
            texts: open.texts,
            notes: sources.notes,
            scanned: Some(scanned),
            other_languages: sources.other_languages,
            fingerprints,
            opened_in: started.elapsed(),
            model_loaded: true,
            live: live::Live::default(),
        })
    }

    /// A project of texts in memory checked against `model`: nothing is read from
    /// disk (tests, and a fresh analysis of files isolated after a panic).
    pub fn in_memory(model: Model, files: Vec<SourceFile>) -> Self {
        let root = model
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut p = Self::bare(root, model);
        p.checked = files.len();
        p.bytes = files.iter().map(|f| f.text.len()).sum();
        p.files = files;
        p
    }

    /// A project of `root` checked against `model`, with no texts yet.
    fn bare(root: PathBuf, model: Model) -> Self {
        Self {
            source: ModelSource::Config(model.path.to_path_buf()),
            model,
            model_file: None,
            model_notes: Vec::new(),
            inferred: None,
            root,
            checked: 0,
            bytes: 0,
            files: Vec::new(),
            texts: Texts::Kept,
            notes: Vec::new(),
            scanned: None,
            other_languages: Vec::new(),
            fingerprints: stream::Fingerprints::new(),
            opened_in: Duration::ZERO,
            model_loaded: true,
            live: live::Live::default(),
        }
    }

    /// The key model the project is checked against.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Where the model came from.
    pub fn model_source(&self) -> &ModelSource {
        &self.source
    }

    /// What inferring the model (or the model's `import = [..]`) could not use,
    /// `file:line: message`.
    pub fn model_notes(&self) -> &[String] {
        &self.model_notes
    }

    /// The model as inference gave it, when there is no `dynalint.toml` (what `init`
    /// writes out).
    pub fn inferred(&self) -> Option<infer::Inferred> {
        let (located, files) = self.inferred.clone()?;
        Some(infer::Inferred {
            model: self.model.clone(),
            source: self.source.clone(),
            notes: self.model_notes.clone(),
            located,
            files,
        })
    }

    /// The `dynalint.toml`, when there is one.
    pub fn model_file(&self) -> Option<&SourceFile> {
        self.model_file.as_ref()
    }

    /// The folder of `dynalint.toml`, or the project's root when inferred.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The sources' texts (with [`Texts::Streamed`], those kept or read again).
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// How many Rust files are checked, and their bytes.
    pub fn checked(&self) -> (usize, usize) {
        (self.checked, self.bytes)
    }

    /// Files skipped (unreadable, binary, too large), and texts that changed on disk
    /// while being checked.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// Whether each file was scanned as it was read ([`Texts::Streamed`]).
    pub fn scanned_while_read(&self) -> bool {
        self.texts == Texts::Streamed
    }

    /// How long opening took (walking, reading, and when streamed, scanning).
    pub fn opened_in(&self) -> Duration {
        self.opened_in
    }

    /// Replaces a source's text (an edit not saved, a fix applied in memory); the
    /// next analysis reads it.
    pub fn set_text(&mut self, file: SourceFile) {
        // Whatever was scanned before no longer describes the texts.
        self.scanned = None;
        match self.files.iter_mut().find(|f| f.path == file.path) {
            Some(slot) => *slot = file,
            None => self.files.push(file),
        }
    }

    /// The scan of the sources: every DynamoDB call and declared table, bound to
    /// nothing yet (`calls`, `simulate`): the one made while opening, else a new one.
    pub fn scan(&mut self, report: Report<'_>) -> ScanResult {
        match self.scanned.take() {
            Some(s) => s,
            None => {
                scanner::scan_reporting(&self.files, &ScanSettings::from_model(&self.model), report)
            }
        }
    }

    /// Analyses the project's texts against its model: binds every call, runs the
    /// `selection` of rules, applies allow comments. Stops with
    /// [`ProjectError::Cancelled`] between phases once `cancel` is raised.
    pub fn analyze(
        &mut self,
        selection: &RuleSelection,
        report: Report<'_>,
        cancel: &Cancel,
    ) -> Result<Analyzed, ProjectError> {
        cancel.check()?;
        let (scanned, checked) = match self.scanned.take() {
            Some(scanned) => {
                report("checking rules", 0, 0);
                // Rules name places in the files of requests: their texts, if let go.
                let changed = stream::ensure_texts(
                    &mut self.files,
                    stream::scanned_files(&scanned),
                    &self.fingerprints,
                );
                self.notes.extend(changed);
                (scanned, self.checked)
            }
            None => {
                let settings = ScanSettings::from_model(&self.model);
                let scanned = scanner::scan_reporting(&self.files, &settings, report);
                report("checking rules", 0, 0);
                (scanned, self.files.len())
            }
        };
        cancel.check()?;
        let input = analysis::Input {
            model: &self.model,
            files: &self.files,
            checked,
            other_languages: &self.other_languages,
            selection,
        };
        let analysis = analysis::analyze(input, scanned, None);
        cancel.check()?;
        // What findings point into, read again if it was let go while scanning.
        let changed = stream::ensure_texts(
            &mut self.files,
            stream::diagnostic_files(&analysis.diagnostics)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "rs")),
            &self.fingerprints,
        );
        self.notes.extend(changed);
        let mut files: Vec<SourceFile> = self.files.clone();
        files.extend(self.model_file.clone());
        let declaring = declaring_files(&self.model, &files);
        files.extend(declaring);
        Ok(Analyzed {
            diagnostics: analysis.diagnostics,
            operations: analysis.operations,
            problems: analysis.problems,
            files,
            scan_stats: analysis.scan_stats,
            rules_time: analysis.rules_time,
        })
    }
}

/// The sources of a project as [`Project::open`] read them.
struct Sources {
    files: Vec<SourceFile>,
    checked: usize,
    bytes: usize,
    notes: Vec<Note>,
    other_languages: Vec<OtherSources>,
}

/// The files other than the checked sources and `dynalint.toml` that declare the
/// model's tables (templates), read so findings can point into them. One that cannot
/// be read is left out: its labels become notes.
fn declaring_files(model: &Model, have: &[SourceFile]) -> Vec<SourceFile> {
    let mut out: Vec<SourceFile> = Vec::new();
    for t in &model.tables {
        let p = &t.origin.path;
        if have.iter().chain(&out).any(|f| f.path == *p) {
            continue;
        }
        // Decoded as importing read it (a UTF-16 template too): spans agree.
        if let Ok(text) = crate::encoding::read_to_string(p) {
            out.push(SourceFile::new(p.to_path_buf(), text));
        }
    }
    out
}

/// The folder of `path`, or `.` for a bare file name.
fn parent_or_cwd(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
