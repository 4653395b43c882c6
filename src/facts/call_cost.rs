//! What one call costs in DynamoDB's units, for every kind of request: items and bytes
//! read, 1 MB pages, read units, write units on the table and on each index a write
//! reaches, batches as their requests, transactions at twice the units. This is the
//! one place a call's cost is computed: `check`'s findings, the editor's hover and
//! `simulate` print this figure, so one call never has two costs.
//!
//! Every figure comes from the model's declared counts, sizes and value shares
//! ([`read_cost`]); a figure the model cannot give is `None`, with the field that
//! would give it in [`CallCost::missing`]. What the estimate had to assume is in
//! [`CallCost::assumed`].

use serde::Serialize;

use crate::expr::{self, ExprKind};
use crate::facts::conditions::{and_terms, parse_condition_arg, top_level_name, Terms};
use crate::facts::entity_of::entity_of;
use crate::facts::read_cost::{self, items_read, kept_share, limited_items, Spread};
use crate::facts::{bind, BoundOperation};
use crate::model::{Index, Model, Presence, Projection, Table};
use crate::pricing::UnitsPerSecond;
use crate::scanner::{OpKind, Operation};

/// Bytes one write unit covers.
pub const WRITE_UNIT_BYTES: f64 = 1024.0;

/// The share of the items read that a filter returns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Kept {
    pub share: f64,
    /// False when some term's selectivity is unknown: `share` is then an upper bound.
    pub exact: bool,
}

/// Write units one write charges an index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexWrite {
    pub index: String,
    /// Expected units per call: the entry's units times the share of writes that
    /// reach the index (twice for an update that moves the entry).
    pub units: f64,
}

/// What one call of a request costs.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CallCost {
    /// Items in what the call reads from, before its `Limit`: the key range, the whole
    /// table or index, or one segment of a parallel Scan.
    pub range_items: Option<f64>,
    /// Items read (and charged for) before any filter.
    pub items_read: Option<f64>,
    /// Items returned after the filter; `None` when its share is not known.
    pub items_returned: Option<f64>,
    /// The filter's share, when the call filters and the model says how much it keeps.
    pub kept: Option<Kept>,
    pub bytes_read: Option<f64>,
    /// Requests the call sends: a Query's or Scan's 1 MB pages.
    pub pages: Option<f64>,
    /// Read units (read capacity units; read request units on-demand).
    pub read_units: Option<f64>,
    /// Write units on the tables written.
    pub write_units: Option<f64>,
    /// Write units on each secondary index written.
    pub index_writes: Vec<IndexWrite>,
    /// A strongly consistent read.
    pub consistent: bool,
    /// A transaction: every unit counted twice.
    pub transactional: bool,
    /// `total_segments` of a parallel Scan: this call reads one of them.
    pub segments: Option<u64>,
    /// What the model lacks for a figure left `None`: the field that would give it.
    pub missing: Vec<String>,
    /// What the estimate assumed.
    pub assumed: Vec<String>,
}

impl CallCost {
    /// Write units on the tables and every index.
    pub fn total_write_units(&self) -> Option<f64> {
        Some(self.write_units? + self.index_writes.iter().map(|w| w.units).sum::<f64>())
    }

    /// The call's units, priced per call: reads, and writes of tables and indexes.
    /// `None` when a figure the call needs is not known.
    pub fn units(&self) -> Option<UnitsPerSecond> {
        let reads = self.read_units;
        let writes = self.total_write_units();
        if reads.is_none() && writes.is_none() {
            return None;
        }
        // A call that only reads has no writes to know, and the other way round; a
        // figure missing for one it does make leaves the whole call unpriced.
        if !self.missing.is_empty() {
            return None;
        }
        Some(UnitsPerSecond {
            read: reads.unwrap_or(0.0),
            write: writes.unwrap_or(0.0),
            replicated_write: 0.0,
        })
    }

    fn lacks(&mut self, what: impl Into<String>) {
        let w = what.into();
        if !self.missing.contains(&w) {
            self.missing.push(w);
        }
    }

    fn assume(&mut self, what: impl Into<String>) {
        let w = what.into();
        if !self.assumed.contains(&w) {
            self.assumed.push(w);
        }
    }

    /// Adds `n` times `o` (a batch's requests, a transaction's actions).
    fn add(&mut self, o: &CallCost, n: f64) {
        let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0) * n),
        };
        self.items_read = sum(self.items_read, o.items_read);
        self.items_returned = sum(self.items_returned, o.items_returned);
        self.bytes_read = sum(self.bytes_read, o.bytes_read);
        self.read_units = sum(self.read_units, o.read_units);
        self.write_units = sum(self.write_units, o.write_units);
        for w in &o.index_writes {
            match self.index_writes.iter_mut().find(|x| x.index == w.index) {
                Some(x) => x.units += w.units * n,
                None => self.index_writes.push(IndexWrite {
                    index: w.index.clone(),
                    units: w.units * n,
                }),
            }
        }
        for m in &o.missing {
            self.lacks(m.clone());
        }
        for a in &o.assumed {
            self.assume(a.clone());
        }
    }

    fn doubled(mut self) -> Self {
        self.read_units = self.read_units.map(|u| u * 2.0);
        self.write_units = self.write_units.map(|u| u * 2.0);
        for w in &mut self.index_writes {
            w.units *= 2.0;
        }
        self.transactional = true;
        self
    }
}

/// What one call of `bound` costs.
pub fn call_cost(model: &Model, bound: &BoundOperation<'_>) -> CallCost {
    let op = bound.op;
    let mut cost = CallCost {
        consistent: op.consistent_read == Some(true),
        ..CallCost::default()
    };
    match op.kind {
        OpKind::Query | OpKind::Scan => read_range(bound, &mut cost),
        OpKind::GetItem => get_item(bound, false, &mut cost),
        OpKind::PutItem | OpKind::UpdateItem | OpKind::DeleteItem | OpKind::ConditionCheck => {
            write_item(bound, &mut cost)
        }
        OpKind::BatchGetItem | OpKind::BatchWriteItem => {
            requests(model, bound, &mut cost);
        }
        OpKind::TransactGetItems | OpKind::TransactWriteItems => {
            requests(model, bound, &mut cost);
            cost = cost.doubled();
        }
        OpKind::ExecuteStatement => statement(model, bound, &mut cost),
    }
    cost
}

/// The table a figure needs, or why there is none.
fn table_of<'a>(bound: &BoundOperation<'a>, cost: &mut CallCost) -> Option<&'a Table> {
    if bound.table.is_none() {
        cost.lacks(match &bound.unbound {
            // `why` is a sentence of its own (`the table name is not known statically: ...`).
            Some(why) => format!("the table; {why}"),
            None => "the table".to_string(),
        });
    }
    bound.table
}

fn avg_size(table: &Table, cost: &mut CallCost) -> Option<f64> {
    if table.avg_item_size.is_none() {
        cost.lacks(format!("`avg-item-size` of table `{}`", table.name));
    }
    table.avg_item_size.map(|s| s as f64)
}

/// The filter's terms of a Query or Scan, when its text is known and parses.
pub fn filter_terms(op: &Operation) -> Option<Terms> {
    let arg = op.filter.as_ref()?;
    match parse_condition_arg(arg, ExprKind::Filter) {
        Some(Ok(c)) => Some(and_terms(&c, &op.names)),
        _ => None,
    }
}

/// The share of items a filter keeps: exact when every term's share is declared and
/// nothing else filters, else an upper bound from the terms that are declared.
pub fn filter_kept(table: &Table, op: &Operation, filter: &Terms) -> Option<Kept> {
    let shares: Vec<Option<f64>> = filter
        .terms
        .iter()
        .map(|t| kept_share(table, t, &op.values))
        .collect();
    shares
        .iter()
        .flatten()
        .copied()
        .reduce(|a, b| a * b)
        .map(|k| Kept {
            share: k,
            exact: !filter.has_other && shares.iter().all(Option::is_some),
        })
}

/// The `Limit` a call sets as a literal.
pub fn literal_limit(op: &Operation) -> Option<u64> {
    op.limit
        .as_ref()
        .and_then(|l| l.literal.as_deref())
        .and_then(|l| l.trim().parse::<u64>().ok())
}

/// `total_segments` of a parallel Scan, when a literal above one.
pub fn literal_segments(op: &Operation) -> Option<u64> {
    if op.kind != OpKind::Scan {
        return None;
    }
    op.total_segments
        .as_ref()
        .and_then(|v| v.literal.as_deref())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|n| *n > 1)
}

/// A Query or Scan: the items of its key range (or table, or segment), as many as its
/// `Limit` lets it read, page by page.
fn read_range(bound: &BoundOperation<'_>, cost: &mut CallCost) {
    let op = bound.op;
    let Some(table) = table_of(bound, cost) else {
        return;
    };
    let key_terms = match (op.kind, &op.key_condition) {
        (OpKind::Query, Some(arg)) => match parse_condition_arg(arg, ExprKind::KeyCondition) {
            Some(Ok(c)) => and_terms(&c, &op.names).terms,
            Some(Err(_)) => return cost.lacks("a key condition that parses"),
            None => return cost.lacks("the key condition (it is not known statically)"),
        },
        (OpKind::Query, None) => return cost.lacks("the key condition (the call sets none)"),
        _ => Vec::new(),
    };
    let range = match items_read(table, bound.index, op, &key_terms, Spread::Average) {
        Ok(r) => r,
        Err(m) => return cost.lacks(m.0),
    };
    let mut items = range.items;
    if let Some(n) = literal_segments(op) {
        items /= n as f64;
        cost.segments = Some(n);
    } else if op.kind == OpKind::Scan && op.total_segments.is_some() {
        cost.assume(
            "one call of a parallel Scan reads one of its segments, whose number is not known statically: the figures are those of all its segments together",
        );
    }
    cost.range_items = Some(items);
    let filtered = op.filter.is_some();
    let terms = filter_terms(op);
    cost.kept = terms.as_ref().and_then(|t| filter_kept(table, op, t));
    // A filter whose share is only an upper bound may keep fewer: a caller paging for
    // `limit` results may then read everything.
    let kept_share = if filtered {
        cost.kept.filter(|k| k.exact).map(|k| k.share)
    } else {
        Some(1.0)
    };
    let limit = literal_limit(op);
    let read = limited_items(items, limit, kept_share, !op.paginated);
    cost.items_read = Some(read);
    cost.items_returned = match (filtered, cost.kept) {
        (false, _) => Some(read),
        (true, Some(k)) if k.exact => Some(read * k.share),
        (true, _) => None,
    }
    .map(|r| limit.map_or(r, |l| r.min(l as f64)));
    if let Some(size) = avg_size(table, cost) {
        let bytes = read * size;
        let p = read_cost::paged(bytes, cost.consistent);
        cost.bytes_read = Some(bytes);
        cost.pages = Some(p.pages);
        cost.read_units = Some(p.rcu);
    }
}

/// One item by its key: its size rounded up to 4 KB, half when eventually consistent.
fn get_item(bound: &BoundOperation<'_>, transactional: bool, cost: &mut CallCost) {
    let Some(table) = table_of(bound, cost) else {
        return;
    };
    cost.items_read = Some(1.0);
    cost.items_returned = Some(1.0);
    if let Some(size) = avg_size(table, cost) {
        let units = (size / read_cost::READ_UNIT_BYTES).ceil().max(1.0);
        // A transaction's read is strongly consistent; its doubling is the caller's.
        let half = if cost.consistent || transactional {
            1.0
        } else {
            0.5
        };
        cost.bytes_read = Some(size);
        cost.read_units = Some(units * half);
    }
}

/// Write units for an item of `bytes`: rounded up to 1 KB, at least one.
fn write_units(bytes: f64) -> f64 {
    (bytes / WRITE_UNIT_BYTES).ceil().max(1.0)
}

/// A put, update, delete or condition check of one item: its size in 1 KB units on the
/// table, and on every index the write reaches the units of the entry it writes.
fn write_item(bound: &BoundOperation<'_>, cost: &mut CallCost) {
    let op = bound.op;
    let Some(table) = table_of(bound, cost) else {
        return;
    };
    let Some(size) = avg_size(table, cost) else {
        return;
    };
    let units = write_units(size);
    cost.write_units = Some(units);
    // A condition check writes nothing, but is charged as a write of the item.
    if op.kind == OpKind::ConditionCheck {
        return;
    }
    let touched = (op.kind == OpKind::UpdateItem).then(|| updated_attributes(op));
    for index in &table.indexes {
        let share = reach(table, index, op, cost);
        if share == 0.0 {
            continue;
        }
        let entry = entry_units(index, size, cost);
        let times = match &touched {
            None => 1.0,
            Some(None) => {
                cost.assume(format!(
                    "the update's attributes are not known statically: it is charged one write on index `{}`",
                    index.name
                ));
                1.0
            }
            Some(Some(attrs)) => {
                let names_key = attrs
                    .iter()
                    .any(|a| index.key_attributes().contains(&a.as_str()));
                let projected = attrs.iter().any(|a| index.projects(table, a));
                if names_key {
                    cost.assume(format!(
                        "an update of a key attribute of index `{}` moves its entry: a delete and a put",
                        index.name
                    ));
                    2.0
                } else if projected {
                    1.0
                } else {
                    0.0
                }
            }
        };
        if times > 0.0 {
            cost.index_writes.push(IndexWrite {
                index: index.name.clone(),
                units: entry * share * times,
            });
        }
    }
}

/// The top-level attributes an update expression sets, removes, adds or deletes;
/// `None` when the expression is not known.
fn updated_attributes(op: &Operation) -> Option<Vec<String>> {
    let text = op.update.as_ref()?.text.value()?;
    let update = expr::parse_update(text).ok()?;
    Some(
        update
            .target_paths()
            .into_iter()
            .filter_map(|p| top_level_name(p, &op.names))
            .collect(),
    )
}

/// The share of this call's writes that reach `index`: its entity's presence when the
/// code shows which entity it writes, else whether the item carries the index's keys,
/// else the share of the table's items the index holds.
fn reach(table: &Table, index: &Index, op: &Operation, cost: &mut CallCost) -> f64 {
    if let Some(e) = op.item.as_ref().and_then(|i| entity_of(table, i)) {
        match e.presence_in(table, index) {
            Presence::Present => return 1.0,
            Presence::Absent => return 0.0,
            Presence::Unknown => {}
        }
    }
    if let Some(item) = op.item.as_ref().filter(|i| i.complete) {
        let carries = index
            .key_attributes()
            .iter()
            .all(|k| item.get(k).is_some_and(|a| !a.value.nullable));
        return if carries { 1.0 } else { 0.0 };
    }
    match (table.items_in(Some(index)), table.items_in(None)) {
        (Some(i), Some(t)) if t > 0 => (i as f64 / t as f64).min(1.0),
        _ => {
            cost.assume(format!(
                "every write reaches index `{}` (which items it holds is not known)",
                index.name
            ));
            1.0
        }
    }
}

/// Write units of one index entry: the item's with `ALL`, else the keys and included
/// attributes, which the model does not size: one unit (an entry under 1 KB).
fn entry_units(index: &Index, size: f64, cost: &mut CallCost) -> f64 {
    match index.projection {
        Projection::All => write_units(size),
        _ => {
            cost.assume(format!(
                "an entry of index `{}` ({}) is under 1 KB",
                index.name,
                match index.projection {
                    Projection::KeysOnly => "KEYS_ONLY",
                    _ => "INCLUDE",
                }
            ));
            1.0
        }
    }
}

/// A batch's or transaction's requests: each costs what it would alone, as many times
/// as one call carries it (its keys, or a `chunks(n)` element's `n` requests).
fn requests(model: &Model, bound: &BoundOperation<'_>, cost: &mut CallCost) {
    let op = bound.op;
    if op.children.is_empty() {
        return cost.lacks(format!(
            "the requests of the `{}` (the code's list is not known statically)",
            op.kind.sdk_method()
        ));
    }
    let chunk = op
        .batch_size
        .as_ref()
        .and_then(|v| v.literal.as_deref())
        .and_then(|n| n.trim().parse::<u64>().ok());
    if op.batch_size.is_some() && chunk.is_none() {
        cost.lacks(format!(
            "the size of each `{}` (its chunk size is not known statically)",
            op.kind.sdk_method()
        ));
    }
    for child in &op.children {
        let b = bind(model, child);
        let mut c = CallCost {
            consistent: child.consistent_read == Some(true),
            ..CallCost::default()
        };
        let transactional = matches!(op.kind, OpKind::TransactGetItems);
        match child.kind {
            OpKind::GetItem => get_item(&b, transactional, &mut c),
            OpKind::PutItem | OpKind::UpdateItem | OpKind::DeleteItem | OpKind::ConditionCheck => {
                write_item(&b, &mut c)
            }
            k => c.lacks(format!("the cost of a `{}` inside a batch", k.api_name())),
        }
        let n = match (chunk, op.kind) {
            (Some(n), _) => n as f64,
            (None, OpKind::BatchGetItem) => keys_in(&b) as f64,
            _ => 1.0,
        };
        cost.add(&c, n);
    }
}

/// Keys one `KeysAndAttributes` of a `BatchGetItem` lists: each key names the
/// partition key once (the scanner merges the keys' attributes).
fn keys_in(bound: &BoundOperation<'_>) -> usize {
    let Some(key) = &bound.op.key else { return 1 };
    let pk = bound
        .table
        .map(|t| t.partition_key.as_str())
        .or_else(|| key.attributes.first().and_then(|a| a.name.value()));
    let n = key
        .attributes
        .iter()
        .filter(|a| a.name.value() == pk)
        .count();
    n.max(1)
}

/// A PartiQL statement, costed as the request DynamoDB runs it as: a `SELECT` that
/// fixes the whole primary key is a GetItem, one that fixes the partition key a
/// Query, any other a Scan; `INSERT`, `UPDATE` and `DELETE` are writes of one item.
fn statement(model: &Model, bound: &BoundOperation<'_>, cost: &mut CallCost) {
    use crate::facts::partiql::{self, Statement};
    let op = bound.op;
    let Some(text) = op.statement.as_ref().and_then(|s| s.text.value()) else {
        return cost.lacks("the statement (it is not known statically)");
    };
    match partiql::read(text) {
        Statement::Write => {
            let table = partiql::write_table(text)
                .and_then(|t| model.tables.iter().find(|x| x.is_named_by(&t)));
            let b = BoundOperation {
                table,
                ..bound.clone()
            };
            write_item(&b, cost)
        }
        Statement::Unknown => {
            cost.lacks("a statement dynalint reads (a SELECT, INSERT, UPDATE or DELETE)")
        }
        Statement::Select(s) => {
            let Some(table) = model.tables.iter().find(|t| t.is_named_by(&s.table)) else {
                return cost.lacks(format!("a `[[table]]` named `{}`", s.table));
            };
            let index = s.index.as_deref().and_then(|i| table.index(i));
            let (pk, sk) = match index {
                Some(i) => (i.partition_key.as_str(), i.sort_key.as_deref()),
                None => (table.partition_key.as_str(), table.sort_key.as_deref()),
            };
            let fixed = |a: &str| s.fixed.iter().any(|f| f == a);
            let b = BoundOperation {
                op,
                table: Some(table),
                index,
                unbound: None,
                parent: None,
            };
            if index.is_none() && fixed(pk) && sk.is_none_or(fixed) {
                return get_item(&b, false, cost);
            }
            let Some(collection) = table.item_collection(index) else {
                return cost.lacks(format!("`item-count` of table `{}`", table.name));
            };
            let items = if fixed(pk) {
                match collection.avg_items {
                    Some(n) => n,
                    None => {
                        return cost.lacks(format!(
                            "`cardinality` (or `values`) of partition key `{pk}` of table `{}`",
                            table.name
                        ))
                    }
                }
            } else {
                collection.items as f64
            };
            cost.range_items = Some(items);
            cost.items_read = Some(items);
            if let Some(size) = avg_size(table, cost) {
                let p = read_cost::paged(items * size, cost.consistent);
                cost.bytes_read = Some(items * size);
                cost.pages = Some(p.pages);
                cost.read_units = Some(p.rcu);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load_str;
    use crate::scanner::{scan, ScanSettings};
    use crate::source::SourceFile;
    use std::path::Path;

    /// Orders with a GSI of every item (`ALL`) and a sparse `KEYS_ONLY` GSI, 1,500 B
    /// items: 1 read unit, 2 write units each.
    const MODEL: &str = r#"
[[table]]
name = "Orders"
partition-key = "PK"
sort-key = "SK"
item-count = 1_000_000
avg-item-size = 1_500

[table.attributes]
PK = { type = "S", cardinality = 100_000 }
SK = "S"
Customer = "S"
Open = "S"

[[table.index]]
name = "ByCustomer"
partition-key = "Customer"
projection = "ALL"

[[table.index]]
name = "OpenOrders"
partition-key = "Open"
projection = "KEYS_ONLY"

[[table.entity]]
name = "Order"
count = 900_000
keys = { PK = "ORDER#{id}", SK = "ORDER" }
attributes = ["Customer", "Open"]

[[table.entity]]
name = "Line"
count = 100_000
keys = { PK = "ORDER#{id}", SK = "LINE#{n}" }
attributes = ["Customer"]
"#;

    /// The cost of every call in `body` (the statements of an async fn), in order.
    fn costs(body: &str) -> Vec<(OpKind, CallCost)> {
        let model = load_str(Path::new("dynalint.toml"), MODEL).unwrap();
        let src = format!(
            "use aws_sdk_dynamodb::types::*;\nuse aws_sdk_dynamodb::Client;\nasync fn f(client: &Client, id: &str) -> Result<(), Box<dyn std::error::Error>> {{\n{body}\nOk(())\n}}\n"
        );
        let file = SourceFile::new("src/orders.rs", src.as_str());
        let ops = scan(&[file], &ScanSettings::default()).operations;
        ops.iter()
            .map(|op| (op.kind, call_cost(&model, &bind(&model, op))))
            .collect()
    }

    fn one(body: &str) -> CallCost {
        let mut all = costs(body);
        assert_eq!(all.len(), 1, "{all:#?}");
        all.remove(0).1
    }

    fn index_units(c: &CallCost) -> Vec<(&str, f64)> {
        c.index_writes
            .iter()
            .map(|w| (w.index.as_str(), w.units))
            .collect()
    }

    #[test]
    fn a_get_item_reads_its_item_in_4_kb_units() {
        let c = one(r#"client.get_item().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .send().await?;"#);
        assert_eq!((c.items_read, c.read_units), (Some(1.0), Some(0.5)));
        let c = one(
            r#"client.get_item().table_name("Orders").consistent_read(true)
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .send().await?;"#,
        );
        assert_eq!(c.read_units, Some(1.0));
    }

    #[test]
    fn a_put_writes_the_table_and_the_indexes_its_entity_lands_in() {
        // An order carries `Customer` and `Open`: both indexes, the `ALL` one at the
        // item's 2 units, the `KEYS_ONLY` one at one unit (assumed under 1 KB).
        let c = one(r#"client.put_item().table_name("Orders")
            .item("PK", AttributeValue::S(format!("ORDER#{id}")))
            .item("SK", AttributeValue::S("ORDER".into()))
            .item("Customer", AttributeValue::S("c1".into()))
            .item("Open", AttributeValue::S("yes".into()))
            .send().await?;"#);
        assert_eq!(c.write_units, Some(2.0));
        assert_eq!(index_units(&c), [("ByCustomer", 2.0), ("OpenOrders", 1.0)]);
        assert_eq!(c.total_write_units(), Some(5.0));
        assert!(c.assumed.iter().any(|a| a.contains("under 1 KB")), "{c:?}");
        // A line is not in the sparse index.
        let c = one(r#"client.put_item().table_name("Orders")
            .item("PK", AttributeValue::S(format!("ORDER#{id}")))
            .item("SK", AttributeValue::S(format!("LINE#{}", 3)))
            .item("Customer", AttributeValue::S("c1".into()))
            .send().await?;"#);
        assert_eq!(index_units(&c), [("ByCustomer", 2.0)]);
    }

    #[test]
    fn updates_and_deletes_charge_the_indexes_they_change() {
        // Setting an index key moves the entry (delete + put); a projected attribute of
        // an `ALL` index rewrites it; a `KEYS_ONLY` index is untouched by it.
        let c = one(r#"client.update_item().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .update_expression("SET Customer = :c")
            .expression_attribute_values(":c", AttributeValue::S("c2".into()))
            .send().await?;"#);
        assert_eq!(c.write_units, Some(2.0));
        // An update's entity is not shown: shares of the table's items (100% and 90%).
        assert_eq!(index_units(&c), [("ByCustomer", 4.0)]);
        let c = one(r#"client.update_item().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .update_expression("SET Note = :n")
            .expression_attribute_values(":n", AttributeValue::S("x".into()))
            .send().await?;"#);
        assert_eq!(index_units(&c), [("ByCustomer", 2.0)]);
        let c = one(r#"client.delete_item().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .send().await?;"#);
        assert_eq!(c.write_units, Some(2.0));
        assert_eq!(index_units(&c), [("ByCustomer", 2.0), ("OpenOrders", 0.9)]);
    }

    #[test]
    fn batches_cost_their_requests_and_transactions_twice() {
        let c = one(r#"client.batch_get_item()
            .request_items("Orders", KeysAndAttributes::builder()
                .keys(HashMap::from([("PK".to_string(), AttributeValue::S("ORDER#1".into())), ("SK".to_string(), AttributeValue::S("ORDER".into()))]))
                .keys(HashMap::from([("PK".to_string(), AttributeValue::S("ORDER#2".into())), ("SK".to_string(), AttributeValue::S("ORDER".into()))]))
                .build()?)
            .send().await?;"#);
        assert_eq!(
            (c.items_read, c.read_units),
            (Some(2.0), Some(1.0)),
            "{c:?}"
        );

        let c = one(r#"client.transact_get_items()
            .transact_items(TransactGetItem::builder().get(Get::builder().table_name("Orders")
                .key("PK", AttributeValue::S("ORDER#1".into()))
                .key("SK", AttributeValue::S("ORDER".into())).build()?).build())
            .send().await?;"#);
        // A transactional read of a 1.5 KB item: 2 units.
        assert_eq!(c.read_units, Some(2.0), "{c:?}");
        assert!(c.transactional);

        let c = one(r#"client.transact_write_items()
            .transact_items(TransactWriteItem::builder().put(Put::builder().table_name("Orders")
                .item("PK", AttributeValue::S("ORDER#1".into()))
                .item("SK", AttributeValue::S(format!("LINE#{}", 1)))
                .item("Customer", AttributeValue::S("c1".into())).build()?).build())
            .transact_items(TransactWriteItem::builder().condition_check(ConditionCheck::builder().table_name("Orders")
                .key("PK", AttributeValue::S("ORDER#1".into()))
                .key("SK", AttributeValue::S("ORDER".into()))
                .condition_expression("attribute_exists(PK)").build()?).build())
            .send().await?;"#);
        // The put (2 + 2 on `ByCustomer`) and the check (2), all twice.
        assert_eq!(c.write_units, Some(8.0), "{c:?}");
        assert_eq!(index_units(&c), [("ByCustomer", 4.0)]);

        let c = one(r#"for chunk in items.chunks(25) {
            let writes: Vec<WriteRequest> = chunk.iter().map(|o| WriteRequest::builder()
                .put_request(PutRequest::builder().set_item(Some(to_item(o).unwrap())).build().unwrap())
                .build()).collect();
            client.batch_write_item().request_items("Orders", writes).send().await?;
        }"#);
        // 25 puts of unknown entities: 2 units each, and the indexes' shares.
        assert_eq!(c.write_units, Some(50.0), "{c:?}");
    }

    #[test]
    fn a_partiql_select_by_key_is_a_get_and_without_one_a_scan() {
        let c = one(r#"client.execute_statement()
            .statement("SELECT * FROM \"Orders\" WHERE PK = ? AND SK = ?")
            .send().await?;"#);
        assert_eq!(c.read_units, Some(0.5));
        let c = one(r#"client.execute_statement()
            .statement("SELECT * FROM \"Orders\" WHERE Customer = ?")
            .send().await?;"#);
        assert_eq!(c.items_read, Some(1_000_000.0));
        let c = one(r#"client.execute_statement()
            .statement("DELETE FROM \"Orders\" WHERE PK = ? AND SK = ?")
            .send().await?;"#);
        assert_eq!(c.write_units, Some(2.0));
    }
}
