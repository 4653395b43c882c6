//! `check --statistics`: how many findings each rule has, most first.

use serde_json::json;

use super::args::Format;
use crate::diagnostic::Diagnostic;

/// One rule's count, and how many of its findings `--fix` can fix.
struct Row {
    rule: &'static str,
    count: usize,
    fixable: usize,
}

fn rows(diagnostics: &[Diagnostic]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for d in diagnostics {
        let i = match rows.iter().position(|r| r.rule == d.rule) {
            Some(i) => i,
            None => {
                rows.push(Row {
                    rule: d.rule,
                    count: 0,
                    fixable: 0,
                });
                rows.len() - 1
            }
        };
        rows[i].count += 1;
        rows[i].fixable += usize::from(d.fix.is_some());
    }
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.cmp(b.rule)));
    rows
}

/// The table (human) or `{"version": 1, "statistics": [..]}` (json).
pub(super) fn render(diagnostics: &[Diagnostic], format: Format) -> String {
    let rows = rows(diagnostics);
    if format == Format::Json {
        let v: Vec<_> = rows
            .iter()
            .map(|r| json!({"rule": r.rule, "count": r.count, "fixable": r.fixable}))
            .collect();
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({"version": 1, "statistics": v}))
                .unwrap_or_default()
        );
    }
    let width = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for r in &rows {
        let fixable = if r.fixable > 0 {
            format!("  ({} fixable)", r.fixable)
        } else {
            String::new()
        };
        out.push_str(&format!("{:>width$}  {}{fixable}\n", r.count, r.rule));
    }
    out
}
