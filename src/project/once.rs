//! A project opened for one run (the CLI's commands): the model loaded or inferred
//! once, the texts read once (or streamed: read, indexed and let go), each analysis
//! a whole scan of them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::analysis::{self, stream};
use crate::infer::{self, InferNote, ModelSource};
use crate::model::Model;
use crate::rules::RuleSelection;
use crate::scanner::{self, Report, ScanResult, ScanSettings};
use crate::source::SourceFile;
use crate::workspace::{self, display_path, Note, OtherSources, Reach};

use super::{
    find_config, load_config, Cancel, Config, Core, Flavor, Open, Project, ProjectError, Snapshot,
    Texts,
};

/// The texts of a project opened for one run, and what reading them found.
pub(super) struct Once {
    /// The sources; with [`Texts::Streamed`], only the texts later phases read.
    pub(super) files: Vec<SourceFile>,
    /// Rust files checked, and their bytes.
    pub(super) checked: usize,
    pub(super) bytes: usize,
    pub(super) texts: Texts,
    /// Files skipped (unreadable, binary, too large) and why.
    pub(super) notes: Vec<Note>,
    /// The `dynalint.toml` read, when there is one.
    pub(super) model_file: Option<SourceFile>,
    /// The scan of the sources made while opening (an inferred model is read from
    /// it, or [`Texts::Streamed`]), for the first analysis to use.
    scanned: Option<ScanResult>,
    /// With [`Texts::Streamed`]: what each text held when scanned, to tell a text read
    /// again from one saved since.
    fingerprints: stream::Fingerprints,
    /// How long opening took: walking, reading and (streamed) scanning.
    pub(super) opened_in: Duration,
    /// An inferred model's notes with their places, and the templates it was read from.
    pub(super) inferred: Option<(Vec<InferNote>, Vec<PathBuf>)>,
}

/// Opens a project for one run: finds and loads its model (or infers it, which scans
/// the sources) and reads its sources, saying each phase to `report`.
pub(super) fn open(open: &Open, report: Report<'_>) -> Result<Project, ProjectError> {
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
    let (sources, mut scanned) = match open.texts {
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
    let mut once = Once {
        files: sources.files,
        checked: sources.checked,
        bytes: sources.bytes,
        texts: open.texts,
        notes: sources.notes,
        model_file: None,
        scanned: None,
        fingerprints,
        opened_in: Duration::ZERO,
        inferred: None,
    };
    if let Some((model, file)) = loaded {
        let mut core = Core::new(root, file.path.to_path_buf());
        // What `import = [..]` could not use, said as inference's notes are.
        core.model_notes = model
            .import_notes
            .iter()
            .map(|n| {
                let mut n = n.clone();
                n.path = std::sync::Arc::from(PathBuf::from(display_path(&n.path)));
                n.to_string()
            })
            .collect();
        core.source = ModelSource::Config(file.path.to_path_buf());
        core.model = Some(model);
        core.config = file.clone();
        core.other_languages = sources.other_languages;
        once.model_file = Some(file);
        once.scanned = scanned;
        once.opened_in = started.elapsed();
        return Ok(Project {
            core,
            flavor: Flavor::Once(Box::new(once)),
        });
    }
    let scanned = match scanned.take() {
        Some(s) => s,
        None => scanner::scan_reporting(&once.files, &ScanSettings::default(), report),
    };
    if open.texts == Texts::Streamed {
        // Inference names the lines of requests: their texts, if let go.
        let changed = stream::ensure_texts(
            &mut once.files,
            stream::scanned_files(&scanned),
            &once.fingerprints,
        );
        once.notes.extend(changed);
    }
    report("inferring the model", 0, 0);
    let inferred = infer::infer(
        &root,
        reach,
        &scanned.tables,
        &scanned.operations,
        &once.files,
    );
    let mut core = Core::new(root.clone(), infer::model_path(&root));
    core.inferred = true;
    core.source = inferred.source;
    core.model_notes = inferred.notes;
    core.model = Some(inferred.model);
    core.other_languages = sources.other_languages;
    once.inferred = Some((inferred.located, inferred.files));
    once.scanned = Some(scanned);
    once.opened_in = started.elapsed();
    Ok(Project {
        core,
        flavor: Flavor::Once(Box::new(once)),
    })
}

/// A project of texts in memory checked against `model`: nothing is read from disk.
pub(super) fn in_memory(model: Model, files: Vec<SourceFile>) -> Project {
    let root = model
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut core = Core::new(root, model.path.to_path_buf());
    core.source = ModelSource::Config(model.path.to_path_buf());
    core.model = Some(model);
    let once = Once {
        checked: files.len(),
        bytes: files.iter().map(|f| f.text.len()).sum(),
        files,
        texts: Texts::Kept,
        notes: Vec::new(),
        model_file: None,
        scanned: None,
        fingerprints: stream::Fingerprints::new(),
        opened_in: Duration::ZERO,
        inferred: None,
    };
    Project {
        core,
        flavor: Flavor::Once(Box::new(once)),
    }
}

impl Once {
    /// Replaces a source's text (a fix applied in memory); the next analysis reads it.
    pub(super) fn set_text(&mut self, file: SourceFile) {
        // Whatever was scanned before no longer describes the texts.
        self.scanned = None;
        match self.files.iter_mut().find(|f| f.path == file.path) {
            Some(slot) => *slot = file,
            None => self.files.push(file),
        }
    }

    /// The scan made while opening, else a new one of the texts.
    pub(super) fn scan(&mut self, model: Option<&Model>, report: Report<'_>) -> ScanResult {
        match self.scanned.take() {
            Some(s) => s,
            None => {
                let settings = model.map(ScanSettings::from_model).unwrap_or_default();
                scanner::scan_reporting(&self.files, &settings, report)
            }
        }
    }

    /// The one-shot analysis: the scan made while opening, or one of the texts now.
    pub(super) fn analyze(
        &mut self,
        core: &mut Core,
        selection: &RuleSelection,
        report: Report<'_>,
        cancel: &Cancel,
    ) -> Result<Snapshot, ProjectError> {
        let model = core.model.as_ref().unwrap_or(&core.no_model);
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
                let settings = ScanSettings::from_model(model);
                let scanned = scanner::scan_reporting(&self.files, &settings, report);
                report("checking rules", 0, 0);
                (scanned, self.files.len())
            }
        };
        cancel.check()?;
        let input = analysis::Input {
            model,
            files: &self.files,
            checked,
            other_languages: &core.other_languages,
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
        let declaring = declaring_files(model, &files);
        files.extend(declaring);
        Ok(Snapshot {
            analysis,
            model_notes: (self.inferred.as_ref())
                .map(|(located, _)| located.clone())
                .unwrap_or_default(),
            files: files.into_iter().map(|f| (f.path.clone(), f)).collect(),
            crashed: Vec::new(),
            log: Vec::new(),
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
        if let Ok(f) = workspace::read_source(p) {
            out.push(f);
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
