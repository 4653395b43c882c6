//! A rusoto `QueryInput`'s legacy `key_conditions` map (attribute → `Condition {
//! comparison_operator, attribute_value_list }`), read as the key condition
//! expression it stands for, with placeholders of its own, so rules validate it like
//! a `key_condition_expression` (missing partition key, wrong operator, value types).

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::items;
use crate::scanner::index::resolve::FileCx;
use crate::scanner::ir::{ExprArg, NameArg, Operation, Resolved, ValueInfo};
use crate::scanner::syntax::nodes::{descendants, field, named_children, peel, span};

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

/// Sets `op`'s key condition from a `key_conditions` map, unless the literal also
/// has a `key_condition_expression` (DynamoDB refuses that mix) or an attribute name
/// or operator is not a literal (then what the map means is unknown).
pub fn apply(cx: &FileCx<'_>, op: &mut Operation, map: Node<'_>) {
    if op.key_condition.is_some() {
        return;
    }
    let mut parts = Vec::new();
    let mut names = Vec::new();
    let mut values = Vec::new();
    for (i, (k, cond, conditional)) in items::map_entries(cx, map, 0).into_iter().enumerate() {
        let Some(attr) = cx.string(k).value().map(str::to_string) else {
            return;
        };
        let cond = peel(cond);
        if cond.kind() != "struct_expression" {
            return;
        }
        let fields = struct_fields(cx, cond);
        let Some(operator) = fields
            .iter()
            .find(|(f, _)| *f == "comparison_operator")
            .and_then(|(_, v)| cx.string(*v).value().map(str::to_string))
        else {
            return;
        };
        let list: Vec<ValueInfo> = fields
            .iter()
            .find(|(f, _)| *f == "attribute_value_list")
            .map(|(_, l)| {
                descendants(*l, &mut |d| {
                    d.kind() == "struct_expression"
                        && field(d, "name")
                            .is_some_and(|t| cx.src.of(t).ends_with("AttributeValue"))
                })
                .into_iter()
                .map(|d| attribute_value(cx, d))
                .collect()
            })
            .unwrap_or_default();
        let name = format!("#kc{i}");
        let placeholders: Vec<String> = (0..list.len()).map(|j| format!(":kc{i}_{j}")).collect();
        let Some(text) = crate::expr::legacy::condition_text(&name, &operator, &placeholders)
        else {
            return;
        };
        parts.push(text);
        names.push((
            name,
            NameArg {
                name: Resolved::literal(attr),
                span: span(k),
                conditional,
            },
        ));
        values.extend(placeholders.into_iter().zip(list));
    }
    if parts.is_empty() {
        return;
    }
    op.key_condition = Some(Box::new(ExprArg {
        text: Resolved::literal(parts.join(" AND ")),
        span: span(map),
        literal_start: None,
        conditional: false,
    }));
    op.names.extend(names);
    op.values.extend(values);
}
