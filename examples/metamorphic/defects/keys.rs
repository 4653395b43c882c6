//! A request keyed on an attribute the table is not keyed on: the key attribute's name
//! (a literal in `.key(..)`, `.item(..)`, the key condition or its `#name`) replaced.

use dynalint::model::{OriginKind, Table};
use dynalint::scanner::OpKind;

use super::{already_rejected, legacy, lit, table, whole_chain, DefectCase, Expect};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{node_at, Cx, Variant};

/// Wrong names for the key attribute `key` (the partition key, or the sort key when
/// `other` is the partition key), each with what it is: the four made-up names first
/// (what CI's small run takes), then misspellings, the other key attribute in its
/// place, an index's key and attributes the model declares that key nothing.
fn wrong_names(t: &Table, key: &str, other: Option<&str>) -> Vec<(String, String)> {
    let keys: Vec<&str> = std::iter::once(t.partition_key.as_str())
        .chain(t.sort_key.as_deref())
        .chain(t.indexes.iter().map(|i| i.partition_key.as_str()))
        .chain(t.indexes.iter().filter_map(|i| i.sort_key.as_deref()))
        .collect();
    let flipped: String = key
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
    let made_up = [
        format!("{key}_id"),
        flipped,
        "mm_key".to_string(),
        format!("{key}Key"),
    ]
    .into_iter()
    .filter(|w| !keys.contains(&w.as_str()))
    .map(|w| ("made-up".to_string(), w));
    let mut spelled = Vec::new();
    let chars: Vec<char> = key.chars().collect();
    if chars.len() >= 3 {
        spelled.push((
            "last-letter-dropped",
            chars[..chars.len() - 1].iter().collect(),
        ));
        let mut doubled = chars.clone();
        doubled.insert(1, chars[1]);
        spelled.push(("letter-doubled", doubled.into_iter().collect::<String>()));
    }
    spelled.push(("camel-or-snake", camel_or_snake(key)));
    let spelled = spelled
        .into_iter()
        .filter(|(_, w)| !keys.contains(&w.as_str()) && t.attribute(w).is_none())
        .map(|(l, w)| (l.to_string(), w));
    // The other key attribute named twice; an index's key, which the table is not
    // keyed on; an attribute that keys nothing.
    let swapped = other.map(|o| ("other-key".to_string(), o.to_string()));
    let index_keys = t
        .indexes
        .iter()
        .flat_map(|i| std::iter::once(i.partition_key.as_str()).chain(i.sort_key.as_deref()))
        .filter(|a| *a != t.partition_key && Some(*a) != t.sort_key.as_deref())
        .map(|a| ("index-key".to_string(), a.to_string()))
        .take(2);
    let non_keys = t
        .attributes
        .keys()
        .filter(|a| !keys.contains(&a.as_str()))
        .map(|a| ("non-key-attribute".to_string(), a.clone()))
        .take(2);
    let mut out: Vec<(String, String)> = Vec::new();
    for (l, w) in made_up
        .chain(spelled)
        .chain(swapped)
        .chain(index_keys)
        .chain(non_keys)
    {
        if w != key && !w.is_empty() && !out.iter().any(|(_, x)| *x == w) {
            out.push((l, w));
        }
    }
    out
}

/// `userId` for `user_id`, `user_id` for `userId`; `pk` for `pk` (then no case).
fn camel_or_snake(name: &str) -> String {
    if name.contains('_') {
        let mut out = String::new();
        let mut up = false;
        for c in name.chars() {
            if c == '_' {
                up = true;
            } else if up {
                out.extend(c.to_uppercase());
                up = false;
            } else {
                out.push(c);
            }
        }
        out
    } else {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        }
        out
    }
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
    if already_rejected(cx, run) {
        return Err(
            "the request is already rejected: DynamoDB answers its first error only".into(),
        );
    }
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
    // Where the key attributes' names are written.
    let setter_names: &[&str] = match op.kind {
        OpKind::GetItem | OpKind::DeleteItem | OpKind::UpdateItem => &["key"],
        OpKind::PutItem => &["item"],
        OpKind::Query => &["expression_attribute_names"],
        _ => return Err("not a keyed request (get, put, update, delete, query)".into()),
    };
    let pk = t.partition_key.as_str();
    let mut cases = Vec::new();
    // The partition key's name, then the sort key's (a Query's sort key may be absent
    // from its key condition: then it is not seeded).
    let positions = std::iter::once((pk, t.sort_key.as_deref()))
        .chain(t.sort_key.as_deref().map(|sk| (sk, Some(pk))));
    for (pi, (key, other)) in positions.enumerate() {
        let Some(at) = name_at(cx, chain, setter_names, key) else {
            if pi == 0 {
                return Err("the partition key's name is not a literal in the chain".into());
            }
            continue;
        };
        let quoted = cx.text[at.clone()].starts_with('"');
        let role = if pi == 0 { "pk" } else { "sk" };
        for (what, w) in wrong_names(t, key, other) {
            cases.push(DefectCase {
                variant: Variant::code(vec![Edit::replace(
                    at.clone(),
                    if quoted { lit(&w) } else { w.clone() },
                )]),
                expect: Expect::at_site("rejected-request"),
                baseline: None,
                label: if pi == 0 && what == "made-up" {
                    format!("{key}-as-{w}")
                } else {
                    format!("{role}-{what}-{key}-as-{w}")
                },
            });
        }
    }
    Ok(cases)
}

/// Where the name `key` is written in the chain: a setter's literal (`.key("pk", ..)`,
/// `.item("pk", ..)`, `.expression_attribute_names("#k", "pk")`), or a Query's key
/// condition naming it as written (`pk = :pk`).
fn name_at(
    cx: &Cx<'_>,
    chain: &crate::site::Chain,
    setter_names: &[&str],
    key: &str,
) -> Option<std::ops::Range<usize>> {
    for s in &chain.setters {
        if !setter_names.contains(&s.name.as_str()) || s.args.len() != 2 {
            continue;
        }
        let which = if s.name == "expression_attribute_names" {
            1
        } else {
            0
        };
        if let Some((r, v)) = literal_arg(cx, s.args[which].clone()) {
            if v == key {
                return Some(r);
            }
        }
    }
    if cx.site.op.kind != OpKind::Query {
        return None;
    }
    for s in &chain.setters {
        if s.name != "key_condition_expression" || s.args.len() != 1 {
            continue;
        }
        if let Some((r, v)) = literal_arg(cx, s.args[0].clone()) {
            let found = v
                .match_indices(key)
                .find(|(i, _)| {
                    let before = v[..*i].chars().last();
                    let after = v[i + key.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '#' || c == ':')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
                .map(|(i, _)| i);
            if let Some(i) = found {
                // +1: the opening quote.
                let start = r.start + 1 + i;
                return Some(start..start + key.len());
            }
        }
    }
    None
}
