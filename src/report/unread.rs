//! Source files a run could not read. Such a file fails the run (a gate must not pass
//! on code it did not check), so every format says so beside the findings: JSON's
//! `summary.unread`, SARIF's `toolExecutionNotifications`, a GitHub error annotation,
//! the human summary line.

/// A source file that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// As shown to the user (relative to the current folder when under it).
    pub file: String,
    /// `cannot read: permission denied`, `skipped: not valid UTF-8 ...`.
    pub message: String,
}
