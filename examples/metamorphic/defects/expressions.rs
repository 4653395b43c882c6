//! Expression defects: a filter on a non-key attribute, and a placeholder the request
//! does not define.

use std::sync::Arc;

use dynalint::attr::AttributeType;
use dynalint::model::{Attribute, Projection, Table};
use dynalint::scanner::OpKind;

use super::{
    already_rejected, append_setters, legacy, lit, table, whole_chain, DefectCase, Expect, AV,
};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{
    after_item, before_item, before_statement, builder_type, client_arg, client_chain, extract,
    line_indent, place, reindent, Cx, TableAs, Variant,
};

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

/// How a filter expression reaches the builder.
/// (`caller`: a helper builds the request without it and returns the builder; the
/// site adds the filter and sends.)
const FILTER_SHAPES: &[&str] = &["setter", "const", "let", "set-some", "caller"];

/// A non-key attribute to filter on: its name and type, and whether the model must
/// be told of it (a name the harness makes up).
struct Filtered {
    attr: String,
    ty: AttributeType,
    declare: bool,
}

/// `.filter_expression(..)` on an attribute that is no key of the table or its
/// indexes: each attribute the model declares for the table (strings, numbers,
/// booleans) and four it is told of, with each operator that a key could serve (a
/// Scan `=`; a Query a range, `BETWEEN`, `begins_with`; a boolean `=`, which a sparse
/// index serves), the expression a literal, a `const`, a `let` or `set_*(Some(..))`,
/// or added by the site to a builder a helper built and returned. A read of an index
/// too, when the index projects what the filter reads.
pub fn filter_non_key(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !matches!(op.kind, OpKind::Query | OpKind::Scan) {
        return Err("not a Query or Scan".into());
    }
    let t = table(cx, run).ok_or("the site binds to no table of the model")?;
    let index = match &op.index {
        None => None,
        Some(i) => {
            let name = i
                .value()
                .ok_or("the read is on an index whose name is not known")?;
            Some(
                t.indexes
                    .iter()
                    .find(|x| x.name == name)
                    .ok_or("the read is on an index the model does not have")?,
            )
        }
    };
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
    let n = cx.n;
    let projected = |a: &str| match index.map(|i| &i.projection) {
        None | Some(Projection::All) => true,
        Some(Projection::KeysOnly) => false,
        Some(Projection::Include(v)) => v.iter().any(|x| x == a),
    };
    let mut attrs: Vec<Filtered> = t
        .attributes
        .values()
        .filter(|a| !is_key(t, &a.name) && projected(&a.name))
        .filter(|a| {
            matches!(
                a.ty,
                AttributeType::S | AttributeType::N | AttributeType::Bool
            )
        })
        .take(4)
        .map(|a| Filtered {
            attr: a.name.clone(),
            ty: a.ty,
            declare: false,
        })
        .collect();
    attrs.extend(
        ["created_at", "category", "owner_email", "score"]
            .iter()
            .map(|a| format!("{a}_{n}"))
            .filter(|a| !is_key(t, a) && t.attribute(a).is_none() && projected(a))
            .map(|attr| Filtered {
                attr,
                ty: AttributeType::S,
                declare: true,
            }),
    );
    if attrs.is_empty() {
        return Err("the index projects no attribute a filter could read".into());
    }
    // The site's request built by a helper the site calls, when it can be taken out.
    let caller = client_chain(cx).ok().and_then(|c| {
        let send = c.send.clone()?;
        let x = extract(cx, c, TableAs::Inline).ok()?;
        Some((c, send, x))
    });
    let mut cases = Vec::new();
    for (ai, f) in attrs.iter().enumerate() {
        // Made-up names are no reserved words: they may stand in the expression as
        // they are.
        let plain = f.declare.then_some(f.attr.as_str());
        let mut ops: Vec<(&str, String)> = Vec::new();
        match (f.ty, &op.kind) {
            (AttributeType::Bool, _) => ops.push(("eq-bool", "#mmf = :mmf".into())),
            (_, OpKind::Scan) => {
                ops.push(("eq", "#mmf = :mmf".into()));
                ops.push(("eq-reversed", ":mmf = #mmf".into()));
                ops.push((
                    "eq-and-exists",
                    "attribute_exists(#mmf) AND #mmf = :mmf".into(),
                ));
                if let Some(a) = plain {
                    ops.push(("eq-plain-name", format!("{a} = :mmf")));
                }
            }
            (ty, _) => {
                ops.push(("gt", "#mmf > :mmf".into()));
                ops.push(("le", "#mmf <= :mmf".into()));
                ops.push(("between", "#mmf BETWEEN :mmf AND :mmg".into()));
                if ty == AttributeType::S {
                    ops.push(("begins-with", "begins_with(#mmf, :mmf)".into()));
                }
                if let Some(a) = plain {
                    ops.push(("ge-plain-name", format!("{a} >= :mmf")));
                }
            }
        }
        for (oi, (label, expr)) in ops.iter().enumerate() {
            let value = |v: &str| match f.ty {
                AttributeType::Bool => format!("{AV}::Bool(true)"),
                AttributeType::N => format!("{AV}::N({}.to_string())", lit(v)),
                _ => format!("{AV}::S({}.to_string())", lit(v)),
            };
            let mut shape = FILTER_SHAPES[(ai + oi + n) % FILTER_SHAPES.len()];
            let mut edits = Vec::new();
            if shape == "caller" && caller.is_none() {
                shape = "setter";
            }
            if shape == "let" && place(cx).ok().and_then(|p| p.statement.as_ref()).is_none() {
                shape = "setter";
            }
            let filter = match shape {
                "const" => {
                    edits.push(before_item(
                        place(cx)?,
                        &format!("const MM_FILTER{n}: &str = {};", lit(expr)),
                    ));
                    format!(".filter_expression(MM_FILTER{n})")
                }
                "let" => {
                    edits.push(before_statement(
                        place(cx)?,
                        &[format!("let mm_filter{n} = {}.to_string();", lit(expr))],
                    )?);
                    format!(".filter_expression(mm_filter{n})")
                }
                "set-some" => format!(".set_filter_expression(Some({}.to_string()))", lit(expr)),
                _ => format!(".filter_expression({})", lit(expr)),
            };
            let mut setters = vec![filter];
            if expr.contains("#mmf") {
                setters.push(format!(
                    ".expression_attribute_names(\"#mmf\", {})",
                    lit(&f.attr)
                ));
            }
            setters.push(format!(
                ".expression_attribute_values(\":mmf\", {})",
                value("2024")
            ));
            if expr.contains(":mmg") {
                setters.push(format!(
                    ".expression_attribute_values(\":mmg\", {})",
                    value("2025")
                ));
            }
            match (&caller, shape) {
                (Some((c, send, x)), "caller") => {
                    let args: Vec<String> = std::iter::once(client_arg(cx, c))
                        .chain(x.args.iter().cloned())
                        .collect();
                    let params: Vec<String> =
                        std::iter::once("client: &aws_sdk_dynamodb::Client".to_string())
                            .chain(x.params.iter().cloned())
                            .collect();
                    let body =
                        reindent(&x.body, &line_indent(cx.text, c.op_call.start), "        ");
                    edits.push(Edit::replace(
                        send.clone(),
                        format!("mm_base{n}({}){}.send()", args.join(", "), setters.concat()),
                    ));
                    edits.push(after_item(
                        place(cx)?,
                        &format!(
                            "fn mm_base{n}({}) -> {} {{\n    client{body}\n}}",
                            params.join(", "),
                            builder_type(&c.op_name)
                        ),
                    ));
                }
                _ => edits.push(append_setters(cx, chain, &setters)),
            }
            let table_name = t.name.clone();
            let declared = f.attr.clone();
            let patch: Option<crate::rewrites::Patch> = f.declare.then(|| {
                Arc::new(move |m: &mut dynalint::model::Model| {
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
                }) as crate::rewrites::Patch
            });
            let who = if f.declare {
                f.attr.trim_end_matches(&format!("_{n}")).to_string()
            } else {
                format!("model-{}", f.attr)
            };
            cases.push(DefectCase {
                variant: Variant { edits, patch },
                expect: Expect::at_site("filter-instead-of-index"),
                baseline: None,
                label: format!("{who}-{label}-{shape}"),
            });
        }
    }
    Ok(cases)
}

/// An expression the request does not have yet (a projection, a condition, a filter
/// that keys select nothing by) naming a `#name` or a `:value` it does not define.
pub fn undefined_placeholder(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if already_rejected(cx, run) {
        return Err(
            "the request is already rejected: DynamoDB answers its first error only".into(),
        );
    }
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
