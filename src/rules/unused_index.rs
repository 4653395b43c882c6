//! `unused-index`: prose in `rules/unused-index.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Cost, Severity};
use crate::facts::call_cost;
use crate::facts::spend::{finding_cost, mode_of, storage_monthly, CallRate, Priced};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures::{bytes, group};
use crate::model::{Index, Model, OriginKind, Presence, Projection, Table};
use crate::pricing::{dollars, Prices, UnitsPerSecond};
use crate::scanner::OpKind;

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
                    let unknown_writes = facts
                        .operations
                        .iter()
                        .filter(|b| b.table.is_none() && b.op.kind.is_write())
                        .count();
                    for index in &table.indexes {
                        if !read_by_code(facts, table, index)
                            && !read_by_pattern(facts, table, index)
                        {
                            report(cx, facts, table, index);
                            if let Some(d) = cx.last_mut() {
                                d.severity = Severity::Info.min(d.severity);
                                d.note(match unknown_writes {
                                    0 => format!("no checked code calls `{}` at all", table.name),
                                    n => format!(
                                        "no checked call is known to be on `{}`; {n} write{} \
                                         whose table is not known may write it, but no read \
                                         can reach an index",
                                        table.name,
                                        if n == 1 { "" } else { "s" }
                                    ),
                                });
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
                if !read_by_code(facts, table, index) && !read_by_pattern(facts, table, index) {
                    report(cx, facts, table, index);
                }
            }
        }
    }
}

/// Several files checked, calls bound to tables of the model, and no request that could
/// read an index whose table is not known (it could be any table). A write whose table
/// is not known (a transaction of items built elsewhere) reads no index.
fn project_in_view(facts: &ProjectFacts<'_>) -> bool {
    facts.checked_files > 1
        && facts.operations.iter().any(|b| b.table.is_some())
        && facts.operations.iter().all(|b| {
            b.table.is_some() || !b.op.children.is_empty() || !may_read_an_index(b.op.kind)
        })
}

/// Only a Query, a Scan or a PartiQL statement (`SELECT .. FROM "t"."index"`) reads an
/// index.
fn may_read_an_index(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::Query | OpKind::Scan | OpKind::ExecuteStatement
    )
}

/// A call naming the index on this table, or on a table that is not resolved (it may be
/// this one). Index names are per table: three tables may each have a `CityCodeIndex`,
/// and reading one of them reads neither of the others. A table the code creates under
/// a name pattern (`format!("test-table-{}", id)`) is many tables at run time, and any
/// call may be on one of them.
fn read_by_code(facts: &ProjectFacts<'_>, table: &Table, index: &Index) -> bool {
    let named_by_pattern = table.name.contains('{');
    facts.operations.iter().any(|b| {
        let this_table = named_by_pattern
            || match b.table {
                Some(t) => std::ptr::eq(t, table),
                None => b.op.table.as_ref().is_none_or(|t| t.value().is_none()),
            };
        this_table
            && b.op
                .index
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
    let line = cost_line(cx.model, table, index);
    let d = cx.report(path.clone(), index.name_span, message);
    d.cost(line);
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

/// What the index costs a month: a write of each entry at the writes per second that
/// reach it (the model's `write-rate`s, else one a second), and its storage; dropping
/// it saves both.
fn cost_line(model: &Model, table: &Table, index: &Index) -> Cost {
    let prices = Prices::for_model(model);
    let mode = mode_of(Some(table));
    let share = match (table.items_in(Some(index)), table.items_in(None)) {
        (Some(i), Some(t)) if t > 0 => (i as f64 / t as f64).min(1.0),
        _ => 1.0,
    };
    // Writes reaching the index: each entity's `write-rate` where its items land in it,
    // else the table's spread by the index's share of the items.
    let rated: Vec<(f64, Presence)> = table
        .entities
        .iter()
        .filter_map(|e| Some((e.write_rate?, e.presence_in(table, index))))
        .collect();
    let rate = if !rated.is_empty() {
        CallRate {
            per_second: rated
                .iter()
                .map(|(r, p)| match p {
                    Presence::Absent => 0.0,
                    _ => *r,
                })
                .sum(),
            from: Some(format!(
                "the `write-rate`s of table `{}`'s entities that it holds",
                table.name
            )),
            what: "writes",
        }
    } else if let Some(r) = table.write_rate {
        CallRate {
            per_second: r * share,
            from: Some(format!(
                "the `write-rate` of table `{}`, for the items it holds",
                table.name
            )),
            what: "writes",
        }
    } else {
        CallRate::unit("writes")
    };
    let size = table.avg_item_size.map(|s| s as f64);
    let entry = match (&index.projection, size) {
        (Projection::All, Some(s)) => Some((s / call_cost::WRITE_UNIT_BYTES).ceil().max(1.0)),
        (Projection::All, None) => None,
        // Keys and included attributes: an entry under 1 KB is one unit.
        _ => Some(1.0),
    };
    let lacks = [format!("`avg-item-size` of table `{}`", table.name)];
    let units = entry.map(|u| UnitsPerSecond {
        write: u,
        ..UnitsPerSecond::default()
    });
    let writes = Priced::calls(&prices, Some(table), units, &lacks, rate.per_second);
    let storage = match (&index.projection, size, table.items_in(Some(index))) {
        (Projection::All, Some(s), Some(n)) => storage_monthly(&prices, Some(table), n as f64, s),
        (Projection::All, _, None) => Err(format!("`item-count` of table `{}`", table.name)),
        (Projection::All, None, _) => Err(lacks[0].clone()),
        _ => Err(format!(
            "the size of `{}`'s entries (its projection is not `ALL`)",
            index.name
        )),
    };
    let storage_text = match &storage {
        Ok(d) => format!("its storage {} a month", dollars(*d)),
        Err(e) => format!("its storage not known (needs {e})"),
    };
    let total = writes.clone().plus_storage(storage);
    let text = format!(
        "its writes cost {} {}, {storage_text}; dropping it saves {}",
        writes.text(mode),
        rate.describe(),
        total
            .dollars(mode)
            .map_or_else(|| "both".to_string(), |d| format!("{d} a month")),
    );
    let dropped = Priced {
        monthly: Some(crate::pricing::Monthly {
            on_demand: Some(0.0),
            provisioned: Some(0.0),
            target_utilization: prices.target_utilization,
            ..Default::default()
        }),
        missing: Vec::new(),
    };
    finding_cost(text, &rate, mode, &total, Some(&dropped), None)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::OpKind;
    use crate::scanner::Resolved;

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

    /// `Houses` and a second table, each with its own `CityCodeIndex`.
    fn houses_and(second: &str) -> String {
        ["Houses", second]
            .iter()
            .map(|name| {
                format!(
                    "[[table]]\nname = \"{name}\"\npartition-key = \"id\"\n\
                     [table.attributes]\nid = \"S\"\ncity = \"S\"\n\
                     [[table.index]]\nname = \"CityCodeIndex\"\npartition-key = \"city\"\n"
                )
            })
            .collect()
    }

    /// Three tables of one app each have a `CityCodeIndex`; querying two of them does
    /// not read the third's.
    #[test]
    fn an_index_of_the_same_name_on_another_table_is_another_index() {
        let m = model(&houses_and("Requirements"));
        let mut q = op(OpKind::Query, "Houses");
        q.index = Some(Resolved::literal("CityCodeIndex"));
        let get = op(OpKind::GetItem, "Requirements");
        let d = run_ops(&m, "unused-index", &[q.clone(), get]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(d[0]
            .message
            .starts_with("index `CityCodeIndex` of `Requirements` is never read"));
        // A query whose table is not known may be on `Requirements`.
        let mut any = op(OpKind::Query, "Requirements");
        any.table = Some(Resolved::unknown("a parameter"));
        any.index = Some(Resolved::literal("CityCodeIndex"));
        let get = op(OpKind::GetItem, "Requirements");
        assert!(run_ops(&m, "unused-index", &[q.clone(), get, any]).is_empty());
        // A table created under a name pattern is many tables at run time: the query
        // may be on one of them.
        let m = model(&houses_and("test-houses-{1}"));
        let put = op(OpKind::PutItem, "test-houses-{1}");
        assert!(run_ops(&m, "unused-index", &[q, put]).is_empty());
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
