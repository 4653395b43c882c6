//! Item size as DynamoDB counts it for the 400 KB limit and for capacity: attribute
//! names plus values, strings in UTF-8 bytes, numbers by significant digits, 3 bytes
//! of overhead per map or list and 1 per element.

use super::number::Number;
use super::value::{AttributeValue, Item};

/// Largest item DynamoDB stores: 400 KB.
pub const MAX_ITEM_SIZE: u64 = 400 * 1024;

/// Size of a whole item: every name plus every value.
pub fn item_size(item: &Item) -> u64 {
    item.iter()
        .map(|(name, value)| name.len() as u64 + value_size(value))
        .sum()
}

/// Size of one value, without its attribute name.
pub fn value_size(value: &AttributeValue) -> u64 {
    match value {
        AttributeValue::S(s) => s.len() as u64,
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.len() as u64,
        AttributeValue::Bool(_) | AttributeValue::Null => 1,
        AttributeValue::M(m) => {
            3 + m
                .iter()
                .map(|(k, v)| k.len() as u64 + value_size(v) + 1)
                .sum::<u64>()
        }
        AttributeValue::L(l) => 3 + l.iter().map(|v| value_size(v) + 1).sum::<u64>(),
        AttributeValue::SS(v) => v.iter().map(|s| s.len() as u64).sum(),
        AttributeValue::NS(v) => v.iter().map(number_size).sum(),
        AttributeValue::BS(v) => v.iter().map(|b| b.len() as u64).sum(),
    }
}

/// A number takes 1 byte per two significant digits plus 1 (DynamoDB's documented
/// formula), and one more when negative.
pub fn number_size(n: &Number) -> u64 {
    let digits = n.significant_digits() as u64;
    digits.div_ceil(2) + 1 + u64::from(n.is_negative())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.to_string())
    }

    #[test]
    fn counts_as_dynamodb() {
        let mut item = Item::new();
        item.insert("pk".into(), s("q"));
        let mut m = std::collections::BTreeMap::new();
        m.insert("a".to_string(), s(&"x".repeat(4087)));
        item.insert("p".into(), AttributeValue::M(m));
        // pk(2)+q(1) + p(1) + 3 + a(1) + 4087 + 1 = 4096: the conformance boundary.
        assert_eq!(item_size(&item), 4096);

        let mut item = Item::new();
        item.insert(
            "n".into(),
            AttributeValue::N(Number::parse("12345678901234567890").unwrap()),
        );
        assert_eq!(item_size(&item), 1 + 11);

        // Multi-byte strings count in UTF-8 bytes.
        assert_eq!(value_size(&s("€")), 3);
        assert_eq!(
            value_size(&AttributeValue::L(vec![s("ab"), AttributeValue::Null])),
            3 + 3 + 2
        );
    }
}
