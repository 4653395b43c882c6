//! What the simulation could not decide, or had to assume, and the model field that
//! would settle it ("set `item-count` on table `Orders`").

use serde::Serialize;

/// Whether a figure is missing or was filled in by an assumption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// A figure the model lacks: something was not simulated or not decided.
    Missing,
    /// The simulation filled a gap with a stated assumption.
    Assumed,
}

/// One note about the model, for the report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Note {
    pub kind: NoteKind,
    /// What it is about: "table `Orders`", "access pattern `latest blogs`".
    pub subject: String,
    /// What is unknown or assumed.
    pub message: String,
    /// The model change that decides it, imperative: "set `item-count` on ...".
    pub fix: String,
}

impl Note {
    /// A figure the model lacks.
    pub fn missing(
        subject: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            kind: NoteKind::Missing,
            subject: subject.into(),
            message: message.into(),
            fix: fix.into(),
        }
    }

    /// An assumption the simulation made.
    pub fn assumed(
        subject: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            kind: NoteKind::Assumed,
            subject: subject.into(),
            message: message.into(),
            fix: fix.into(),
        }
    }
}
