//! `unused-partition-key`: prose in `rules/unused-partition-key.md`.
//!
//! A table keyed by a sequence or UUID that nothing reads by, read only through a GSI
//! whose partition key is unique per item: that GSI's key could be the table's, and
//! every write would be charged once instead of twice.

use super::{Rule, RuleContext, RuleMeta};
use crate::facts::partiql::{self, Statement};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures::{bytes, group, units};
use crate::model::{Cardinality, Index, IndexKind, Model, Projection, Table};
use crate::scanner::OpKind;

crate::declare_rule! {
    pub UnusedPartitionKey,
    id: "unused-partition-key",
    category: Perf,
    summary: "a partition key nothing reads by, next to a GSI keyed by a unique attribute: every write is paid twice",
}

/// Bytes one write capacity unit covers.
const WRITE_UNIT_BYTES: u64 = 1024;

/// How one code operation reads a table.
#[derive(Debug, Clone, Copy)]
enum Access<'a> {
    /// By the table's partition key: GetItem, a Query of the table or an LSI, a
    /// PartiQL `SELECT` whose `WHERE` fixes the key.
    Key(&'a Table),
    /// Through a GSI (`None`: one whose name is not known statically).
    Gsi(&'a Table, Option<&'a Index>),
    /// Not a read by any key: a write, a Scan, a batch wrapper whose requests are its
    /// children.
    Other,
    /// A read whose table (or key) is not known: it may read any table by its key.
    Unknown,
}

impl Rule for UnusedPartitionKey {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        let accesses: Vec<Access<'_>> = facts
            .operations
            .iter()
            .map(|b| access(facts.model, b))
            .collect();
        // A read the scanner could not bind may be a GetItem by any table's key.
        if accesses.iter().any(|a| matches!(a, Access::Unknown)) {
            return;
        }
        for table in &facts.model.tables {
            check_table(cx, facts, &accesses, table);
        }
    }
}

fn check_table(
    cx: &mut RuleContext<'_>,
    facts: &ProjectFacts<'_>,
    accesses: &[Access<'_>],
    table: &Table,
) {
    let on_table: Vec<&BoundOperation<'_>> = facts
        .operations
        .iter()
        .filter(|b| is(b.table, table))
        .collect();
    let partiql_on_table = accesses.iter().any(|a| match a {
        Access::Key(t) | Access::Gsi(t, _) => is(Some(t), table),
        _ => false,
    });
    // Without any call on the table the code that reads it is not in view (one file in
    // an editor, a library checked alone): nothing can be concluded.
    if on_table.is_empty() && !partiql_on_table {
        return;
    }
    let patterns = facts
        .model
        .access_patterns
        .iter()
        .filter(|p| table.is_named_by(&p.table));
    let mut read_gsis: Vec<&Index> = Vec::new();
    for p in patterns {
        match p.index.as_deref().and_then(|n| table.index(n)) {
            Some(i) if i.kind == IndexKind::Global => push_unique(&mut read_gsis, i),
            // The table itself or an LSI, both keyed by the table's partition key, or an
            // index the model lacks (the model check reports it): not concluded.
            _ => return,
        }
    }
    for a in accesses {
        match a {
            Access::Key(t) if is(Some(t), table) => return,
            Access::Gsi(t, Some(i)) if is(Some(t), table) => push_unique(&mut read_gsis, i),
            _ => {}
        }
    }
    let Some(gsi) = read_gsis
        .iter()
        .copied()
        .find(|i| could_be_table_key(table, i))
    else {
        return;
    };
    report(cx, table, gsi, &on_table);
}

fn is(a: Option<&Table>, b: &Table) -> bool {
    a.is_some_and(|a| std::ptr::eq(a, b))
}

fn push_unique<'a>(v: &mut Vec<&'a Index>, i: &'a Index) {
    if !v.iter().any(|x| x.name == i.name) {
        v.push(i);
    }
}

/// A GSI whose partition key takes a value per item, and whose sort key (if any) is
/// the table's: its key identifies every item, as a table key must.
fn could_be_table_key(table: &Table, gsi: &Index) -> bool {
    if gsi.partition_key == table.partition_key {
        return false;
    }
    if gsi.sort_key.is_some() && gsi.sort_key != table.sort_key {
        return false;
    }
    match table.cardinality(&gsi.partition_key) {
        Cardinality::Unique(_) => true,
        Cardinality::Declared(n) | Cardinality::Values(n) => table
            .items_in(None)
            .is_some_and(|items| items > 0 && n >= items),
        Cardinality::Unknown => false,
    }
}

/// How a bound operation reads.
fn access<'a>(model: &'a Model, b: &BoundOperation<'a>) -> Access<'a> {
    let op = b.op;
    match op.kind {
        // Their requests are bound as children; with none found, they are unknown.
        OpKind::BatchGetItem | OpKind::TransactGetItems => {
            if op.children.is_empty() {
                Access::Unknown
            } else {
                Access::Other
            }
        }
        OpKind::GetItem => b.table.map_or(Access::Unknown, Access::Key),
        OpKind::Query => {
            let Some(table) = b.table else {
                return Access::Unknown;
            };
            match &op.index {
                None => Access::Key(table),
                Some(r) => match r.value() {
                    Some(name) => match table.index(name) {
                        Some(i) if i.kind == IndexKind::Local => Access::Key(table),
                        Some(i) => Access::Gsi(table, Some(i)),
                        // An index DynamoDB rejects reads nothing (`rejected-request`).
                        None => Access::Other,
                    },
                    // Any index: by the table's key too when it has a local one.
                    None if table.indexes.iter().any(|i| i.kind == IndexKind::Local) => {
                        Access::Unknown
                    }
                    None => Access::Gsi(table, None),
                },
            }
        }
        OpKind::ExecuteStatement => statement_access(model, b),
        _ => Access::Other,
    }
}

/// A PartiQL statement: a `SELECT` whose `WHERE` fixes the table's (or an LSI's)
/// partition key reads by it; on a GSI it reads through it; anything else is a scan or
/// a write.
fn statement_access<'a>(model: &'a Model, b: &BoundOperation<'a>) -> Access<'a> {
    let Some(text) = b.op.statement.as_ref().and_then(|s| s.text.value()) else {
        return Access::Unknown;
    };
    let select = match partiql::read(text) {
        Statement::Select(s) => s,
        Statement::Write => return Access::Other,
        Statement::Unknown => return Access::Unknown,
    };
    // A name the model does not know is a table it does not describe.
    let Some(table) = model.tables.iter().find(|t| t.is_named_by(&select.table)) else {
        return Access::Other;
    };
    let fixes = |attr: &str| select.fixed.iter().any(|f| f == attr);
    match select.index.as_deref().map(|n| table.index(n)) {
        None if fixes(&table.partition_key) => Access::Key(table),
        Some(Some(i)) if i.kind == IndexKind::Local && fixes(&table.partition_key) => {
            Access::Key(table)
        }
        Some(Some(i)) if i.kind == IndexKind::Global => Access::Gsi(table, Some(i)),
        _ => Access::Other,
    }
}

fn report(cx: &mut RuleContext<'_>, table: &Table, gsi: &Index, on_table: &[&BoundOperation<'_>]) {
    let path = table.origin.path.clone();
    let pk = &table.partition_key;
    let gpk = &gsi.partition_key;
    let table_wcu = table
        .avg_item_size
        .map(|s| s.div_ceil(WRITE_UNIT_BYTES).max(1));
    // The index entry holds the whole item with ALL, else at least the keys (1 WCU).
    let gsi_wcu = match gsi.projection {
        Projection::All => table_wcu,
        _ => Some(1),
    };
    let cost = match (table.avg_item_size, table_wcu, gsi_wcu) {
        (Some(size), Some(t), Some(g)) => format!(
            ": each write of a {} item costs {t} WCU on the table and {g} more on `{}`",
            bytes(size as f64),
            gsi.name
        ),
        _ => format!(
            ": each write is charged on the table and again on `{}`",
            gsi.name
        ),
    };
    let span = table.fields.get("partition-key").unwrap_or(table.name_span);
    let d = cx.report(
        path.clone(),
        span,
        format!(
            "no access pattern or code reads `{}` by its partition key `{pk}`, only through GSIs, and `{}` is keyed by `{gpk}`, unique per item{cost}",
            table.name, gsi.name
        ),
    );
    d.label(
        path,
        gsi.name_span,
        format!("keyed by `{gpk}`, one item per value: this could be the table's key"),
    );
    // Entities' own rates take precedence over the table's, as for `low-cardinality-pk`.
    let entity_rates: Vec<f64> = table
        .entities
        .iter()
        .filter(|e| e.writes(table, gpk) != Some(false))
        .filter_map(|e| e.write_rate)
        .collect();
    let rate = if entity_rates.is_empty() {
        table.write_rate
    } else {
        Some(entity_rates.iter().sum())
    };
    if let (Some(rate), Some(g)) = (rate, gsi_wcu) {
        d.note(format!(
            "at the declared `write-rate` of {} items a second, `{}` alone takes {} WCU a second",
            units(rate),
            gsi.name,
            units(rate * g as f64)
        ));
    }
    // Declared nowhere: `unique` is what the code's reads of the index show.
    if table.origin.kind == crate::model::OriginKind::Usage {
        d.note(format!(
            "`{gpk}` is taken as unique because every query of `{}` in the code reads at most its first item: the code finds one item per `{gpk}`",
            gsi.name
        ));
    }
    if gsi.projection == Projection::All {
        if let (Some(items), Some(size)) = (table.items_in(None), table.avg_item_size) {
            d.note(format!(
                "`{}` projects ALL: it stores a second copy of the {} items ({})",
                gsi.name,
                group(items),
                bytes(items.saturating_mul(size) as f64)
            ));
        }
    }
    let by_key: Vec<&str> = on_table
        .iter()
        .filter(|b| b.op.kind.is_write() || b.op.kind == OpKind::ConditionCheck)
        .filter(|b| b.op.key.as_ref().is_some_and(|k| k.get(pk).is_some()))
        .map(|b| b.op.kind.sdk_method())
        .collect();
    if !by_key.is_empty() {
        d.note(format!(
            "{} write{} in the code address{} items by `{pk}` (`{}`): address them by `{gpk}` instead",
            by_key.len(),
            if by_key.len() == 1 { "" } else { "s" },
            if by_key.len() == 1 { "es" } else { "" },
            by_key.join("`, `")
        ));
    }
    d.help(format!(
        "make `{gpk}` the partition key of `{}` and drop `{}`: a read by `{gpk}` becomes a `GetItem` (strongly consistent when needed, which a GSI never is) and each write is charged once",
        table.name, gsi.name
    ));
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::scanner::{OpKind, Resolved};

    const MODEL: &str = r#"
[[table]]
name = "LegacyOrders"
partition-key = "TransactionID"
item-count = 3_000_000
avg-item-size = 250
[table.attributes]
TransactionID = { type = "N", unique = true }
OrderID = { type = "S", cardinality = 3_000_000 }
Order_Date = { type = "S", cardinality = 3_650 }
Amount = "N"
[[table.index]]
name = "ByOrderID"
partition-key = "OrderID"
[[table.index]]
name = "ByOrderDate"
partition-key = "Order_Date"
[[table.index]]
name = "ByTransactionAmount"
kind = "local"
partition-key = "TransactionID"
sort-key = "Amount"
projection = "KEYS_ONLY"
"#;

    fn query(index: Option<&str>) -> crate::scanner::Operation {
        let mut q = op(OpKind::Query, "LegacyOrders");
        q.index = index.map(Resolved::literal);
        q
    }

    fn statement(text: &str) -> crate::scanner::Operation {
        let mut s = op(OpKind::ExecuteStatement, "unused");
        s.table = None;
        s.statement = Some(Box::new(expr(text)));
        s
    }

    #[test]
    fn reads_only_through_a_unique_gsi() {
        let m = model(MODEL);
        let d = run_ops(&m, "unused-partition-key", &[query(Some("ByOrderID"))]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(
            d[0].message,
            "no access pattern or code reads `LegacyOrders` by its partition key `TransactionID`, only through GSIs, and `ByOrderID` is keyed by `OrderID`, unique per item: each write of a 250 B item costs 1 WCU on the table and 1 more on `ByOrderID`"
        );
        assert!(d[0]
            .notes
            .iter()
            .any(|n| n.contains("3,000,000 items (715.3 MB)")));
        // A PartiQL read through the GSI is the same.
        let s = statement("SELECT * FROM \"LegacyOrders\".\"ByOrderID\" WHERE OrderID = ?");
        assert_eq!(run_ops(&m, "unused-partition-key", &[s]).len(), 1);
    }

    #[test]
    fn quiet_when_something_reads_by_the_key_or_may() {
        let m = model(MODEL);
        let gsi = query(Some("ByOrderID"));
        let mut unknown = op(OpKind::GetItem, "x");
        unknown.table = Some(Resolved::unknown("a parameter"));
        let cases = [
            ("GetItem", op(OpKind::GetItem, "LegacyOrders")),
            ("Query of the table", query(None)),
            ("Query of the LSI", query(Some("ByTransactionAmount"))),
            ("unknown table", unknown),
            ("empty batch", op(OpKind::BatchGetItem, "LegacyOrders")),
            (
                "PartiQL by key",
                statement("SELECT * FROM LegacyOrders WHERE TransactionID = ?"),
            ),
            ("PartiQL text unknown", {
                let mut s = statement("x");
                s.statement = None;
                s
            }),
        ];
        for (case, other) in cases {
            let d = run_ops(&m, "unused-partition-key", &[gsi.clone(), other]);
            assert!(d.is_empty(), "{case}: {d:#?}");
        }
        // Writes by the key and scans do not read by it.
        let writes = [
            op(OpKind::UpdateItem, "LegacyOrders"),
            op(OpKind::Scan, "LegacyOrders"),
            statement("UPDATE LegacyOrders SET a = 1 WHERE TransactionID = ?"),
            statement("SELECT * FROM LegacyOrders"),
        ];
        for w in writes {
            assert_eq!(
                run_ops(&m, "unused-partition-key", &[gsi.clone(), w]).len(),
                1
            );
        }
        // No code on the table: not in view.
        assert!(run_ops(&m, "unused-partition-key", &[]).is_empty());
    }

    #[test]
    fn quiet_when_no_read_gsi_is_unique_or_its_sort_key_differs() {
        let not_unique = MODEL.replace("cardinality = 3_000_000", "cardinality = 1_000_000");
        let m = model(&not_unique);
        assert!(run_ops(&m, "unused-partition-key", &[query(Some("ByOrderID"))]).is_empty());
        let sorted = MODEL.replace(
            "partition-key = \"OrderID\"",
            "partition-key = \"OrderID\"\nsort-key = \"Order_Date\"",
        );
        let m = model(&sorted);
        assert!(run_ops(&m, "unused-partition-key", &[query(Some("ByOrderID"))]).is_empty());
        // Reads only through the non-unique GSI.
        let m = model(MODEL);
        assert!(run_ops(&m, "unused-partition-key", &[query(Some("ByOrderDate"))]).is_empty());
    }
}
