//! Values built by a project's own macro: `AttributeValue::S(x)` becomes `mm_avN!(S, x)`,
//! a `macro_rules!` defined before the item.

use super::{before_item, chain, place, Cx, Made, Variant};
use crate::edit::Edit;
use crate::syntax::{descendants, text_of};

/// The variants of `AttributeValue` a value macro takes.
const VARIANTS: &[&str] = &["S", "N", "B", "Bool", "Ss", "Ns", "Bs", "L", "M", "Null"];

pub fn value_macro(cx: &Cx<'_>) -> Made {
    let chain = chain(cx)?;
    let place = place(cx)?;
    let Some(node) = cx
        .tree
        .root_node()
        .descendant_for_byte_range(chain.builder.start, chain.builder.end)
    else {
        return Err("the chain is no expression".into());
    };
    let mut path: Option<String> = None;
    let mut edits = Vec::new();
    let name = format!("mm_av{}", cx.n);
    for d in descendants(node) {
        if d.kind() != "call_expression" || d.end_byte() > chain.builder.end {
            continue;
        }
        let (Some(f), Some(args)) = (
            d.child_by_field_name("function"),
            d.child_by_field_name("arguments"),
        ) else {
            continue;
        };
        if f.kind() != "scoped_identifier" || args.named_child_count() != 1 {
            continue;
        }
        let (Some(p), Some(v)) = (f.child_by_field_name("path"), f.child_by_field_name("name"))
        else {
            continue;
        };
        let (p, v) = (text_of(p, cx.text), text_of(v, cx.text));
        if !p.ends_with("AttributeValue") || !VARIANTS.contains(&v) {
            continue;
        }
        // Values nested in a value (`L(vec![S(..)])`) go with their parent.
        if edits
            .iter()
            .any(|e: &Edit| e.at.start <= d.start_byte() && d.end_byte() <= e.at.end)
        {
            continue;
        }
        match &path {
            Some(q) if q != p => return Err("values built through two different paths".into()),
            _ => path = Some(p.to_string()),
        }
        let Some(arg) = args.named_child(0) else {
            continue;
        };
        edits.push(Edit::replace(
            d.byte_range(),
            format!("{name}!({v}, {})", text_of(arg, cx.text)),
        ));
    }
    let Some(path) = path else {
        return Err("the chain builds no `AttributeValue` itself".into());
    };
    edits.push(before_item(
        place,
        &format!(
            "macro_rules! {name} {{\n    ($variant:ident, $value:expr) => {{\n        {path}::$variant($value)\n    }};\n}}"
        ),
    ));
    Ok(Variant::code(edits))
}
