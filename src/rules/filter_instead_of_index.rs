//! `filter-instead-of-index`: prose in `rules/filter-instead-of-index.md`.
//!
//! A FilterExpression runs after DynamoDB has read (and charged for) every item of the
//! key range. When a filter term fixes an attribute that a key could select by, the
//! rule names the key design that serves it: an existing index, a Query instead of a
//! Scan, a composite sort key, or a new GSI.

use super::{Rule, RuleContext, RuleMeta};
use crate::attr::AttributeType;
use crate::diagnostic::Cost;
use crate::expr::ExprKind;
use crate::facts::call_cost::{self, call_cost, CallCost, Kept};
use crate::facts::conditions::{and_terms, file_span, parse_condition_arg, Term, TermOp};
use crate::facts::read_cost::{self, rcu_for};
use crate::facts::sort_key_template::{serving_template, TemplateFit, TemplateKey};
use crate::facts::spend::{call_rate, call_units, finding_cost, mode_of, storage_monthly, Priced};
use crate::facts::BoundOperation;
use crate::figures;
use crate::model::{Cardinality, Index, IndexKind, Model, Projection, Table};
use crate::pricing::{Prices, UnitsPerSecond};
use crate::scanner::{OpKind, Operation};

crate::declare_rule! {
    pub FilterInsteadOfIndex,
    id: "filter-instead-of-index",
    category: Perf,
    summary: "a filter discards items a key could have skipped: every item read is charged",
}

/// Below this many distinct values an equality-filtered attribute is a prefix for a
/// composite sort key (`OPEN#2020-05-10`); above it, an index partition key.
const COMPOSITE_MAX_VALUES: u64 = 1_000;

/// The key schema a Query or Scan reads: the table's, or one index's.
#[derive(Clone, Copy)]
struct Schema<'a> {
    index: Option<&'a Index>,
    pk: &'a str,
    sk: Option<&'a str>,
}

impl<'a> Schema<'a> {
    fn of(table: &'a Table, index: Option<&'a Index>) -> Self {
        match index {
            Some(i) => Self {
                index: Some(i),
                pk: &i.partition_key,
                sk: i.sort_key.as_deref(),
            },
            None => Self {
                index: None,
                pk: &table.partition_key,
                sk: table.sort_key.as_deref(),
            },
        }
    }

    fn same(&self, other: &Schema<'_>) -> bool {
        self.index.map(|i| &i.name) == other.index.map(|i| &i.name)
    }

    fn label(&self, table: &Table) -> String {
        match self.index {
            Some(i) => format!("index `{}` of `{}`", i.name, table.name),
            None => format!("`{}`", table.name),
        }
    }
}

/// The key design that would serve a filter term, best first.
enum Design<'a> {
    /// Another index (or the table) is keyed on the filtered attribute.
    Existing {
        schema: Schema<'a>,
        pk: String,
        sk: Option<String>,
    },
    /// A Scan that fixes the partition key it reads: a Query does it by key.
    QueryInstead { pk: String, sk: Option<String> },
    /// Prefix the sort key with the filtered attribute.
    CompositeSortKey { attr: String, sort_key: String },
    /// A GSI keyed on the filtered attribute(s).
    NewIndex {
        pk: String,
        sk: Option<String>,
        /// The partition key's distinct values, when few.
        few_values: Option<u64>,
    },
    /// A boolean flag: key a sparse index on an attribute written only when it holds.
    SparseIndex { attr: String },
    /// A sort key of the queried item collection whose declared template already holds
    /// the attribute: the filter is a key condition on it, at no design cost.
    Template(TemplateKey<'a>),
}

impl Design<'_> {
    fn rank(&self) -> u8 {
        match self {
            Design::Existing { .. } | Design::QueryInstead { .. } | Design::Template(_) => 0,
            Design::CompositeSortKey { .. } => 1,
            Design::NewIndex { .. } => 2,
            Design::SparseIndex { .. } => 3,
        }
    }
}

impl Rule for FilterInsteadOfIndex {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        if !matches!(op.kind, OpKind::Query | OpKind::Scan) {
            return;
        }
        let Some(table) = bound.table else { return };
        // An index the model does not know is `rejected-request`'s finding.
        if op.index.is_some() && bound.index.is_none() {
            return;
        }
        let Some(filter_arg) = &op.filter else { return };
        let Some(Ok(filter)) = parse_condition_arg(filter_arg, ExprKind::Filter) else {
            return;
        };
        let filter = and_terms(&filter, &op.names);
        let key_terms = match (&op.kind, &op.key_condition) {
            (OpKind::Query, Some(arg)) => match parse_condition_arg(arg, ExprKind::KeyCondition) {
                Some(Ok(c)) => and_terms(&c, &op.names).terms,
                _ => return,
            },
            (OpKind::Query, None) => return,
            _ => Vec::new(),
        };
        let target = Schema::of(table, bound.index);
        let Some((term, design)) = filter
            .terms
            .iter()
            .filter_map(|t| {
                design_for(table, target, op, t, &filter.terms, &key_terms).map(|d| (t, d))
            })
            .min_by_key(|(_, d)| d.rank())
        else {
            return;
        };

        // The one estimate of the call's cost (limit, segments and filter included).
        let call = call_cost(cx.model, bound);
        let read = Read::of(&call);
        let kept = call.kept;
        // A read that costs little whatever the filter keeps: no new key would save
        // capacity. A key the model already declares costs nothing to use, though.
        let min_rcu = cx.option_u64("min-rcu", 1) as f64;
        if let Some(rcu) = read.as_ref().ok().and_then(|r| r.rcu) {
            let free = matches!(design, Design::Template(_));
            if !free && rcu * (1.0 - kept.map_or(0.0, |k| k.share)) < min_rcu {
                return;
            }
        }

        let method = op.kind.sdk_method();
        let target_label = target.label(table);
        let cost = match &read {
            Ok(r) => cost_clause(op, r, kept),
            Err(_) if op.kind == OpKind::Scan => ": every item is read and charged".to_string(),
            Err(_) => String::new(),
        };
        let file = op.file.clone();
        // Spans of the table, its indexes and entities index into the file it came from.
        let model_path = table.origin.path.clone();
        let line = cost_line(cx.model, bound, &call, &design, &term.attr);
        let d = cx.report(
            file.clone(),
            file_span(filter_arg, term.span),
            format!(
                "`{method}` of {target_label} filters on `{}` after reading{cost}",
                term.attr
            ),
        );
        d.label(
            file,
            op.method_span,
            match op.kind {
                OpKind::Scan => "reads every item of the table or index".to_string(),
                _ => "reads every item of the key range, kept or not".to_string(),
            },
        );
        if let Err(missing) = &read {
            d.note(format!(
                "the cost per call is not estimated: the model lacks {missing}"
            ));
        }
        d.cost(line);
        match &design {
            Design::Existing { schema, pk, sk } => {
                if let Some(i) = schema.index {
                    d.label(
                        model_path,
                        i.name_span,
                        format!("`{}` is keyed on `{}`", i.name, key_pair(pk, sk.as_deref())),
                    );
                }
                let via = match schema.index {
                    Some(i) => format!("query index `{}`", i.name),
                    None => format!("query the table `{}`", table.name),
                };
                d.help(format!(
                    "{via} with `{}` in the key condition instead of the filter",
                    key_pair(pk, sk.as_deref())
                ));
                if let Some(i) = schema.index.filter(|i| i.projection != Projection::All) {
                    d.note(projection_note(i));
                }
            }
            Design::QueryInstead { pk, sk } => {
                d.help(format!(
                    "`{pk}` is the partition key of {target_label}: use `query` with `{}` in the key condition instead of `scan`",
                    key_pair(pk, sk.as_deref())
                ));
            }
            Design::Template(k) => {
                if let Some(span) = k.entity.fields.get(&format!("keys.{}", k.sort_key)) {
                    d.label(
                        model_path,
                        span,
                        format!("`{}` holds `{}`", k.sort_key, k.template),
                    );
                }
                let condition = key_condition(target, k, &key_terms);
                d.help(if same_index(k.index, target.index) {
                    format!("put `{condition}` in the key condition instead of the filter")
                } else {
                    let via = match k.index {
                        Some(i) => format!("query index `{}`", i.name),
                        None => format!("query the table `{}`", table.name),
                    };
                    format!("{via} with `{condition}` instead of the filter")
                });
                let returned = match (&read, kept) {
                    (Ok(r), Some(k)) => {
                        let items = r.items * k.share;
                        match r.bytes {
                            Some(b) => format!(
                                ", about {} items ({} RCU) per call",
                                figures::count(items),
                                figures::units(rcu_for(b * k.share, call.consistent))
                            ),
                            None => format!(", about {} items per call", figures::count(items)),
                        }
                    }
                    _ => String::new(),
                };
                d.note(format!(
                    "entity `{}` writes `{}` into the sort key `{}`: a key condition on it reads only the items the filter keeps{returned}",
                    k.entity.name, term.attr, k.sort_key
                ));
                if let Some(i) = k.index.filter(|i| i.projection != Projection::All) {
                    d.note(projection_note(i));
                }
            }
            Design::CompositeSortKey { attr, sort_key } => {
                if let TemplateFit::NotLeading(u) = serving_template(
                    table,
                    target.pk,
                    term,
                    &fixed_terms(&key_terms, &filter.terms),
                    &op.values,
                ) {
                    d.note(format!(
                        "`{}` holds `{}`, but `{{{}}}` comes before `{attr}` and the call does not fix it, so no `begins_with` prefix selects by `{attr}`; a template that starts with `{{{attr}}}` would",
                        u.sort_key, u.template, u.unfixed
                    ));
                }
                if let Some(span) = sort_key_span(table, target) {
                    d.label(
                        model_path,
                        span,
                        format!("make this sort key `{attr}#{sort_key}`"),
                    );
                }
                d.help(format!(
                    "make the sort key composite, `{attr}#{sort_key}` (e.g. `{example}#...`), and replace the filter with `begins_with` on it in the key condition; keep `{attr}` as a plain attribute for other patterns",
                    example = example_value(table, attr, term, op)
                ));
            }
            Design::NewIndex { pk, sk, few_values } => {
                let mut help = format!(
                    "add a GSI with partition key `{pk}`{} and `query` it",
                    sk.as_ref()
                        .map(|s| format!(" and sort key `{s}`"))
                        .unwrap_or_default()
                );
                if let Some(n) = few_values {
                    help.push_str(&format!(
                        "; `{pk}` has only {n} values, so write-shard that key (`{pk}#0..N-1`, see `low-cardinality-pk`)"
                    ));
                }
                d.help(help);
            }
            Design::SparseIndex { attr } => {
                d.help(format!(
                    "`{attr}` is a boolean and cannot be a key: write a GSI key attribute only on the items where it holds (a sparse index) and `query` that index"
                ));
            }
        }
    }
}

/// What the filtered read costs a month at its rate, and what the design's read of
/// only the kept items would, plus a new index's writes and storage.
fn cost_line(
    model: &Model,
    bound: &BoundOperation<'_>,
    call: &CallCost,
    design: &Design<'_>,
    attr: &str,
) -> Cost {
    let prices = Prices::for_model(model);
    let table = bound.table;
    let rate = call_rate(model, bound.op);
    let mode = mode_of(table);
    let written = Priced::calls(
        &prices,
        table,
        call_units(table, call),
        &call.missing,
        rate.per_second,
    );
    let mut text = match (call.items_read, call.items_returned) {
        (Some(r), Some(k)) => format!(
            "reads {} items to return {} per call",
            figures::count(r),
            figures::count(k)
        ),
        (Some(r), None) => format!("reads {} items per call", figures::count(r)),
        _ => "reads the items of its range per call".to_string(),
    };
    text.push_str(&format!(": {} {}", written.text(mode), rate.describe()));
    let size = table.and_then(|t| t.avg_item_size).map(|s| s as f64);
    // The filter's share, or an upper bound of it (some term's share is not declared).
    let kept = call.kept;
    let fixed = match (call.items_read, kept, size) {
        (Some(read), Some(k), Some(size)) => {
            let units = UnitsPerSecond {
                read: read_cost::paged(read * k.share * size, call.consistent).rcu,
                ..UnitsPerSecond::default()
            };
            Priced::calls(&prices, table, Some(units), &[], rate.per_second)
        }
        _ => Priced {
            monthly: None,
            missing: vec![format!(
                "the share of items the filter keeps (the `values` or `cardinality` of `{attr}` give an equality's)"
            )],
        },
    };
    let via = match design {
        Design::Existing {
            schema: Schema { index: Some(i), .. },
            ..
        } => format!("with index `{}`", i.name),
        Design::Existing { .. } => "with a Query on the table's key".to_string(),
        Design::QueryInstead { .. } => "with a Query".to_string(),
        Design::Template(_) => "with the sort key condition".to_string(),
        Design::CompositeSortKey { .. } => "with a composite sort key".to_string(),
        Design::NewIndex { pk, .. } => format!("with a GSI on `{pk}`"),
        Design::SparseIndex { attr } => format!("with a sparse GSI on `{attr}`"),
    };
    let at_most = if kept.is_some_and(|k| !k.exact) {
        "at most "
    } else {
        ""
    };
    text.push_str(&format!("; {via}: {at_most}{}", fixed.text(mode)));
    let adds = match design {
        Design::NewIndex { .. } => Some(new_index(&prices, table, 1.0)),
        Design::SparseIndex { .. } => Some(match kept.filter(|k| k.exact) {
            Some(k) => new_index(&prices, table, k.share),
            None => Priced {
                monthly: None,
                missing: vec![format!("the share of items where `{attr}` holds")],
            },
        }),
        _ => None,
    };
    if let Some(a) = &adds {
        match a.dollars(mode) {
            Some(d) => text.push_str(&format!(", plus {d} for the index's writes and storage")),
            None => text.push_str(&format!(
                ", plus the index's writes and storage (not known: needs {})",
                a.needs()
            )),
        }
    }
    finding_cost(text, &rate, mode, &written, Some(&fixed), adds.as_ref())
}

/// A new GSI of every attribute holding `share` of the table's items: each write of
/// such an item written again (its 1 KB units), at the model's `write-rate`, and a
/// copy of those items stored.
fn new_index(prices: &Prices, table: Option<&Table>, share: f64) -> Priced {
    let Some(t) = table else {
        return Priced::default();
    };
    let Some(size) = t.avg_item_size.map(|s| s as f64) else {
        return Priced {
            monthly: None,
            missing: vec![format!("`avg-item-size` of table `{}`", t.name)],
        };
    };
    let rate = t.write_rate.or_else(|| {
        let rates: Vec<f64> = t.entities.iter().filter_map(|e| e.write_rate).collect();
        (!rates.is_empty()).then(|| rates.iter().sum())
    });
    let Some(rate) = rate else {
        return Priced {
            monthly: None,
            missing: vec![format!("`write-rate` of table `{}`", t.name)],
        };
    };
    let units = UnitsPerSecond {
        write: (size / call_cost::WRITE_UNIT_BYTES).ceil().max(1.0) * share,
        ..UnitsPerSecond::default()
    };
    let storage = t
        .items_in(None)
        .ok_or_else(|| format!("`item-count` of table `{}`", t.name))
        .and_then(|n| storage_monthly(prices, Some(t), n as f64 * share, size));
    Priced::calls(prices, Some(t), Some(units), &[], rate).plus_storage(storage)
}

/// What a non-`ALL` index means for the attributes the call reads.
fn projection_note(i: &Index) -> String {
    match i.kind {
        IndexKind::Global => format!(
            "`{}` projects only some attributes and a GSI cannot fetch the others: check it holds the ones this call reads",
            i.name
        ),
        IndexKind::Local => format!(
            "`{}` projects only some attributes: a local index fetches the others from the table, at one more read per item",
            i.name
        ),
    }
}

fn same_index(a: Option<&Index>, b: Option<&Index>) -> bool {
    a.map(|i| &i.name) == b.map(|i| &i.name)
}

/// Every term the call fixes: its key condition's and its filter's.
fn fixed_terms(key_terms: &[Term], filter: &[Term]) -> Vec<Term> {
    key_terms.iter().chain(filter).cloned().collect()
}

/// `CustomerId = :c AND begins_with(StatusOrderDate, "Ordered:")`: the key condition
/// the template gives, with the partition key term the call already has.
fn key_condition(target: Schema<'_>, k: &TemplateKey<'_>, key_terms: &[Term]) -> String {
    let sk = k.condition.render(k.sort_key);
    match key_terms
        .iter()
        .find(|t| t.attr == target.pk && t.op.is_eq())
        .and_then(|t| t.values.first())
    {
        Some(v) => format!("{} = {v} AND {sk}", target.pk),
        None => sk,
    }
}

/// The design that serves `term`, if a key could: see the rule page for the cases.
fn design_for<'a>(
    table: &'a Table,
    target: Schema<'a>,
    op: &Operation,
    term: &Term,
    all: &[Term],
    key_terms: &[Term],
) -> Option<Design<'a>> {
    let kind = op.kind;
    let attr = term.attr.as_str();
    let schemas = std::iter::once(Schema::of(table, None))
        .chain(table.indexes.iter().map(|i| Schema::of(table, Some(i))))
        .filter(|s| !s.same(&target));
    let declared = table.attribute(attr);
    let ty = declared.map(|a| a.ty);
    if ty.is_some_and(|t| !is_key_type(t)) {
        return (ty == Some(AttributeType::Bool) && term.op.is_eq()).then(|| Design::SparseIndex {
            attr: attr.to_string(),
        });
    }
    // A second term that could be the sort key next to `attr`.
    let companion = |pk: &str| -> Option<String> {
        all.iter()
            .find(|t| t.attr != pk && t.attr != attr)
            .map(|t| t.attr.clone())
    };
    match kind {
        OpKind::Scan => {
            if !term.op.is_eq() {
                return None;
            }
            if target.pk == attr {
                let sk = target
                    .sk
                    .filter(|sk| all.iter().any(|t| t.attr == *sk))
                    .map(str::to_string);
                return Some(Design::QueryInstead {
                    pk: attr.to_string(),
                    sk,
                });
            }
            let mut found = None;
            for s in schemas {
                if s.pk == attr {
                    let sk =
                        s.sk.filter(|sk| all.iter().any(|t| t.attr == *sk))
                            .map(str::to_string);
                    found = Some(Design::Existing {
                        schema: s,
                        pk: attr.to_string(),
                        sk,
                    });
                    break;
                }
            }
            found.or_else(|| {
                let few = table
                    .cardinality(attr)
                    .count()
                    .filter(|n| *n <= COMPOSITE_MAX_VALUES);
                Some(Design::NewIndex {
                    pk: attr.to_string(),
                    sk: companion(attr),
                    few_values: few,
                })
            })
        }
        OpKind::Query => {
            // Filters on the queried keys are rejected by DynamoDB: not this rule's.
            if target.pk == attr || target.sk == Some(attr) {
                return None;
            }
            for s in schemas {
                if s.pk == target.pk && s.sk == Some(attr) {
                    return Some(Design::Existing {
                        schema: s,
                        pk: target.pk.to_string(),
                        sk: Some(attr.to_string()),
                    });
                }
            }
            if let TemplateFit::Serves(k) = serving_template(
                table,
                target.pk,
                term,
                &fixed_terms(key_terms, all),
                &op.values,
            ) {
                return Some(Design::Template(k));
            }
            // Only attributes the model describes: an undeclared one may be anything.
            declared?;
            let few = match table.cardinality(attr) {
                Cardinality::Values(n) | Cardinality::Declared(n) => Some(n),
                _ => None,
            };
            match (term.op, target.sk) {
                (TermOp::Eq, Some(sk)) if few.is_some_and(|n| n <= COMPOSITE_MAX_VALUES) => {
                    Some(Design::CompositeSortKey {
                        attr: attr.to_string(),
                        sort_key: sk.to_string(),
                    })
                }
                (TermOp::Eq, Some(_)) => None,
                _ => Some(Design::NewIndex {
                    pk: target.pk.to_string(),
                    sk: Some(attr.to_string()),
                    few_values: None,
                }),
            }
        }
        _ => None,
    }
}

fn is_key_type(t: AttributeType) -> bool {
    matches!(t, AttributeType::S | AttributeType::N | AttributeType::B)
}

fn key_pair(pk: &str, sk: Option<&str>) -> String {
    match sk {
        Some(sk) => format!("{pk}` and `{sk}"),
        None => pk.to_string(),
    }
}

/// Where the target's sort key is declared in the TOML.
fn sort_key_span(table: &Table, target: Schema<'_>) -> Option<crate::source::Span> {
    match target.index {
        Some(i) => i.fields.get("sort-key"),
        None => table.fields.get("sort-key"),
    }
}

/// A value of the filtered attribute for the composite key example: the literal the
/// code filters by, else the first declared value.
fn example_value(table: &Table, attr: &str, term: &Term, op: &Operation) -> String {
    crate::facts::read_cost::literal_of(&op.values, term, 0)
        .map(str::to_string)
        .or_else(|| {
            table
                .attribute(attr)
                .and_then(|a| a.values.as_ref())
                .and_then(|v| v.values().first().map(|s| s.to_string()))
        })
        .unwrap_or_else(|| attr.to_uppercase())
}

/// What one call reads, from [`call_cost`]: items, bytes, read units and pages.
struct Read {
    items: f64,
    bytes: Option<f64>,
    rcu: Option<f64>,
    pages: Option<f64>,
}

impl Read {
    /// The read figures of a call's cost, or the field the model lacks for them.
    fn of(cost: &CallCost) -> Result<Read, String> {
        match cost.items_read {
            Some(items) => Ok(Read {
                items,
                bytes: cost.bytes_read,
                rcu: cost.read_units,
                pages: cost.pages,
            }),
            None => Err(cost
                .missing
                .first()
                .cloned()
                .unwrap_or_else(|| "the items it reads".into())),
        }
    }
}

/// `: about 300 items (73.2 KB, 9.5 RCU) read per call to return about 60 (20%)`.
fn cost_clause(op: &Operation, r: &Read, kept: Option<Kept>) -> String {
    let mut s = format!(": about {} items", figures::count(r.items));
    if let (Some(b), Some(u)) = (r.bytes, r.rcu) {
        s.push_str(&format!(
            " ({}, {} RCU)",
            figures::bytes(b),
            figures::units(u)
        ));
    }
    s.push_str(" read per call");
    if let Some(k) = kept {
        s.push_str(&format!(
            " to return {}about {} ({})",
            if k.exact { "" } else { "at most " },
            figures::count(r.items * k.share),
            figures::percent(k.share)
        ));
    }
    if op.kind == OpKind::Scan {
        if let Some(p) = r.pages.map(|p| p as u64).filter(|p| *p > 1) {
            s.push_str(&format!(" over {} pages of 1 MB", figures::group(p)));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{model, run, Op};
    use crate::scanner::OpKind::{Query, Scan};

    const ORDERS: &str = r#"
[[table]]
name = "Orders"
partition-key = "CustomerId"
sort-key = "OrderDate"
item-count = 3_000_000
avg-item-size = 250

[table.attributes]
CustomerId = { type = "S", cardinality = 10_000 }
OrderDate = "S"
OrderId = { type = "S", unique = true }
Status = { type = "S", values = { Ordered = 0.2, InTransit = 0.1, Delivered = 0.7 } }
Amount = "N"
Gift = "BOOL"
Email = { type = "S", cardinality = 50_000 }

[[table.index]]
name = "ByOrderId"
partition-key = "OrderId"
projection = "KEYS_ONLY"

[[table.index]]
name = "ByAmount"
kind = "local"
partition-key = "CustomerId"
sort-key = "Amount"
projection = "ALL"

[[table]]
name = "Small"
partition-key = "Id"
sort-key = "Sk"
item-count = 1_000
avg-item-size = 100
[table.attributes]
Id = { type = "S", cardinality = 100 }
Sk = "S"
Kind = { type = "S", values = ["a", "b"] }

[[table]]
name = "Bare"
partition-key = "Id"
sort-key = "Sk"
[table.attributes]
Id = "S"
Sk = "S"
Kind = { type = "S", values = ["a", "b"] }
"#;

    fn q(filter: &str) -> Op {
        Op::new(Query, "Orders")
            .key("CustomerId = :c")
            .value(":c", None)
            .filter(filter)
            .name("#s", "Status")
    }

    fn s(filter: &str) -> Op {
        Op::new(Scan, "Orders").filter(filter).name("#s", "Status")
    }

    /// (case, operation, expected message and help fragments; empty = not flagged)
    fn cases() -> Vec<(&'static str, Op, Vec<&'static str>)> {
        vec![
            (
                "query: equality on a few-valued attribute → composite sort key",
                q("#s = :s").value(":s", Some("Ordered")),
                vec![
                    "`query` of `Orders` filters on `Status` after reading: about 300 items (73.2 KB, 9.5 RCU) read per call to return about 60 (20%)",
                    "make the sort key composite, `Status#OrderDate` (e.g. `Ordered#...`)",
                ],
            ),
            (
                "query: range on an LSI sort key → that index",
                q("Amount >= :m").value(":m", None),
                vec!["filters on `Amount`", "query index `ByAmount` with `CustomerId` and `Amount`"],
            ),
            (
                "query: range on an attribute no index sorts by → new index",
                q("Email > :e"),
                vec!["add a GSI with partition key `CustomerId` and sort key `Email`"],
            ),
            ("query: equality on a many-valued attribute", q("Email = :e"), vec![]),
            ("query: undeclared attribute", q("Channel = :x"), vec![]),
            ("query: OR", q("#s = :a OR #s = :b"), vec![]),
            ("query: free text", q("contains(Notes, :w)"), vec![]),
            ("query: the queried keys themselves", q("OrderDate > :d"), vec![]),
            (
                "query: a small collection costs the minimum",
                Op::new(Query, "Small").key("Id = :i").filter("Kind = :k"),
                vec![],
            ),
            (
                "query: no figures still flags, saying what is missing",
                Op::new(Query, "Bare").key("Id = :i").filter("Kind = :k"),
                vec!["`query` of `Bare` filters on `Kind` after reading", "the model lacks `item-count`"],
            ),
            (
                "query: unknown index is someone else's finding",
                q("#s = :s").index("Nope"),
                vec![],
            ),
            (
                "scan: equality on a GSI partition key → that GSI",
                s("OrderId = :id"),
                vec![
                    "`scan` of `Orders` filters on `OrderId` after reading: about 3,000,000 items (715.3 MB, 91,553 RCU) read per call to return about 1 (<0.1%) over 716 pages of 1 MB",
                    "query index `ByOrderId` with `OrderId` in the key condition",
                    "projects only some attributes",
                ],
            ),
            (
                "scan: equality on the table's own partition key → query",
                s("CustomerId = :c AND OrderDate > :d"),
                vec!["use `query` with `CustomerId` and `OrderDate` in the key condition instead of `scan`"],
            ),
            (
                "scan: equality and range → new GSI, sharded",
                s("#s = :s AND OrderDate BETWEEN :a AND :b"),
                vec!["add a GSI with partition key `Status` and sort key `OrderDate`", "only 3 values"],
            ),
            ("scan: boolean → sparse index", s("Gift = :t"), vec!["(a sparse index)"]),
            ("scan: range only", s("Amount > :m"), vec![]),
            ("scan: existence", s("attribute_exists(Gift)"), vec![]),
            ("scan: nested path", s("address.city = :c"), vec![]),
            ("scan: unknown table", Op::new(Scan, "Nope").filter("a = :a"), vec![]),
        ]
    }

    #[test]
    fn flags_what_a_key_serves_and_names_the_design() {
        let m = model(ORDERS);
        for (case, op, want) in cases() {
            let got = run("filter-instead-of-index", &m, &[op]);
            if want.is_empty() {
                assert!(got.is_empty(), "{case}: unexpected {got:#?}");
                continue;
            }
            assert_eq!(got.len(), 1, "{case}: {got:#?}");
            let d = &got[0];
            let text = format!(
                "{}\n{}\n{}",
                d.message,
                d.help.clone().unwrap_or_default(),
                d.notes.join("\n")
            );
            for w in want {
                assert!(text.contains(w), "{case}: `{w}` not in\n{text}");
            }
        }
    }

    #[test]
    fn points_at_the_filter_term_in_the_literal() {
        let m = model(ORDERS);
        let got = run(
            "filter-instead-of-index",
            &m,
            &[q("attribute_exists(OrderId) AND #s = :s")],
        );
        // The filter literal's content starts at byte 201; the term at its byte 30.
        assert_eq!(got[0].location.span, crate::source::Span::new(231, 238));
    }

    #[test]
    fn min_rcu_option_raises_the_bar() {
        let m = model(&format!(
            "[rules]\nfilter-instead-of-index = {{ min-rcu = 100 }}\n{ORDERS}"
        ));
        let got = run("filter-instead-of-index", &m, &[q("#s = :s")]);
        assert!(got.is_empty(), "{got:#?}");
    }
}
