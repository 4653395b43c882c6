//! Which attributes an operation writes or addresses, and with what values: the item of
//! a put, the key and `SET` values of an update, the key of a get or delete, and the
//! conditions of a key condition expression. Names behind `#placeholders` and values
//! behind `:placeholders` are looked up in the operation's maps.

use crate::expr::{self, Comparator, Condition, Function, Operand, Path, PathElement};
use crate::expr::{SetOperand, SetValue};
use crate::scanner::{OpKind, Operation, ValueInfo};
use crate::source::Span;

/// Where in the request an attribute's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `.item(k, v)` of a put.
    Item,
    /// `.key(k, v)` of a get, update or delete.
    Key,
    /// `SET attr = :v` of an update expression.
    UpdateSet,
    /// `attr = :v` in a key condition.
    KeyEquals,
    /// A range condition on the sort key (`<`, `BETWEEN`, `begins_with`).
    KeyRange,
}

/// One attribute and the value the request gives it.
#[derive(Debug, Clone)]
pub struct AttrValue<'a> {
    pub attribute: String,
    pub value: &'a ValueInfo,
    /// The value's expression in the operation's file; the call itself for the fields
    /// of a serialised struct.
    pub span: Span,
    pub via: Via,
    /// Set only on some paths through the code.
    pub conditional: bool,
}

/// Attributes the request stores in the item: a put's item, or an update's key plus
/// the targets of its `SET` actions.
pub fn written(op: &Operation) -> Vec<AttrValue<'_>> {
    let mut out = Vec::new();
    match op.kind {
        OpKind::PutItem => {
            if let Some(item) = &op.item {
                let mut values = map_values(item, Via::Item);
                // A serialised struct's fields sit in the struct's file, which the IR
                // does not name: point at the call instead.
                if item.from_type.is_some() {
                    for v in &mut values {
                        v.span = op.method_span;
                    }
                }
                out.extend(values);
            }
        }
        OpKind::UpdateItem => {
            if let Some(key) = &op.key {
                out.extend(map_values(key, Via::Key));
            }
            out.extend(update_sets(op));
        }
        _ => {}
    }
    out
}

/// Attributes the request looks items up by: the key of a get, update or delete, and
/// the conditions of a query's key condition.
pub fn addressed(op: &Operation) -> Vec<AttrValue<'_>> {
    let mut out = Vec::new();
    if let Some(key) = &op.key {
        out.extend(map_values(key, Via::Key));
    }
    out.extend(key_conditions(op));
    out
}

fn map_values(map: &crate::scanner::AttrMap, via: Via) -> Vec<AttrValue<'_>> {
    map.attributes
        .iter()
        .filter_map(|a| {
            Some(AttrValue {
                attribute: a.name.value()?.to_string(),
                value: &a.value,
                span: a.value.span,
                via,
                conditional: a.conditional,
            })
        })
        .collect()
}

/// The attribute a top-level path names, through `#name` placeholders.
pub fn path_attribute(op: &Operation, path: &Path) -> Option<String> {
    if !path.is_top_level() {
        return None;
    }
    match path.elements.first()? {
        PathElement::Attr(a) => Some(a.clone()),
        PathElement::Name(n) => op.names.get(n)?.name.value().map(str::to_string),
        PathElement::Index(_) => None,
    }
}

fn value_of<'a>(op: &'a Operation, placeholder: &str) -> Option<&'a ValueInfo> {
    op.values.get(placeholder)
}

fn update_sets(op: &Operation) -> Vec<AttrValue<'_>> {
    let Some(arg) = &op.update else {
        return Vec::new();
    };
    let Some(text) = arg.text.value() else {
        return Vec::new();
    };
    let Ok(update) = expr::parse_update(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for action in update.set_actions() {
        let SetValue::Operand(SetOperand::Value(v)) = &action.value else {
            continue;
        };
        let (Some(attribute), Some(value)) =
            (path_attribute(op, &action.path), value_of(op, &v.name))
        else {
            continue;
        };
        out.push(AttrValue {
            attribute,
            value,
            span: value.span,
            via: Via::UpdateSet,
            conditional: arg.conditional,
        });
    }
    out
}

/// The `attr <op> :v` conditions of a key condition expression.
fn key_conditions(op: &Operation) -> Vec<AttrValue<'_>> {
    let Some(arg) = &op.key_condition else {
        return Vec::new();
    };
    let Some(text) = arg.text.value() else {
        return Vec::new();
    };
    let Ok(cond) = expr::parse_key_condition(text) else {
        return Vec::new();
    };
    let mut pairs: Vec<(&Path, &str, Via)> = Vec::new();
    collect_conditions(&cond, &mut pairs);
    pairs
        .into_iter()
        .filter_map(|(path, placeholder, via)| {
            let attribute = path_attribute(op, path)?;
            let value = value_of(op, placeholder)?;
            Some(AttrValue {
                attribute,
                value,
                span: value.span,
                via,
                conditional: arg.conditional,
            })
        })
        .collect()
}

fn collect_conditions<'c>(c: &'c Condition, out: &mut Vec<(&'c Path, &'c str, Via)>) {
    match c {
        Condition::And { left, right, .. } => {
            collect_conditions(left, out);
            collect_conditions(right, out);
        }
        Condition::Compare {
            left, op, right, ..
        } => {
            let via = if *op == Comparator::Eq {
                Via::KeyEquals
            } else {
                Via::KeyRange
            };
            match (left, right) {
                (Operand::Path(p), Operand::Value(v)) | (Operand::Value(v), Operand::Path(p)) => {
                    out.push((p, &v.name, via));
                }
                _ => {}
            }
        }
        Condition::Between {
            operand: Operand::Path(p),
            low,
            high,
            ..
        } => {
            for bound in [low, high] {
                if let Operand::Value(v) = bound {
                    out.push((p, &v.name, Via::KeyRange));
                }
            }
        }
        Condition::Function {
            function: Function::BeginsWith(Operand::Path(p), Operand::Value(v)),
            ..
        } => out.push((p, &v.name, Via::KeyRange)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{ExprArg, NameArg, Resolved};
    use std::path::Path as FsPath;
    use std::sync::Arc;

    fn expr_arg(text: &str) -> ExprArg {
        ExprArg {
            text: Resolved::literal(text),
            span: Span::new(0, 1),
            literal_start: None,
            conditional: false,
            paths: Box::default(),
        }
    }

    fn val(start: usize) -> ValueInfo {
        ValueInfo::unknown(Span::new(start, start + 1))
    }

    fn op(kind: OpKind) -> Operation {
        Operation::new(kind, Arc::from(FsPath::new("a.rs")), Span::new(0, 10))
    }

    #[test]
    fn key_condition_pairs_resolve_names_and_values() {
        let mut q = op(OpKind::Query);
        q.key_condition = Some(Box::new(expr_arg("#pk = :p AND begins_with(SK, :s)")));
        q.names.insert(
            "#pk".into(),
            NameArg {
                name: Resolved::literal("GSI1PK"),
                span: Span::new(0, 1),
                conditional: false,
            },
        );
        q.values.insert(":p".into(), val(20));
        q.values.insert(":s".into(), val(30));
        let got: Vec<(String, Via, usize)> = addressed(&q)
            .into_iter()
            .map(|a| (a.attribute, a.via, a.span.start))
            .collect();
        assert_eq!(
            got,
            vec![
                ("GSI1PK".to_string(), Via::KeyEquals, 20),
                ("SK".to_string(), Via::KeyRange, 30)
            ]
        );
    }

    #[test]
    fn update_set_values_are_written() {
        let mut u = op(OpKind::UpdateItem);
        u.update = Some(Box::new(expr_arg("SET #s = :s, n = n + :one REMOVE x")));
        u.names.insert(
            "#s".into(),
            NameArg {
                name: Resolved::literal("status"),
                span: Span::new(0, 1),
                conditional: false,
            },
        );
        u.values.insert(":s".into(), val(5));
        u.values.insert(":one".into(), val(6));
        let got: Vec<String> = written(&u).into_iter().map(|a| a.attribute).collect();
        assert_eq!(got, vec!["status".to_string()]);
    }

    #[test]
    fn unparsable_expressions_give_nothing() {
        let mut q = op(OpKind::Query);
        q.key_condition = Some(Box::new(expr_arg("pk = = :p")));
        assert!(addressed(&q).is_empty());
        q.key_condition = Some(Box::new(ExprArg {
            text: Resolved::unknown("runtime"),
            ..expr_arg("")
        }));
        assert!(addressed(&q).is_empty());
    }
}
