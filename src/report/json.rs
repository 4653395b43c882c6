//! `--format json`: the stable, versioned shape other tools rely on.
//!
//! `{"version":1,"diagnostics":[{"rule","category","severity","message","file","line",
//! "column","end_line","end_column","help","labels":[{"file","line","column","message"}],
//! "notes","cost":null|{"text","rate_per_second","rate_from","mode","as_written",
//! "as_fixed","fix_adds","missing"},"fix":null|{"title","edits":[{"file","line","column",
//! "end_line","end_column","replacement"}]}}],
//! "summary":{"files","operations","errors","warnings","infos","model":{"source","files","declared_nowhere"},
//! "unread":[{"file","message"}],"cost":null|{"monthly","monthly_on_demand",
//! "monthly_provisioned","prices","calls":[{"file","line","column","kind","table",
//! "rate_per_second","rate_from","per_call_on_demand","monthly","monthly_on_demand",
//! "monthly_provisioned"}],"unpriced":[{"file","line","column","kind","missing"}],"cold",
//! "baseline":null|{"baseline_monthly","increase","max_increase","exceeded"}}}}`
//! — extend, never rename.

use serde_json::{json, Value};

use super::position::Positions;
use super::Unread;
use crate::diagnostic::{Diagnostic, Severity};

/// Counts shown in the summary.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub files: usize,
    pub operations: usize,
    /// Where the model came from.
    pub model: ModelSummary,
    /// Source files that could not be read and so fail the run (with `[lint]
    /// skipped-files = "allow"` they are only `notes`).
    pub unread: Vec<Unread>,
    /// What the code's calls cost a month, and the gate against a baseline's.
    pub cost: Option<crate::diagnostic::Estimate>,
    pub cost_gate: Option<CostGate>,
}

/// `--max-cost-increase` against a baseline: the monthly estimates and the verdict.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CostGate {
    /// The baseline's monthly estimate.
    pub baseline_monthly: f64,
    /// This run's minus the baseline's.
    pub increase: f64,
    /// `--max-cost-increase`.
    pub max_increase: f64,
    /// `increase > max_increase`: the run fails.
    pub exceeded: bool,
}

/// `"model": {"source": "dynalint.toml" | "inferred" | "none", "files": [..],
/// "declared_nowhere": [..]}`.
#[derive(Debug, Clone, Default)]
pub struct ModelSummary {
    pub source: &'static str,
    /// The `dynalint.toml`, or the files the inferred tables were read from.
    pub files: Vec<String>,
    /// Inferred tables no file declares, keyed as the code's calls use them (their
    /// findings are warnings at most).
    pub declared_nowhere: Vec<String>,
}

/// Renders the JSON report (pretty-printed, with a trailing newline).
pub fn render(
    diagnostics: &[Diagnostic],
    positions: &Positions<'_>,
    summary: Summary,
    notes: &[String],
) -> String {
    let items: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let r = positions.range(&d.location);
            let labels: Vec<Value> = d
                .labels
                .iter()
                .map(|l| {
                    let lr = positions.range(&l.location);
                    json!({"file": lr.file, "line": lr.line, "column": lr.column, "message": l.message})
                })
                .collect();
            json!({
                "rule": d.rule,
                "category": d.category.as_str(),
                "severity": d.severity.as_str(),
                "message": d.message,
                "file": r.file,
                "line": r.line,
                "column": r.column,
                "end_line": r.end_line,
                "end_column": r.end_column,
                "help": d.help,
                "labels": labels,
                "notes": d.notes,
                "cost": d.cost.as_deref(),
                "fix": d.fix.as_ref().map(|f| json!({
                    "title": f.title,
                    "edits": f.edits.iter().map(|e| {
                        let er = positions.range(&e.location);
                        json!({"file": er.file, "line": er.line, "column": er.column,
                               "end_line": er.end_line, "end_column": er.end_column,
                               "replacement": e.replacement})
                    }).collect::<Vec<_>>(),
                })),
            })
        })
        .collect();
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let doc = json!({
        "version": 1,
        "diagnostics": items,
        "summary": {
            "files": summary.files,
            "operations": summary.operations,
            "errors": count(Severity::Error),
            "warnings": count(Severity::Warning),
            "infos": count(Severity::Info),
            "model": {
                "source": summary.model.source,
                "files": summary.model.files,
                "declared_nowhere": summary.model.declared_nowhere,
            },
            "unread": summary.unread.iter().map(|u| json!({"file": u.file, "message": u.message})).collect::<Vec<_>>(),
            "cost": summary.cost.as_ref().map(|c| cost(c, summary.cost_gate.as_ref(), positions)),
        },
        "notes": notes,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// `summary.cost`: the estimate, each call with its place, and the gate.
fn cost(
    e: &crate::diagnostic::Estimate,
    gate: Option<&CostGate>,
    positions: &Positions<'_>,
) -> Value {
    let place = |l: &crate::source::Location| {
        let r = positions.range(l);
        (r.file, r.line, r.column)
    };
    let calls: Vec<Value> = e
        .calls
        .iter()
        .map(|c| {
            let (file, line, column) = place(&c.location);
            let mut v = serde_json::to_value(c).unwrap_or(Value::Null);
            v["file"] = json!(file);
            v["line"] = json!(line);
            v["column"] = json!(column);
            v
        })
        .collect();
    let unpriced: Vec<Value> = e
        .unpriced
        .iter()
        .map(|u| {
            let (file, line, column) = place(&u.location);
            json!({"file": file, "line": line, "column": column, "kind": u.kind, "missing": u.missing})
        })
        .collect();
    json!({
        "monthly": e.monthly,
        "monthly_on_demand": e.monthly_on_demand,
        "monthly_provisioned": e.monthly_provisioned,
        "prices": e.prices,
        "calls": calls,
        "unpriced": unpriced,
        "cold": e.cold,
        "baseline": gate,
    })
}
