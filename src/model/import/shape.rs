//! DynamoDB's own description of a table — `KeySchema`, `AttributeDefinitions`,
//! `GlobalSecondaryIndexes`, `Projection`, `ProvisionedThroughput` — which CreateTable
//! input, describe-table output and CloudFormation's `AWS::DynamoDB::Table` all share.
//! Values go through an [`Eval`], so a template's `!Ref`/`!FindInMap` resolve where
//! they can; what does not resolve is a note, never a guess.

use indexmap::IndexMap;

use super::tree::{Node, Value};
use super::Found;
use crate::attr::AttributeType;
use crate::model::types::*;
use crate::source::Span;

/// How a format turns a node into a value: plain text for JSON outputs, intrinsic
/// functions resolved for templates.
pub trait Eval {
    /// The node's value as text when it is certainly known.
    fn text(&self, node: &Node) -> Option<String>;

    /// A whole number (capacity units, counts).
    fn count(&self, node: &Node) -> Option<u64> {
        self.text(node)?.trim().parse().ok()
    }

    /// The items of a list, with lists a template builds conditionally left out.
    fn list<'n>(&self, node: &'n Node) -> Option<&'n [Node]> {
        match &node.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }
}

/// Values as written: describe-table and Workbench JSON have no functions.
pub struct Plain;

impl Eval for Plain {
    fn text(&self, node: &Node) -> Option<String> {
        node.text().map(str::to_string)
    }
}

/// A table with nothing known but its name and where it came from.
pub fn blank_table(name: String, name_span: Span, span: Span, origin: TableOrigin) -> Table {
    Table {
        name,
        refs: Vec::new(),
        partition_key: String::new(),
        sort_key: None,
        item_count: None,
        avg_item_size: None,
        write_rate: None,
        attributes: IndexMap::new(),
        indexes: Vec::new(),
        entities: Vec::new(),
        billing_mode: None,
        provisioned: None,
        table_class: None,
        replicas: Vec::new(),
        origin,
        span,
        name_span,
        fields: FieldSpans::default(),
    }
}

/// Reads `KeySchema`, attributes, indexes, billing and capacity from `props` into
/// `table`. Returns false (with a note) when the key schema cannot be known: such a
/// table is not imported, since every rule starts from its keys.
pub fn read_table(props: &Node, eval: &dyn Eval, table: &mut Table, found: &mut Found) -> bool {
    let what = format!("table `{}`", table.name);
    let Some(keys) = props.get("KeySchema") else {
        found.note(
            props,
            format!("{what} has no `KeySchema`; it is not imported"),
        );
        return false;
    };
    let Some((pk, sk)) = key_schema(keys, eval, &what, found) else {
        return false;
    };
    table.fields.insert("partition-key", pk.1);
    table.partition_key = pk.0;
    if let Some((s, span)) = sk {
        table.fields.insert("sort-key", span);
        table.sort_key = Some(s);
    }
    if let Some(defs) = props.get("AttributeDefinitions") {
        table.fields.insert("attributes", defs.span);
        for d in eval.list(defs).unwrap_or_default() {
            let name = d.get("AttributeName").and_then(|n| eval.text(n));
            let ty = d.get("AttributeType").and_then(|n| eval.text(n));
            match (name, ty.as_deref().and_then(AttributeType::parse)) {
                (Some(name), Some(ty)) => {
                    let name_span = d.get("AttributeName").map_or(d.span, |n| n.span);
                    table
                        .attributes
                        .insert(name.clone(), attribute(name, ty, d.span, name_span));
                }
                _ => found.note(
                    d,
                    format!("an attribute definition of {what} has no known name and type"),
                ),
            }
        }
    }
    for (field, kind) in [
        ("GlobalSecondaryIndexes", IndexKind::Global),
        ("LocalSecondaryIndexes", IndexKind::Local),
    ] {
        let Some(list) = props.get(field) else {
            continue;
        };
        let Some(items) = eval.list(list) else {
            found.note(
                list,
                format!("`{field}` of {what} is not a list dynalint can read; its indexes are not imported"),
            );
            continue;
        };
        for i in items {
            if let Some(index) = index(i, kind, eval, &what, found) {
                table.indexes.push(index);
            }
        }
    }
    let mode = props
        .get("BillingMode")
        .or_else(|| props.at(&["BillingModeSummary", "BillingMode"]));
    if let Some(m) = mode {
        table.fields.insert("billing-mode", m.span);
        table.billing_mode = eval.text(m).as_deref().and_then(BillingMode::parse);
    }
    if let Some(p) = props.get("ProvisionedThroughput") {
        table.fields.insert("read-capacity", p.span);
        table.provisioned = throughput(p, eval);
    }
    let class = props
        .get("TableClass")
        .or_else(|| props.at(&["TableClassSummary", "TableClass"]));
    if let Some(c) = class {
        table.fields.insert("table-class", c.span);
        table.table_class = eval.text(c).as_deref().and_then(TableClass::parse);
    }
    true
}

/// A `[table.attributes]` entry with only a type.
pub fn attribute(name: String, ty: AttributeType, span: Span, name_span: Span) -> Attribute {
    let mut fields = FieldSpans::default();
    fields.insert("type", span);
    Attribute {
        name,
        ty,
        values: None,
        unique: false,
        cardinality: None,
        span,
        name_span,
        fields,
    }
}

/// `ReadCapacityUnits`/`WriteCapacityUnits`; `None` when neither is known (describe-table
/// reports zeros for on-demand tables, which are no capacity at all).
pub fn throughput(p: &Node, eval: &dyn Eval) -> Option<Throughput> {
    let read = p
        .get("ReadCapacityUnits")
        .and_then(|n| eval.count(n))
        .filter(|&n| n > 0);
    let write = p
        .get("WriteCapacityUnits")
        .and_then(|n| eval.count(n))
        .filter(|&n| n > 0);
    (read.is_some() || write.is_some()).then_some(Throughput { read, write })
}

type Key = (String, Span);

/// `[{AttributeName, KeyType: HASH}, {.., KeyType: RANGE}]`.
fn key_schema(
    keys: &Node,
    eval: &dyn Eval,
    what: &str,
    found: &mut Found,
) -> Option<(Key, Option<Key>)> {
    let Some(items) = eval.list(keys) else {
        found.note(
            keys,
            format!(
                "the `KeySchema` of {what} is not a list dynalint can read; it is not imported"
            ),
        );
        return None;
    };
    let mut hash = None;
    let mut range = None;
    for k in items {
        let name = k
            .get("AttributeName")
            .and_then(|n| eval.text(n))
            .filter(|n| !n.is_empty());
        let ty = k.get("KeyType").and_then(|n| eval.text(n));
        let span = k.get("AttributeName").map_or(k.span, |n| n.span);
        match (name, ty.as_deref()) {
            (Some(n), Some("HASH")) => hash = Some((n, span)),
            (Some(n), Some("RANGE")) => range = Some((n, span)),
            _ => {
                found.note(
                    k,
                    format!("a key of {what} has no known `AttributeName` and `KeyType`; it is not imported"),
                );
                return None;
            }
        }
    }
    match hash {
        Some(h) => Some((h, range)),
        None => {
            found.note(
                keys,
                format!("the `KeySchema` of {what} has no `HASH` key; it is not imported"),
            );
            None
        }
    }
}

fn index(
    i: &Node,
    kind: IndexKind,
    eval: &dyn Eval,
    what: &str,
    found: &mut Found,
) -> Option<Index> {
    let Some(name) = i.get("IndexName").and_then(|n| eval.text(n)) else {
        found.note(
            i,
            format!("an index of {what} has no known `IndexName`; it is not imported"),
        );
        return None;
    };
    let iwhat = format!("index `{name}` of {what}");
    let keys = i.get("KeySchema").unwrap_or(Node::null());
    let ((pk, pk_span), sk) = key_schema(keys, eval, &iwhat, found)?;
    let mut fields = FieldSpans::default();
    fields.insert("partition-key", pk_span);
    if let Some((_, s)) = &sk {
        fields.insert("sort-key", *s);
    }
    let projection = match i.get("Projection") {
        Some(p) => {
            fields.insert("projection", p.span);
            projection(p, eval, &iwhat, found)?
        }
        // DynamoDB requires one; CloudFormation's SAM-less default is not documented,
        // so an absent projection is read as ALL, under which nothing is falsely missing.
        None => Projection::All,
    };
    let provisioned = i
        .get("ProvisionedThroughput")
        .and_then(|p| throughput(p, eval));
    let name_span = i.get("IndexName").map_or(i.span, |n| n.span);
    Some(Index {
        name,
        kind,
        partition_key: pk,
        sort_key: sk.map(|(s, _)| s),
        projection,
        provisioned,
        span: i.span,
        name_span,
        fields,
    })
}

fn projection(p: &Node, eval: &dyn Eval, what: &str, found: &mut Found) -> Option<Projection> {
    let ty = p.get("ProjectionType").and_then(|n| eval.text(n));
    let non_key = p.get("NonKeyAttributes");
    match ty.as_deref() {
        Some("ALL") => Some(Projection::All),
        Some("KEYS_ONLY") => Some(Projection::KeysOnly),
        // `INCLUDE`, or only `NonKeyAttributes` (CloudFormation then means INCLUDE).
        Some("INCLUDE") | None if non_key.is_some() || ty.is_some() => {
            let mut attrs = Vec::new();
            for a in non_key.and_then(|n| eval.list(n)).unwrap_or_default() {
                match eval.text(a) {
                    Some(s) => attrs.push(s),
                    None => {
                        found.note(
                            a,
                            format!("a projected attribute of {what} is not known; the index is not imported"),
                        );
                        return None;
                    }
                }
            }
            Some(Projection::Include(attrs))
        }
        // No type at all: DynamoDB's default for a CloudFormation index without one.
        None => Some(Projection::All),
        Some(other) => {
            found.note(
                p,
                format!("{what} projects `{other}`, which is not a DynamoDB projection type; the index is not imported"),
            );
            None
        }
    }
}
