//! A KeyConditionExpression checked against the key schema it queries (table or
//! index) and turned into a key range: the partition key value and the sort key
//! bounds. Errors are DynamoDB's, in DynamoDB's order.

use std::cmp::Ordering;
use std::ops::Bound;

use crate::attr::AttributeType;
use crate::expr::ast::{Comparator, Condition, Function, Operand};

use super::error::{DynamoError, DynamoResult};
use super::eval::{Placeholders, Step};
use super::schema::{KeyAttribute, KeySchema};
use super::value::{AttributeValue, KeyValue};

/// The part of a partition a Query reads.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyRange {
    pub hash: KeyValue,
    pub lower: Bound<KeyValue>,
    pub upper: Bound<KeyValue>,
    /// `begins_with`: only sort keys with this prefix (within the bounds).
    pub prefix: Option<KeyValue>,
}

impl KeyRange {
    /// True when a sort key value lies in the range.
    pub fn contains_sort(&self, v: &KeyValue) -> bool {
        let lower_ok = match &self.lower {
            Bound::Included(l) => v >= l,
            Bound::Excluded(l) => v > l,
            Bound::Unbounded => true,
        };
        let upper_ok = match &self.upper {
            Bound::Included(u) => v <= u,
            Bound::Excluded(u) => v < u,
            Bound::Unbounded => true,
        };
        lower_ok && upper_ok && self.prefix.as_ref().is_none_or(|p| has_prefix(v, p))
    }
}

fn has_prefix(v: &KeyValue, p: &KeyValue) -> bool {
    match (v, p) {
        (KeyValue::S(s), KeyValue::S(p)) => s.starts_with(p.as_str()),
        (KeyValue::B(s), KeyValue::B(p)) => s.starts_with(p),
        _ => false,
    }
}

/// One simple condition on one key attribute.
#[derive(Debug, Clone)]
enum KeyOp {
    Cmp(Comparator, String),
    Between(String, String),
    BeginsWith(String),
}

fn err(msg: impl Into<String>) -> DynamoError {
    DynamoError::validation(msg.into())
}

fn flatten<'a>(c: &'a Condition, out: &mut Vec<&'a Condition>) -> DynamoResult<()> {
    match c {
        Condition::And { left, right, .. } => {
            flatten(left, out)?;
            flatten(right, out)
        }
        Condition::Or { .. } => Err(err("Invalid operator used in KeyConditionExpression: OR")),
        Condition::Not { .. } => Err(err("Invalid operator used in KeyConditionExpression: NOT")),
        Condition::In { .. } => Err(err("Invalid operator used in KeyConditionExpression: IN")),
        other => {
            out.push(other);
            Ok(())
        }
    }
}

/// The attribute name of a key-condition path operand.
fn attr_name(op: &Operand, ph: &Placeholders) -> DynamoResult<Option<String>> {
    match op {
        Operand::Path(p) => {
            let steps = ph.resolve(p);
            match steps.as_slice() {
                [Step::Key(k)] => Ok(Some(k.clone())),
                _ => Err(err(
                    "Invalid condition in KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes",
                )),
            }
        }
        Operand::Size { .. } => Err(err("Invalid operator used in KeyConditionExpression: size")),
        Operand::Value(_) => Ok(None),
    }
}

fn value_name(op: &Operand) -> Option<&str> {
    match op {
        Operand::Value(v) => Some(&v.name),
        _ => None,
    }
}

/// Splits one simple condition into (attribute, operation).
fn simple(c: &Condition, ph: &Placeholders) -> DynamoResult<(String, KeyOp)> {
    let multiple = || {
        err("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
    };
    let none = || err("Invalid condition in KeyConditionExpression: No key attribute specified");
    match c {
        Condition::Compare {
            left, op, right, ..
        } => {
            if *op == Comparator::Ne {
                return Err(err("Unsupported operator in KeyConditionExpression: <>"));
            }
            match (attr_name(left, ph)?, attr_name(right, ph)?) {
                (Some(_), Some(_)) => Err(multiple()),
                (None, None) => Err(none()),
                (Some(a), None) => Ok((
                    a,
                    KeyOp::Cmp(*op, value_name(right).unwrap_or_default().into()),
                )),
                (None, Some(a)) => Ok((
                    a,
                    KeyOp::Cmp(op.flipped(), value_name(left).unwrap_or_default().into()),
                )),
            }
        }
        Condition::Between {
            operand, low, high, ..
        } => {
            let a = attr_name(operand, ph)?.ok_or_else(none)?;
            if attr_name(low, ph)?.is_some() || attr_name(high, ph)?.is_some() {
                return Err(multiple());
            }
            Ok((
                a,
                KeyOp::Between(
                    value_name(low).unwrap_or_default().into(),
                    value_name(high).unwrap_or_default().into(),
                ),
            ))
        }
        Condition::Function {
            function: Function::BeginsWith(x, p),
            ..
        } => {
            let a = attr_name(x, ph)?.ok_or_else(none)?;
            if attr_name(p, ph)?.is_some() {
                return Err(multiple());
            }
            Ok((
                a,
                KeyOp::BeginsWith(value_name(p).unwrap_or_default().into()),
            ))
        }
        Condition::Function { function, .. } => Err(err(format!(
            "Invalid operator used in KeyConditionExpression: {}",
            function.name()
        ))),
        _ => Err(none()),
    }
}

fn key_value(name: &str, ph: &Placeholders, attr: &KeyAttribute) -> DynamoResult<KeyValue> {
    let ty = attr.ty;
    let v = ph.value(name)?;
    if v.ty() != ty {
        return Err(err(
            "One or more parameter values were invalid: Condition parameter type does not match schema type",
        ));
    }
    match v {
        AttributeValue::S(s) if s.is_empty() => Err(err(format!(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: {}",
            attr.name
        ))),
        other => other.as_key().ok_or_else(|| {
            err("One or more parameter values were invalid: Condition parameter type does not match schema type")
        }),
    }
}

/// A value as DynamoDB shows it in an operand message: `{S:x}`, `{N:1}`.
pub(crate) fn wire_repr(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => format!("{{S:{s}}}"),
        AttributeValue::N(n) => format!("{{N:{n}}}"),
        other => format!("{{{}:...}}", other.ty()),
    }
}

/// Checks `cond` against `keys` and returns the key range it reads.
pub fn key_range(cond: &Condition, ph: &Placeholders, keys: &KeySchema) -> DynamoResult<KeyRange> {
    let mut parts = Vec::new();
    flatten(cond, &mut parts)?;
    let mut by_attr: Vec<(String, KeyOp)> = Vec::new();
    for p in parts {
        let (attr, op) = simple(p, ph)?;
        // Operand types DynamoDB rejects before looking at the schema.
        if let KeyOp::BeginsWith(v) = &op {
            let ty = ph.value(v)?.ty();
            if !matches!(ty, AttributeType::S | AttributeType::B) {
                return Err(err(format!(
                    "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: {ty}"
                )));
            }
        }
        if by_attr.iter().any(|(a, _)| *a == attr) {
            return Err(err(
                "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key",
            ));
        }
        by_attr.push((attr, op));
    }
    let missed = |name: &str| err(format!("Query condition missed key schema element: {name}"));
    let Some(hash_pos) = by_attr.iter().position(|(a, _)| *a == keys.hash.name) else {
        return Err(missed(&keys.hash.name));
    };
    if by_attr.len() > 2 {
        return Err(err(
            "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key",
        ));
    }
    let (_, hash_op) = by_attr.remove(hash_pos);
    let sort = by_attr.pop();
    if let Some((attr, _)) = &sort {
        match &keys.range {
            Some(r) if r.name == *attr => {}
            Some(r) => return Err(missed(&r.name)),
            None => return Err(err("Query key condition not supported")),
        }
    }
    let KeyOp::Cmp(Comparator::Eq, hv) = hash_op else {
        return Err(err("Query key condition not supported"));
    };
    let hash = key_value(&hv, ph, &keys.hash)?;
    let mut range = KeyRange {
        hash,
        lower: Bound::Unbounded,
        upper: Bound::Unbounded,
        prefix: None,
    };
    if let (Some((_, op)), Some(r)) = (sort, &keys.range) {
        match op {
            KeyOp::Cmp(c, v) => {
                let v = key_value(&v, ph, r)?;
                match c {
                    Comparator::Eq => {
                        range.lower = Bound::Included(v.clone());
                        range.upper = Bound::Included(v);
                    }
                    Comparator::Lt => range.upper = Bound::Excluded(v),
                    Comparator::Le => range.upper = Bound::Included(v),
                    Comparator::Gt => range.lower = Bound::Excluded(v),
                    Comparator::Ge => range.lower = Bound::Included(v),
                    Comparator::Ne => return Err(err("Query key condition not supported")),
                }
            }
            KeyOp::Between(lo, hi) => {
                let lo_v = key_value(&lo, ph, r)?;
                let hi_v = key_value(&hi, ph, r)?;
                if lo_v.cmp(&hi_v) == Ordering::Greater {
                    return Err(err(format!(
                        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {}, upper bound operand: AttributeValue: {}",
                        wire_repr(&lo_v.to_value()),
                        wire_repr(&hi_v.to_value())
                    )));
                }
                range.lower = Bound::Included(lo_v);
                range.upper = Bound::Included(hi_v);
            }
            KeyOp::BeginsWith(p) => {
                if r.ty == AttributeType::N {
                    return Err(err(
                        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N",
                    ));
                }
                let p = key_value(&p, ph, r)?;
                range.lower = Bound::Included(p.clone());
                range.prefix = Some(p);
            }
        }
    }
    Ok(range)
}
