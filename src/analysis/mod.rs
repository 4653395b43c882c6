//! Binds a scan's operations to the model, runs the rules, applies suppressions: the
//! one entry point ([`analyze`]) that the project host (`crate::project`) calls for
//! every front end, after it scanned the texts.

pub mod baseline;
pub mod rule_cache;
pub mod stream;
pub mod suppress;

pub use rule_cache::RuleCache;

use crate::diagnostic::sort;
use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::{bind, BoundOperation, ProjectFacts};
use crate::model::Model;
use crate::rules::{Rule, RuleContext, RuleSelection, REGISTRY};
use crate::scanner::{self, Operation, ScanProblem};
use crate::source::SourceFile;
use crate::workspace::OtherSources;

/// The result of analysing a set of files against a model.
#[derive(Debug, Default)]
pub struct Analysis {
    pub operations: Vec<Operation>,
    /// Sorted by (file, offset, rule); suppressions applied.
    pub diagnostics: Vec<Diagnostic>,
    pub problems: Vec<ScanProblem>,
    /// What the scan worked on and its phases' times.
    pub scan_stats: scanner::ScanStats,
    /// Time spent running the rules and applying suppressions.
    pub rules_time: std::time::Duration,
}

/// What an analysis reads besides the scan: the model, the texts, the rules to run.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    pub model: &'a Model,
    /// The texts rules and allow comments read: every file scanned, or with a
    /// streamed scan (`stream::scan_paths`) only those kept or read again.
    pub files: &'a [SourceFile],
    /// How many files were scanned (`files.len()` unless streamed).
    pub checked: usize,
    /// The project's sources in other languages that name DynamoDB (code that may
    /// read the tables too; see [`crate::workspace::Sources::other_languages`]).
    pub other_languages: &'a [OtherSources],
    pub selection: &'a RuleSelection,
}

impl<'a> Input<'a> {
    /// An input whose texts are every file scanned, with no other languages.
    pub fn new(model: &'a Model, files: &'a [SourceFile], selection: &'a RuleSelection) -> Self {
        Self {
            model,
            files,
            checked: files.len(),
            other_languages: &[],
            selection,
        }
    }
}

/// The one entry point: binds every operation of `scanned` to the model, runs the
/// selected rules and applies `// dynalint: allow(..)` comments. With `cache`, the
/// rules' per-operation findings are reused where an operation is unchanged (see
/// [`RuleCache`]: the editor's project keeps one between runs).
pub fn analyze(
    input: Input<'_>,
    scanned: scanner::ScanResult,
    cache: Option<&mut RuleCache>,
) -> Analysis {
    let texts = Texts {
        files: input.files,
        checked: input.checked,
    };
    finish_with(
        input.model,
        texts,
        input.other_languages,
        scanned,
        input.selection,
        cache,
    )
}

/// The texts the rules and suppressions read, and how many files were checked.
#[derive(Clone, Copy)]
struct Texts<'a> {
    files: &'a [SourceFile],
    checked: usize,
}

fn finish_with(
    model: &Model,
    texts: Texts<'_>,
    other_languages: &[OtherSources],
    scanned: scanner::ScanResult,
    selection: &RuleSelection,
    cache: Option<&mut RuleCache>,
) -> Analysis {
    let started = std::time::Instant::now();
    let files = texts.files;
    let (findings, allows) = match cache {
        Some(c) => (Some(&mut c.findings), Some(&mut c.allows)),
        None => (None, None),
    };
    let mut diagnostics = run_rules_with(
        model,
        texts,
        other_languages,
        (&scanned.operations, &scanned.reused),
        &scanned.unique_columns,
        selection,
        findings,
    );
    diagnostics = match allows {
        Some(a) => {
            suppress::apply_cached(files, &scanned.operations, diagnostics, selection, model, a)
        }
        None => suppress::apply(files, &scanned.operations, diagnostics, selection, model),
    };
    guessed_keys_warn(model, &scanned.operations, &mut diagnostics);
    sort(&mut diagnostics);
    dedup(&mut diagnostics);
    Analysis {
        operations: scanned.operations,
        diagnostics,
        problems: scanned.problems,
        scan_stats: scanned.stats,
        rules_time: started.elapsed(),
    }
}

/// A table declared nowhere, whose key is inferred from the calls being checked
/// (`infer::usage`), is a guess: an error about a call bound to it, or naming it, is
/// a warning that says so.
fn guessed_keys_warn(model: &Model, operations: &[Operation], diagnostics: &mut [Diagnostic]) {
    use crate::model::OriginKind;
    let guessed = |name: &str| {
        model
            .tables
            .iter()
            .any(|t| t.name == name && t.origin.kind == OriginKind::Usage)
    };
    if !model
        .tables
        .iter()
        .any(|t| t.origin.kind == OriginKind::Usage)
    {
        return;
    }
    fn calls<'m>(
        model: &'m Model,
        ops: &'m [Operation],
        out: &mut Vec<(crate::source::Location, &'m str)>,
        depth: usize,
    ) {
        for op in ops {
            if let Some(t) = bind(model, op).table {
                out.push((
                    crate::source::Location::new(op.file.clone(), op.span),
                    &t.name,
                ));
            }
            if depth < 4 {
                calls(model, &op.children, out, depth + 1);
            }
        }
    }
    let mut bound = Vec::new();
    calls(model, operations, &mut bound, 0);
    bound.retain(|(_, t)| guessed(t));
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.severity == Severity::Error)
    {
        let at = &d.location;
        let on_call = bound.iter().find(|(l, _)| {
            l.file == at.file && l.span.start <= at.span.start && at.span.end <= l.span.end
        });
        let table = on_call.map(|(_, t)| t.to_string()).or_else(|| {
            model
                .tables
                .iter()
                .find(|t| guessed(&t.name) && d.message.contains(&format!("`{}`", t.name)))
                .map(|t| t.name.clone())
        });
        if let Some(t) = table {
            d.severity = Severity::Warning;
            d.notes.push(format!(
                "no file declares `{t}`: its key is inferred from how the code uses it, so this is a warning; declare the table (`dynalint init` writes a `dynalint.toml` to check) to make it an error"
            ));
        }
    }
}

/// Drops a finding identical to one already kept (sorted input): a builder one helper
/// returns and two callers send the same way is two operations with one place and one
/// message, and one finding is what the reader needs.
fn dedup(diagnostics: &mut Vec<Diagnostic>) {
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for d in diagnostics.drain(..) {
        let seen = kept
            .iter()
            .rev()
            .take_while(|k| k.sort_key() == d.sort_key())
            .any(|k| *k == d);
        if !seen {
            kept.push(d);
        }
    }
    *diagnostics = kept;
}

/// Runs every enabled rule over the model and the operations (the rules' own tests).
#[cfg(test)]
pub(crate) fn run_rules(
    model: &Model,
    operations: &[Operation],
    selection: &RuleSelection,
) -> Vec<Diagnostic> {
    let texts = Texts {
        files: &[],
        checked: 0,
    };
    run_rules_with(model, texts, &[], (operations, &[]), &[], selection, None)
}

fn run_rules_with(
    model: &Model,
    texts: Texts<'_>,
    other_languages: &[OtherSources],
    (operations, reused): (&[Operation], &[bool]),
    unique_columns: &[scanner::UniqueColumn],
    selection: &RuleSelection,
    cache: Option<&mut rule_cache::FindingCache>,
) -> Vec<Diagnostic> {
    let mut bound: Vec<BoundOperation<'_>> = Vec::new();
    // Whether each bound operation is one the last run had (its children with it).
    let mut bound_reused: Vec<bool> = Vec::new();
    for (i, op) in operations.iter().enumerate() {
        push_bound(model, op, &mut bound);
        let kept = reused.get(i).copied().unwrap_or(false);
        bound_reused.resize(bound.len(), kept);
    }
    let facts = ProjectFacts {
        model,
        operations: &bound,
        files: texts.files,
        checked_files: texts.checked,
        other_languages,
        unique_columns,
    };
    let mut per_op = cache.map(|c| c.findings(model, &bound, &bound_reused, selection));
    let mut out = Vec::new();
    for (i, rule) in REGISTRY.iter().enumerate() {
        let Some(severity) = selection.severity(rule.meta(), model) else {
            continue;
        };
        let mut cx = RuleContext::new(model, *rule, severity);
        rule.check_model(&mut cx, model);
        out.extend(cx.into_diagnostics());
        match &mut per_op {
            None => out.extend(check_operations(model, *rule, severity, &bound)),
            Some(findings) => {
                for f in findings.iter_mut() {
                    if let Some(found) = f.get_mut(i) {
                        out.append(found);
                    }
                }
            }
        }
        let mut cx = RuleContext::new(model, *rule, severity);
        rule.check_project(&mut cx, &facts);
        out.extend(cx.into_diagnostics());
    }
    out
}

/// A rule's findings on every operation, in the operations' order. Rules are pure
/// (`Rule: Sync`), so runs of operations are checked in parallel, each with a context
/// of its own, and their findings joined in order: a file of 40,000 calls spent a
/// fifth of its wall time here on one core while the other waited.
fn check_operations(
    model: &Model,
    rule: &dyn Rule,
    severity: Severity,
    bound: &[BoundOperation<'_>],
) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    // Runs large enough that a run's set-up (a context, a list) is nothing beside it.
    const RUN: usize = 256;
    let check = |run: &[BoundOperation<'_>]| {
        let mut cx = RuleContext::new(model, rule, severity);
        for b in run {
            rule.check_operation(&mut cx, b);
        }
        cx.into_diagnostics()
    };
    if bound.len() <= RUN {
        return check(bound);
    }
    let runs: Vec<Vec<Diagnostic>> = bound.par_chunks(RUN).map(check).collect();
    runs.into_iter().flatten().collect()
}

/// Binds an operation and, recursively, the requests inside a batch or transaction.
fn push_bound<'a>(model: &'a Model, op: &'a Operation, out: &mut Vec<BoundOperation<'a>>) {
    out.push(bind(model, op));
    for child in &op.children {
        let at = out.len();
        push_bound(model, child, out);
        if let Some(b) = out.get_mut(at) {
            b.parent = Some(op.kind);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::ScanSettings;

    /// Runs of operations checked in parallel give every rule's findings in the order
    /// one run over all of them gives.
    #[test]
    fn operations_checked_in_runs_find_what_one_run_finds() {
        let model = crate::model::load_str(
            std::path::Path::new("dynalint.toml"),
            "[[table]]\nname = \"events\"\npartition-key = \"pk\"\nsort-key = \"sk\"\n\
             [table.attributes]\npk = \"S\"\nsk = \"S\"\n",
        )
        .expect("model loads");
        // Calls that are fine, and calls DynamoDB rejects (no sort key, an unused
        // placeholder), mixed so that every run holds some of each.
        let calls: String = (0..700)
            .map(|i| match i % 3 {
                0 => format!(
                    "    c.get_item().table_name(\"events\").key(\"pk\", S(id.into())).key(\"sk\", S(\"v{i}\".into())).send().await;\n"
                ),
                1 => "    c.get_item().table_name(\"events\").key(\"pk\", S(id.into())).send().await;\n"
                    .to_string(),
                _ => "    c.query().table_name(\"events\").key_condition_expression(\"pk = :p\").expression_attribute_values(\":q\", S(id.into())).send().await;\n"
                    .to_string(),
            })
            .collect();
        let text = format!("async fn f(c: &Client, id: &str) {{\n{calls}}}\n");
        let file = SourceFile::new("src/lib.rs", text);
        let scanned = scanner::scan(&[file], &ScanSettings::default());
        let mut bound = Vec::new();
        for op in &scanned.operations {
            push_bound(&model, op, &mut bound);
        }
        assert!(bound.len() > 2 * 256, "{}", bound.len());
        let mut found = 0;
        for rule in REGISTRY {
            let mut cx = RuleContext::new(&model, *rule, Severity::Error);
            for b in &bound {
                rule.check_operation(&mut cx, b);
            }
            let one_run = cx.into_diagnostics();
            let runs = check_operations(&model, *rule, Severity::Error, &bound);
            assert_eq!(
                format!("{runs:?}"),
                format!("{one_run:?}"),
                "{}",
                rule.meta().id
            );
            found += runs.len();
        }
        assert!(found > 256, "{found}");
    }
}
