//! The corpus labels (`expect.toml`) and how a diagnostic of the JSON report matches
//! one. Shared by the scorer (`examples/realworld/main.rs`) and the CI subset
//! (`tests/realworld_crates.rs`), so both read the labels the same way.

use serde::Deserialize;
use serde_json::Value;

/// `expect.toml`: what a reviewer found reading the code, before running dynalint.
#[derive(Deserialize, Default)]
pub struct Expect {
    /// Must be reported.
    #[serde(default)]
    pub finding: Vec<Label>,
    /// Must stay silent: a report here is a false positive.
    #[serde(default)]
    pub silent: Vec<Label>,
    /// Not scored either way.
    #[serde(default)]
    pub debatable: Vec<Label>,
}

/// One labelled call (or model entry, with `file = "dynalint.toml"`).
#[derive(Deserialize, Clone)]
pub struct Label {
    pub rule: String,
    pub file: String,
    pub lines: [u32; 2],
    #[serde(default)]
    pub why: String,
    /// The label is true but dynalint does not meet it yet; the reason names the shape.
    /// The CI subset expects the current behaviour and fails once it changes, so the
    /// marker is removed when the shape is handled.
    #[serde(default)]
    pub pending: Option<String>,
    /// The label was changed after a run of dynalint on its repository, and why. A blind
    /// repository's labels are written before any run; a later change keeps them honest
    /// only by saying so: the scorer counts and lists every triaged label.
    #[serde(default)]
    pub triage: Option<String>,
}

impl Label {
    /// A diagnostic of this label's rule, in its file, overlapping its lines.
    pub fn covers(&self, d: &Diag) -> bool {
        self.rule == d.rule
            && self.file == d.file
            && d.line <= self.lines[1]
            && d.end_line >= self.lines[0]
    }
}

/// One diagnostic of the JSON report (`src/report/json.rs`).
pub struct Diag {
    pub rule: String,
    pub severity: String,
    pub message: String,
    pub file: String,
    pub line: u32,
    pub end_line: u32,
}

/// The diagnostics of a `check --format json` report.
pub fn diagnostics(report: &Value) -> Vec<Diag> {
    let s = |d: &Value, k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |d: &Value, k: &str| d.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
    report
        .get("diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|d| Diag {
            rule: s(d, "rule"),
            severity: s(d, "severity"),
            message: s(d, "message"),
            file: s(d, "file").trim_start_matches("./").to_string(),
            line: n(d, "line"),
            end_line: n(d, "end_line").max(n(d, "line")),
        })
        .collect()
}
