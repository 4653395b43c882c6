//! A Query's legacy `key_conditions` map (attribute → `Condition`: rusoto's `Condition
//! { comparison_operator, attribute_value_list }` of a `QueryInput`, or aws-sdk's
//! `Condition::builder()` given to `key_conditions`/`set_key_conditions`), read as the
//! key condition expression it stands for, with placeholders of its own, so rules
//! validate it like a `key_condition_expression` (missing partition key, wrong
//! operator, value types). A map the scanner cannot read is an unknown key condition,
//! not a missing one.

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::items;
use crate::scanner::index::resolve::FileCx;
use crate::scanner::ir::{ExprArg, NameArg, Operation, Resolved, ValueInfo};
use crate::scanner::syntax::nodes::{
    call_args, call_path, descendants, field, method_call, named_children, peel, span,
};

/// The fields of a rusoto `AttributeValue` and the type each one sets.
const VALUE_FIELDS: [(&str, AttributeType); 10] = [
    ("s", AttributeType::S),
    ("n", AttributeType::N),
    ("b", AttributeType::B),
    ("bool", AttributeType::Bool),
    ("null", AttributeType::Null),
    ("m", AttributeType::M),
    ("l", AttributeType::L),
    ("ss", AttributeType::SS),
    ("ns", AttributeType::NS),
    ("bs", AttributeType::BS),
];

/// The initializers of a struct literal: (field name, value with `Some(..)` peeled).
fn struct_fields<'t>(cx: &FileCx<'t>, n: Node<'t>) -> Vec<(&'t str, Node<'t>)> {
    let Some(body) = field(n, "body") else {
        return Vec::new();
    };
    named_children(body)
        .into_iter()
        .filter(|f| f.kind() == "field_initializer")
        .filter_map(|f| {
            let name = cx.src.of(field(f, "field")?);
            let value = peel(field(f, "value")?);
            let value = match crate::scanner::syntax::nodes::call_path(cx.src, value) {
                Some("Some") => crate::scanner::syntax::nodes::call_args(value)
                    .first()
                    .map_or(value, |a| peel(*a)),
                _ => value,
            };
            Some((name, value))
        })
        .collect()
}

/// What a rusoto `AttributeValue { s: Some(x), ..Default::default() }` shows: its
/// type, and its value when the code gives it.
fn attribute_value(cx: &FileCx<'_>, n: Node<'_>) -> ValueInfo {
    for (name, value) in struct_fields(cx, n) {
        if let Some((_, ty)) = VALUE_FIELDS.iter().find(|(f, _)| *f == name) {
            if cx.src.of(value) == "None" {
                continue;
            }
            let mut v = cx.value(value);
            v.ty = Some(*ty);
            v.span = span(n);
            return v;
        }
    }
    ValueInfo::unknown(span(n))
}

/// Sets `op`'s key condition from a `key_conditions` map, unless the request also has
/// a `key_condition_expression` (DynamoDB refuses that mix). When an attribute name,
/// an operator or a condition is not one the scanner reads, the key condition is
/// unknown: the request has one, and what it says is not known.
pub fn apply(cx: &FileCx<'_>, op: &mut Operation, map: Node<'_>) {
    let entries = items::map_entries(cx, map, 0);
    let (_, complete) = items::entries(cx, map, 0);
    apply_entries(cx, op, &entries, complete, span(map));
}

/// [`apply`] for the entries of a map (or of one `key_conditions(k, v)` call of the
/// fluent builder, added to the ones before it); `complete` says they are all of them.
pub fn apply_entries(
    cx: &FileCx<'_>,
    op: &mut Operation,
    entries: &[(Node<'_>, Node<'_>, bool)],
    complete: bool,
    at: crate::source::Span,
) {
    // An expression of the code's own, or a legacy map already unknown.
    let legacy = |op: &Operation| op.names.contains_key("#kc0");
    if op.key_condition.is_some() && !legacy(op) {
        return;
    }
    let first = op.names.keys().filter(|k| k.starts_with("#kc")).count();
    let unknown = |op: &mut Operation, why: &str| {
        op.key_condition = Some(Box::new(ExprArg {
            text: Resolved::unknown(why),
            span: at,
            literal_start: None,
            conditional: false,
            paths: Box::default(),
        }));
    };
    if !complete {
        return unknown(
            op,
            "the `key_conditions` map is built where dynalint cannot read it",
        );
    }
    let mut parts = Vec::new();
    let mut names = Vec::new();
    let mut values = Vec::new();
    for (n, (k, cond, conditional)) in entries.iter().enumerate() {
        let i = first + n;
        let Some(attr) = cx.string(*k).value().map(str::to_string) else {
            return unknown(
                op,
                "an attribute of the `key_conditions` map is not known statically",
            );
        };
        let Some((operator, list)) = condition(cx, *cond) else {
            return unknown(
                op,
                "a `Condition` of the `key_conditions` map is not one dynalint reads",
            );
        };
        let name = format!("#kc{i}");
        let placeholders: Vec<String> = (0..list.len()).map(|j| format!(":kc{i}_{j}")).collect();
        let Some(text) = crate::expr::legacy::condition_text(&name, &operator, &placeholders)
        else {
            return unknown(
                op,
                "a `Condition` of the `key_conditions` map is not one dynalint reads",
            );
        };
        parts.push(text);
        names.push((
            name,
            NameArg {
                name: Resolved::literal(attr),
                span: span(*k),
                conditional: *conditional,
            },
        ));
        values.extend(placeholders.into_iter().zip(list));
    }
    if parts.is_empty() {
        return;
    }
    let before = op
        .key_condition
        .as_ref()
        .and_then(|e| e.text.value().map(str::to_string));
    if op.key_condition.is_some() && before.is_none() {
        // An earlier part is unknown: so is the whole.
        return;
    }
    let text = match before {
        Some(b) => format!("{b} AND {}", parts.join(" AND ")),
        None => parts.join(" AND "),
    };
    op.key_condition = Some(Box::new(ExprArg {
        text: Resolved::literal(text),
        span: at,
        literal_start: None,
        conditional: false,
        paths: Box::default(),
    }));
    op.names.extend(names);
    op.values.extend(values);
}

/// A legacy `Condition`'s operator (`EQ`) and values: rusoto's `Condition {
/// comparison_operator, attribute_value_list }`, or aws-sdk's
/// `Condition::builder().comparison_operator(ComparisonOperator::Eq)
/// .attribute_value_list(v).build()`.
fn condition(cx: &FileCx<'_>, cond: Node<'_>) -> Option<(String, Vec<ValueInfo>)> {
    let src = cx.src;
    let cond = peel(cond);
    if cond.kind() == "struct_expression" {
        let fields = struct_fields(cx, cond);
        let operator = fields
            .iter()
            .find(|(f, _)| *f == "comparison_operator")
            .and_then(|(_, v)| cx.string(*v).value().map(str::to_string))?;
        let list: Vec<ValueInfo> = fields
            .iter()
            .find(|(f, _)| *f == "attribute_value_list")
            .map(|(_, l)| {
                descendants(*l, &mut |d| {
                    d.kind() == "struct_expression"
                        && field(d, "name").is_some_and(|t| src.of(t).ends_with("AttributeValue"))
                })
                .into_iter()
                .map(|d| attribute_value(cx, d))
                .collect()
            })
            .unwrap_or_default();
        return Some((operator, list));
    }
    // The builder chain, read from its end back to `Condition::builder()`.
    let mut operator = None;
    let mut list = Vec::new();
    let mut cur = cond;
    for _ in 0..32 {
        cur = peel(cur);
        if let Some((recv, name, call)) = method_call(src, cur) {
            let args = call_args(call);
            match name.as_str() {
                "build" | "unwrap" | "expect" | "map_err" | "context" | "with_context" => {}
                "comparison_operator" | "set_comparison_operator" => {
                    let a = peel(*args.first()?);
                    operator = Some(comparison_operator(cx, a)?);
                }
                "attribute_value_list" => list.push(cx.value(*args.first()?)),
                "set_attribute_value_list" => {
                    let a = peel(*args.first()?);
                    let inner = match call_path(src, a) {
                        Some("Some") => peel(*call_args(a).first()?),
                        _ => a,
                    };
                    if inner.kind() != "array_expression" {
                        return None;
                    }
                    list.extend(named_children(inner).into_iter().map(|v| cx.value(v)));
                }
                _ => return None,
            }
            cur = recv;
            continue;
        }
        let path = call_path(src, cur)?;
        if !path.ends_with("Condition::builder") {
            return None;
        }
        list.reverse();
        return Some((operator?, list));
    }
    None
}

/// `ComparisonOperator::BeginsWith` → `BEGINS_WITH`; a string (`"EQ"`,
/// `ComparisonOperator::from("EQ")`) as written.
fn comparison_operator(cx: &FileCx<'_>, a: Node<'_>) -> Option<String> {
    let src = cx.src;
    if a.kind() == "scoped_identifier" {
        let text = src.of(a);
        let mut segs = text.rsplit("::").map(str::trim);
        let variant = segs.next()?;
        if segs.next()? != "ComparisonOperator" {
            return None;
        }
        let mut out = String::new();
        for (i, c) in variant.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
        }
        return Some(out);
    }
    if a.kind() == "call_expression" {
        let arg = *call_args(a).first()?;
        return cx.string(arg).value().map(str::to_string);
    }
    cx.string(a).value().map(str::to_string)
}
