//! `unused-index`: prose in `rules/unused-index.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::Severity;
use crate::facts::figures::{bytes, group};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::model::{Index, OriginKind, Projection, Table};

crate::declare_rule! {
    pub UnusedIndex,
    id: "unused-index",
    category: Perf,
    summary: "a secondary index that no code and no access pattern reads: write cost for nothing",
}

impl Rule for UnusedIndex {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        for table in &facts.model.tables {
            let on_table: Vec<&BoundOperation<'_>> = facts
                .operations
                .iter()
                .filter(|b| b.table.is_some_and(|t| std::ptr::eq(t, table)))
                .collect();
            // Without any call on the table the code that reads it may not be in view
            // (one file in an editor, a library checked alone). When the project's code
            // is (several files, calls on other tables, none on a table not known), the
            // whole table is unused: its indexes are said unread, as a note.
            if on_table.is_empty() {
                // Inferred from a template that may declare every service's tables
                // (one Terraform file for a monorepo): the reader may be another
                // service. A table the checked code creates is its own.
                let declared_here = matches!(
                    table.origin.kind,
                    OriginKind::DynalintToml | OriginKind::RustCode
                );
                if declared_here && project_in_view(facts) {
                    for index in &table.indexes {
                        if !read_by_code(facts, index) && !read_by_pattern(facts, table, index) {
                            report(cx, facts, table, index);
                            if let Some(d) = cx.last_mut() {
                                d.severity = Severity::Info.min(d.severity);
                                d.note(format!("no checked code calls `{}` at all", table.name));
                            }
                        }
                    }
                }
                continue;
            }
            // An index name the scanner could not resolve may be any index.
            if on_table
                .iter()
                .any(|b| b.op.index.as_ref().is_some_and(|i| i.value().is_none()))
            {
                continue;
            }
            for index in &table.indexes {
                if !read_by_code(facts, index) && !read_by_pattern(facts, table, index) {
                    report(cx, facts, table, index);
                }
            }
        }
    }
}

/// Several files checked, calls bound to tables of the model, and no request whose
/// table is not known (it could be any table).
fn project_in_view(facts: &ProjectFacts<'_>) -> bool {
    facts.checked_files > 1
        && facts.operations.iter().any(|b| b.table.is_some())
        && facts
            .operations
            .iter()
            .all(|b| b.table.is_some() || !b.op.children.is_empty())
}

/// Any call naming the index, including calls whose table is not resolved (they may
/// be on this table).
fn read_by_code(facts: &ProjectFacts<'_>, index: &Index) -> bool {
    facts.operations.iter().any(|b| {
        b.op.index
            .as_ref()
            .and_then(|i| i.value())
            .is_some_and(|name| name == index.name)
    })
}

/// `TypeScript sources (3 files that name DynamoDB, e.g. web/api.ts)`, when the
/// project holds code in other languages that may read the tables.
fn unchecked_sources(facts: &ProjectFacts<'_>) -> Option<String> {
    let first = facts.other_languages.first()?;
    let languages: Vec<&str> = facts.other_languages.iter().map(|o| o.language).collect();
    let files: usize = facts.other_languages.iter().map(|o| o.files.len()).sum();
    let example = first
        .files
        .first()
        .map(|p| format!(", e.g. {}", crate::workspace::display_path(p)))
        .unwrap_or_default();
    Some(format!(
        "{} sources ({files} {} DynamoDB{example})",
        languages.join(" and "),
        if files == 1 {
            "file that names"
        } else {
            "files that name"
        }
    ))
}

fn read_by_pattern(facts: &ProjectFacts<'_>, table: &Table, index: &Index) -> bool {
    facts
        .model
        .access_patterns
        .iter()
        .any(|p| table.is_named_by(&p.table) && p.index.as_deref() == Some(index.name.as_str()))
}

fn report(cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>, table: &Table, index: &Index) {
    let path = table.origin.path.clone();
    // Only what the model says: without `item-count` (or counted entities) the number
    // of entries is not known.
    let stored = match (
        &index.projection,
        table.items_in(Some(index)),
        table.avg_item_size,
    ) {
        (Projection::All, Some(items), Some(size)) => format!(
            ": it keeps a copy of {} items ({}) and charges a write of each item again",
            group(items),
            bytes(items.saturating_mul(size) as f64)
        ),
        (_, Some(items), _) => format!(
            ": it keeps {} index entries and charges an extra write on every change to them",
            group(items)
        ),
        _ => ": every write of an item that carries its key attributes is written again to it"
            .to_string(),
    };
    let unchecked = unchecked_sources(facts);
    let message = match &unchecked {
        None => format!(
            "index `{}` of `{}` is never read by the code or an access pattern{stored}",
            index.name, table.name
        ),
        Some(others) => format!(
            "index `{}` of `{}` is not read by the Rust code dynalint checked or an access \
             pattern, but the repository's {others} were not checked and may read it",
            index.name, table.name
        ),
    };
    let d = cx.report(path.clone(), index.name_span, message);
    if unchecked.is_some() {
        // It cannot claim the index is unused: a hint, not a warning.
        d.severity = Severity::Info.min(d.severity);
        d.note(format!(
            "checked: {} Rust file{} and the `[[access-pattern]]`s of dynalint.toml",
            facts.checked_files,
            if facts.checked_files == 1 { "" } else { "s" }
        ));
    }
    d.note(
        "an index write costs WCU like a table write (1 WCU per 1 KB of the projected item), \
         and a throttled index throttles the table's writes",
    );
    d.help(match unchecked {
        None => format!(
            "drop `{}`, or declare the `[[access-pattern]]` it serves",
            index.name
        ),
        Some(_) => format!(
            "if no other code reads `{}`, drop it; if some does, declare the \
             `[[access-pattern]]` it serves",
            index.name
        ),
    });
    if let Some(span) = index.fields.get("partition-key") {
        d.label(
            path,
            span,
            format!("written for every item with `{}`", index.partition_key),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::scanner::{OpKind, Resolved};

    const MODEL: &str = r#"
[[table]]
name = "Users"
partition-key = "id"
item-count = 1_000_000
avg-item-size = 500
[table.attributes]
id = "S"
email = "S"
team = "S"
[[table.index]]
name = "ByEmail"
partition-key = "email"
[[table.index]]
name = "ByTeam"
partition-key = "team"
[[access-pattern]]
name = "members of a team"
table = "Users"
index = "ByTeam"
key = { team = "{team}" }
"#;

    #[test]
    fn an_index_nothing_reads() {
        let m = model(MODEL);
        let get = op(OpKind::GetItem, "Users");
        let d = run_ops(&m, "unused-index", std::slice::from_ref(&get));
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(d[0].message.starts_with(
            "index `ByEmail` of `Users` is never read by the code or an access pattern: it \
             keeps a copy of 1,000,000 items (476.8 MB)"
        ));
        let mut q = op(OpKind::Query, "Users");
        q.index = Some(Resolved::literal("ByEmail"));
        assert!(run_ops(&m, "unused-index", &[get.clone(), q]).is_empty());
    }

    #[test]
    fn quiet_when_the_code_is_not_in_view_or_unresolved() {
        let m = model(MODEL);
        assert!(run_ops(&m, "unused-index", &[]).is_empty());
        let mut q = op(OpKind::Query, "Users");
        q.index = Some(Resolved::unknown("a parameter"));
        assert!(run_ops(&m, "unused-index", &[q]).is_empty());
    }
}
