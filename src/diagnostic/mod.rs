//! A finding: the one `Diagnostic` type, with its `Severity`, `Category` and `Fix`,
//! that the rules make and every renderer, the CI gate and the LSP consume. Below
//! them all, and below the model, whose `[rules]` and `fail-on` name severities.

pub mod cost;

pub use cost::{CallEstimate, Cost, Estimate, Money, Unpriced};

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::source::{FilePath, Location, Span};

/// How bad a finding is; ordered so that `Error > Warning > Info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Warning => "warning",
            Self::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Severity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Self::Info),
            "warning" => Ok(Self::Warning),
            "error" => Ok(Self::Error),
            other => Err(format!(
                "unknown severity `{other}` (expected error, warning or info)"
            )),
        }
    }
}

/// A rule's category; it decides the rule's default level (clippy's model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// DynamoDB will reject it: error by default.
    Correctness,
    /// It works but costs capacity or throttles: warning by default.
    Perf,
    /// Probably a mistake: warning by default.
    Suspicious,
    /// Opinionated: off by default.
    Pedantic,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Correctness => "correctness",
            Self::Perf => "perf",
            Self::Suspicious => "suspicious",
            Self::Pedantic => "pedantic",
        }
    }

    /// The level a rule of this category has unless configured; `None` is off.
    pub fn default_severity(self) -> Option<Severity> {
        match self {
            Self::Correctness => Some(Severity::Error),
            Self::Perf | Self::Suspicious => Some(Severity::Warning),
            Self::Pedantic => None,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location with a message ("this handler is reachable from ...").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub location: Location,
    pub message: String,
}

/// One text replacement of a fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub location: Location,
    pub replacement: String,
}

/// A mechanical fix the LSP offers as a code action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
}

/// A finding: which rule, how bad, where, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub message: String,
    pub location: Location,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    pub fix: Option<Fix>,
    /// What the reported pattern costs a month, as written and as fixed.
    pub cost: Option<Box<Cost>>,
}

impl Diagnostic {
    pub fn new(
        rule: &'static str,
        category: Category,
        severity: Severity,
        file: FilePath,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            category,
            severity,
            message: message.into(),
            location: Location::new(file, span),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
            fix: None,
            cost: None,
        }
    }

    pub fn with_label(mut self, file: FilePath, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            location: Location::new(file, span),
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// Adds a label in place (for [`crate::rules::RuleContext::report`] chains).
    pub fn label(&mut self, file: FilePath, span: Span, message: impl Into<String>) -> &mut Self {
        self.labels.push(Label {
            location: Location::new(file, span),
            message: message.into(),
        });
        self
    }

    /// Sets the help line in place.
    pub fn help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a note in place.
    pub fn note(&mut self, note: impl Into<String>) -> &mut Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the cost line in place.
    pub fn cost(&mut self, cost: Cost) -> &mut Self {
        self.cost = Some(Box::new(cost));
        self
    }

    /// Sets the fix in place.
    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(fix);
        self
    }

    /// The order every output uses: file, position, then rule.
    pub fn sort_key(&self) -> (&std::path::Path, usize, &'static str, &str) {
        // `./src/a.rs` and `src/a.rs` name one file: the order does not depend on how
        // the user spelled the path on the command line.
        let file: &std::path::Path = &self.location.file;
        (
            file.strip_prefix(".").unwrap_or(file),
            self.location.span.start,
            self.rule,
            &self.message,
        )
    }
}

/// Sorts diagnostics by (file, offset, rule, message) so every output is stable.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
}
