//! What a key value looks like to a partition: one constant, a few enum-like values, a
//! sharded constant (`OPEN#{shard}`), a hash digest, or many values. Rules about hot
//! partitions and hashed keys judge a [`ValueInfo`] by this shape, never by its syntax.

use crate::scanner::{Provenance, ValueInfo};

/// The shape of one key value, from its provenance and the parts of its template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyShape {
    /// The same value on every call: a literal, a constant, or a template of them.
    /// Holds the text when known (`"OPEN"`, `STATUS#OPEN`).
    Constant(Option<String>),
    /// Few distinct values: an enum's string, a `bool`, a status field.
    EnumLike,
    /// A constant or enum-like value with a small shard suffix (`hash % N`, a random
    /// range): spread over `modulus` partitions when known.
    Sharded { modulus: Option<u64> },
    /// A hash digest of something, not reduced to a shard suffix.
    Hashed { function: String },
    /// Many values: a parameter, a generated id, or a template with one of them.
    Varying,
    /// The scanner could not tell.
    Unknown,
}

impl KeyShape {
    /// True for shapes that put many items under few partition key values.
    pub fn is_low_cardinality(&self) -> bool {
        matches!(self, Self::Constant(_) | Self::EnumLike)
    }
}

/// Classifies a value. A template is judged by its parts: a shard suffix next to
/// constant or enum-like parts shards the key; a parameter anywhere makes it vary; a
/// hash anywhere (not reduced by `% N`) makes it a digest.
pub fn key_shape(v: &ValueInfo) -> KeyShape {
    if v.parts.is_empty() {
        return leaf_shape(v);
    }
    let shapes: Vec<KeyShape> = v.parts.iter().map(key_shape).collect();
    if let Some(function) = shapes.iter().find_map(|s| match s {
        KeyShape::Hashed { function } => Some(function.clone()),
        _ => None,
    }) {
        return KeyShape::Hashed { function };
    }
    if shapes.contains(&KeyShape::Varying) {
        return KeyShape::Varying;
    }
    if shapes.contains(&KeyShape::Unknown) {
        return KeyShape::Unknown;
    }
    // Every part is now constant, enum-like or a shard suffix.
    let shard = shapes.iter().find_map(|s| match s {
        KeyShape::Sharded { modulus } => Some(*modulus),
        _ => None,
    });
    if let Some(modulus) = shard {
        // Several suffixes multiply; an unknown one leaves the count unknown.
        let total = shapes
            .iter()
            .filter_map(|s| match s {
                KeyShape::Sharded { modulus } => Some(*modulus),
                _ => None,
            })
            .try_fold(1u64, |acc, m| m.map(|m| acc.saturating_mul(m)));
        return KeyShape::Sharded {
            modulus: total.or(modulus),
        };
    }
    if shapes.contains(&KeyShape::EnumLike) {
        return KeyShape::EnumLike;
    }
    KeyShape::Constant(constant_text(v))
}

fn leaf_shape(v: &ValueInfo) -> KeyShape {
    match &v.provenance {
        Provenance::Literal | Provenance::Constant => KeyShape::Constant(constant_text(v)),
        Provenance::EnumLike => KeyShape::EnumLike,
        Provenance::ShardSuffix { modulus } => KeyShape::Sharded { modulus: *modulus },
        Provenance::Hashed { function } => KeyShape::Hashed {
            function: function.clone(),
        },
        Provenance::Param | Provenance::GeneratedId => KeyShape::Varying,
        Provenance::Unknown => KeyShape::Unknown,
    }
}

/// The text of a constant value: its literal, or its resolved string.
fn constant_text(v: &ValueInfo) -> Option<String> {
    v.literal
        .clone()
        .or_else(|| v.text.as_ref().and_then(|t| t.value().map(str::to_string)))
}

/// The hash function behind a value, when it is a digest used as is (also inside a
/// `format!` template); `None` when it is reduced to a shard suffix or not a hash.
pub fn hashed_by(v: &ValueInfo) -> Option<String> {
    match key_shape(v) {
        KeyShape::Hashed { function } => Some(function),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::Resolved;
    use crate::source::Span;

    fn v(p: Provenance) -> ValueInfo {
        ValueInfo {
            provenance: p,
            ..ValueInfo::unknown(Span::new(0, 1))
        }
    }

    fn template(parts: Vec<ValueInfo>) -> ValueInfo {
        ValueInfo {
            text: Some(Resolved::Template {
                template: "X#{}".into(),
            }),
            parts,
            ..ValueInfo::unknown(Span::new(0, 1))
        }
    }

    #[test]
    fn leaves() {
        let lit = ValueInfo {
            literal: Some("OPEN".into()),
            ..v(Provenance::Literal)
        };
        assert_eq!(key_shape(&lit), KeyShape::Constant(Some("OPEN".into())));
        assert_eq!(key_shape(&v(Provenance::EnumLike)), KeyShape::EnumLike);
        assert_eq!(key_shape(&v(Provenance::Param)), KeyShape::Varying);
        assert_eq!(key_shape(&v(Provenance::GeneratedId)), KeyShape::Varying);
        assert_eq!(key_shape(&v(Provenance::Unknown)), KeyShape::Unknown);
        assert!(key_shape(&v(Provenance::Constant)).is_low_cardinality());
    }

    #[test]
    fn templates_are_judged_by_their_parts() {
        let enum_shard = template(vec![
            v(Provenance::EnumLike),
            v(Provenance::ShardSuffix { modulus: Some(15) }),
        ]);
        assert_eq!(
            key_shape(&enum_shard),
            KeyShape::Sharded { modulus: Some(15) }
        );
        let two = template(vec![
            v(Provenance::ShardSuffix { modulus: Some(3) }),
            v(Provenance::ShardSuffix { modulus: Some(5) }),
        ]);
        assert_eq!(key_shape(&two), KeyShape::Sharded { modulus: Some(15) });
        let unknown_mod = template(vec![
            v(Provenance::ShardSuffix { modulus: Some(3) }),
            v(Provenance::ShardSuffix { modulus: None }),
        ]);
        assert_eq!(
            key_shape(&unknown_mod),
            KeyShape::Sharded { modulus: Some(3) }
        );
        let user = template(vec![v(Provenance::Param)]);
        assert_eq!(key_shape(&user), KeyShape::Varying);
        let sharded_user = template(vec![
            v(Provenance::Param),
            v(Provenance::ShardSuffix { modulus: Some(4) }),
        ]);
        assert_eq!(key_shape(&sharded_user), KeyShape::Varying);
        let status = template(vec![v(Provenance::EnumLike)]);
        assert_eq!(key_shape(&status), KeyShape::EnumLike);
        let hashed = template(vec![v(Provenance::Hashed {
            function: "sha256".into(),
        })]);
        assert_eq!(hashed_by(&hashed).as_deref(), Some("sha256"));
        assert_eq!(
            key_shape(&template(vec![v(Provenance::Constant)])),
            KeyShape::Constant(None)
        );
    }

    #[test]
    fn a_hash_reduced_to_a_shard_is_not_a_digest() {
        assert_eq!(
            hashed_by(&v(Provenance::ShardSuffix { modulus: Some(10) })),
            None
        );
        assert_eq!(
            hashed_by(&v(Provenance::Hashed {
                function: "md5".into()
            }))
            .as_deref(),
            Some("md5")
        );
    }
}
