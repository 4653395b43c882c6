//! Requests added next to the site, on its client and table: a GetItem sent once per
//! element of a `Vec`, and a whole-table Scan (paginated) on a request path.

use dynalint::attr::AttributeType;
use dynalint::scanner::OpKind;

use super::{lit, table, DefectCase, Expect, AV};
use crate::project::Run;
use crate::rewrites::{before_statement, client_chain, place, table_arg, Cx, Variant};

/// The site's client and table argument as text, for a request on the same table.
fn client_and_table(cx: &Cx<'_>) -> Result<(String, String), String> {
    let chain = client_chain(cx)?;
    if chain.awaited.is_none() {
        return Err("the site's send is not awaited at once (no async statement to add to)".into());
    }
    let (_, _, arg) = table_arg(cx, chain).ok_or("the chain sets no table name argument")?;
    Ok((
        cx.text[chain.receiver.clone()].to_string(),
        cx.text[arg].to_string(),
    ))
}

/// The key attributes of a request on the site's table: the bound table's, or the
/// site's own GetItem key.
fn key_of(cx: &Cx<'_>, run: &Run) -> Result<Vec<(String, AttributeType)>, String> {
    if let Some(t) = table(cx, run) {
        let ty = |a: &str| t.attribute(a).map_or(AttributeType::S, |x| x.ty);
        let mut key = vec![(t.partition_key.clone(), ty(&t.partition_key))];
        if let Some(sk) = &t.sort_key {
            key.push((sk.clone(), ty(sk)));
        }
        return Ok(key);
    }
    let op = &cx.site.op;
    match (&op.kind, &op.key) {
        (OpKind::GetItem, Some(k)) if k.complete && !k.attributes.is_empty() => Ok(k
            .attributes
            .iter()
            .filter_map(|a| a.name.value().map(|n| (n.to_string(), AttributeType::S)))
            .collect()),
        _ => Err(
            "the site's table is not in the model and it is no GetItem: its key is not known"
                .into(),
        ),
    }
}

/// `AttributeValue` of a key attribute from the loop's element `e`.
fn key_value(ty: AttributeType, e: &str, shape: usize) -> Option<String> {
    Some(match (ty, shape % 2) {
        (AttributeType::S, 0) => format!("{AV}::S({e}.to_string())"),
        (AttributeType::S, _) => format!("{AV}::S({e}.clone())"),
        (AttributeType::N, 0) => format!("{AV}::N({e}.len().to_string())"),
        (AttributeType::N, _) => format!("{AV}::N(format!(\"{{}}\", {e}.len()))"),
        _ => return None,
    })
}

/// A GetItem per element of a `Vec<String>`, in five loop shapes and two value shapes.
pub fn get_per_element(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let (client, table_text) = client_and_table(cx)?;
    let key = key_of(cx, run)?;
    let place = place(cx)?;
    let n = cx.n;
    let ids = format!("mm_ids{n}");
    let mut cases = Vec::new();
    let shapes = [
        "for-ref",
        "for-iter",
        "for-enumerate",
        "while-pop",
        "join-all",
    ];
    let elems = ["id", "user_id"];
    for (si, shape) in shapes.iter().enumerate() {
        for (ei, e) in elems.iter().enumerate() {
            let mut keys = String::new();
            for (name, ty) in &key {
                let v = key_value(*ty, e, si + ei)
                    .ok_or("a key attribute of type B: no value shape for it")?;
                keys.push_str(&format!(".key({}, {v})", lit(name)));
            }
            let get = format!("{client}.get_item().table_name({table_text}){keys}.send()");
            let decl = format!("let mut {ids}: Vec<String> = std::env::args().collect();");
            let body = match *shape {
                "for-ref" => format!("for {e} in &{ids} {{ let _ = {get}.await; }}"),
                "for-iter" => format!("for {e} in {ids}.iter() {{ let _ = {get}.await; }}"),
                "for-enumerate" => {
                    format!("for (_i, {e}) in {ids}.iter().enumerate() {{ let _ = {get}.await; }}")
                }
                "while-pop" => {
                    format!("while let Some({e}) = {ids}.pop() {{ let _ = {get}.await; }}")
                }
                _ => format!(
                    "let _ = futures::future::join_all({ids}.iter().map(|{e}| {get})).await;"
                ),
            };
            let edit = before_statement(place, &[decl, body])?;
            cases.push(DefectCase {
                variant: Variant::code(vec![edit]),
                expect: Expect::at_site("get-item-in-loop"),
                baseline: None,
                label: format!("{shape}-{e}"),
            });
        }
    }
    Ok(cases)
}

/// A Scan of the site's table, read page by page, on the request path the site is on.
pub fn scan_in_handler(cx: &Cx<'_>, _run: &Run) -> Result<Vec<DefectCase>, String> {
    if cx.site.op.context.hot.is_none() {
        return Err("the site is not on a request path".into());
    }
    let (client, table_text) = client_and_table(cx)?;
    let place = place(cx)?;
    let n = cx.n;
    let scan = format!("{client}.scan().table_name({table_text})");
    let shapes: Vec<(&str, Vec<String>)> = vec![
        (
            "paginator-items",
            vec![format!(
                "let mm_all{n}: Vec<_> = {scan}.into_paginator().items().send().collect::<Vec<_>>().await;"
            )],
        ),
        (
            "paginator-pages",
            vec![format!(
                "let mm_pages{n}: Vec<_> = {scan}.limit(100).into_paginator().send().collect::<Vec<_>>().await;"
            )],
        ),
        (
            "start-key-loop",
            vec![
                format!("let mut mm_start{n} = None;"),
                format!(
                    "loop {{ let mm_page = {scan}.set_exclusive_start_key(mm_start{n}.take()).send().await; match mm_page {{ Ok(p) => {{ mm_start{n} = p.last_evaluated_key().cloned(); if mm_start{n}.is_none() {{ break; }} }} Err(_) => break, }} }}"
                ),
            ],
        ),
        (
            "projected-paginator",
            vec![format!(
                "let mm_ids{n}: Vec<_> = {scan}.projection_expression(\"#mm\").expression_attribute_names(\"#mm\", \"mm_id\").into_paginator().items().send().collect::<Vec<_>>().await;"
            )],
        ),
    ];
    shapes
        .into_iter()
        .map(|(label, lines)| {
            Ok(DefectCase {
                variant: Variant::code(vec![before_statement(place, &lines)?]),
                expect: Expect::at_site("scan-in-hot-path"),
                baseline: None,
                label: label.into(),
            })
        })
        .collect()
}
