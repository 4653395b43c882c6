//! What one Query or Scan call reads, from the model's figures: items and bytes read,
//! read capacity, 1 MB pages, and the share of items a filter keeps. Every figure is
//! an estimate from declared counts, sizes and value distributions; where the model
//! lacks the number behind one, the answer says which field would give it.

use indexmap::IndexMap;

use crate::facts::conditions::{Term, TermOp};
use crate::model::facts::entity_constant;
use crate::model::{Cardinality, Index, Presence, Table};
use crate::scanner::{OpKind, Operation, ValueInfo};

/// Bytes one read capacity unit covers (a strongly consistent read of up to 4 KB).
pub const READ_UNIT_BYTES: f64 = 4096.0;
/// A Query or Scan page stops after reading this many bytes.
pub const PAGE_BYTES: f64 = 1024.0 * 1024.0;

/// What one call reads, before any filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// Items read per call (the whole key range, or the whole table or index).
    pub items: f64,
    /// `items` × `avg-item-size`, when the size is declared.
    pub bytes: Option<f64>,
    /// Whether the read is strongly consistent (it costs twice as much).
    pub consistent: bool,
}

impl Read {
    /// Read capacity units for reading `bytes` page by page ([`paged`]).
    pub fn rcu(&self) -> Option<f64> {
        self.bytes.map(|b| paged(b, self.consistent).rcu)
    }

    /// How many 1 MB pages the read takes.
    pub fn pages(&self) -> Option<u64> {
        self.bytes.map(|b| paged(b, self.consistent).pages as u64)
    }
}

/// Pages and read capacity of reading `bytes` with a Query or Scan and its
/// pagination.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paged {
    pub pages: f64,
    pub rcu: f64,
}

/// Items one call reads out of `items` in its key range (or table), given its
/// `Limit`: the one reading of `Limit` for `check` and `simulate`. DynamoDB's `Limit`
/// caps the items *evaluated* per request, before any filter. A call that sends one
/// request (`one_request`: no pagination) reads at most `limit` items; a caller that
/// pages until it has `limit` results reads until that many passed the filter
/// (`kept` share, when known; unknown means it may read everything).
pub fn limited_items(items: f64, limit: Option<u64>, kept: Option<f64>, one_request: bool) -> f64 {
    let Some(limit) = limit.map(|l| l as f64) else {
        return items;
    };
    match kept {
        _ if one_request => items.min(limit),
        None => items,
        Some(share) if share >= 1.0 => items.min(limit),
        Some(share) if share > 0.0 => items.min((limit / share).ceil()),
        Some(_) => items,
    }
}

/// The one computation of a read's pages and RCU, for `check`'s findings and
/// `simulate`'s figures alike: every full 1 MB page is charged 256 units of 4 KB,
/// the last page its bytes rounded up to 4 KB (at least one unit, even when it
/// reads nothing); eventually consistent reads cost half.
pub fn paged(bytes: f64, consistent: bool) -> Paged {
    let bytes = bytes.max(0.0);
    let full_pages = (bytes / PAGE_BYTES).floor();
    let rest = bytes - full_pages * PAGE_BYTES;
    let last = rest > 0.0 || full_pages == 0.0;
    let rest_units = if last {
        (rest / READ_UNIT_BYTES).ceil().max(1.0)
    } else {
        0.0
    };
    let half = if consistent { 1.0 } else { 0.5 };
    Paged {
        pages: full_pages + f64::from(u8::from(last)),
        rcu: (full_pages * (PAGE_BYTES / READ_UNIT_BYTES) + rest_units) * half,
    }
}

/// RCU for reading `bytes` in one Query or Scan with its pages ([`paged`]).
pub fn rcu_for(bytes: f64, consistent: bool) -> f64 {
    paged(bytes, consistent).rcu
}

/// Why a figure could not be estimated: the model field that would give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing(pub String);

/// Which partition a Query's estimate is for when the code's key value is not a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// An average partition: what a typical call costs.
    Average,
    /// The most common value's partition (from a share map): how big a page can get.
    Largest,
}

/// Items one Query or Scan call reads from `table` (or `index`), before any filter.
///
/// A Scan reads every item of the table or index. A Query reads the item collection of
/// one partition key value: the value's declared share when the code uses a literal,
/// else the average (or, with [`Spread::Largest`], the largest) over the key's declared
/// values; a sort key condition narrows it to the entities whose sort key template it
/// can select, when entities are declared.
pub fn items_read(
    table: &Table,
    index: Option<&Index>,
    op: &Operation,
    key_terms: &[Term],
    spread: Spread,
) -> Result<Read, Missing> {
    let no_count = || Missing(format!("`item-count` of table `{}`", table.name));
    let collection = table.item_collection(index).ok_or_else(no_count)?;
    // Without `item-count` the model sums entity counts, which is 0 with no entities.
    if table.item_count.is_none() && table.entities.is_empty() {
        return Err(no_count());
    }
    let consistent = op.consistent_read == Some(true);
    let size = table.avg_item_size.map(|s| s as f64);
    let items = match op.kind {
        OpKind::Scan => collection.items as f64,
        OpKind::Query => {
            let pk = &collection.partition_key;
            let pk_term = key_terms.iter().find(|t| &t.attr == pk && t.op.is_eq());
            let literal = pk_term.and_then(|t| literal_of(&op.values, t, 0));
            let share = literal.and_then(|v| {
                table
                    .attribute(pk)
                    .and_then(|a| a.values.as_ref())
                    .and_then(|vs| vs.share(v))
            });
            let typed = literal.and_then(|v| type_attribute_items(table, index, pk, v));
            let per_key = match (share, typed) {
                (Some(s), _) => collection.items as f64 * s,
                (None, Some(n)) => n,
                (None, None) => match spread {
                    Spread::Average => collection.avg_items,
                    Spread::Largest => collection.max_items,
                }
                .ok_or_else(|| {
                    Missing(format!(
                        "`cardinality` (or `values`) of partition key `{pk}` of table `{}`",
                        table.name
                    ))
                })?,
            };
            let sort_key = index.map_or(table.sort_key.as_deref(), |i| i.sort_key.as_deref());
            let narrowed = sort_key
                .and_then(|sk| key_terms.iter().find(|t| t.attr == sk))
                .and_then(|t| sort_key_share(table, t, &op.values));
            per_key * narrowed.unwrap_or(1.0)
        }
        _ => return Err(Missing("a Query or Scan".into())),
    };
    Ok(Read {
        items,
        bytes: size.map(|s| s * items),
        consistent,
    })
}

/// Items under a literal value of a type attribute (`facet = "BLOG"`): the counts of
/// the entities the value names (`BLOG` names entity `Blog`) that the table or index
/// holds. `None` unless every such entity declares a count.
fn type_attribute_items(
    table: &Table,
    index: Option<&Index>,
    attr: &str,
    value: &str,
) -> Option<f64> {
    let values = table.attribute(attr)?.values.as_ref()?;
    let mut total = 0u64;
    let mut named = false;
    for e in &table.entities {
        if entity_constant(values, &e.name) != Some(value) {
            continue;
        }
        if index.is_some_and(|i| e.presence_in(table, i) == Presence::Absent) {
            continue;
        }
        named = true;
        total += e.count?;
    }
    named.then_some(total as f64)
}

/// The share of a collection a `begins_with`/`=` sort key condition selects, from
/// the entities whose sort key template can produce the condition's literal prefix.
/// `None` when that is not decidable (no literal, no entities, missing counts).
fn sort_key_share(table: &Table, term: &Term, values: &IndexMap<String, ValueInfo>) -> Option<f64> {
    if !matches!(term.op, TermOp::BeginsWith | TermOp::Eq) {
        return None;
    }
    let prefix = literal_of(values, term, 0)?;
    let mut total = 0u64;
    let mut selected = 0u64;
    for e in &table.entities {
        let count = e.count?;
        let template = e.template(&term.attr)?;
        total += count;
        if could_start_with(template.literal_prefix(), prefix) {
            selected += count;
        }
    }
    (total > 0).then(|| selected as f64 / total as f64)
}

/// Whether keys starting with `template_prefix` (the template's literal head) can
/// start with `prefix`: one is a prefix of the other.
fn could_start_with(template_prefix: &str, prefix: &str) -> bool {
    template_prefix.starts_with(prefix) || prefix.starts_with(template_prefix)
}

/// The literal value of a term's `i`-th placeholder, when the code gives one.
pub fn literal_of<'a>(
    values: &'a IndexMap<String, ValueInfo>,
    term: &Term,
    i: usize,
) -> Option<&'a str> {
    values.get(term.values.get(i)?)?.literal.as_deref()
}

/// The share of items an equality filter term keeps, from the attribute's declared
/// distribution: the literal's share, else one value in `cardinality`. `None` for
/// other operators and undeclared attributes.
pub fn kept_share(table: &Table, term: &Term, values: &IndexMap<String, ValueInfo>) -> Option<f64> {
    if !term.op.is_eq() {
        return None;
    }
    let literal = literal_of(values, term, 0);
    let declared = table
        .attribute(&term.attr)
        .and_then(|a| a.values.as_ref())
        .zip(literal)
        .and_then(|(vs, v)| vs.share(v));
    if declared.is_some() {
        return declared;
    }
    // A type attribute (`facet = "BLOG"`): the counts of the entities the value names.
    let typed = literal.and_then(|v| type_attribute_items(table, None, &term.attr, v));
    if let (Some(n), Some(all)) = (typed, table.items_in(None).filter(|n| *n > 0)) {
        return Some((n / all as f64).min(1.0));
    }
    match table.cardinality(&term.attr) {
        Cardinality::Values(n) | Cardinality::Declared(n) | Cardinality::Unique(Some(n))
            if n > 0 =>
        {
            Some(1.0 / n as f64)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_and_rcu_have_one_formula() {
        // 5,000,000 items of 400 B, eventually consistent: 1,908 pages.
        let p = paged(2_000_000_000.0, false);
        assert_eq!((p.pages, p.rcu), (1_908.0, 244_141.0));
        assert_eq!(
            paged(0.0, false),
            Paged {
                pages: 1.0,
                rcu: 0.5
            }
        );
        assert_eq!(
            paged(PAGE_BYTES, true),
            Paged {
                pages: 1.0,
                rcu: 256.0
            }
        );
        assert_eq!(rcu_for(2_000_000_000.0, false), 244_141.0);
    }
    use crate::expr::{parse_condition, ExprKind};
    use crate::facts::conditions::and_terms;
    use crate::model::load_str;
    use crate::scanner::Resolved;
    use crate::source::Span;
    use std::path::Path;

    const ORDERS: &str = r#"
[[table]]
name = "Orders"
partition-key = "CustomerId"
sort-key = "SK"
item-count = 3_000_000
avg-item-size = 250

[table.attributes]
CustomerId = { type = "S", cardinality = 10_000 }
SK = "S"
OrderStatus = { type = "S", values = { OPEN = 0.2, SHIPPED = 0.3, DONE = 0.5 } }
Currency = { type = "S", values = ["EUR", "USD"] }

[[table.entity]]
name = "Order"
count = 2_000_000
keys = { CustomerId = "{customerId}", SK = "ORDER#{orderId}" }

[[table.entity]]
name = "Invoice"
count = 1_000_000
keys = { CustomerId = "{customerId}", SK = "INVOICE#{invoiceId}" }
"#;

    fn op(kind: OpKind, values: &[(&str, &str)]) -> Operation {
        let mut op = Operation::new(kind, Path::new("a.rs").into(), Span::default());
        for (k, v) in values {
            let mut info = ValueInfo::unknown(Span::default());
            info.literal = Some(v.to_string());
            info.text = Some(Resolved::literal(*v));
            op.values.insert(k.to_string(), info);
        }
        op
    }

    fn terms(src: &str) -> Vec<Term> {
        and_terms(
            &parse_condition(src, ExprKind::Filter).unwrap(),
            &IndexMap::new(),
        )
        .terms
    }

    #[test]
    fn scan_reads_the_table_and_query_one_collection_narrowed_by_the_sort_key() {
        let model = load_str(Path::new("dynalint.toml"), ORDERS).unwrap();
        let t = &model.tables[0];
        let scan = items_read(t, None, &op(OpKind::Scan, &[]), &[], Spread::Average).unwrap();
        assert_eq!(scan.items, 3_000_000.0);
        assert_eq!(scan.rcu(), Some((750_000_000f64 / 4096.0).ceil() / 2.0));
        assert_eq!(scan.pages(), Some(716));

        let q = op(OpKind::Query, &[(":c", "c1"), (":p", "ORDER#")]);
        let all = items_read(t, None, &q, &terms("CustomerId = :c"), Spread::Average).unwrap();
        assert_eq!(all.items, 300.0);
        let orders = items_read(
            t,
            None,
            &q,
            &terms("CustomerId = :c AND begins_with(SK, :p)"),
            Spread::Average,
        )
        .unwrap();
        assert_eq!(orders.items, 200.0);
    }

    #[test]
    fn a_type_attribute_literal_counts_the_entity_it_names() {
        let blog = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
item-count = 5_000_000
[table.attributes]
PK = "S"
SK = "S"
facet = { type = "S", values = ["USER", "BLOG", "TAG"] }
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
attributes = ["facet"]
[[table.entity]]
name = "Blog"
count = 4_999_000
keys = { PK = "USER#{userID}", SK = "BLOG#{blogID}" }
attributes = ["facet", "createdAt"]
"#;
        let model = load_str(Path::new("dynalint.toml"), blog).unwrap();
        let t = &model.tables[0];
        let q = op(OpKind::Query, &[(":f", "BLOG")]);
        let r = items_read(
            t,
            t.index("ByFacet"),
            &q,
            &terms("facet = :f"),
            Spread::Largest,
        )
        .unwrap();
        assert_eq!(r.items, 4_999_000.0);
    }

    #[test]
    fn a_missing_figure_is_named() {
        let model = load_str(
            Path::new("dynalint.toml"),
            "[[table]]\nname = \"T\"\npartition-key = \"PK\"\n[table.attributes]\nPK = \"S\"\n",
        )
        .unwrap();
        let err = items_read(
            &model.tables[0],
            None,
            &op(OpKind::Scan, &[]),
            &[],
            Spread::Average,
        )
        .unwrap_err();
        assert!(err.0.contains("item-count"), "{err:?}");
    }

    #[test]
    fn kept_share_uses_declared_shares_then_cardinality() {
        let model = load_str(Path::new("dynalint.toml"), ORDERS).unwrap();
        let t = &model.tables[0];
        let vals = op(OpKind::Query, &[(":s", "OPEN")]).values;
        assert_eq!(
            kept_share(t, &terms("OrderStatus = :s")[0], &vals),
            Some(0.2)
        );
        assert_eq!(
            kept_share(t, &terms("OrderStatus = :x")[0], &vals),
            Some(1.0 / 3.0)
        );
        assert_eq!(kept_share(t, &terms("Currency = :s")[0], &vals), Some(0.5));
        assert_eq!(kept_share(t, &terms("OrderStatus > :s")[0], &vals), None);
        assert_eq!(kept_share(t, &terms("Undeclared = :s")[0], &vals), None);
    }
}
