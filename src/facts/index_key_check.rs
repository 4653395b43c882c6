//! What DynamoDB answers when a write puts a NULL or an empty value into an index key
//! attribute. The engine owns the wording; this builds the smallest item that shows
//! the problem and asks it.
//!
//! [`bad_index_key_writes`] is the one list of such writes in a call:
//! `missing-sparse-attribute` reports them, and `rejected-request` leaves exactly those
//! rejections to it, so each cause is reported once.

use crate::attr::AttributeType;
use crate::engine::keys::{check_index_keys, WriteKind};
use crate::engine::{AttributeValue, Item, Number, TableSchema};
use crate::facts::key_access::{written, AttrValue};
use crate::model::{Index, Table};
use crate::scanner::{OpKind, Operation};

/// A value DynamoDB may refuse in an index key attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadKeyValue {
    /// `{"NULL": true}`.
    Null,
    /// `""` (or empty binary).
    Empty,
}

/// A write of NULL or `""` (always, or whenever an optional value is missing) into a
/// key attribute of a secondary index that is not also a key of the table.
#[derive(Debug, Clone)]
pub struct BadIndexKeyWrite<'a> {
    pub attr: AttrValue<'a>,
    pub index: &'a Index,
    pub value: BadKeyValue,
    /// True when every run writes it (a literal NULL or `""`); false when only a
    /// missing optional value does (`Option` without `skip_serializing_if`,
    /// `unwrap_or_default()`).
    pub always: bool,
    /// DynamoDB's `ValidationException` message for the write.
    pub message: String,
}

/// The values a write gives to key attributes of a secondary index that are not also
/// keys of the table (those are required, not sparse), with the first such index.
pub fn index_key_writes<'a>(
    table: &'a Table,
    op: &'a Operation,
) -> impl Iterator<Item = (AttrValue<'a>, &'a Index)> {
    written(op).into_iter().filter_map(move |a| {
        if table.key_attributes().contains(&a.attribute.as_str()) {
            return None;
        }
        let index = table
            .indexes
            .iter()
            .find(|i| i.key_attributes().contains(&a.attribute.as_str()))?;
        Some((a, index))
    })
}

/// The NULL and empty index key values a put or update writes. Table keys are left
/// out: they are required, not sparse, and their rejection is `rejected-request`'s.
pub fn bad_index_key_writes<'a>(table: &'a Table, op: &'a Operation) -> Vec<BadIndexKeyWrite<'a>> {
    let kind = match op.kind {
        OpKind::UpdateItem => WriteKind::Update,
        _ => WriteKind::Put,
    };
    let serialised = op.item.as_ref().is_some_and(|i| i.from_type.is_some());
    let mut out = Vec::new();
    for (a, index) in index_key_writes(table, op) {
        let v = a.value;
        let is_null = v.ty == Some(AttributeType::Null);
        let is_empty = !is_null && v.literal.as_deref() == Some("");
        if !(is_null || is_empty || v.nullable) {
            continue;
        }
        // A serialised `Option` becomes NULL; `unwrap_or_default()` on a string or
        // binary becomes empty.
        let serde = serialised && a.via == crate::facts::key_access::Via::Item;
        let value = if is_null
            || (v.nullable && (serde || !matches!(v.ty, Some(AttributeType::S | AttributeType::B))))
        {
            BadKeyValue::Null
        } else {
            BadKeyValue::Empty
        };
        let Some(message) = index_key_rejection(table, index, &a.attribute, value, kind) else {
            continue;
        };
        out.push(BadIndexKeyWrite {
            attr: a,
            index,
            value,
            always: is_null || is_empty,
            message,
        });
    }
    out
}

/// DynamoDB's `ValidationException` message for writing `value` into `attr`, a key
/// attribute of `index`, or `None` when DynamoDB accepts it.
pub fn index_key_rejection(
    table: &Table,
    index: &Index,
    attr: &str,
    value: BadKeyValue,
    kind: WriteKind,
) -> Option<String> {
    let mut schema = TableSchema::from_model(table);
    schema.indexes.retain(|i| i.name == index.name);
    let index_schema = schema.indexes.first()?;
    let mut item = Item::new();
    for key in index_schema.keys.attributes() {
        let v = if key.name == attr {
            match (value, key.ty) {
                (BadKeyValue::Null, _) => AttributeValue::Null,
                (BadKeyValue::Empty, crate::attr::AttributeType::B) => {
                    AttributeValue::B(Vec::new())
                }
                (BadKeyValue::Empty, _) => AttributeValue::S(String::new()),
            }
        } else {
            // The index's other key attributes hold valid values, so that DynamoDB
            // gets as far as the attribute in question.
            match key.ty {
                crate::attr::AttributeType::N => AttributeValue::N(Number::from_i64(1)),
                crate::attr::AttributeType::B => AttributeValue::B(vec![1]),
                _ => AttributeValue::S("x".into()),
            }
        };
        item.insert(key.name.clone(), v);
    }
    check_index_keys(&schema, &item, kind)
        .err()
        .map(|e| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> crate::model::Model {
        crate::model::load_str(
            std::path::Path::new("m.toml"),
            r#"
[[table]]
name = "Orders"
partition-key = "customer"
sort-key = "orderId"
[table.attributes]
customer = "S"
orderId = "S"
status = "S"
createdAt = "S"
[[table.index]]
name = "StatusDateIdx"
partition-key = "status"
sort-key = "createdAt"
"#,
        )
        .unwrap()
    }

    #[test]
    fn dynamodb_wording_for_empty_and_null() {
        let m = table();
        let t = &m.tables[0];
        let i = &t.indexes[0];
        // test-fixtures/conformance: sparse/err_put_gsi_key_empty_string.
        assert_eq!(
            index_key_rejection(t, i, "status", BadKeyValue::Empty, WriteKind::Put).as_deref(),
            Some(
                "One or more parameter values are not valid. A value specified for a \
                 secondary index key is not supported. The AttributeValue for a key \
                 attribute cannot contain an empty string value. IndexName: StatusDateIdx, \
                 IndexKey: status"
            )
        );
        assert_eq!(
            index_key_rejection(t, i, "createdAt", BadKeyValue::Null, WriteKind::Put).as_deref(),
            Some(
                "One or more parameter values were invalid: Type mismatch for Index Key \
                 createdAt Expected: S Actual: NULL IndexName: StatusDateIdx"
            )
        );
    }
}
