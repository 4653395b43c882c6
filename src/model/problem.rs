//! Problems in `dynalint.toml`: what is wrong, where (a byte span into the TOML text),
//! secondary labels ("first defined here") and a help line. The report layer renders
//! them like compiler errors; the model only decides what they say.

use std::path::PathBuf;

use crate::source::Span;

/// What kind of problem a [`ModelProblem`] is: stable, for tests, code actions and
/// documentation. The message says the specifics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProblemKind {
    /// The text is not valid TOML.
    Syntax,
    /// A field dynalint does not know (usually a typo).
    UnknownField,
    /// A required field is absent.
    MissingField,
    /// A field holds the wrong TOML type (a string where a number belongs, ...).
    WrongType,
    /// A field holds a value outside its allowed set (level, order, projection, glob, ...).
    InvalidValue,
    /// A count, size, rate or limit below zero.
    Negative,
    /// A key attribute of the table or an index has no entry in `[table.attributes]`.
    UntypedKey,
    /// A key attribute typed other than `S`, `N` or `B`.
    KeyType,
    /// Two tables, indexes, entities or access patterns share a name.
    Duplicate,
    /// More secondary indexes than DynamoDB allows on one table.
    TooManyIndexes,
    /// A local secondary index whose partition key is not the table's.
    LocalIndexPartitionKey,
    /// `INCLUDE` projections over DynamoDB's limit of projected non-key attributes.
    ProjectionLimit,
    /// A malformed entity key template.
    KeyTemplate,
    /// An entity sets a key attribute the table and its indexes do not have.
    UnknownKey,
    /// An entity (or access pattern) lacks the partition key it must set.
    MissingKey,
    /// An access pattern names a table the model does not declare.
    UnknownTable,
    /// An access pattern names an index the table does not have.
    UnknownIndex,
    /// A `values` share map whose shares do not sum to 1.
    Shares,
    /// A figure beyond one of DynamoDB's hard limits (400 KB items).
    Limit,
}

impl ProblemKind {
    /// Every kind, so tests can check each one is demonstrated by a failing model.
    pub const ALL: [ProblemKind; 19] = [
        Self::Syntax,
        Self::UnknownField,
        Self::MissingField,
        Self::WrongType,
        Self::InvalidValue,
        Self::Negative,
        Self::UntypedKey,
        Self::KeyType,
        Self::Duplicate,
        Self::TooManyIndexes,
        Self::LocalIndexPartitionKey,
        Self::ProjectionLimit,
        Self::KeyTemplate,
        Self::UnknownKey,
        Self::MissingKey,
        Self::UnknownTable,
        Self::UnknownIndex,
        Self::Shares,
        Self::Limit,
    ];
}

/// One problem in `dynalint.toml`, with the TOML span it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelProblem {
    /// What kind of problem (stable; the message carries the specifics).
    pub kind: ProblemKind,
    /// Lowercase, no trailing period, code in backticks.
    pub message: String,
    /// The primary span (underlined).
    pub span: Span,
    /// Secondary spans ("first defined here").
    pub labels: Vec<(Span, String)>,
    /// One imperative line on how to fix it.
    pub help: Option<String>,
}

impl ModelProblem {
    /// A problem of kind [`ProblemKind::InvalidValue`]; set the kind with
    /// [`ModelProblem::of`] when building a specific one.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Self::of(ProblemKind::InvalidValue, span, message)
    }

    /// A problem of the given kind.
    pub fn of(kind: ProblemKind, span: Span, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
        }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push((span, message.into()));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Why a model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file was read but has problems; `text` is kept so they can be rendered.
    #[error("`{path}` has {} problem(s)", problems.len())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Its text, which the problems' spans index into.
        text: String,
        /// Every problem, in file order.
        problems: Vec<ModelProblem>,
    },
}

/// The closest of `candidates` to a misspelt `name`, if one is close enough to be a
/// plausible typo (Jaro-Winkler ≥ 0.8, or the same letters ignoring case and `-`/`_`).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let fold = |s: &str| {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let folded = fold(name);
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let score = if fold(c) == folded {
            2.0
        } else {
            strsim::jaro_winkler(name, c)
        };
        if score >= 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// "did you mean `x`?" or "expected one of `a`, `b`": the help for an unknown name.
pub fn suggestion_help(name: &str, candidates: &[&str]) -> String {
    match did_you_mean(name, candidates.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None if candidates.is_empty() => "none are declared".to_string(),
        None => format!("expected one of {}", backticked(candidates)),
    }
}

/// `a`, `b` or `c`, each in backticks: alternatives.
pub fn backticked(items: &[&str]) -> String {
    joined(items, "or")
}

/// `a`, `b` and `c`, each in backticks: a complete list.
pub fn listed(items: &[&str]) -> String {
    joined(items, "and")
}

fn joined(items: &[&str], conjunction: &str) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let fields = ["partition-key", "sort-key", "item-count"];
        assert_eq!(did_you_mean("partition_key", fields), Some("partition-key"));
        assert_eq!(did_you_mean("PartitionKey", fields), Some("partition-key"));
        assert_eq!(did_you_mean("sortkey", fields), Some("sort-key"));
        assert_eq!(did_you_mean("zzz", fields), None);
        assert_eq!(
            suggestion_help("zzz", &["a", "b"]),
            "expected one of `a` or `b`"
        );
        assert_eq!(backticked(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
