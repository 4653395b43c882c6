//! `unpaginated-query`: prose in `rules/unpaginated-query.md`.
//!
//! Two mistakes of reading one page: a Scan (or a Query over a collection the model
//! says exceeds 1 MB) sent once, which silently stops at 1 MB; and `limit(n)` next to
//! a filter, which caps the items read rather than returned.
//!
//! A Query over an item collection nothing sizes is a question, not a proven defect:
//! it is asked once per table and index, listing the calls ([`check_project`]), and a
//! call is warned of on its own only when the code shows that the collection grows
//! past any bound (a write that adds an item per value of the sort key, or a function
//! that lists the whole collection).

use std::collections::BTreeMap;

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::Severity;
use crate::expr::ExprKind;
use crate::facts::conditions::{and_terms, parse_condition_arg, Term};
use crate::facts::key_access::written;
use crate::facts::key_shape::{key_shape, KeyShape};
use crate::facts::read_cost::{items_read, Spread, PAGE_BYTES};
use crate::facts::unique_columns::declared_unique;
use crate::facts::unwritten_keys::unwritten_keys;
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures;
use crate::model::{Index, Table};
use crate::scanner::{ColdReason, OpKind, Operation, Provenance, UniqueColumn};

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
        if misses_key_schema(bound) {
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

    /// The Queries whose key range nothing sizes, per table and index: a call the code
    /// shows can pass a page is warned of; the others are one question.
    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        let mut by_target: BTreeMap<(&str, Option<&str>), Vec<Unsized<'_>>> = BTreeMap::new();
        for q in facts
            .operations
            .iter()
            .filter_map(|b| unsized_query(b, facts.unique_columns))
        {
            let key = (
                q.table.name.as_str(),
                q.bound.index.map(|i| i.name.as_str()),
            );
            by_target.entry(key).or_default().push(q);
        }
        for qs in by_target.values_mut() {
            // An index no write fills has no second page (`unserved-access-pattern`
            // says it finds nothing).
            let empty = qs.first().is_some_and(|q| {
                q.bound
                    .index
                    .is_some_and(|i| unwritten_keys(facts, q.table, i).is_some())
            });
            if empty {
                continue;
            }
            qs.sort_by(|a, b| {
                (&a.bound.op.file, a.bound.op.span.start)
                    .cmp(&(&b.bound.op.file, b.bound.op.span.start))
            });
            let mut asked: Vec<&Unsized<'_>> = Vec::new();
            for q in qs.iter() {
                if replaced_on_write(facts, q) {
                    continue;
                }
                match growth(facts, q) {
                    Some(why) => growing(cx, q, why),
                    None => asked.push(q),
                }
            }
            ask(cx, facts, &asked);
        }
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
    let key_terms = match op.kind {
        OpKind::Query => match widest_key_terms(op) {
            Some(terms) => terms,
            None => return,
        },
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
                }
                // A Query's unsized key range: judged with the others on its table
                // (`check_project`).
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
        // Judged with the other Queries of its table (`check_project`).
        Err(_) => {}
    }
}

/// A Query, sent once, over a key range the model cannot size: one page silently
/// drops what lies past 1 MB, unless the read is bounded another way (its key selects
/// at most one item, or the code reads only the first item of the page).
struct Unsized<'a> {
    bound: &'a BoundOperation<'a>,
    table: &'a Table,
    /// The figure the model lacks (`` `item-count` of table `Events` ``).
    missing: String,
    /// The key condition's terms.
    key_terms: Vec<Term>,
}

impl Unsized<'_> {
    fn partition_key(&self) -> &str {
        self.bound
            .index
            .map_or(&self.table.partition_key, |i| &i.partition_key)
    }

    fn sort_key(&self) -> Option<&str> {
        match self.bound.index {
            Some(i) => i.sort_key.as_deref(),
            None => self.table.sort_key.as_deref(),
        }
    }

    fn target(&self) -> String {
        match self.bound.index {
            Some(i) => format!("index `{}` of `{}`", i.name, self.table.name),
            None => format!("`{}`", self.table.name),
        }
    }

    /// "the whole item collection of one `pk`", or a range of it; with both of an
    /// index's keys fixed, the items that share them (an index's key, unlike a
    /// table's, can repeat), not a range.
    fn what(&self) -> String {
        let pk = self.partition_key();
        let eq = |attr: &str| {
            self.key_terms
                .iter()
                .any(|t| t.attr == attr && t.op.is_eq())
        };
        let index_sk = self.bound.index.and_then(|i| i.sort_key.as_deref());
        if let Some(sk) = index_sk.filter(|sk| eq(sk)) {
            format!("every item that shares one `{pk}` and one `{sk}`")
        } else if self.key_terms.len() > 1 {
            format!("a range of the item collection of one `{pk}`")
        } else {
            format!("the whole item collection of one `{pk}`")
        }
    }
}

/// The Query `bound` when it is one whose key range nothing sizes (see [`Unsized`]);
/// `unique`: the columns the project's ORM schema declares unique.
fn unsized_query<'a>(
    bound: &'a BoundOperation<'a>,
    unique: &[UniqueColumn],
) -> Option<Unsized<'a>> {
    let op = bound.op;
    // A limit bounds the read (or is reported with its filter): see `check_operation`.
    if op.kind != OpKind::Query
        || op.paginated
        || op.exclusive_start_key
        || op.limit.as_ref().is_some_and(|l| !l.nullable)
    {
        return None;
    }
    if matches!(op.context.cold, Some(ColdReason::Test | ColdReason::Bench)) {
        return None;
    }
    let table = bound.table?;
    if op.index.is_some() && bound.index.is_none() {
        return None;
    }
    if misses_key_schema(bound) {
        return None;
    }
    let key_terms = widest_key_terms(op)?;
    let missing = match items_read(table, bound.index, op, &key_terms, Spread::Largest) {
        Ok(read) if read.bytes.is_some() => return None,
        Ok(_) => format!("`avg-item-size` of table `{}`", table.name),
        Err(missing) => missing.0,
    };
    if selects_one_item(table, bound.index, &key_terms, unique) {
        return None;
    }
    // `items.first()` and the like: the code wants one item, and no later page holds
    // it. With a filter the first match can lie on a later page, so that still counts.
    if op.first_item_only && op.filter.is_none() {
        return None;
    }
    Some(Unsized {
        bound,
        table,
        missing,
        key_terms,
    })
}

/// The terms of a Query's key condition. Built on several paths (`push_str` in an
/// `if`), those of the path that reads the most: the fewest terms, which the other
/// paths narrow (`pk = :pk` beside `pk = :pk AND sk >= :s`). Unknown when any path's
/// text is not a key condition.
fn widest_key_terms(op: &Operation) -> Option<Vec<Term>> {
    let arg = op.key_condition.as_deref()?;
    if arg.paths.is_empty() {
        return match parse_condition_arg(arg, ExprKind::KeyCondition)? {
            Ok(c) => Some(and_terms(&c, &op.names).terms),
            Err(_) => None,
        };
    }
    let mut paths = Vec::with_capacity(arg.paths.len());
    for text in arg.paths.iter() {
        let c = crate::expr::parse_condition(text, ExprKind::KeyCondition).ok()?;
        paths.push(and_terms(&c, &op.names).terms);
    }
    paths.into_iter().min_by_key(Vec::len)
}

/// Whether a Query's key condition, read whole (one text, every `#name` known), is not
/// one DynamoDB accepts on the table or index it reads: no `=` on the partition key, a
/// term on an attribute that is no key of it, or two on one key. Such a Query reads
/// nothing (`rejected-request` says why), so it has no page to lose.
fn misses_key_schema(bound: &BoundOperation<'_>) -> bool {
    let op = bound.op;
    let (Some(table), Some(arg)) = (bound.table, op.key_condition.as_deref()) else {
        return false;
    };
    if op.kind != OpKind::Query
        || !arg.paths.is_empty()
        || (op.index.is_some() && bound.index.is_none())
    {
        return false;
    }
    let Some(Ok(c)) = parse_condition_arg(arg, ExprKind::KeyCondition) else {
        return false;
    };
    let terms = and_terms(&c, &op.names);
    if terms.has_other || terms.terms.is_empty() {
        return false;
    }
    let keys = bound
        .index
        .map_or_else(|| table.key_attributes(), |i| i.key_attributes());
    let on = |attr: &str| terms.terms.iter().filter(|t| t.attr == attr).count();
    let pk = bound
        .index
        .map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    let pk_eq = terms.terms.iter().any(|t| t.attr == pk && t.op.is_eq());
    !pk_eq
        || terms.terms.iter().any(|t| !keys.contains(&t.attr.as_str()))
        || keys.iter().any(|k| on(k) > 1)
}

/// What in the code shows that an unsized collection grows past any bound.
enum Growth<'a> {
    /// A write adds an item to the collection per value of its sort key (an event per
    /// version, a subscriber per email), or, on an index without a sort key, puts
    /// items of many keys under a few partition key values.
    Appends {
        write: &'a BoundOperation<'a>,
        span: crate::source::Span,
        /// The attribute whose values tell the items apart.
        per: String,
    },
    /// The Query's own function says it lists the collection (`list_subscribers`,
    /// `get_all_books`), or every function that calls it does, a level or two up
    /// (`callers`: `query_0` that only `get_all_rss_registrations` calls).
    ListsAll {
        function: String,
        callers: Vec<String>,
    },
}

/// Why `q`'s collection can pass a page, when the code shows it.
fn growth<'a>(facts: &ProjectFacts<'a>, q: &Unsized<'a>) -> Option<Growth<'a>> {
    appending_write(facts, q).or_else(|| {
        let ctx = &q.bound.op.context;
        let function = ctx.function.as_deref()?;
        if names_a_listing(function) {
            return Some(Growth::ListsAll {
                function: function.to_string(),
                callers: Vec::new(),
            });
        }
        (!ctx.callers.is_empty() && ctx.callers.iter().all(lists_all)).then(|| Growth::ListsAll {
            function: function.to_string(),
            callers: ctx.callers.iter().map(|c| c.function.clone()).collect(),
        })
    })
}

/// A function named as one that lists a whole collection: `list_subscribers`,
/// `get_all_books`.
fn names_a_listing(function: &str) -> bool {
    let name = function.rsplit("::").next().unwrap_or(function);
    name.split('_')
        .any(|w| w.eq_ignore_ascii_case("list") || w.eq_ignore_ascii_case("all"))
}

/// A caller that lists the whole collection: by its name, or because every function
/// that calls it does.
fn lists_all(c: &crate::scanner::CallerFn) -> bool {
    names_a_listing(&c.function) || (!c.callers.is_empty() && c.callers.iter().all(lists_all))
}

/// Whether every write that puts items into `q`'s collection first deletes the items
/// that collection holds: in its own function, a Query of the same table and index,
/// then a DeleteItem of the table in a loop (over that Query's items), then the write
/// (`replace_refresh_token`: one active token per user). The collection then holds
/// the one item the write puts, and one page holds it. Each request is where its
/// function makes it: a helper that sends it, linked at the one call that makes it
/// (`Repo::new(c).delete_token(..)` in that loop), is at that call. Writes in tests and
/// one-off binaries do not count; with no write of the collection at all, nothing is
/// known.
fn replaced_on_write(facts: &ProjectFacts<'_>, q: &Unsized<'_>) -> bool {
    let pk = q.partition_key();
    let same_table = |b: &BoundOperation<'_>| b.table.is_some_and(|t| std::ptr::eq(t, q.table));
    let same_function = |a: &Operation, b: &Operation| match (made_at(a), made_at(b)) {
        (Some((af, an, _)), Some((bf, bn, _))) => af == bf && an == bn,
        _ => false,
    };
    let offset = |o: &Operation| made_at(o).map_or(o.span.start, |(_, _, at)| at);
    let index = q.bound.index.map(|i| i.name.as_str());
    let mut writes = facts.operations.iter().filter(|w| {
        same_table(w)
            && w.op.context.cold.is_none()
            && written(w.op).iter().any(|a| a.attribute == pk)
    });
    let mut any = false;
    let all = writes.all(|w| {
        any = true;
        let before = |o: &&BoundOperation<'_>| {
            same_table(o) && same_function(o.op, w.op) && offset(o.op) < offset(w.op)
        };
        let mut earlier = facts.operations.iter().filter(before);
        let Some(read) = earlier
            .clone()
            .find(|o| o.op.kind == OpKind::Query && o.index.map(|i| i.name.as_str()) == index)
        else {
            return false;
        };
        earlier.any(|d| {
            d.op.kind == OpKind::DeleteItem && in_own_loop(d.op) && offset(d.op) > offset(read.op)
        })
    });
    any && all
}

/// Where a request is made: the file, function and offset of the one call that makes
/// it when it is linked at that call (`Context::called_at`), else its
/// own.
fn made_at(op: &Operation) -> Option<(&crate::source::FilePath, &str, usize)> {
    match &op.context.called_at {
        Some(c) => Some((&c.file, c.function.as_str(), c.span.start)),
        None => Some((&op.file, op.context.function.as_deref()?, op.span.start)),
    }
}

/// Whether a loop of the function that makes the request ([`made_at`]) repeats it:
/// around the request itself, or around the one call that makes it.
fn in_own_loop(op: &Operation) -> bool {
    let Some(l) = &op.context.in_loop else {
        return false;
    };
    match (&l.caller, &op.context.called_at) {
        (None, None) => true,
        (Some(lc), Some(c)) => lc.function == c.function && lc.file == c.file,
        _ => false,
    }
}

/// A write of `q`'s table whose items land in `q`'s collection and grow it: the
/// partition key set and the sort key set to a value of many (a parameter, a
/// generated id, a template of one, a value computed at run time rather than a
/// constant or an enum's); on an index without a sort key, the partition
/// key set to one of a few values while the table's key takes many. Writes in tests
/// and one-off binaries do not count: they say nothing of what the service stores.
fn appending_write<'a>(facts: &ProjectFacts<'a>, q: &Unsized<'a>) -> Option<Growth<'a>> {
    let pk = q.partition_key();
    let many = |v: &crate::scanner::ValueInfo| key_shape(v) == KeyShape::Varying;
    // A sort key the code computes (`event.seq_nr().to_string()`) rather than spells
    // as a constant or an enum's value tells items of one collection apart as well.
    let not_fixed = |v: &crate::scanner::ValueInfo| {
        matches!(key_shape(v), KeyShape::Varying | KeyShape::Unknown) && v.literal.is_none()
    };
    facts.operations.iter().find_map(|w| {
        let same_table = w.table.is_some_and(|t| std::ptr::eq(t, q.table));
        if !same_table || w.op.context.cold.is_some() {
            return None;
        }
        let attrs = written(w.op);
        let get = |name: &str| attrs.iter().find(|a| a.attribute == name && !a.conditional);
        // A partition key generated afresh for each write (`Uuid::new_v4()`) starts a
        // collection of its own: no Query reads one that write grows.
        if matches!(get(pk)?.value.provenance, Provenance::GeneratedId) {
            return None;
        }
        match q.sort_key() {
            Some(sk) => {
                let v = get(sk).filter(|v| not_fixed(v.value))?;
                Some(Growth::Appends {
                    write: w,
                    span: v.span,
                    per: sk.to_string(),
                })
            }
            None => {
                let p = get(pk)?;
                if !key_shape(p.value).is_low_cardinality() {
                    return None;
                }
                let table_key = std::iter::once(q.table.partition_key.as_str())
                    .chain(q.table.sort_key.as_deref());
                let per = table_key
                    .into_iter()
                    .find(|k| get(k).is_some_and(|v| many(v.value)))?;
                Some(Growth::Appends {
                    write: w,
                    span: p.span,
                    per: per.to_string(),
                })
            }
        }
    })
}

/// A Query the code shows can pass a page: warned of at its call.
fn growing(cx: &mut RuleContext<'_>, q: &Unsized<'_>, why: Growth<'_>) {
    let op = q.bound.op;
    let d = cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "`query` of {} is sent once and stops at 1 MB: it reads {}, and every item past the first page is silently dropped",
            q.target(),
            q.what()
        ),
    );
    match why {
        Growth::Appends { write, span, per } => {
            let w = write.op;
            d.label(
                w.file.clone(),
                span,
                format!(
                    "`{}` adds an item per `{per}` to one `{}`'s collection",
                    w.kind.sdk_method(),
                    q.partition_key()
                ),
            );
        }
        Growth::ListsAll { function, callers } if callers.is_empty() => {
            d.note(format!(
                "`{function}` returns the whole collection, which grows with the data: nothing bounds it to one page"
            ));
        }
        Growth::ListsAll { function, callers } => {
            let by = callers
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ");
            d.note(format!(
                "`{function}` is called only to list the whole collection (by {by}), which grows with the data: nothing bounds it to one page"
            ));
        }
    }
    d.note(format!(
        "the model lacks {}; with `item-count` and `avg-item-size` (and the partition key's `cardinality` or `values`) dynalint stays silent when the key range fits in one page",
        q.missing
    ))
    .help(format!(
        "{PAGINATE_HELP}; or bound the read with `limit(n)` and hand `last_evaluated_key` back to the caller"
    ));
}

/// The Queries of one table (or index) whose collection nothing sizes: one question,
/// at the first of them, listing the others.
fn ask(cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>, qs: &[&Unsized<'_>]) {
    // A helper linked once per caller is one call in the code: counted once.
    let mut sites: Vec<&Unsized<'_>> = Vec::with_capacity(qs.len());
    for q in qs {
        let (file, at) = (&q.bound.op.file, q.bound.op.method_span);
        if !sites
            .iter()
            .any(|s| s.bound.op.file == *file && s.bound.op.method_span == at)
        {
            sites.push(q);
        }
    }
    let qs = sites.as_slice();
    let Some(first) = qs.first() else {
        return;
    };
    let op = first.bound.op;
    let calls = match qs.len() {
        1 => "this `query` reads it".to_string(),
        n => format!("{n} `query` calls read it"),
    };
    let pk = first.partition_key();
    let d = cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "how large can one `{pk}`'s item collection of {} grow? {calls} as one page, which stops at 1 MB and silently drops the rest",
            first.target()
        ),
    );
    d.severity = Severity::Info.min(d.severity);
    for q in &qs[1..] {
        let o = q.bound.op;
        d.label(
            o.file.clone(),
            o.method_span,
            format!("reads {} as one page", q.what()),
        );
    }
    if qs.len() > 1 {
        let places: Vec<String> = qs
            .iter()
            .map(|q| facts.place(&q.bound.op.file, q.bound.op.method_span))
            .collect();
        d.note(format!("read as one page at {}", places.join(", ")));
    }
    d.note(format!(
        "the model lacks {}: declare `item-count` and `avg-item-size` of `{}` (and `{pk}`'s `cardinality` or `values`) and dynalint warns at each call whose key range can exceed 1 MB, and stays silent where it fits",
        first.missing, first.table.name
    ))
    .help(format!(
        "{PAGINATE_HELP}; or bound the read with `limit(n)` and hand `last_evaluated_key` back to the caller"
    ));
}

/// True when the key condition pins at most one item: equality on a partition key
/// the model declares `unique` (or the project's ORM schema does, for the same
/// records: `#[sea_orm(unique)]`), or on every key attribute of the table itself (an
/// index's keys, a GSI's above all, can repeat).
fn selects_one_item(
    table: &Table,
    index: Option<&Index>,
    key_terms: &[Term],
    unique: &[UniqueColumn],
) -> bool {
    let eq = |attr: &str| key_terms.iter().any(|t| t.attr == attr && t.op.is_eq());
    let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    if !eq(pk) {
        return false;
    }
    if table.attribute(pk).is_some_and(|a| a.unique) || declared_unique(unique, &table.name, pk) {
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
    use super::super::test_support::{lit, map, model, op, run, val, Op};
    use crate::diagnostic::Severity;
    use crate::scanner::OpKind::{PutItem, Query, Scan};
    use crate::scanner::{Provenance, ValueInfo};
    use crate::source::Span;

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
                "an aggregate's events, without figures: a question",
                Op::new(Query, "Events").key("AggregateId = :a"),
                vec![
                    "how large can one `AggregateId`'s item collection of `Events` grow? this `query` reads it as one page",
                ],
            ),
            (
                "the events after a sequence, without figures: a question",
                Op::new(Query, "Events").key("AggregateId = :a AND Version > :v"),
                vec!["how large can one `AggregateId`'s item collection"],
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
                "a function that lists the collection",
                {
                    let mut op = Op::new(Query, "Events").key("AggregateId = :a");
                    op.0.context.function = Some("Store::list_events".into());
                    op
                },
                vec!["`query` of `Events` is sent once and stops at 1 MB: it reads the whole item collection of one `AggregateId`"],
            ),
            (
                "both keys of an index, in a function that lists them",
                {
                    let mut op = Op::new(Query, "Events")
                        .index("ByKindTime")
                        .key("kind = :k AND postedOn = :d");
                    op.0.context.function = Some("Store::list_posted".into());
                    op
                },
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
        assert_eq!(got[0].severity, Severity::Info);
    }

    /// A Query DynamoDB rejects reads nothing: a condition without `=` on the
    /// partition key, on an attribute that is no key, or twice on one key is
    /// `rejected-request`'s, neither a question nor a warning here.
    #[test]
    fn a_query_the_key_schema_rejects_has_no_page_to_lose() {
        let m = model(BLOG);
        for kc in [
            "AggregateIdKey = :a",
            "AggregateId = :a AND VersionKey > :v",
            "AggregateId = :a AND AggregateId = :b",
            "Version = :v",
            "AggregateId > :a",
        ] {
            let got = run("unpaginated-query", &m, &[Op::new(Query, "Events").key(kc)]);
            assert!(got.is_empty(), "{kc}: {got:#?}");
        }
        // An unknown `#name` says nothing of the key: still a question.
        let got = run(
            "unpaginated-query",
            &m,
            &[Op::new(Query, "Events").key("#a = :a")],
        );
        assert_eq!(got.len(), 1, "{got:#?}");
    }

    fn at(mut op: Op, start: usize) -> Op {
        op.0.span = Span::new(start, start + 10);
        op.0.method_span = op.0.span;
        op
    }

    /// Queries of one unsized collection are one question, at the first of them; a
    /// query of another index is another.
    #[test]
    fn unsized_collections_are_asked_about_once_per_table_and_index() {
        let m = model(BLOG);
        let got = run(
            "unpaginated-query",
            &m,
            &[
                at(Op::new(Query, "Events").key("AggregateId = :a"), 300),
                at(
                    Op::new(Query, "Events").key("AggregateId = :a AND Version > :v"),
                    100,
                ),
                at(
                    Op::new(Query, "Events")
                        .key("AggregateId = :a")
                        .filter("attribute_exists(kind)"),
                    200,
                ),
                at(
                    Op::new(Query, "Events").index("ByKind").key("kind = :k"),
                    400,
                ),
            ],
        );
        let shown: Vec<(usize, usize, Severity)> = got
            .iter()
            .map(|d| (d.location.span.start, d.labels.len(), d.severity))
            .collect();
        assert_eq!(
            shown,
            vec![(100, 2, Severity::Info), (400, 0, Severity::Info)],
            "{got:#?}"
        );
        assert!(got[0]
            .message
            .contains("3 `query` calls read it as one page"));
    }

    /// A write that adds an event per `Version` to an aggregate's collection shows the
    /// collection grows: each Query of it is warned of, pointing at the write. A write
    /// of one fixed sort key (a snapshot) or in a test shows nothing.
    #[test]
    fn a_write_that_appends_to_the_collection_makes_each_query_a_warning() {
        let m = model(BLOG);
        let put = |sk: ValueInfo| {
            let mut w = op(PutItem, "Events");
            w.item = Some(map(vec![
                ("AggregateId", val(Provenance::Param, 500)),
                ("Version", sk),
            ]));
            Op(w)
        };
        let query = || at(Op::new(Query, "Events").key("AggregateId = :a"), 100);
        let appended = run(
            "unpaginated-query",
            &m,
            &[query(), put(val(Provenance::Param, 520))],
        );
        assert_eq!(appended.len(), 1, "{appended:#?}");
        assert_eq!(appended[0].severity, Severity::Warning);
        assert!(appended[0]
            .message
            .contains("is sent once and stops at 1 MB"));
        assert!(
            appended[0].labels[0].message.contains(
                "`put_item` adds an item per `Version` to one `AggregateId`'s collection"
            ),
            "{:#?}",
            appended[0].labels
        );
        let fixed = run("unpaginated-query", &m, &[query(), put(lit("0", 520))]);
        assert_eq!(fixed[0].severity, Severity::Info, "{fixed:#?}");
        let mut in_test = put(val(Provenance::Param, 520));
        in_test.0.context.cold = Some(crate::scanner::ColdReason::Test);
        let tested = run("unpaginated-query", &m, &[query(), in_test]);
        assert_eq!(tested[0].severity, Severity::Info, "{tested:#?}");
        // An event stream whose partition key each write generates afresh: every write
        // starts its own collection, which no Query of an existing one reads.
        let mut fresh = put(val(Provenance::Param, 520));
        fresh.0.item = Some(map(vec![
            ("AggregateId", val(Provenance::GeneratedId, 500)),
            ("Version", val(Provenance::Param, 520)),
        ]));
        let generated = run("unpaginated-query", &m, &[query(), fresh]);
        assert_eq!(generated[0].severity, Severity::Info, "{generated:#?}");
    }

    #[test]
    fn tests_are_not_flagged() {
        let m = model(BLOG);
        let mut op = Op::new(Scan, "BlogApp");
        op.0.context.cold = Some(crate::scanner::ColdReason::Test);
        assert!(run("unpaginated-query", &m, &[op]).is_empty());
    }
}

#[cfg(test)]
mod path_tests {
    use super::widest_key_terms;
    use crate::scanner::{ExprArg, OpKind, Operation, Resolved};
    use crate::source::Span;

    /// `let mut kc = "pk = :pk"; if let Some(s) = since { kc.push_str(" AND sk >= :s") }`:
    /// the path without the sort key range reads the whole collection.
    #[test]
    fn a_key_condition_built_on_paths_reads_as_its_widest_path() {
        let mut q = Operation::new(
            OpKind::Query,
            std::sync::Arc::from(std::path::Path::new("src/usage.rs")),
            Span::new(0, 10),
        );
        let arg = |paths: &[&str]| ExprArg {
            text: Resolved::unknown("changed on some paths"),
            span: Span::new(0, 1),
            literal_start: None,
            conditional: false,
            paths: paths.iter().map(|p| p.to_string()).collect(),
        };
        q.key_condition = Some(Box::new(arg(&[
            "api_key = :k AND ts >= :s",
            "api_key = :k",
            "api_key = :k AND ts BETWEEN :s AND :e",
        ])));
        let terms = widest_key_terms(&q).expect("every path is a key condition");
        assert_eq!(terms.len(), 1, "{terms:?}");
        // One path that is no key condition leaves the whole unknown.
        q.key_condition = Some(Box::new(arg(&["api_key = :k", "api_key = = :k"])));
        assert!(widest_key_terms(&q).is_none());
    }
}
