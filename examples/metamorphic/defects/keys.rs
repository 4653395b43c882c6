//! A request keyed on an attribute the table is not keyed on: the key attribute's name
//! (a literal in `.key(..)`, `.item(..)`, the key condition or its `#name`) replaced.

use dynalint::model::{OriginKind, Table};
use dynalint::scanner::OpKind;

use super::{legacy, lit, table, whole_chain, DefectCase, Expect};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{node_at, Cx, Variant};

/// Wrong names for `pk`, none of them a key of the table or its indexes.
fn wrong_names(t: &Table, pk: &str) -> Vec<String> {
    let keys: Vec<&str> = std::iter::once(t.partition_key.as_str())
        .chain(t.sort_key.as_deref())
        .chain(t.indexes.iter().map(|i| i.partition_key.as_str()))
        .chain(t.indexes.iter().filter_map(|i| i.sort_key.as_deref()))
        .collect();
    let flipped: String = pk
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                if c.is_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            } else {
                c
            }
        })
        .collect();
    [
        format!("{pk}_id"),
        flipped,
        "mm_key".to_string(),
        format!("{pk}Key"),
    ]
    .into_iter()
    .filter(|w| !keys.contains(&w.as_str()) && w != pk)
    .collect()
}

/// The string literal of a setter's argument `arg`, when it is one.
fn literal_arg(cx: &Cx<'_>, r: std::ops::Range<usize>) -> Option<(std::ops::Range<usize>, String)> {
    let n = node_at(cx.tree, r)?;
    (n.kind() == "string_literal").then(|| {
        let t = &cx.text[n.byte_range()];
        (n.byte_range(), t.trim_matches('"').to_string())
    })
}

pub fn wrong_key(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let t = table(cx, run).ok_or("the site binds to no table of the model")?;
    // A table nothing declares is keyed as its calls use it: the defect's call would
    // redefine the key, not break it.
    if t.origin.kind == OriginKind::Usage {
        return Err("the table is declared nowhere: its key is what the calls use".into());
    }
    let op = &cx.site.op;
    if op.index.is_some() {
        return Err("the request reads an index".into());
    }
    if legacy(cx) {
        return Err("the request uses legacy parameters".into());
    }
    let chain = whole_chain(cx)?;
    // A map the scanner cannot read (`set_item(Some(item))`) may hold the key.
    let map = match op.kind {
        OpKind::PutItem => op.item.as_ref(),
        OpKind::GetItem | OpKind::DeleteItem | OpKind::UpdateItem => op.key.as_ref(),
        _ => None,
    };
    if map.is_some_and(|m| !m.complete) {
        return Err("the request's item or key holds attributes the scanner cannot read".into());
    }
    let pk = t.partition_key.as_str();
    // Where the partition key's name is written.
    let setter_names: &[&str] = match op.kind {
        OpKind::GetItem | OpKind::DeleteItem | OpKind::UpdateItem => &["key"],
        OpKind::PutItem => &["item"],
        OpKind::Query => &["expression_attribute_names"],
        _ => return Err("not a keyed request (get, put, update, delete, query)".into()),
    };
    let mut at = None;
    for s in &chain.setters {
        if !setter_names.contains(&s.name.as_str()) || s.args.len() != 2 {
            continue;
        }
        // `.key("pk", ..)`, `.item("pk", ..)`; `.expression_attribute_names("#k", "pk")`.
        let which = if s.name == "expression_attribute_names" {
            1
        } else {
            0
        };
        if let Some((r, v)) = literal_arg(cx, s.args[which].clone()) {
            if v == pk {
                at = Some(r);
                break;
            }
        }
    }
    // A key condition that names the partition key as written: `pk = :pk`.
    if at.is_none() && op.kind == OpKind::Query {
        for s in &chain.setters {
            if s.name != "key_condition_expression" || s.args.len() != 1 {
                continue;
            }
            if let Some((r, v)) = literal_arg(cx, s.args[0].clone()) {
                let found = v
                    .match_indices(pk)
                    .find(|(i, _)| {
                        let before = v[..*i].chars().last();
                        let after = v[i + pk.len()..].chars().next();
                        !before.is_some_and(|c| {
                            c.is_alphanumeric() || c == '_' || c == '#' || c == ':'
                        }) && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    })
                    .map(|(i, _)| i);
                if let Some(i) = found {
                    // +1: the opening quote.
                    let start = r.start + 1 + i;
                    at = Some(start..start + pk.len());
                    break;
                }
            }
        }
    }
    let at = at.ok_or("the partition key's name is not a literal in the chain")?;
    let quoted = cx.text[at.clone()].starts_with('"');
    Ok(wrong_names(t, pk)
        .into_iter()
        .map(|w| DefectCase {
            variant: Variant::code(vec![Edit::replace(
                at.clone(),
                if quoted { lit(&w) } else { w.clone() },
            )]),
            expect: Expect::at_site("rejected-request"),
            baseline: None,
            label: format!("{}-as-{w}", pk),
        })
        .collect())
}
