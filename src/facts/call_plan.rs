//! Code operations as read plans: a bound Query, GetItem or Scan with its key
//! condition, filter, limit and consistency, in the same [`ReadPlan`] shape as an
//! access pattern, so both are simulated — and matched — the same way.
//!
//! Values the scanner could not resolve become placeholders (`{pk}`; a
//! `format!("USER#{}", id)` becomes `USER#{p0}`), filled from generated items.

use super::bind;
use crate::expr::{self, Comparator, Condition, Function, Operand, PathElement};
use crate::model::{KeyTemplate, Model};
use crate::scanner::{ExprArg, OpKind, Operation, Resolved, ValueInfo};

use super::plan::parse_range;
use super::plan::{Access, ReadPlan, SortCondition};

/// Why a code operation is not simulated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    #[error("{0} is costed per entity write, not per call")]
    Write(&'static str),
    #[error("{0} is not simulated yet")]
    Unsupported(&'static str),
    #[error("not bound to the model: {0}")]
    Unbound(String),
    #[error("index {0} is not declared on the table")]
    UnknownIndex(String),
    #[error("the {what} is not known statically")]
    UnknownExpression { what: &'static str },
    #[error("the {what} does not parse: {message}")]
    BadExpression { what: &'static str, message: String },
    #[error("the key condition does not set the partition key `{0}` with `=`")]
    NoPartitionKey(String),
}

/// One `attr op value` leaf of a condition, with names resolved.
#[derive(Debug, Clone, PartialEq)]
struct Leaf {
    attr: String,
    kind: LeafKind,
    /// The value as a template (`"BLOG"`, `"USER#{p0}"`, `"{pk}"`).
    value: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeafKind {
    Eq,
    BeginsWith,
    /// `<`, `BETWEEN`, `IN`, ...: a range or set the simulation reads whole.
    Other,
}

/// The plan of a code operation, or why it has none.
pub fn plan_operation(model: &Model, op: &Operation) -> Result<ReadPlan, SkipReason> {
    plan(model, op, true)
}

/// The plan of the call's keys alone, its filter left out: which access pattern a
/// call implements does not depend on a filter, even one that does not parse.
pub fn plan_keys(model: &Model, op: &Operation) -> Result<ReadPlan, SkipReason> {
    plan(model, op, false)
}

fn plan(model: &Model, op: &Operation, with_filter: bool) -> Result<ReadPlan, SkipReason> {
    match op.kind {
        OpKind::Query | OpKind::GetItem | OpKind::Scan => {}
        k if k.is_write() => return Err(SkipReason::Write(k.api_name())),
        k => return Err(SkipReason::Unsupported(k.api_name())),
    }
    let b = bind(model, op);
    let Some(table) = b.table else {
        return Err(SkipReason::Unbound(
            b.unbound.unwrap_or_else(|| "no table".into()),
        ));
    };
    if op.index.is_some() && b.index.is_none() {
        let label = op.index.as_ref().map_or_else(String::new, Resolved::label);
        return Err(SkipReason::UnknownIndex(label));
    }
    let (pk, sk) = match b.index {
        Some(i) => (i.partition_key.as_str(), i.sort_key.as_deref()),
        None => (table.partition_key.as_str(), table.sort_key.as_deref()),
    };
    let mut plan = ReadPlan {
        table: table.name.clone(),
        index: b.index.map(|i| i.name.clone()),
        access: match op.kind {
            OpKind::GetItem => Access::GetItem,
            OpKind::Scan => Access::Scan,
            _ => Access::Query,
        },
        partition: None,
        sort: None,
        filters: Vec::new(),
        fan_out: None,
        forward: op.scan_index_forward != Some(false),
        limit: op
            .limit
            .as_ref()
            .and_then(|l| l.literal.as_deref())
            .and_then(|l| l.trim().parse().ok()),
        one_request: !op.paginated,
        consistent: op.consistent_read == Some(true),
        segments: crate::facts::call_cost::literal_segments(op),
        why: Vec::new(),
    };
    let keys: Vec<Leaf> = match op.kind {
        OpKind::GetItem => op
            .key
            .iter()
            .flat_map(|m| &m.attributes)
            .filter_map(|a| {
                Some(Leaf {
                    attr: a.name.value()?.to_string(),
                    kind: LeafKind::Eq,
                    value: Some(value_template(&a.value, "key")),
                })
            })
            .collect(),
        OpKind::Query => leaves(op, op.key_condition.as_deref(), "key condition")?,
        _ => Vec::new(),
    };
    for leaf in keys {
        if leaf.attr == pk && leaf.kind == LeafKind::Eq {
            let v = leaf.value.unwrap_or_else(|| "{pk}".into());
            plan.fan_out = KeyTemplate::parse(&v)
                .ok()
                .and_then(|t| t.placeholders().find_map(parse_range));
            plan.partition = Some((leaf.attr, v));
        } else if Some(leaf.attr.as_str()) == sk {
            match (leaf.kind, leaf.value) {
                (LeafKind::Eq, Some(value)) => {
                    plan.sort = Some((leaf.attr, SortCondition::Eq { value }));
                }
                (LeafKind::BeginsWith, Some(prefix))
                    if KeyTemplate::parse(&prefix).is_ok_and(|t| t.is_constant()) =>
                {
                    plan.sort = Some((leaf.attr, SortCondition::BeginsWith { prefix }));
                }
                _ => plan.why.push(format!(
                    "the condition on sort key `{}` is read as the whole partition",
                    leaf.attr
                )),
            }
        }
    }
    if plan.access != Access::Scan && plan.partition.is_none() {
        return Err(SkipReason::NoPartitionKey(pk.to_string()));
    }
    let filter = if with_filter {
        op.filter.as_deref()
    } else {
        None
    };
    for leaf in leaves(op, filter, "filter")? {
        match (leaf.kind, leaf.value) {
            (LeafKind::Eq, Some(v)) => plan.filters.push((leaf.attr, v)),
            _ => plan.why.push(format!(
                "the filter on `{}` is not evaluated: every item read counts as returned",
                leaf.attr
            )),
        }
    }
    Ok(plan)
}

/// The leaves of an expression's `AND` tree (an `OR`/`NOT` makes its attributes
/// `Other`: read, but not narrowed).
fn leaves(
    op: &Operation,
    arg: Option<&ExprArg>,
    what: &'static str,
) -> Result<Vec<Leaf>, SkipReason> {
    let Some(arg) = arg else {
        return Ok(Vec::new());
    };
    let text = arg
        .text
        .value()
        .ok_or(SkipReason::UnknownExpression { what })?;
    let cond = expr::parse_condition(text, expr::ExprKind::Filter).map_err(|e| {
        SkipReason::BadExpression {
            what,
            message: e.to_string(),
        }
    })?;
    let mut out = Vec::new();
    collect(op, &cond, false, &mut out);
    Ok(out)
}

fn collect(op: &Operation, c: &Condition, loose: bool, out: &mut Vec<Leaf>) {
    let mut push = |operand: &Operand, kind: LeafKind, value: Option<&Operand>| {
        let Some(attr) = operand.as_path().and_then(|p| path_attr(op, p)) else {
            return;
        };
        out.push(Leaf {
            attr,
            kind: if loose { LeafKind::Other } else { kind },
            value: value.and_then(|v| operand_value(op, v)),
        });
    };
    match c {
        Condition::And { left, right, .. } => {
            collect(op, left, loose, out);
            collect(op, right, loose, out);
        }
        Condition::Or { left, right, .. } => {
            collect(op, left, true, out);
            collect(op, right, true, out);
        }
        Condition::Not { inner, .. } => collect(op, inner, true, out),
        Condition::Compare {
            left,
            op: cmp,
            right,
            ..
        } => {
            let kind = if *cmp == Comparator::Eq {
                LeafKind::Eq
            } else {
                LeafKind::Other
            };
            if left.as_path().is_some() {
                push(left, kind, Some(right));
            } else {
                push(right, kind, Some(left));
            }
        }
        Condition::Function {
            function: Function::BeginsWith(a, b),
            ..
        } => push(a, LeafKind::BeginsWith, Some(b)),
        Condition::Between { operand, .. } | Condition::In { operand, .. } => {
            push(operand, LeafKind::Other, None);
        }
        Condition::Function { .. } => {}
    }
}

/// A top-level attribute name, through `#name` placeholders.
fn path_attr(op: &Operation, p: &expr::Path) -> Option<String> {
    match p.elements.first()? {
        PathElement::Attr(a) => Some(a.clone()),
        PathElement::Name(n) => op.names.get(n)?.name.value().map(str::to_string),
        PathElement::Index(_) => None,
    }
}

fn operand_value(op: &Operation, v: &Operand) -> Option<String> {
    match v {
        Operand::Value(r) => Some(match op.values.get(&r.name) {
            Some(info) => value_template(info, r.name.trim_start_matches(':')),
            None => format!("{{{}}}", sanitize(r.name.trim_start_matches(':'))),
        }),
        _ => None,
    }
}

/// A value as a template: its literal, a `format!` template with numbered holes, or
/// one placeholder named after `fallback`.
fn value_template(info: &ValueInfo, fallback: &str) -> String {
    if let Some(l) = &info.literal {
        if !l.contains(['{', '}']) {
            return l.clone();
        }
    }
    if let Some(Resolved::Template { template }) = info.text.as_ref().map(Resolved::innermost) {
        let mut out = String::new();
        let mut n = 0;
        let mut rest = template.as_str();
        while let Some(i) = rest.find("{}") {
            out.push_str(&rest[..i].replace(['{', '}'], ""));
            out.push_str(&format!("{{p{n}}}"));
            n += 1;
            rest = &rest[i + 2..];
        }
        out.push_str(&rest.replace(['{', '}'], ""));
        if n > 0 {
            return out;
        }
    }
    if let Some(v) = info.text.as_ref().and_then(Resolved::value) {
        if !v.contains(['{', '}']) {
            return v.to_string();
        }
    }
    format!("{{{}}}", sanitize(fallback))
}

/// A placeholder name: letters, digits, `_` and `-` only.
fn sanitize(s: &str) -> String {
    let name: String = s
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
        .collect();
    if name.is_empty() {
        "v".into()
    } else {
        name
    }
}

/// Whether two sort conditions can select the same items: equal values agree
/// where both are literal, and a `begins_with` prefix agrees with the literal start
/// of the other side.
fn sorts_overlap(a: &SortCondition, b: &SortCondition) -> bool {
    let start = |c: &SortCondition| -> (String, bool) {
        match c {
            SortCondition::Eq { value } => match KeyTemplate::parse(value) {
                Ok(t) => (t.literal_prefix().to_string(), t.is_constant()),
                Err(_) => (String::new(), false),
            },
            SortCondition::BeginsWith { prefix } => (prefix.clone(), false),
        }
    };
    let ((pa, exact_a), (pb, exact_b)) = (start(a), start(b));
    if exact_a && exact_b {
        return pa == pb;
    }
    pa.starts_with(&pb) || pb.starts_with(&pa)
}

/// Whether a code operation's plan implements an access pattern's: same table and
/// index, the same key attributes, and no literal key value that differs.
pub fn implements(op: &ReadPlan, pattern: &ReadPlan) -> bool {
    if op.table != pattern.table || op.index != pattern.index {
        return false;
    }
    let same_value = |a: &str, b: &str| {
        let (Ok(ta), Ok(tb)) = (KeyTemplate::parse(a), KeyTemplate::parse(b)) else {
            return false;
        };
        !(ta.is_constant() && tb.is_constant() && a != b)
            && (ta.literal_prefix().starts_with(tb.literal_prefix())
                || tb.literal_prefix().starts_with(ta.literal_prefix()))
    };
    match (&op.partition, &pattern.partition) {
        (Some((a, va)), Some((b, vb))) => {
            if a != b || !same_value(va, vb) {
                return false;
            }
        }
        (None, None) => {
            // Scans: the code must at least filter on what the pattern asks for.
            return pattern
                .filters
                .iter()
                .all(|(a, _)| op.filters.iter().any(|(b, _)| a == b));
        }
        _ => return false,
    }
    match (&op.sort, &pattern.sort) {
        (None, None) => true,
        (Some((a, ca)), Some((b, cb))) => a == b && sorts_overlap(ca, cb),
        // A pattern without a sort condition may be read with one, and a Query
        // without one reads the pattern's range too.
        (Some(_), None) | (None, Some(_)) => pattern.access != Access::GetItem,
    }
}
