//! A NoSQL Workbench data model export: `DataModel` is a list of tables, each with
//! `KeyAttributes.PartitionKey`/`SortKey`, typed `NonKeyAttributes`, and indexes whose
//! keys are written the same way.

use super::shape::{attribute, blank_table, throughput, Plain};
use super::tree::Node;
use super::{Found, Imported};
use crate::attr::AttributeType;
use crate::model::types::*;
use crate::source::FilePath;

/// True for a Workbench export (a `DataModel` list of tables with `KeyAttributes`).
pub fn is_workbench(doc: &Node) -> bool {
    doc.get("DataModel")
        .is_some_and(|d| d.items().iter().any(|t| t.get("KeyAttributes").is_some()))
}

/// Imports every table of the model.
pub fn import(file: FilePath, doc: &Node) -> Imported {
    let mut found = Found::new(file, OriginKind::NoSqlWorkbench);
    for t in doc.get("DataModel").map(Node::items).unwrap_or_default() {
        if let Some(table) = table(t, &mut found) {
            found.tables.push(table);
        }
    }
    found.finish()
}

/// `{AttributeName, AttributeType}`.
fn typed_attribute(n: &Node) -> Option<(String, Option<AttributeType>, &Node)> {
    let name = n.get("AttributeName")?;
    let ty = n
        .get("AttributeType")
        .and_then(Node::text)
        .and_then(AttributeType::parse);
    let text = name.text().filter(|n| !n.is_empty())?;
    Some((text.to_string(), ty, name))
}

/// `KeyAttributes`: the partition key (required) and sort key, with their types.
type Keys<'n> = (
    (String, Option<AttributeType>, &'n Node),
    Option<(String, Option<AttributeType>, &'n Node)>,
);

fn keys<'n>(n: &'n Node, what: &str, found: &mut Found) -> Option<Keys<'n>> {
    let k = n.get("KeyAttributes").unwrap_or(Node::null());
    let Some(pk) = k.get("PartitionKey").and_then(typed_attribute) else {
        found.note(
            n,
            format!("{what} has no `KeyAttributes.PartitionKey`; it is not imported"),
        );
        return None;
    };
    let sk = k.get("SortKey").and_then(typed_attribute);
    Some((pk, sk))
}

fn table(t: &Node, found: &mut Found) -> Option<Table> {
    let name_node = t.get("TableName").unwrap_or(Node::null());
    let Some(name) = name_node.text() else {
        found.note(
            t,
            "a table of `DataModel` has no `TableName`; it is not imported",
        );
        return None;
    };
    let what = format!("table `{name}`");
    let (pk, sk) = keys(t, &what, found)?;
    let origin = found.origin(t.line, None);
    let mut table = blank_table(name.to_string(), name_node.span, t.span, origin);
    let typed = |table: &mut Table, (name, ty, node): (String, Option<AttributeType>, &Node)| {
        if let Some(ty) = ty {
            table
                .attributes
                .entry(name.clone())
                .or_insert_with(|| attribute(name, ty, node.span, node.span));
        }
    };
    table.fields.insert("partition-key", pk.2.span);
    table.partition_key = pk.0.clone();
    typed(&mut table, pk);
    if let Some(sk) = sk {
        table.fields.insert("sort-key", sk.2.span);
        table.sort_key = Some(sk.0.clone());
        typed(&mut table, sk);
    }
    for a in t
        .get("NonKeyAttributes")
        .map(Node::items)
        .unwrap_or_default()
    {
        if let Some(a) = typed_attribute(a) {
            typed(&mut table, a);
        }
    }
    for i in t
        .get("GlobalSecondaryIndexes")
        .map(Node::items)
        .unwrap_or_default()
    {
        let Some(iname) = i.get("IndexName").and_then(Node::text) else {
            found.note(
                i,
                format!("an index of {what} has no `IndexName`; it is not imported"),
            );
            continue;
        };
        let Some((ipk, isk)) = keys(i, &format!("index `{iname}` of {what}"), found) else {
            continue;
        };
        let mut fields = FieldSpans::default();
        fields.insert("partition-key", ipk.2.span);
        let projection = projection(i.get("Projection"));
        let index = Index {
            name: iname.to_string(),
            // Workbench indexes whose partition key is the table's and that were made
            // with the table can be local, but the export does not say; GSI is what
            // Workbench lists them as.
            kind: IndexKind::Global,
            partition_key: ipk.0.clone(),
            sort_key: isk.as_ref().map(|s| s.0.clone()),
            projection,
            provisioned: None,
            span: i.span,
            name_span: i.get("IndexName").map_or(i.span, |n| n.span),
            fields,
        };
        typed(&mut table, ipk);
        if let Some(isk) = isk {
            typed(&mut table, isk);
        }
        table.indexes.push(index);
    }
    if let Some(m) = t.get("BillingMode") {
        table.billing_mode = m.text().and_then(BillingMode::parse);
    }
    if table.billing_mode != Some(BillingMode::PayPerRequest) {
        table.provisioned = t
            .at(&["ProvisionedCapacitySettings", "ProvisionedThroughput"])
            .and_then(|p| throughput(p, &Plain));
    }
    Some(table)
}

fn projection(p: Option<&Node>) -> Projection {
    let p = p.unwrap_or(Node::null());
    match p.get("ProjectionType").and_then(Node::text) {
        Some("KEYS_ONLY") => Projection::KeysOnly,
        Some("INCLUDE") => Projection::Include(
            p.get("NonKeyAttributes")
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .filter_map(|a| a.text().map(str::to_string))
                .collect(),
        ),
        _ => Projection::All,
    }
}
