//! `dynalint rules` and `dynalint explain`.

use serde_json::json;

use super::args::{ExplainArgs, ListFormat, RulesArgs};
use super::out::{out, outln};
use super::{EXIT_ERROR, EXIT_OK};
use crate::rules::{self, RuleMeta, REGISTRY, UNUSED_ALLOW};

/// The doc page of the pipeline's own `unused-allow` finding.
pub const UNUSED_ALLOW_DOC: &str = include_str!("../../rules/unused-allow.md");

fn default_level(meta: &RuleMeta) -> &'static str {
    meta.category
        .default_severity()
        .map_or("off", |s| s.as_str())
}

pub(super) fn rules(args: RulesArgs) -> i32 {
    let metas: Vec<(&RuleMeta, bool)> = REGISTRY.iter().map(|r| (r.meta(), r.fixable())).collect();
    match args.format {
        ListFormat::Json => {
            let mut v: Vec<_> = metas
                .iter()
                .map(|(m, fixable)| json!({"id": m.id, "category": m.category.as_str(), "default_level": default_level(m), "fixable": fixable, "summary": m.summary}))
                .collect();
            v.push(
                json!({"id": UNUSED_ALLOW, "category": "suspicious", "default_level": "warning", "fixable": true,
                "summary": "a `dynalint: allow(..)` comment that suppresses nothing"}),
            );
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        ListFormat::Human => {
            let w = metas
                .iter()
                .map(|(m, _)| m.id.len())
                .max()
                .unwrap_or(0)
                .max(UNUSED_ALLOW.len());
            outln!(
                "{:w$}  {:11}  {:7}  {:7}  summary",
                "rule",
                "category",
                "default",
                "fixable"
            );
            for (m, fixable) in &metas {
                outln!(
                    "{:w$}  {:11}  {:7}  {:7}  {}",
                    m.id,
                    m.category.as_str(),
                    default_level(m),
                    if *fixable { "yes" } else { "" },
                    m.summary
                );
            }
            let (cat, level, summary) = (
                "suspicious",
                "warning",
                "a `dynalint: allow(..)` comment that suppresses nothing",
            );
            outln!(
                "{UNUSED_ALLOW:w$}  {cat:11}  {level:7}  {:7}  {summary}",
                "yes"
            );
            outln!("\nrun `dynalint explain <rule>` for a rule's documentation");
        }
    }
    EXIT_OK
}

pub(super) fn explain(args: ExplainArgs) -> i32 {
    if args.rule == UNUSED_ALLOW {
        out!("{UNUSED_ALLOW_DOC}");
        return EXIT_OK;
    }
    match rules::find(&args.rule) {
        Some(r) => {
            out!("{}", r.meta().doc);
            EXIT_OK
        }
        None => {
            let best = REGISTRY
                .iter()
                .map(|r| r.meta().id)
                .max_by(|a, b| {
                    strsim::jaro_winkler(&args.rule, a)
                        .total_cmp(&strsim::jaro_winkler(&args.rule, b))
                })
                .filter(|b| strsim::jaro_winkler(&args.rule, b) > 0.8);
            eprintln!("error: no rule named `{}`", args.rule);
            match best {
                Some(b) => eprintln!("  = help: did you mean `{b}`?"),
                None => eprintln!("  = help: `dynalint rules` lists every rule"),
            }
            EXIT_ERROR
        }
    }
}
