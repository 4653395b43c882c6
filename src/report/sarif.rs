//! `--format sarif`: SARIF 2.1.0 for code scanning, with rule docs from `rules/*.md`.
//!
//! Each rule's whole page travels in `help.markdown`. There is no `helpUri` or
//! `informationUri`: dynalint has no published address, and a link must lead somewhere.

use serde_json::{json, Value};

use super::position::Positions;
use super::Unread;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{doc_section, RuleMeta, REGISTRY, UNUSED_ALLOW};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule_descriptor(meta: &RuleMeta) -> Value {
    let why = doc_section(meta.doc, "Why is this bad?").unwrap_or_default();
    json!({
        "id": meta.id,
        "name": meta.id,
        "shortDescription": { "text": meta.summary },
        "fullDescription": { "text": meta.what_it_does() },
        "help": { "text": if why.is_empty() { meta.what_it_does() } else { why }, "markdown": meta.doc },
        "defaultConfiguration": {
            "level": meta.category.default_severity().map_or("none", level),
            "enabled": meta.category.default_severity().is_some(),
        },
        "properties": { "category": meta.category.as_str() },
    })
}

/// Renders one SARIF run with every registered rule and the results; source files
/// that could not be read are the invocation's error notifications.
pub fn render(diagnostics: &[Diagnostic], positions: &Positions<'_>, unread: &[Unread]) -> String {
    let mut rules: Vec<Value> = REGISTRY.iter().map(|r| rule_descriptor(r.meta())).collect();
    rules.push(json!({
        "id": UNUSED_ALLOW,
        "name": UNUSED_ALLOW,
        "shortDescription": { "text": "a `dynalint: allow(..)` comment that suppresses nothing" },
        "fullDescription": { "text": "Reports allow comments that suppress no finding, so stale suppressions do not pile up." },
        "defaultConfiguration": { "level": "warning" },
        "properties": { "category": "suspicious" },
    }));
    let index_of = |id: &str| {
        REGISTRY
            .iter()
            .position(|r| r.meta().id == id)
            .or_else(|| (id == UNUSED_ALLOW).then_some(REGISTRY.len()))
    };
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let r = positions.range(&d.location);
            let mut text = d.message.clone();
            if let Some(c) = &d.cost {
                text.push_str(&format!("\ncost: {}", c.text));
            }
            if let Some(h) = &d.help {
                text.push_str(&format!("\nhelp: {h}"));
            }
            let related: Vec<Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let lr = positions.range(&l.location);
                    json!({
                        "id": i,
                        "message": { "text": l.message },
                        "physicalLocation": physical(&lr),
                    })
                })
                .collect();
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": { "text": text },
                "locations": [{ "physicalLocation": physical(&r) }],
            });
            if let Some(i) = index_of(d.rule) {
                result["ruleIndex"] = json!(i);
            }
            if !related.is_empty() {
                result["relatedLocations"] = json!(related);
            }
            if let Some(f) = &d.fix {
                result["fixes"] = json!([fix(f, positions)]);
            }
            if let Some(c) = &d.cost {
                result["properties"] = json!({ "cost": c });
            }
            result
        })
        .collect();
    let mut doc = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "dynalint",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    if !unread.is_empty() {
        // The run completed, but did not analyse these files: an error notification
        // each (SARIF 2.1.0 §3.20.21), which code scanning shows on the tool's status.
        let notifications: Vec<Value> = unread
            .iter()
            .map(|u| {
                json!({
                    "level": "error",
                    "message": { "text": format!("{}: {}; the run fails on a file it could not check", u.file, u.message) },
                    "locations": [{ "physicalLocation": { "artifactLocation": { "uri": u.file } } }],
                })
            })
            .collect();
        doc["runs"][0]["invocations"] = json!([{
            "executionSuccessful": true,
            "toolExecutionNotifications": notifications,
        }]);
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

fn physical(r: &super::position::Range) -> Value {
    json!({
        "artifactLocation": { "uri": r.file },
        "region": {
            "startLine": r.line,
            "startColumn": r.column,
            "endLine": r.end_line,
            "endColumn": r.end_column,
        }
    })
}

/// A SARIF `fix`: the edits grouped by file, each a deleted region and the text put in.
fn fix(f: &crate::diagnostic::Fix, positions: &Positions<'_>) -> Value {
    let mut changes: Vec<(String, Vec<Value>)> = Vec::new();
    for e in &f.edits {
        let r = positions.range(&e.location);
        let replacement = json!({
            "deletedRegion": {
                "startLine": r.line,
                "startColumn": r.column,
                "endLine": r.end_line,
                "endColumn": r.end_column,
            },
            "insertedContent": { "text": e.replacement },
        });
        match changes.iter_mut().find(|(file, _)| *file == r.file) {
            Some((_, list)) => list.push(replacement),
            None => changes.push((r.file.clone(), vec![replacement])),
        }
    }
    json!({
        "description": { "text": f.title },
        "artifactChanges": changes
            .into_iter()
            .map(|(uri, replacements)| json!({
                "artifactLocation": { "uri": uri },
                "replacements": replacements,
            }))
            .collect::<Vec<_>>(),
    })
}
