//! A KeyConditionExpression checked against a key schema, and reduced to what a Query
//! executes: the partition key's value and an optional sort-key condition.
//!
//! The rules are DynamoDB's: only `AND` joins conditions; one condition per key; the
//! partition key only with `=`; the sort key with `= < <= > >=`, `BETWEEN` or
//! `begins_with` (not on a number); key attributes top-level, first in `BETWEEN` and
//! `begins_with`; every condition on a key attribute of this table or index.

use super::ast::{Comparator, Condition, Function, Operand, Path, PathElement, ValueRef};
use super::error::{ErrorCode, ExprError, ExprKind};
use super::resolve::Names;
use crate::attr::AttributeType;
use crate::source::Span;

/// A key attribute of the table or index being queried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAttribute {
    pub name: String,
    /// `None` when unknown: type-dependent checks are skipped.
    pub ty: Option<AttributeType>,
}

/// The key schema of the table or index being queried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySchema {
    pub partition_key: KeyAttribute,
    pub sort_key: Option<KeyAttribute>,
}

/// `partition_key = :value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionCondition {
    pub name: String,
    pub value: ValueRef,
    /// The whole condition in the expression.
    pub span: Span,
}

/// What a Query asks of the sort key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortOp {
    /// `sk <op> :v`, normalised with the key on the left (`:v < sk` is `sk > :v`);
    /// never `<>`.
    Compare(Comparator, ValueRef),
    /// `sk BETWEEN :low AND :high`.
    Between(ValueRef, ValueRef),
    /// `begins_with(sk, :prefix)`.
    BeginsWith(ValueRef),
}

/// The sort-key condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortCondition {
    pub name: String,
    pub op: SortOp,
    pub span: Span,
}

/// A key condition a Query can execute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCondition {
    pub partition: PartitionCondition,
    pub sort: Option<SortCondition>,
}

const KIND: ExprKind = ExprKind::KeyCondition;

/// `Invalid operator used in KeyConditionExpression: OR` (DynamoDB Local's error list;
/// an application test asserting real DynamoDB's text).
fn invalid_operator(op: &str, span: Span) -> ExprError {
    ExprError::bare(
        KIND,
        ErrorCode::KeyCondition,
        span,
        format!("Invalid operator used in KeyConditionExpression: {op}"),
    )
}

/// `Invalid condition in KeyConditionExpression: ...` (conformance
/// keycond_str/err_attr_vs_attr for "Multiple attribute names used in one condition").
fn invalid_condition(detail: &str, span: Span) -> ExprError {
    ExprError::bare(
        KIND,
        ErrorCode::KeyCondition,
        span,
        format!("Invalid condition in KeyConditionExpression: {detail}"),
    )
}

/// `Invalid KeyConditionExpression: KeyConditionExpressions ...` (conformance
/// keycond_str/err_two_conditions_on_sk; the nested-attribute one confirmed against
/// real DynamoDB by dynoxide's changelog).
fn key_conditions(detail: &str, span: Span) -> ExprError {
    ExprError::in_expr(KIND, ErrorCode::KeyCondition, span, detail)
}

/// `Query condition missed key schema element: pk` (conformance keycond_str/err_missing_hash).
fn missed_key(name: &str, span: Span) -> ExprError {
    ExprError::bare(
        KIND,
        ErrorCode::KeyCondition,
        span,
        format!("Query condition missed key schema element: {name}"),
    )
}

/// `Query key condition not supported` (conformance keycond_str/err_hash_lt and others).
fn not_supported(span: Span) -> ExprError {
    ExprError::bare(
        KIND,
        ErrorCode::KeyCondition,
        span,
        "Query key condition not supported",
    )
}

/// One simple condition on one key attribute.
struct Leaf {
    name: String,
    op: LeafOp,
    span: Span,
}

enum LeafOp {
    Compare(Comparator, ValueRef),
    Between(ValueRef, ValueRef),
    BeginsWith(ValueRef),
}

/// Checks a parsed KeyConditionExpression against `schema`. `names` resolves `#name`s;
/// a placeholder it lacks is reported as undefined, one it cannot tell as
/// [`ErrorCode::UnresolvedName`].
pub fn check_key_condition(
    cond: &Condition,
    schema: &KeySchema,
    names: &Names,
) -> Result<KeyCondition, ExprError> {
    let mut leaves: Vec<Leaf> = Vec::new();
    collect(cond, names, &mut leaves)?;

    let pk = &schema.partition_key;
    let Some(part) = leaves.iter().find(|l| l.name == pk.name) else {
        return Err(missed_key(&pk.name, cond.span()));
    };
    let LeafOp::Compare(Comparator::Eq, value) = &part.op else {
        return Err(not_supported(part.span));
    };
    let partition = PartitionCondition {
        name: part.name.clone(),
        value: value.clone(),
        span: part.span,
    };

    let mut sort = None;
    for leaf in leaves.into_iter().filter(|l| l.name != pk.name) {
        let Some(sk) = &schema.sort_key else {
            return Err(not_supported(leaf.span));
        };
        if leaf.name != sk.name {
            return Err(missed_key(&sk.name, leaf.span));
        }
        let op = match leaf.op {
            LeafOp::Compare(c, v) => SortOp::Compare(c, v),
            LeafOp::Between(lo, hi) => SortOp::Between(lo, hi),
            LeafOp::BeginsWith(v) => {
                if sk.ty == Some(AttributeType::N) {
                    // Conformance keycond_num/err_begins_with_on_N.
                    return Err(ExprError::in_expr(
                        KIND,
                        ErrorCode::OperandType,
                        leaf.span,
                        "Incorrect operand type for operator or function; operator or \
                         function: begins_with, operand type: N",
                    ));
                }
                SortOp::BeginsWith(v)
            }
        };
        sort = Some(SortCondition {
            name: leaf.name,
            op,
            span: leaf.span,
        });
    }
    Ok(KeyCondition { partition, sort })
}

/// Flattens the `AND`s, rejecting every other shape, in DynamoDB's (pre-order) order.
fn collect(cond: &Condition, names: &Names, out: &mut Vec<Leaf>) -> Result<(), ExprError> {
    let span = cond.span();
    match cond {
        Condition::And { left, right, .. } => {
            collect(left, names, out)?;
            collect(right, names, out)
        }
        Condition::Or { .. } => Err(invalid_operator("OR", span)),
        Condition::Not { .. } => Err(invalid_operator("NOT", span)),
        Condition::In { .. } => Err(invalid_operator("IN", span)),
        Condition::Compare {
            op: Comparator::Ne, ..
        } => Err(invalid_operator("<>", span)),
        Condition::Function { function, .. } => match function {
            Function::BeginsWith(key, value) => {
                if !matches!(key, Operand::Path(_)) {
                    return Err(invalid_condition(
                        "begins_with operator must have the key attribute as its first operand",
                        span,
                    ));
                }
                let (name, _, values) = key_and_values(&[key, value], names, out, span)?;
                let [v] = values.as_slice() else {
                    return Err(invalid_condition("No key attribute specified", span));
                };
                out.push(Leaf {
                    name,
                    op: LeafOp::BeginsWith(v.clone()),
                    span,
                });
                Ok(())
            }
            other => Err(invalid_operator(other.name(), span)),
        },
        Condition::Between {
            operand, low, high, ..
        } => {
            if !matches!(operand, Operand::Path(_)) {
                return Err(invalid_condition(
                    "BETWEEN operator must have the key attribute as its first operand",
                    span,
                ));
            }
            let (name, _, values) = key_and_values(&[operand, low, high], names, out, span)?;
            let [lo, hi] = values.as_slice() else {
                return Err(invalid_condition("No key attribute specified", span));
            };
            out.push(Leaf {
                name,
                op: LeafOp::Between(lo.clone(), hi.clone()),
                span,
            });
            Ok(())
        }
        Condition::Compare {
            left, op, right, ..
        } => {
            let (name, key_index, values) = key_and_values(&[left, right], names, out, span)?;
            let [v] = values.as_slice() else {
                return Err(invalid_condition("No key attribute specified", span));
            };
            let op = if key_index == 0 { *op } else { op.flipped() };
            out.push(Leaf {
                name,
                op: LeafOp::Compare(op, v.clone()),
                span,
            });
            Ok(())
        }
    }
}

/// The one key attribute among `operands` (resolved), its position, and the values.
fn key_and_values(
    operands: &[&Operand],
    names: &Names,
    seen: &[Leaf],
    span: Span,
) -> Result<(String, usize, Vec<ValueRef>), ExprError> {
    let mut key: Option<(&Path, usize)> = None;
    let mut values = Vec::new();
    for (i, operand) in operands.iter().enumerate() {
        match operand {
            Operand::Path(path) => {
                if key.is_some() {
                    return Err(invalid_condition(
                        "Multiple attribute names used in one condition",
                        span,
                    ));
                }
                if !path.is_top_level() {
                    return Err(key_conditions(
                        "KeyConditionExpressions cannot have conditions on nested attributes",
                        path.span,
                    ));
                }
                key = Some((path, i));
            }
            Operand::Size { span, .. } => {
                return Err(key_conditions(
                    "KeyConditionExpressions cannot contain nested operations",
                    *span,
                ))
            }
            Operand::Value(v) => values.push(v.clone()),
        }
    }
    let Some((path, index)) = key else {
        return Err(invalid_condition("No key attribute specified", span));
    };
    let name = match path.elements.first() {
        Some(PathElement::Attr(a)) => a.clone(),
        Some(PathElement::Name(n)) => match names.get(n) {
            Some(Some(real)) => real.to_string(),
            Some(None) => {
                return Err(ExprError::in_expr(
                    KIND,
                    ErrorCode::UnresolvedName,
                    path.span,
                    format_args!("cannot tell which attribute {n} names"),
                ))
            }
            None => {
                // Conformance projection/err_undefined_name (same wording per parameter).
                return Err(ExprError::in_expr(
                    KIND,
                    ErrorCode::UndefinedName,
                    path.span,
                    format_args!(
                        "An expression attribute name used in the document path is not \
                         defined; attribute name: {n}"
                    ),
                ));
            }
        },
        _ => return Err(invalid_condition("No key attribute specified", span)),
    };
    if seen.iter().any(|l| l.name == name) {
        return Err(key_conditions(
            "KeyConditionExpressions must only contain one condition per key",
            span,
        ));
    }
    Ok((name, index, values))
}
