//! A project's analysis off the message loop: the loop hands the project (its caches
//! travel with it) and a copy of its open documents to a thread, keeps answering,
//! and receives the project back as a [`Done`] message (rust-analyzer's model: a main
//! loop that only dispatches). A newer edit raises the analysis's [`Cancel`] flag,
//! which it reads between phases.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crossbeam_channel::Sender;

use crate::project::guard::panic_message;
use crate::project::{Cancel, FileHook, Project};
use crate::source::SourceFile;

/// One analysis to run: the project, taken from the session until it comes back.
pub struct Job {
    pub config: PathBuf,
    pub project: Box<Project>,
    /// The project's open documents as they were when the job was made.
    pub open: Vec<SourceFile>,
    pub hook: Option<Arc<FileHook>>,
    pub cancel: Cancel,
}

/// How an analysis ended.
pub enum Outcome {
    /// Finished: the project holds the new snapshot; notes worth logging.
    Finished(Vec<String>),
    /// Stopped by its cancel flag: nothing to publish.
    Cancelled,
    /// Panicked outside the per-file containment (`guard`): the project is lost.
    Panicked(String),
}

/// An analysis come back to the message loop.
pub struct Done {
    pub config: PathBuf,
    /// `None` when the analysis panicked: its state is not trusted again.
    pub project: Option<Box<Project>>,
    pub outcome: Outcome,
}

impl Job {
    /// Runs the analysis here, behind `catch_unwind`.
    pub fn run(self) -> Done {
        let Job {
            config,
            mut project,
            open,
            hook,
            cancel,
        } = self;
        let refs: Vec<&SourceFile> = open.iter().collect();
        let result = catch_unwind(AssertUnwindSafe(|| {
            project.analyze_edits(&refs, hook.as_deref(), &cancel)
        }));
        match result {
            Ok(Ok(notes)) => Done {
                config,
                project: Some(project),
                outcome: Outcome::Finished(notes),
            },
            Ok(Err(_)) => Done {
                config,
                project: Some(project),
                outcome: Outcome::Cancelled,
            },
            Err(payload) => Done {
                config,
                project: None,
                outcome: Outcome::Panicked(panic_message(payload.as_ref())),
            },
        }
    }
}

/// Runs `job` on a thread of its own and sends its [`Done`] to `done`; should no
/// thread start, runs it here (the loop waits, but nothing is lost).
pub fn spawn(job: Job, done: Sender<Done>) {
    let slot = Arc::new(Mutex::new(Some(job)));
    let take = |s: &Mutex<Option<Job>>| s.lock().unwrap_or_else(PoisonError::into_inner).take();
    let theirs = Arc::clone(&slot);
    let their_done = done.clone();
    let started = std::thread::Builder::new()
        .name("dynalint-analysis".into())
        .spawn(move || {
            if let Some(job) = take(&theirs) {
                let _ = their_done.send(job.run());
            }
        });
    if started.is_err() {
        if let Some(job) = take(&slot) {
            let _ = done.send(job.run());
        }
    }
}
