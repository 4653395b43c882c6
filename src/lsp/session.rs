//! The server's state, which every handler reads and changes: documents, projects,
//! debounced analysis, publishing. Below the handlers (`handlers/`), which take a
//! `&mut Session`; the message loop that dispatches to them is above (`server.rs`).
//! A project being analysed is away on a worker (`worker.rs`): changes to it wait
//! for its return, and requests are answered from its last finished snapshot.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, ResponseError};
use lsp_types::{
    DiagnosticSeverity, LogMessageParams, MessageType, NumberOrString, PublishDiagnosticsParams,
    Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crossbeam_channel::{Receiver, Sender};

use crate::diagnostic::Diagnostic;
use crate::infer::InferNote;
use crate::model::{Model, CONFIG_FILE_NAME};
use crate::project::{Cancel, FileHook, Project, Snapshot};
use crate::source::SourceFile;

use super::convert;
use super::document::Document;
use super::uri;
use super::worker::{self, Done, Job, Outcome};

/// How the server behaves; [`ServerOptions::from_env`] is what `dynalint lsp` uses.
#[derive(Clone)]
pub struct ServerOptions {
    /// Changes closer together than this are a burst: the project is analysed once
    /// the burst has been quiet this long. A change after a pause is analysed as
    /// soon as the messages already queued are handled (which folds them in too).
    pub debounce: Duration,
    /// Run on every file before analysis: a fault-injection seam for tests.
    pub file_hook: Option<Arc<FileHook>>,
}

/// Default burst window: short enough to feel instant, long enough to fold a burst
/// of edits (multi-cursor typing, a paste split into changes) into one analysis.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(20);

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            debounce: DEFAULT_DEBOUNCE,
            file_hook: None,
        }
    }
}

impl ServerOptions {
    /// Options from the environment:
    /// - `DYNALINT_LSP_DEBOUNCE_MS`: the debounce in milliseconds;
    /// - `DYNALINT_LSP_PANIC_ON`: analysis panics on any file containing this text.
    ///   It exists so that tests can check that a panic in analysis is contained.
    /// - `DYNALINT_LSP_HOLD_WHILE`: a path; analysis waits before each file while it
    ///   exists (two minutes at most). It exists so that tests over stdio can hold an
    ///   analysis underway for as long as they need.
    pub fn from_env() -> Self {
        let mut o = Self::default();
        if let Some(ms) = std::env::var("DYNALINT_LSP_DEBOUNCE_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            o.debounce = Duration::from_millis(ms);
        }
        if let Ok(marker) = std::env::var("DYNALINT_LSP_PANIC_ON") {
            if !marker.is_empty() {
                o.file_hook = Some(Arc::new(move |f: &SourceFile| {
                    if f.text.contains(marker.as_str()) {
                        panic!(
                            "injected panic: `{}` contains DYNALINT_LSP_PANIC_ON",
                            f.path.display()
                        );
                    }
                }));
            }
        }
        if let Some(hold) = std::env::var_os("DYNALINT_LSP_HOLD_WHILE") {
            let before = o.file_hook.take();
            let hold = PathBuf::from(hold);
            o.file_hook = Some(Arc::new(move |f: &SourceFile| {
                let until = Instant::now() + Duration::from_secs(120);
                while hold.exists() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(20));
                }
                if let Some(h) = &before {
                    h(f);
                }
            }));
        }
        o
    }
}

/// The code of the diagnostic that stands in for a file whose analysis panicked.
pub const CRASH_CODE: &str = "internal-error";

/// What the server knows and has sent: the state every handler works on.
pub struct Session {
    /// The connection: the session sends on it; the message loop receives.
    pub(super) conn: Connection,
    options: ServerOptions,
    /// Open documents by canonical path.
    pub docs: HashMap<PathBuf, Document>,
    /// Projects by the canonical path of their `dynalint.toml`, but those away.
    pub projects: HashMap<PathBuf, Project>,
    /// Projects being analysed on a worker, by the same key.
    away: HashMap<PathBuf, Away>,
    /// Where workers send analyses back; the message loop receives them.
    done_tx: Sender<Done>,
    pub(super) done_rx: Receiver<Done>,
    /// Requests about a project never analysed, or changed since, answered once
    /// its analysis lands.
    parked: Vec<(PathBuf, Request)>,
    /// Projects with changes not analysed yet, and when to analyse them.
    dirty: HashSet<PathBuf>,
    pub(super) deadline: Option<Instant>,
    /// When the last change was scheduled, to tell a burst from a pause.
    last_change: Option<Instant>,
    /// URIs with diagnostics published, by project: cleared when they drop out.
    published: HashMap<PathBuf, HashSet<Uri>>,
    /// What was last sent for each file that is not open: re-analysing after every
    /// keystroke must not re-send the whole workspace's unchanged findings.
    closed_sent: HashMap<Uri, Sent>,
    next_request: u64,
}

/// A project on a worker: what the session still knows of it.
struct Away {
    cancel: Cancel,
    /// Its last finished snapshot and model, which requests are answered from.
    snapshot: Option<Arc<Snapshot>>,
    model: Option<Model>,
    /// Changes made meanwhile, applied when it comes back.
    changes: Vec<Change>,
    /// Its `dynalint.toml` went meanwhile: dropped when it comes back.
    removed: bool,
}

/// A change to a project's inputs that handlers make (see [`Session::change`]).
pub enum Change {
    /// Load the model again, from the open document's text or the disk.
    Model(Option<Arc<str>>),
    /// Read this source file from disk again.
    DiskFile(PathBuf),
    /// Read the templates again.
    Templates,
    /// Walk and link again (a manifest, or a folder, changed).
    Layout,
}

impl Change {
    /// Applies the change; true when it can alter the project's findings.
    fn apply(&self, p: &mut Project) -> bool {
        match self {
            Change::Model(text) => {
                p.reload_model(text.as_deref());
                true
            }
            Change::DiskFile(path) => {
                p.refresh_disk_file(path);
                true
            }
            Change::Templates => p.forget_templates(),
            Change::Layout => {
                p.forget_disk();
                true
            }
        }
    }
}

/// What a request handler returns: a result value or a protocol error.
pub type HandlerResult = Result<Value, ResponseError>;

/// A protocol error answer.
pub fn error(code: ErrorCode, message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: code as i32,
        message: message.into(),
        data: None,
    }
}

/// Decodes a message's params, answering `InvalidParams` when they do not fit.
pub fn params<P: DeserializeOwned>(method: &str, value: Value) -> Result<P, ResponseError> {
    serde_json::from_value(value).map_err(|e| {
        error(
            ErrorCode::InvalidParams,
            format!("invalid params for `{method}`: {e}"),
        )
    })
}

impl Session {
    /// A session over an initialised connection.
    pub fn new(conn: Connection, options: ServerOptions) -> Self {
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        Self {
            conn,
            options,
            docs: HashMap::new(),
            projects: HashMap::new(),
            away: HashMap::new(),
            done_tx,
            done_rx,
            parked: Vec::new(),
            dirty: HashSet::new(),
            deadline: None,
            last_change: None,
            published: HashMap::new(),
            closed_sent: HashMap::new(),
            next_request: 0,
        }
    }

    /// Sends a message to the client; a gone client is noticed by the main loop.
    pub fn send(&self, msg: Message) {
        let _ = self.conn.sender.send(msg);
    }

    /// Sends a request whose answer we do not wait for.
    pub fn send_request(&mut self, method: &str, params: impl serde::Serialize) {
        self.next_request += 1;
        let id = format!("dynalint-{}", self.next_request);
        self.send(Request::new(id.into(), method.to_string(), params).into());
    }

    /// Logs to the client's output (`window/logMessage`) and to stderr.
    pub fn log(&self, typ: MessageType, message: impl Into<String>) {
        let message = message.into();
        eprintln!("dynalint lsp: {message}");
        let params = LogMessageParams { typ, message };
        self.send(Notification::new("window/logMessage".into(), params).into());
    }

    /// Tells the user (`window/showMessage`) that a document is too large to check,
    /// when an edit or its opening made it so (`was_large`: it already was). Its
    /// diagnostics say so too, at the top of the file.
    pub fn say_if_too_large(&self, path: &Path, was_large: bool) {
        let Some(doc) = self.docs.get(path) else {
            return;
        };
        if was_large || too_large_diagnostic(&doc.file).is_none() {
            return;
        }
        let params = lsp_types::ShowMessageParams {
            typ: MessageType::WARNING,
            message: format!(
                "dynalint does not check {}: {}",
                path.display(),
                crate::workspace::too_large_message(doc.file.text.len() as u64)
            ),
        };
        self.send(Notification::new("window/showMessage".into(), params).into());
    }

    /// The `dynalint.toml` governing `path` (`project::governing_config`): one open
    /// in the editor counts, saved or not.
    pub fn config_of(&self, path: &Path) -> Option<PathBuf> {
        crate::project::governing_config(path, &|c| self.docs.contains_key(c) || c.is_file())
    }

    /// Changes a project's inputs: now when it is here (a [`Change::Model`] creates
    /// it), else when it comes back from its worker. True when the change can alter
    /// its findings (always, for a project away).
    pub fn change(&mut self, config: &Path, change: Change) -> bool {
        if let Some(away) = self.away.get_mut(config) {
            away.changes.push(change);
            return true;
        }
        match change {
            Change::Model(_) => change.apply(self.project(config)),
            _ => match self.projects.get_mut(config) {
                Some(p) => change.apply(p),
                None => false,
            },
        }
    }

    /// Whether the project of `config` is known (here or away).
    pub fn has_project(&self, config: &Path) -> bool {
        self.projects.contains_key(config) || self.away.contains_key(config)
    }

    /// The last finished analysis of a project and its model, here or away.
    pub fn view(&self, config: &Path) -> Option<(&Snapshot, Option<&Model>)> {
        if let Some(a) = self.away.get(config) {
            return Some((a.snapshot.as_deref()?, a.model.as_ref()));
        }
        let p = self.projects.get(config)?;
        Some((p.snapshot()?, p.loaded_model()))
    }

    /// The project of `config`, created (and its model loaded) on first use.
    fn project(&mut self, config: &Path) -> &mut Project {
        let text = self.docs.get(config).map(|d| d.file.text.clone());
        self.projects
            .entry(config.to_path_buf())
            .or_insert_with(|| Project::watched(config.to_path_buf(), text.as_deref()))
    }

    /// Marks a project for analysis: right after the queued messages when the user
    /// had paused, else once the burst of changes has been quiet for the debounce.
    pub fn schedule(&mut self, config: &Path) {
        // A running analysis of older inputs is not worth finishing.
        if let Some(away) = self.away.get(config) {
            away.cancel.cancel();
        }
        self.dirty.insert(config.to_path_buf());
        let now = Instant::now();
        let burst = self
            .last_change
            .is_some_and(|t| now.duration_since(t) < self.options.debounce);
        self.last_change = Some(now);
        self.deadline = Some(if burst {
            now + self.options.debounce
        } else {
            now
        });
    }

    /// Starts the analysis of every project with pending changes that is not away
    /// (one that is starts again when it comes back).
    pub(super) fn flush_dirty(&mut self) {
        self.deadline = None;
        let ready: Vec<PathBuf> = (self.dirty.iter())
            .filter(|c| !self.away.contains_key(*c))
            .cloned()
            .collect();
        for config in ready {
            self.dirty.remove(&config);
            self.start(&config);
        }
    }

    /// Open Rust documents governed by `config`.
    fn open_sources(&self, config: &Path) -> Vec<&Document> {
        self.docs
            .values()
            .filter(|d| d.file.path.extension().is_some_and(|e| e == "rs"))
            .filter(|d| self.config_of(&d.file.path).as_deref() == Some(config))
            .collect()
    }

    /// Sends a project to a worker with its open documents as they are now.
    fn start(&mut self, config: &Path) {
        let open: Vec<SourceFile> = self
            .open_sources(config)
            .into_iter()
            .map(|d| d.file.clone())
            .collect();
        self.project(config);
        let Some(project) = self.projects.remove(config) else {
            return;
        };
        let cancel = Cancel::new();
        self.away.insert(
            config.to_path_buf(),
            Away {
                cancel: cancel.clone(),
                snapshot: project.snapshot().cloned(),
                model: project.loaded_model().cloned(),
                changes: Vec::new(),
                removed: false,
            },
        );
        let job = Job {
            config: config.to_path_buf(),
            project: Box::new(project),
            open,
            hook: self.options.file_hook.clone(),
            cancel,
        };
        worker::spawn(job, self.done_tx.clone());
    }

    /// Holds a request about a project until its analysis is up to date, when the
    /// project was never analysed or has changes no analysis has started on (that
    /// analysis starts now); returns it when it can be answered now: from the last
    /// finished analysis, should one be running.
    pub(super) fn park(&mut self, config: &Path, req: Request) -> Option<Request> {
        let wait = match self.away.get(config) {
            Some(a) => a.snapshot.is_none(),
            None => {
                let never = (self.projects.get(config)).is_none_or(|p| p.snapshot().is_none());
                let changed = self.dirty.contains(config);
                if never || changed {
                    self.dirty.remove(config);
                    self.start(config);
                }
                never || changed
            }
        };
        if !wait {
            return Some(req);
        }
        self.parked.push((config.to_path_buf(), req));
        None
    }

    /// Takes back a parked request the client cancelled.
    pub(super) fn unpark(&mut self, id: &lsp_server::RequestId) -> Option<Request> {
        let i = self.parked.iter().position(|(_, r)| r.id == *id)?;
        Some(self.parked.remove(i).1)
    }

    /// At `shutdown`: takes back every parked request (each must still be answered)
    /// and stops the analyses running, whose results nobody will read.
    pub(super) fn wind_down(&mut self) -> Vec<Request> {
        for away in self.away.values() {
            away.cancel.cancel();
        }
        self.dirty.clear();
        self.deadline = None;
        std::mem::take(&mut self.parked)
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    }

    /// A project come back from its worker: its changes meanwhile applied, its
    /// analysis published when nothing newer is pending. Returns the requests parked
    /// on it that can be answered now.
    pub(super) fn land(&mut self, done: Done) -> Vec<Request> {
        let Some(away) = self.away.remove(&done.config) else {
            return Vec::new();
        };
        let config = done.config;
        let cancelled = away.cancel.is_cancelled();
        match (done.project, done.outcome) {
            (_, Outcome::Panicked(message)) => self.log(
                MessageType::ERROR,
                format!(
                    "analysis of the project of {} panicked: {message}",
                    config.display()
                ),
            ),
            (Some(mut project), outcome) if !away.removed => {
                for c in &away.changes {
                    c.apply(&mut project);
                }
                self.projects.insert(config.clone(), *project);
                if let (Outcome::Finished(notes), false) = (outcome, cancelled) {
                    for n in notes {
                        self.log(MessageType::WARNING, n);
                    }
                    self.publish(&config);
                }
            }
            _ => {}
        }
        if self.dirty.contains(&config) {
            // Its newer changes were waiting for it.
            if self.deadline.is_none() {
                self.deadline = Some(Instant::now());
            }
            return Vec::new();
        }
        let (ready, waiting) = std::mem::take(&mut self.parked)
            .into_iter()
            .partition(|(c, _)| *c == config);
        self.parked = waiting;
        ready.into_iter().map(|(_, r)| r).collect()
    }

    /// Publishes the project's current snapshot: its open documents and `dynalint.toml`
    /// always, every other file with diagnostics only when what they are made of
    /// changed since last sent (a keystroke changes one file's findings, rarely the
    /// whole workspace's), and an empty list where a file's diagnostics are gone.
    // `Uri` hashes its text; the lint sees a `Cell` inside it that never affects hashing.
    #[allow(clippy::mutable_key_type)]
    fn publish(&mut self, config: &Path) {
        let Some(project) = self.projects.get(config) else {
            return;
        };
        let mut out: Vec<PublishDiagnosticsParams> = Vec::new();
        let mut unchanged: Vec<Uri> = Vec::new();
        let mut sent_closed: Vec<(Uri, Sent)> = Vec::new();
        let open = self.open_sources(config);
        let by_file = (project.snapshot().map(Arc::as_ref))
            .map(ByFile::new)
            .unwrap_or_default();
        for doc in &open {
            let mut diagnostics: Vec<lsp_types::Diagnostic> =
                too_large_diagnostic(&doc.file).into_iter().collect();
            diagnostics.extend(
                (project.snapshot())
                    .map(|s| {
                        file_diagnostics(project, s, &doc.file.path, by_file.of(&doc.file.path))
                    })
                    .unwrap_or_default(),
            );
            out.push(PublishDiagnosticsParams {
                uri: doc.uri.clone(),
                diagnostics,
                version: Some(doc.version),
            });
        }
        // Files that are not open get their findings too, as from `cargo check` in
        // rust-analyzer: a loop in one file makes a finding in another, and the
        // Problems panel should list the workspace.
        if let Some(snap) = project.snapshot() {
            let mut closed: Vec<&Path> = by_file
                .files
                .keys()
                .copied()
                .filter(|p| *p != config && !open.iter().any(|d| &*d.file.path == *p))
                .collect();
            closed.sort();
            for path in closed {
                let Some(uri) = uri::from_path(path) else {
                    continue;
                };
                let inputs = by_file.of(path);
                let texts = texts_of(snap, path, inputs);
                let model = project.loaded_model().is_some();
                let last = self.closed_sent.get(&uri);
                if last.is_some_and(|s| s.is_made_of(inputs, &texts, model)) {
                    unchanged.push(uri);
                    continue;
                }
                // Other inputs can still make the same diagnostics (a label's file
                // edited elsewhere than where it points): those are not sent again.
                let diagnostics = file_diagnostics(project, snap, path, inputs);
                let same = last.is_some_and(|s| s.diagnostics == diagnostics);
                let sent = Sent::new(inputs, &texts, model, diagnostics.clone());
                sent_closed.push((uri.clone(), sent));
                if same {
                    unchanged.push(uri);
                    continue;
                }
                out.push(PublishDiagnosticsParams {
                    uri,
                    diagnostics,
                    version: None,
                });
            }
        }
        let config_doc = self.docs.get(config);
        // An inferred project's `dynalint.toml` does not exist: nothing to publish on.
        let config_uri = match config_doc {
            Some(d) => Some(d.uri.clone()),
            None if project.infers_model() => None,
            None => uri::from_path(config),
        };
        if let Some(uri) = config_uri {
            out.push(PublishDiagnosticsParams {
                uri,
                diagnostics: config_diagnostics(project, by_file.of(config)),
                version: config_doc.map(|d| d.version),
            });
        }
        let now: HashSet<Uri> = out.iter().map(|p| p.uri.clone()).chain(unchanged).collect();
        // An open document's diagnostics are sent with it; a closed file's again only
        // when they change.
        let open_uris: Vec<Uri> = open.iter().map(|d| d.uri.clone()).collect();
        for uri in &open_uris {
            self.closed_sent.remove(uri);
        }
        self.closed_sent.extend(sent_closed);
        let before = self.published.insert(config.to_path_buf(), now.clone());
        for gone in before.into_iter().flatten().filter(|u| !now.contains(u)) {
            self.closed_sent.remove(&gone);
            out.push(PublishDiagnosticsParams {
                uri: gone,
                diagnostics: Vec::new(),
                version: None,
            });
        }
        for p in out {
            self.send(Notification::new("textDocument/publishDiagnostics".into(), p).into());
        }
    }

    /// Clears the diagnostics of a document (closed, or no longer in a project).
    pub fn clear(&mut self, uri: &Uri) {
        for set in self.published.values_mut() {
            set.remove(uri);
        }
        self.closed_sent.remove(uri);
        let p = PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: Vec::new(),
            version: None,
        };
        self.send(Notification::new("textDocument/publishDiagnostics".into(), p).into());
    }

    /// Drops a project whose `dynalint.toml` is gone, clearing what it published.
    pub fn remove_project(&mut self, config: &Path) {
        self.projects.remove(config);
        if let Some(away) = self.away.get_mut(config) {
            away.cancel.cancel();
            away.removed = true;
        }
        self.dirty.remove(config);
        for uri in self.published.remove(config).into_iter().flatten() {
            self.clear(&uri);
        }
    }

    /// The document at `uri` and its project, or an error saying why there is none.
    pub fn locate(&self, uri: &Uri) -> Result<(PathBuf, PathBuf), ResponseError> {
        let path = uri::to_path(uri).ok_or_else(|| {
            error(
                ErrorCode::InvalidParams,
                format!("`{}` is not a file dynalint can read", uri.as_str()),
            )
        })?;
        let config = self.config_of(&path).ok_or_else(|| {
            error(
                ErrorCode::InvalidParams,
                format!(
                    "`{}` is outside every dynalint project (no `{CONFIG_FILE_NAME}` above it)",
                    path.display()
                ),
            )
        })?;
        Ok((path, config))
    }
}

/// A snapshot's findings, crashes and inference notes by the file they are in,
/// gathered in one pass (publishing looks up every file with any).
#[derive(Default)]
struct ByFile<'s> {
    files: HashMap<&'s Path, FileInputs<'s>>,
}

/// What one file's diagnostics are made of.
#[derive(Default)]
struct FileInputs<'s> {
    findings: Vec<&'s Diagnostic>,
    crashes: Vec<&'s str>,
    notes: Vec<&'s InferNote>,
}

impl<'s> ByFile<'s> {
    fn new(snap: &'s Snapshot) -> Self {
        let mut files: HashMap<&Path, FileInputs<'_>> = HashMap::new();
        for d in &snap.analysis.diagnostics {
            files.entry(&d.location.file).or_default().findings.push(d);
        }
        for c in &snap.crashed {
            files.entry(&c.file).or_default().crashes.push(&c.message);
        }
        for n in &snap.model_notes {
            files.entry(&n.file).or_default().notes.push(n);
        }
        Self { files }
    }

    fn of(&self, path: &Path) -> &FileInputs<'s> {
        static NONE: FileInputs<'static> = FileInputs {
            findings: Vec::new(),
            crashes: Vec::new(),
            notes: Vec::new(),
        };
        self.files.get(path).unwrap_or(&NONE)
    }
}

/// The texts a file's diagnostics take their ranges from: its own, then those its
/// findings' labels point into (the same spans in another text are other ranges).
fn texts_of<'s>(
    snap: &'s Snapshot,
    path: &Path,
    inputs: &FileInputs<'_>,
) -> Vec<Option<&'s Arc<str>>> {
    let label_files = inputs
        .findings
        .iter()
        .flat_map(|d| &d.labels)
        .map(|l| &*l.location.file);
    std::iter::once(path)
        .chain(label_files)
        .map(|p| snap.file(p).map(|f| &f.text))
        .collect()
}

/// What a closed file's last sent diagnostics were made of. The same findings, notes
/// and texts make the same diagnostics, which are then neither converted nor sent
/// again.
struct Sent {
    findings: Vec<Diagnostic>,
    crashes: Vec<String>,
    notes: Vec<InferNote>,
    /// Kept alive here, so an equal pointer is the same text.
    texts: Vec<Option<Arc<str>>>,
    model: bool,
    /// What was sent.
    diagnostics: Vec<lsp_types::Diagnostic>,
}

impl Sent {
    fn new(
        inputs: &FileInputs<'_>,
        texts: &[Option<&Arc<str>>],
        model: bool,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) -> Self {
        Self {
            findings: inputs.findings.iter().map(|d| (*d).clone()).collect(),
            crashes: inputs.crashes.iter().map(|c| c.to_string()).collect(),
            notes: inputs.notes.iter().map(|n| (*n).clone()).collect(),
            texts: texts.iter().map(|t| t.cloned()).collect(),
            model,
            diagnostics,
        }
    }

    fn is_made_of(
        &self,
        inputs: &FileInputs<'_>,
        texts: &[Option<&Arc<str>>],
        model: bool,
    ) -> bool {
        let same_text = |a: &Option<Arc<str>>, b: &Option<&Arc<str>>| match (a, b) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.model == model
            && self.findings.len() == inputs.findings.len()
            && self
                .findings
                .iter()
                .zip(&inputs.findings)
                .all(|(a, b)| a == *b)
            && self.crashes.len() == inputs.crashes.len()
            && self
                .crashes
                .iter()
                .zip(&inputs.crashes)
                .all(|(a, b)| a == b)
            && self.notes.len() == inputs.notes.len()
            && self.notes.iter().zip(&inputs.notes).all(|(a, b)| a == *b)
            && self.texts.len() == texts.len()
            && self.texts.iter().zip(texts).all(|(a, b)| same_text(a, b))
    }
}

/// Diagnostics of one Rust file from a snapshot, plus a stand-in for a crash.
fn file_diagnostics(
    project: &Project,
    snap: &Snapshot,
    path: &Path,
    inputs: &FileInputs<'_>,
) -> Vec<lsp_types::Diagnostic> {
    let Some(file) = snap.file(path).filter(|_| project.loaded_model().is_some()) else {
        return Vec::new();
    };
    let file_of = |p: &Path| snap.file(p);
    let mut out: Vec<lsp_types::Diagnostic> = inputs
        .findings
        .iter()
        .map(|d| convert::diagnostic(d, file, file_of))
        .collect();
    for c in &inputs.crashes {
        out.push(crash_diagnostic(c));
    }
    out.extend(
        inputs
            .notes
            .iter()
            .map(|n| convert::inference_note(n, file)),
    );
    out
}

/// Diagnostics of `dynalint.toml`: model problems, and findings rules place in it.
fn config_diagnostics(project: &Project, inputs: &FileInputs<'_>) -> Vec<lsp_types::Diagnostic> {
    let mut out: Vec<lsp_types::Diagnostic> = project
        .model_problems()
        .iter()
        .map(|p| convert::model_problem(p, project.config()))
        .collect();
    // Findings against an older text of the file would point at the wrong place.
    if let (true, Some(snap)) = (out.is_empty(), project.snapshot()) {
        let file_of = |p: &Path| snap.file(p);
        out.extend(
            inputs
                .findings
                .iter()
                .map(|d| convert::diagnostic(d, project.config(), file_of)),
        );
    }
    out
}

/// The code of the diagnostic at the top of a document too large to check.
pub const TOO_LARGE_CODE: &str = "file-too-large";

/// The diagnostic at the top of a document over the size the scanner reads
/// (`workspace::MAX_FILE_BYTES`), which is analysed as if empty; `None` for others.
pub fn too_large_diagnostic(file: &SourceFile) -> Option<lsp_types::Diagnostic> {
    let bytes = file.text.len() as u64;
    (bytes > crate::workspace::MAX_FILE_BYTES).then(|| lsp_types::Diagnostic {
        range: Default::default(),
        severity: Some(DiagnosticSeverity::WARNING),
        code: Some(NumberOrString::String(TOO_LARGE_CODE.into())),
        source: Some(convert::SOURCE.into()),
        message: format!(
            "this file is not checked: {}",
            crate::workspace::too_large_message(bytes)
        ),
        ..Default::default()
    })
}

fn crash_diagnostic(message: &str) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        range: Default::default(),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(CRASH_CODE.into())),
        code_description: None,
        source: Some(convert::SOURCE.into()),
        message: format!(
            "dynalint failed while analysing this file, so its findings are missing: {message}\n\
             help: please report this with the file's contents"
        ),
        related_information: None,
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_after_a_pause_is_analysed_at_once_and_a_burst_waits() {
        let (conn, _client) = Connection::memory();
        let debounce = Duration::from_secs(60);
        let mut s = Session::new(
            conn,
            ServerOptions {
                debounce,
                ..ServerOptions::default()
            },
        );
        let p = Path::new("/p/dynalint.toml");
        let start = Instant::now();
        s.schedule(p);
        assert!(s.deadline.is_some_and(|d| d <= Instant::now()));
        // A second change right after the first is a burst: wait for quiet.
        s.schedule(p);
        assert!(s.deadline.is_some_and(|d| d >= start + debounce));
        assert!(s.dirty.contains(p));
    }
}
