//! DynamoDB's attribute values and items, and the key values that order a table.
//! Sets are kept sorted and free of duplicates, so equal sets compare equal whatever
//! order a client wrote them in.

use std::collections::BTreeMap;

use crate::attr::AttributeType;

use super::number::Number;

/// One attribute value, with DynamoDB's ten types.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttributeValue {
    S(String),
    N(Number),
    B(Vec<u8>),
    Bool(bool),
    Null,
    M(BTreeMap<String, AttributeValue>),
    L(Vec<AttributeValue>),
    /// Sorted by UTF-8 bytes, no duplicates.
    SS(Vec<String>),
    /// Sorted by value, no duplicates.
    NS(Vec<Number>),
    /// Sorted by unsigned bytes, no duplicates.
    BS(Vec<Vec<u8>>),
}

/// An item: attribute name → value. A `BTreeMap` so output is deterministic.
pub type Item = BTreeMap<String, AttributeValue>;

impl AttributeValue {
    /// The value's DynamoDB type.
    pub fn ty(&self) -> AttributeType {
        match self {
            Self::S(_) => AttributeType::S,
            Self::N(_) => AttributeType::N,
            Self::B(_) => AttributeType::B,
            Self::Bool(_) => AttributeType::Bool,
            Self::Null => AttributeType::Null,
            Self::M(_) => AttributeType::M,
            Self::L(_) => AttributeType::L,
            Self::SS(_) => AttributeType::SS,
            Self::NS(_) => AttributeType::NS,
            Self::BS(_) => AttributeType::BS,
        }
    }

    /// A string set from any strings: sorted, duplicates removed.
    pub fn string_set(items: impl IntoIterator<Item = String>) -> Self {
        let mut v: Vec<String> = items.into_iter().collect();
        v.sort();
        v.dedup();
        Self::SS(v)
    }

    /// A number set from any numbers: sorted, duplicates removed.
    pub fn number_set(items: impl IntoIterator<Item = Number>) -> Self {
        let mut v: Vec<Number> = items.into_iter().collect();
        v.sort();
        v.dedup();
        Self::NS(v)
    }

    /// A binary set from any byte strings: sorted, duplicates removed.
    pub fn binary_set(items: impl IntoIterator<Item = Vec<u8>>) -> Self {
        let mut v: Vec<Vec<u8>> = items.into_iter().collect();
        v.sort();
        v.dedup();
        Self::BS(v)
    }

    /// The key value this is, when it is of a key type (S, N, B).
    pub fn as_key(&self) -> Option<KeyValue> {
        match self {
            Self::S(s) => Some(KeyValue::S(s.clone())),
            Self::N(n) => Some(KeyValue::N(*n)),
            Self::B(b) => Some(KeyValue::B(b.clone())),
            _ => None,
        }
    }
}

/// A key attribute's value. Within one table a key attribute has one type, so only
/// same-variant comparisons matter: S by UTF-8 bytes (Rust's `String` order), N by
/// value, B by unsigned bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyValue {
    S(String),
    N(Number),
    B(Vec<u8>),
}

impl KeyValue {
    /// The attribute value this key value is.
    pub fn to_value(&self) -> AttributeValue {
        match self {
            Self::S(s) => AttributeValue::S(s.clone()),
            Self::N(n) => AttributeValue::N(*n),
            Self::B(b) => AttributeValue::B(b.clone()),
        }
    }

    /// Its DynamoDB type.
    pub fn ty(&self) -> AttributeType {
        match self {
            Self::S(_) => AttributeType::S,
            Self::N(_) => AttributeType::N,
            Self::B(_) => AttributeType::B,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_stay_small() {
        // Every item slot holds one of these; keep it at 32 bytes (see `Number`).
        assert!(std::mem::size_of::<AttributeValue>() <= 32);
    }

    #[test]
    fn sets_are_canonical() {
        let a = AttributeValue::string_set(["b".to_string(), "a".to_string(), "b".to_string()]);
        let b = AttributeValue::string_set(["a".to_string(), "b".to_string()]);
        assert_eq!(a, b);
        let n = |s: &str| Number::parse(s).unwrap();
        assert_eq!(
            AttributeValue::number_set([n("10"), n("9"), n("9.0")]),
            AttributeValue::NS(vec![n("9"), n("10")])
        );
    }

    #[test]
    fn keys_order_as_dynamodb() {
        // Strings by UTF-8 bytes: "Z" (0x5A) before "a" (0x61), "é" after both.
        let mut keys = [
            KeyValue::S("é".into()),
            KeyValue::S("a".into()),
            KeyValue::S("Z".into()),
        ];
        keys.sort();
        assert_eq!(
            keys,
            [
                KeyValue::S("Z".into()),
                KeyValue::S("a".into()),
                KeyValue::S("é".into())
            ]
        );
        // Binary unsigned: 0xFF after 0x01.
        assert!(KeyValue::B(vec![0xFF]) > KeyValue::B(vec![0x01, 0x00]));
        assert!(
            KeyValue::N(Number::parse("-2").unwrap()) < KeyValue::N(Number::parse("1").unwrap())
        );
        assert_eq!(AttributeValue::Null.as_key(), None);
    }
}
