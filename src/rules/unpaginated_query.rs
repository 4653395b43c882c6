//! `unpaginated-query`: prose in `rules/unpaginated-query.md`.
//!
//! Two mistakes of reading one page: a Scan (or a Query over a collection the model
//! says exceeds 1 MB) sent once, which silently stops at 1 MB; and `limit(n)` next to
//! a filter, which caps the items read rather than returned.

use super::{Rule, RuleContext, RuleMeta};
use crate::expr::ExprKind;
use crate::facts::conditions::{and_terms, parse_condition_arg, Term};
use crate::facts::read_cost::{items_read, Spread, PAGE_BYTES};
use crate::facts::BoundOperation;
use crate::figures;
use crate::model::{Index, Table};
use crate::scanner::{ColdReason, OpKind, Operation};

crate::declare_rule! {
    pub UnpaginatedQuery,
    id: "unpaginated-query",
    category: Suspicious,
    summary: "a Query or Scan read as one page silently stops at 1 MB",
}

const PAGINATE_HELP: &str = "loop while the output's `last_evaluated_key()` is set, passing it to `set_exclusive_start_key`, or read every page with `.into_paginator().items().send()`";

impl Rule for UnpaginatedQuery {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        if !matches!(op.kind, OpKind::Query | OpKind::Scan)
            || op.paginated
            || op.exclusive_start_key
        {
            return;
        }
        // Tests and benches read the small tables they seeded.
        if matches!(op.context.cold, Some(ColdReason::Test | ColdReason::Bench)) {
            return;
        }
        let limit = op.limit.as_ref();
        if let (Some(limit), Some(filter)) = (limit, &op.filter) {
            let n = limit.literal.as_deref().and_then(|l| l.parse::<u64>().ok());
            let shown = n.map_or_else(|| "n".to_string(), |n| n.to_string());
            let fewer = n.map_or_else(|| "fewer".to_string(), |n| format!("fewer than {n}"));
            cx.report(
                op.file.clone(),
                limit.span,
                format!(
                    "`limit({shown})` caps the items the `{}` reads, not the items it returns: with a filter it can return {fewer} items, even none, while more match",
                    op.kind.sdk_method()
                ),
            )
            .label(op.file.clone(), filter.span, "applied after the limit")
            .help("drop the limit and read pages (`into_paginator()` or a `last_evaluated_key` loop) until enough items matched, or move the filtered attribute into the key (see `filter-instead-of-index`)");
            return;
        }
        // A limit set only on some runs (`set_limit(opts.limit)`) leaves the others
        // reading one whole page.
        if let Some(limit) = limit.filter(|l| !l.nullable) {
            // A bounded read: one page is what the code asks for, unless `n` items
            // cannot fit in 1 MB.
            let n = limit.literal.as_deref().and_then(|l| l.parse::<u64>().ok());
            let size = bound.table.and_then(|t| t.avg_item_size);
            match (n, size) {
                (Some(n), Some(s)) if (n.saturating_mul(s) as f64) > PAGE_BYTES => {}
                _ => return,
            }
        }
        truncation(cx, bound);
    }
}

/// The 1 MB finding: reported when the model shows the read can exceed a page, or for
/// a Scan when the model cannot tell (saying so).
fn truncation(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
    let op = bound.op;
    let Some(table) = bound.table else {
        if op.kind == OpKind::Scan {
            let why = bound
                .unbound
                .as_deref()
                .unwrap_or("the table is not in the model");
            report(
                cx,
                op,
                None,
                format!("{why}: assuming the table exceeds 1 MB"),
            );
        }
        return;
    };
    if op.index.is_some() && bound.index.is_none() {
        // A Scan of an index the model does not bind (`index_name(opts.index)`, maybe
        // none) still reads a whole table or index: without figures the finding never
        // rested on which one. With figures, the index might be a small sparse one.
        if op.kind == OpKind::Scan && table.item_count.is_none() && table.entities.is_empty() {
            let target = format!("`{}` or an index of it", table.name);
            let note = format!(
                "the model lacks `item-count` of table `{}`: assuming the table and its indexes exceed 1 MB",
                table.name
            );
            report(cx, op, Some(&target), note);
        }
        return;
    }
    let key_terms = match (&op.kind, &op.key_condition) {
        (OpKind::Query, Some(arg)) => match parse_condition_arg(arg, ExprKind::KeyCondition) {
            Some(Ok(c)) => and_terms(&c, &op.names).terms,
            _ => return,
        },
        (OpKind::Query, None) => return,
        _ => Vec::new(),
    };
    let target = match bound.index {
        Some(i) => format!("index `{}` of `{}`", i.name, table.name),
        None => format!("`{}`", table.name),
    };
    match items_read(table, bound.index, op, &key_terms, Spread::Largest) {
        Ok(read) => {
            let Some(bytes) = read.bytes else {
                if op.kind == OpKind::Scan {
                    let note = format!(
                        "the model declares no `avg-item-size` for `{}`: assuming the {} items exceed 1 MB",
                        table.name,
                        figures::count(read.items)
                    );
                    report(cx, op, Some(&target), note);
                } else {
                    let missing = format!("`avg-item-size` of table `{}`", table.name);
                    unknown_key_range(cx, bound, &key_terms, &target, &missing);
                }
                return;
            };
            if bytes <= PAGE_BYTES {
                return;
            }
            let what = match op.kind {
                OpKind::Scan => "the table or index holds",
                _ => "the key range holds up to",
            };
            let pages = read.pages().unwrap_or(1);
            cx.report(
                op.file.clone(),
                op.method_span,
                format!(
                    "`{}` of {target} is sent once and stops at 1 MB: {what} about {} items ({}), {} pages, and every page after the first is silently dropped",
                    op.kind.sdk_method(),
                    figures::count(read.items),
                    figures::bytes(bytes),
                    figures::group(pages)
                ),
            )
            .help(PAGINATE_HELP);
        }
        Err(missing) if op.kind == OpKind::Scan => {
            let note = format!(
                "the model lacks {}: assuming the table exceeds 1 MB",
                missing.0
            );
            report(cx, op, Some(&target), note);
        }
        Err(missing) => unknown_key_range(cx, bound, &key_terms, &target, &missing.0),
    }
}

/// A Query whose key range the model cannot size: one page silently drops what lies
/// past 1 MB, so it is flagged unless the read is bounded another way: its key
/// selects at most one item, or the code reads only the first item of the page.
fn unknown_key_range(
    cx: &mut RuleContext<'_>,
    bound: &BoundOperation<'_>,
    key_terms: &[Term],
    target: &str,
    missing: &str,
) {
    let op = bound.op;
    let Some(table) = bound.table else {
        return;
    };
    if selects_one_item(table, bound.index, key_terms) {
        return;
    }
    // `items.first()` and the like: the code wants one item, and no later page holds
    // it. With a filter the first match can lie on a later page, so that still counts.
    if op.first_item_only && op.filter.is_none() {
        return;
    }
    let pk = bound
        .index
        .map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    let index_sk = bound.index.and_then(|i| i.sort_key.as_deref());
    let eq = |attr: &str| key_terms.iter().any(|t| t.attr == attr && t.op.is_eq());
    let what = match index_sk {
        // Both of an index's keys fixed: the items that share them (an index's key,
        // unlike a table's, can repeat), not a range.
        Some(sk) if eq(sk) => format!("every item that shares one `{pk}` and one `{sk}`"),
        _ if key_terms.len() > 1 => format!("a range of the item collection of one `{pk}`"),
        _ => format!("the whole item collection of one `{pk}`"),
    };
    cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "`query` of {target} is sent once and stops at 1 MB: it reads {what}, and every item past the first page is silently dropped"
        ),
    )
    .note(format!(
        "the model lacks {missing}, so whether the key range can exceed 1 MB is unknown; with `item-count` and `avg-item-size` (and the partition key's `cardinality` or `values`) dynalint stays silent when it fits in one page"
    ))
    .help(format!(
        "{PAGINATE_HELP}; or bound the read with `limit(n)` and hand `last_evaluated_key` back to the caller"
    ));
}

/// True when the key condition pins at most one item: equality on a partition key
/// the model declares `unique`, or on every key attribute of the table itself (an
/// index's keys, a GSI's above all, can repeat).
fn selects_one_item(table: &Table, index: Option<&Index>, key_terms: &[Term]) -> bool {
    let eq = |attr: &str| key_terms.iter().any(|t| t.attr == attr && t.op.is_eq());
    let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    if !eq(pk) {
        return false;
    }
    if table.attribute(pk).is_some_and(|a| a.unique) {
        return true;
    }
    index.is_none() && table.sort_key.as_deref().is_none_or(eq)
}

/// A Scan finding without figures.
fn report(cx: &mut RuleContext<'_>, op: &Operation, target: Option<&str>, note: String) {
    let target = target.map_or_else(|| op.table_label(), str::to_string);
    let d = cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "`scan` of {target} is sent once and stops at 1 MB: every item after the first page is silently dropped"
        ),
    );
    d.note(note).help(PAGINATE_HELP);
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{model, run, Op};
    use crate::scanner::OpKind::{Query, Scan};

    const BLOG: &str = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
item-count = 5_000_000
avg-item-size = 400

[table.attributes]
PK = { type = "S", cardinality = 1_000 }
SK = "S"
facet = { type = "S", values = { USER = 0.0002, BLOG = 0.9998 } }
createdAt = "S"

[[table.index]]
name = "ByFacet"
partition-key = "facet"
sort-key = "createdAt"
projection = "ALL"

[[table.entity]]
name = "User"
count = 1_000
keys = { PK = "USER#{userID}", SK = "PROFILE" }

[[table.entity]]
name = "Blog"
count = 4_999_000
keys = { PK = "USER#{userID}", SK = "BLOG#{blogID}" }
attributes = ["facet", "createdAt"]

[[table]]
name = "Settings"
partition-key = "Key"
item-count = 200
avg-item-size = 300
[table.attributes]
Key = "S"

[[table]]
name = "Audit"
partition-key = "Id"
[table.attributes]
Id = "S"

[[table]]
name = "Events"
partition-key = "AggregateId"
sort-key = "Version"
[table.attributes]
AggregateId = "S"
Version = "N"
email = { type = "S", unique = true }
kind = "S"
postedOn = "S"

[[table.index]]
name = "ByEmail"
partition-key = "email"
projection = "ALL"

[[table.index]]
name = "ByKind"
partition-key = "kind"
projection = "ALL"

[[table.index]]
name = "ByKindTime"
partition-key = "kind"
sort-key = "postedOn"
projection = "ALL"
"#;

    /// `index_name(opts.index)`: an index the model cannot bind.
    fn unbound_index(mut op: Op) -> Op {
        op.0.index = Some(crate::scanner::Resolved::unknown("a parameter"));
        op
    }

    /// `set_limit(opts.limit)`: a limit set on some runs only.
    fn maybe_limit(mut op: Op) -> Op {
        if let Some(l) = op.0.limit.as_mut() {
            l.nullable = true;
            l.literal = None;
        }
        op
    }

    /// The code reads only the first item of the page (`items.first()`).
    fn first_item(mut op: Op) -> Op {
        op.0.first_item_only = true;
        op
    }

    fn user_query(key: &str) -> Op {
        Op::new(Query, "BlogApp")
            .key(key)
            .value(":pk", None)
            .value(":sk", Some("PROFILE"))
            .value(":b", Some("BLOG#"))
    }

    /// (case, operation, expected fragments of each finding's message, in order)
    fn cases() -> Vec<(&'static str, Op, Vec<&'static str>)> {
        vec![
            (
                "scan of a big table",
                Op::new(Scan, "BlogApp"),
                vec!["`scan` of `BlogApp` is sent once and stops at 1 MB: the table or index holds about 5,000,000 items (1.9 GB), 1,908 pages"],
            ),
            ("scan of a table that fits a page", Op::new(Scan, "Settings"), vec![]),
            (
                "scan of a table of unknown size",
                Op::new(Scan, "Audit"),
                vec!["`scan` of `Audit` is sent once and stops at 1 MB"],
            ),
            (
                "scan of a table the model does not know",
                Op::new(Scan, "Elsewhere"),
                vec!["`scan` of `Elsewhere`"],
            ),
            ("paginated scan", Op::new(Scan, "BlogApp").paginated(), vec![]),
            (
                "a scan of an index only the caller names, without figures",
                unbound_index(Op::new(Scan, "Events")),
                vec!["`scan` of `Events` or an index of it"],
            ),
            (
                "a scan of an index only the caller names, with figures",
                unbound_index(Op::new(Scan, "BlogApp")),
                vec![],
            ),
            (
                "a limit set only when the caller gives one",
                maybe_limit(Op::new(Scan, "Events").limit("n")),
                vec!["`scan` of `Events` is sent once"],
            ),
            (
                "a limit of unknown value, always set",
                Op::new(Query, "Events").key("AggregateId = :a").limit("n"),
                vec![],
            ),
            ("bounded scan", Op::new(Scan, "BlogApp").limit("10"), vec![]),
            (
                "a limit too big for one page",
                Op::new(Scan, "BlogApp").limit("10000"),
                vec!["stops at 1 MB"],
            ),
            (
                "limit with a filter",
                Op::new(Scan, "BlogApp").limit("25").filter("attribute_exists(x)"),
                vec!["`limit(25)` caps the items the `scan` reads, not the items it returns: with a filter it can return fewer than 25 items"],
            ),
            (
                "query over a user's whole collection",
                user_query("PK = :pk"),
                vec!["`query` of `BlogApp` is sent once and stops at 1 MB: the key range holds up to about 5,000 items (1.9 MB), 2 pages"],
            ),
            (
                "query of a user's blogs",
                user_query("PK = :pk AND begins_with(SK, :b)"),
                vec!["about 4,999 items"],
            ),
            ("query of one profile", user_query("PK = :pk AND SK = :sk"), vec![]),
            (
                "query of the biggest facet",
                Op::new(Query, "BlogApp").index("ByFacet").key("facet = :f").value(":f", None),
                vec!["index `ByFacet` of `BlogApp`", "about 4,998,000 items"],
            ),
            (
                "query with a literal small facet",
                Op::new(Query, "BlogApp").index("ByFacet").key("facet = :f").value(":f", Some("USER")),
                vec![],
            ),
            (
                "query with a limit: a bounded page",
                user_query("PK = :pk").limit("20"),
                vec![],
            ),
            ("query of a whole key without figures", Op::new(Query, "Audit").key("Id = :i"), vec![]),
            (
                "an aggregate's events, without figures",
                Op::new(Query, "Events").key("AggregateId = :a"),
                vec![
                    "`query` of `Events` is sent once and stops at 1 MB: it reads the whole item collection of one `AggregateId`",
                ],
            ),
            (
                "the events after a sequence, without figures",
                Op::new(Query, "Events").key("AggregateId = :a AND Version > :v"),
                vec!["it reads a range of the item collection of one `AggregateId`"],
            ),
            (
                "one event by its full key",
                Op::new(Query, "Events").key("AggregateId = :a AND Version = :v"),
                vec![],
            ),
            (
                "a GSI keyed by a unique attribute",
                Op::new(Query, "Events").index("ByEmail").key("email = :e"),
                vec![],
            ),
            (
                "a GSI keyed by a repeating attribute",
                Op::new(Query, "Events").index("ByKind").key("kind = :k"),
                vec!["index `ByKind` of `Events`", "one `kind`"],
            ),
            (
                "both keys of an index, without figures",
                Op::new(Query, "Events").index("ByKindTime").key("kind = :k AND postedOn = :d"),
                vec!["it reads every item that shares one `kind` and one `postedOn`"],
            ),
            (
                "only the first item is read",
                first_item(Op::new(Query, "Events").index("ByKind").key("kind = :k")),
                vec![],
            ),
            (
                "only the first item is read, after a filter",
                first_item(
                    Op::new(Query, "Events")
                        .index("ByKind")
                        .key("kind = :k")
                        .filter("attribute_exists(email)"),
                ),
                vec!["stops at 1 MB"],
            ),
            (
                "a bounded page without figures",
                Op::new(Query, "Events").key("AggregateId = :a").limit("1"),
                vec![],
            ),
            (
                "a paginated read without figures",
                Op::new(Query, "Events").key("AggregateId = :a").paginated(),
                vec![],
            ),
        ]
    }

    #[test]
    fn flags_single_pages_the_model_says_overflow() {
        let m = model(BLOG);
        for (case, op, want) in cases() {
            let got = run("unpaginated-query", &m, &[op]);
            assert_eq!(got.len(), want.len().min(1), "{case}: {got:#?}");
            for w in want {
                assert!(
                    got[0].message.contains(w),
                    "{case}: `{w}` not in\n{}",
                    got[0].message
                );
            }
        }
    }

    #[test]
    fn an_unsized_key_range_names_the_figures_that_decide() {
        let m = model(BLOG);
        let got = run(
            "unpaginated-query",
            &m,
            &[Op::new(Query, "Events").key("AggregateId = :a")],
        );
        let notes = format!("{:?}", got[0].notes);
        assert!(
            notes.contains("the model lacks `item-count` of table `Events`"),
            "{notes}"
        );
    }

    #[test]
    fn tests_are_not_flagged() {
        let m = model(BLOG);
        let mut op = Op::new(Scan, "BlogApp");
        op.0.context.cold = Some(crate::scanner::ColdReason::Test);
        assert!(run("unpaginated-query", &m, &[op]).is_empty());
    }
}
