//! Primary keys and index keys: how an item's key attributes become the ordered keys
//! of a table or an index, and DynamoDB's checks on them (missing, wrong type, empty,
//! too long), with DynamoDB's messages.

use std::ops::Bound;

use super::error::{DynamoError, DynamoResult};
use super::schema::{IndexSchema, KeyAttribute, KeySchema, TableSchema};
use super::value::{AttributeValue, Item, KeyValue};

/// Longest partition key value, in bytes.
pub const MAX_HASH_KEY_BYTES: usize = 2048;
/// Longest sort key value, in bytes.
pub const MAX_RANGE_KEY_BYTES: usize = 1024;

/// The sort part of a key. `Absent` for tables without a sort key; `End` only ever
/// appears in range bounds (it sorts after every value), so one partition is the range
/// `(h, Absent) ..= (h, End)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Absent,
    Value(KeyValue),
    End,
}

impl Sort {
    /// The sort key value, if any.
    pub fn value(&self) -> Option<&KeyValue> {
        match self {
            Self::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// A table's primary key, ordered by partition then sort key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PrimaryKey {
    pub hash: KeyValue,
    pub sort: Sort,
}

/// A value or a sentinel below/above all values, for range bounds over composite keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bounded<T> {
    Min,
    Val(T),
    Max,
}

/// An index entry's key: the index's partition and sort key, then the table's primary
/// key so items sharing index keys stay distinct and in a stable order.
pub type IndexEntry = (KeyValue, Sort, Bounded<PrimaryKey>);

/// Wraps a key schema's attributes for messages: which write is being checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// PutItem, BatchWriteItem puts, transaction puts.
    Put,
    /// UpdateItem: DynamoDB words index key problems differently there.
    Update,
}

/// The primary key of an item being written, or DynamoDB's complaint about it.
pub fn item_primary_key(schema: &TableSchema, item: &Item) -> DynamoResult<PrimaryKey> {
    for k in schema.keys.attributes() {
        if !item.contains_key(&k.name) {
            return Err(DynamoError::validation(format!(
                "One or more parameter values were invalid: Missing the key {} in the item",
                k.name
            )));
        }
    }
    let hash = item_key_value(&schema.keys.hash, item)?;
    let sort = match &schema.keys.range {
        Some(r) => Sort::Value(item_key_value(r, item)?),
        None => Sort::Absent,
    };
    check_key_sizes(&hash, &sort)?;
    Ok(PrimaryKey { hash, sort })
}

fn item_key_value(attr: &KeyAttribute, item: &Item) -> DynamoResult<KeyValue> {
    let value = item.get(&attr.name).ok_or_else(|| {
        DynamoError::validation(format!(
            "One or more parameter values were invalid: Missing the key {} in the item",
            attr.name
        ))
    })?;
    if value.ty() != attr.ty {
        return Err(DynamoError::validation(format!(
            "One or more parameter values were invalid: Type mismatch for key {} expected: {} actual: {}",
            attr.name,
            attr.ty,
            value.ty()
        )));
    }
    non_empty_key(attr, value)
}

/// Rejects the empty string or binary value DynamoDB refuses in a key attribute.
fn non_empty_key(attr: &KeyAttribute, value: &AttributeValue) -> DynamoResult<KeyValue> {
    let empty = |what: &str| {
        DynamoError::validation(format!(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty {what} value. Key: {}",
            attr.name
        ))
    };
    match value {
        AttributeValue::S(s) if s.is_empty() => Err(empty("string")),
        AttributeValue::B(b) if b.is_empty() => Err(empty("binary")),
        other => other.as_key().ok_or_else(|| {
            DynamoError::validation("The provided key element does not match the schema")
        }),
    }
}

fn key_len(k: &KeyValue) -> usize {
    match k {
        KeyValue::S(s) => s.len(),
        KeyValue::B(b) => b.len(),
        KeyValue::N(n) => super::size::number_size(n) as usize,
    }
}

fn check_key_sizes(hash: &KeyValue, sort: &Sort) -> DynamoResult<()> {
    if key_len(hash) > MAX_HASH_KEY_BYTES {
        return Err(DynamoError::validation(
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes",
        ));
    }
    if let Some(v) = sort.value() {
        if key_len(v) > MAX_RANGE_KEY_BYTES {
            return Err(DynamoError::validation(
                "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes",
            ));
        }
    }
    Ok(())
}

/// The primary key named by a `Key` parameter (GetItem, DeleteItem, UpdateItem, batch
/// and transaction keys): exactly the key attributes, of the right types.
pub fn request_primary_key(schema: &TableSchema, key: &Item) -> DynamoResult<PrimaryKey> {
    let mismatch = || DynamoError::validation("The provided key element does not match the schema");
    let expected = schema.keys.attributes().count();
    if key.len() != expected {
        return Err(mismatch());
    }
    let part = |attr: &KeyAttribute| -> DynamoResult<KeyValue> {
        let value = key.get(&attr.name).ok_or_else(mismatch)?;
        if value.ty() != attr.ty {
            return Err(mismatch());
        }
        non_empty_key(attr, value)
    };
    let hash = part(&schema.keys.hash)?;
    let sort = match &schema.keys.range {
        Some(r) => Sort::Value(part(r)?),
        None => Sort::Absent,
    };
    check_key_sizes(&hash, &sort)?;
    Ok(PrimaryKey { hash, sort })
}

/// The attributes of a primary key, as an item (`Key` / `LastEvaluatedKey` shape).
pub fn key_item(keys: &KeySchema, pk: &PrimaryKey) -> Item {
    let mut item = Item::new();
    item.insert(keys.hash.name.clone(), pk.hash.to_value());
    if let (Some(r), Some(v)) = (&keys.range, pk.sort.value()) {
        item.insert(r.name.clone(), v.to_value());
    }
    item
}

/// The index entry key of an item, or `None` when the item lacks one of the index's
/// key attributes (a sparse index skips it). Fails on a wrongly typed or empty index
/// key value, worded as DynamoDB words it for this kind of write.
pub fn index_entry(
    index: &IndexSchema,
    pk: &PrimaryKey,
    item: &Item,
    kind: WriteKind,
) -> DynamoResult<Option<IndexEntry>> {
    let mut parts = Vec::with_capacity(2);
    for attr in index.keys.attributes() {
        let Some(value) = item.get(&attr.name) else {
            return Ok(None);
        };
        if value.ty() != attr.ty {
            return Err(DynamoError::validation(format!(
                "One or more parameter values were invalid: Type mismatch for Index Key {} Expected: {} Actual: {} IndexName: {}",
                attr.name,
                attr.ty,
                value.ty(),
                index.name
            )));
        }
        let empty = match value {
            AttributeValue::S(s) => s.is_empty().then_some("string"),
            AttributeValue::B(b) => b.is_empty().then_some("binary"),
            _ => None,
        };
        if let Some(what) = empty {
            return Err(DynamoError::validation(match kind {
                WriteKind::Put => format!(
                    "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty {what} value. IndexName: {}, IndexKey: {}",
                    index.name, attr.name
                ),
                WriteKind::Update => format!(
                    "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty {what} value."
                ),
            }));
        }
        match value.as_key() {
            Some(k) => parts.push(k),
            None => return Ok(None),
        }
    }
    let mut parts = parts.into_iter();
    let Some(hash) = parts.next() else {
        return Ok(None);
    };
    let sort = parts.next().map_or(Sort::Absent, Sort::Value);
    Ok(Some((hash, sort, Bounded::Val(pk.clone()))))
}

/// Checks an item's index key values before a write (every index).
pub fn check_index_keys(schema: &TableSchema, item: &Item, kind: WriteKind) -> DynamoResult<()> {
    // Any primary key will do: only the index's own attributes are checked here.
    let probe = PrimaryKey {
        hash: KeyValue::S(String::new()),
        sort: Sort::Absent,
    };
    for index in &schema.indexes {
        index_entry(index, &probe, item, kind)?;
    }
    Ok(())
}

/// Narrows a lower bound to also exclude everything up to `start` (pagination).
pub fn after<T: Ord + Clone>(lower: Bound<T>, start: T) -> Bound<T> {
    match &lower {
        Bound::Included(l) | Bound::Excluded(l) if *l > start => lower,
        _ => Bound::Excluded(start),
    }
}

/// Narrows an upper bound to also exclude everything from `start` on (reverse paging).
pub fn before<T: Ord + Clone>(upper: Bound<T>, start: T) -> Bound<T> {
    match &upper {
        Bound::Included(u) | Bound::Excluded(u) if *u < start => upper,
        _ => Bound::Excluded(start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::AttributeType;
    use crate::engine::schema::{IndexKind, Projection};

    fn schema() -> TableSchema {
        TableSchema {
            name: "T".into(),
            keys: KeySchema {
                hash: KeyAttribute::new("pk", AttributeType::S),
                range: Some(KeyAttribute::new("sk", AttributeType::N)),
            },
            indexes: vec![IndexSchema {
                name: "G".into(),
                kind: IndexKind::Global,
                keys: KeySchema {
                    hash: KeyAttribute::new("g", AttributeType::S),
                    range: None,
                },
                projection: Projection::KeysOnly,
            }],
        }
    }

    fn item(pairs: &[(&str, AttributeValue)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    #[test]
    fn item_keys_are_checked_in_dynamodb_words() {
        let sch = schema();
        let n1 = AttributeValue::N(crate::engine::number::Number::from_i64(1));
        let err = item_primary_key(&sch, &item(&[("pk", s("a"))])).unwrap_err();
        assert_eq!(
            err.message,
            "One or more parameter values were invalid: Missing the key sk in the item"
        );
        let err = item_primary_key(&sch, &item(&[("pk", s("a")), ("sk", s("x"))])).unwrap_err();
        assert_eq!(
            err.message,
            "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"
        );
        let err = item_primary_key(&sch, &item(&[("pk", s("")), ("sk", n1.clone())])).unwrap_err();
        assert!(err.message.ends_with("empty string value. Key: pk"));
        let err = item_primary_key(
            &sch,
            &item(&[("pk", s(&"k".repeat(2049))), ("sk", n1.clone())]),
        )
        .unwrap_err();
        assert!(err.message.contains("limit of2048 bytes"));
        assert!(item_primary_key(&sch, &item(&[("pk", s(&"k".repeat(2048))), ("sk", n1)])).is_ok());
    }

    #[test]
    fn sparse_index_entries() {
        let sch = schema();
        let pk = PrimaryKey {
            hash: KeyValue::S("a".into()),
            sort: Sort::Absent,
        };
        let idx = &sch.indexes[0];
        assert_eq!(
            index_entry(idx, &pk, &item(&[]), WriteKind::Put).unwrap(),
            None
        );
        assert!(
            index_entry(idx, &pk, &item(&[("g", s("x"))]), WriteKind::Put)
                .unwrap()
                .is_some()
        );
        let err = index_entry(idx, &pk, &item(&[("g", s(""))]), WriteKind::Put).unwrap_err();
        assert!(err.message.ends_with("IndexName: G, IndexKey: g"));
        let err = index_entry(
            idx,
            &pk,
            &item(&[("g", AttributeValue::Bool(true))]),
            WriteKind::Put,
        )
        .unwrap_err();
        assert!(err
            .message
            .contains("Type mismatch for Index Key g Expected: S Actual: BOOL"));
    }

    #[test]
    fn request_keys_must_match_schema_exactly() {
        let sch = schema();
        let one = AttributeValue::N(crate::engine::number::Number::from_i64(1));
        assert!(request_primary_key(&sch, &item(&[("pk", s("a")), ("sk", one.clone())])).is_ok());
        for bad in [
            item(&[("pk", s("a"))]),
            item(&[("pk", s("a")), ("sk", s("1"))]),
            item(&[("pk", s("a")), ("sk", one), ("x", s("y"))]),
        ] {
            assert_eq!(
                request_primary_key(&sch, &bad).unwrap_err().message,
                "The provided key element does not match the schema"
            );
        }
    }
}
