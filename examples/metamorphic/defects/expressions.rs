//! Expression defects: a filter on a non-key attribute, and a placeholder the request
//! does not define.

use std::sync::Arc;

use dynalint::attr::AttributeType;
use dynalint::model::{Attribute, Table};
use dynalint::scanner::OpKind;

use super::{append_setters, legacy, lit, table, whole_chain, DefectCase, Expect, AV};
use crate::project::Run;
use crate::rewrites::{Cx, Variant};

/// True when `attr` is a key of the table or of one of its indexes.
fn is_key(t: &Table, attr: &str) -> bool {
    t.partition_key == attr
        || t.sort_key.as_deref() == Some(attr)
        || t.indexes
            .iter()
            .any(|i| i.partition_key == attr || i.sort_key.as_deref() == Some(attr))
}

fn has_setter(cx: &Cx<'_>, names: &[&str]) -> bool {
    cx.site
        .op
        .setters
        .iter()
        .any(|s| names.iter().any(|n| s.is(n)))
}

/// `.filter_expression("#f > :f")` on an attribute that is no key of the table or its
/// indexes, declared in the model as a string (a Scan filters with `=`, which a key
/// would serve; a Query with a range, which an index's sort key would).
pub fn filter_non_key(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !matches!(op.kind, OpKind::Query | OpKind::Scan) {
        return Err("not a Query or Scan".into());
    }
    let t = table(cx, run).ok_or("the site binds to no table of the model")?;
    if op.index.is_some() {
        return Err("the read is on an index".into());
    }
    if has_setter(
        cx,
        &[
            "filter_expression",
            "set_filter_expression",
            "scan_filter",
            "query_filter",
        ],
    ) {
        return Err("the request already filters".into());
    }
    if op.limit.is_some() {
        return Err("a limit next to a filter is another finding (`unpaginated-query`)".into());
    }
    if op.first_item_only {
        return Err("read for its first item: a filter makes one page another finding (`unpaginated-query`)".into());
    }
    if legacy(cx) {
        return Err("the request uses legacy parameters, which expressions cannot join".into());
    }
    let chain = whole_chain(cx)?;
    let attrs = ["created_at", "category", "owner_email", "score"];
    let ops: &[(&str, &str)] = match op.kind {
        OpKind::Scan => &[("eq", "#mmf = :mmf"), ("eq-reversed", ":mmf = #mmf")],
        _ => &[
            ("gt", "#mmf > :mmf"),
            ("begins-with", "begins_with(#mmf, :mmf)"),
        ],
    };
    let mut cases = Vec::new();
    for a in attrs {
        let attr = format!("{a}_{}", cx.n);
        if is_key(t, &attr) {
            continue;
        }
        for (label, expr) in ops {
            let setters = vec![
                format!(".filter_expression({})", lit(expr)),
                format!(".expression_attribute_names(\"#mmf\", {})", lit(&attr)),
                format!(".expression_attribute_values(\":mmf\", {AV}::S(\"2024\".to_string()))"),
            ];
            let table_name = t.name.clone();
            let declared = attr.clone();
            cases.push(DefectCase {
                variant: Variant {
                    edits: vec![append_setters(cx, chain, &setters)],
                    patch: Some(Arc::new(move |m| {
                        if let Some(t) = m.tables.iter_mut().find(|t| t.name == table_name) {
                            t.attributes.insert(
                                declared.clone(),
                                Attribute {
                                    name: declared.clone(),
                                    ty: AttributeType::S,
                                    values: None,
                                    unique: false,
                                    cardinality: None,
                                    span: Default::default(),
                                    name_span: Default::default(),
                                    fields: Default::default(),
                                },
                            );
                        }
                    })),
                },
                expect: Expect::at_site("filter-instead-of-index"),
                baseline: None,
                label: format!("{a}-{label}"),
            });
        }
    }
    Ok(cases)
}

/// An expression the request does not have yet (a projection, a condition, a filter
/// that keys select nothing by) naming a `#name` or a `:value` it does not define.
pub fn undefined_placeholder(cx: &Cx<'_>, _run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !op.names_complete || !op.values_complete {
        return Err("the request's placeholders come from a map the scanner cannot read".into());
    }
    if legacy(cx) {
        return Err("the request uses legacy parameters, which expressions cannot join".into());
    }
    let chain = whole_chain(cx)?;
    let projection = matches!(op.kind, OpKind::GetItem | OpKind::Query | OpKind::Scan)
        && !has_setter(cx, &["projection_expression", "set_projection_expression"]);
    let condition = matches!(
        op.kind,
        OpKind::PutItem | OpKind::UpdateItem | OpKind::DeleteItem
    ) && !has_setter(cx, &["condition_expression", "set_condition_expression"]);
    // A filter changes what one page returns: only where no limit, no first-item read
    // and no other filter make that another finding.
    let filter = matches!(op.kind, OpKind::Query | OpKind::Scan)
        && !op.first_item_only
        && op.limit.is_none()
        && !has_setter(cx, &["filter_expression", "set_filter_expression"]);
    let n = cx.n;
    let mut cases = Vec::new();
    for (i, (attr, value)) in [
        ("mm_state", "OPEN"),
        ("mm_owner", "alice"),
        ("mm_kind", "ORDER"),
    ]
    .iter()
    .enumerate()
    {
        let name = format!("#mm{i}_{n}");
        let val = format!(":mm{i}_{n}");
        let define_name = format!(".expression_attribute_names({}, {})", lit(&name), lit(attr));
        let define_value = format!(
            ".expression_attribute_values({}, {AV}::S({}.to_string()))",
            lit(&val),
            lit(value)
        );
        // (label, setters)
        let mut variants: Vec<(&str, Vec<String>)> = Vec::new();
        if projection {
            variants.push((
                "projection-undefined-name",
                vec![format!(".projection_expression({})", lit(&name))],
            ));
        } else if condition {
            variants.push((
                "condition-undefined-name",
                vec![format!(
                    ".condition_expression({})",
                    lit(&format!("attribute_not_exists({name})"))
                )],
            ));
        }
        let compare = format!("contains({name}, {val})");
        if condition {
            variants.push((
                "condition-undefined-value",
                vec![
                    format!(".condition_expression({})", lit(&compare)),
                    define_name.clone(),
                ],
            ));
        } else if filter {
            variants.push((
                "filter-undefined-value",
                vec![
                    format!(".filter_expression({})", lit(&compare)),
                    define_name.clone(),
                ],
            ));
            if !projection {
                variants.push((
                    "filter-undefined-name",
                    vec![
                        format!(".filter_expression({})", lit(&compare)),
                        define_value.clone(),
                    ],
                ));
            }
        }
        for (label, setters) in variants {
            cases.push(DefectCase {
                variant: Variant::code(vec![append_setters(cx, chain, &setters)]),
                expect: Expect::at_site("rejected-request"),
                baseline: None,
                label: format!("{label}-{attr}"),
            });
        }
    }
    if cases.is_empty() {
        return Err("the request already has every expression it could take".into());
    }
    Ok(cases)
}
