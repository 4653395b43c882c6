//! Control flow and the harness's control: `if` becomes `match` (`if c { a } else { b }`
//! is `match c { true => { a } false => { b } }`, `if let P = e { a } else { b }` is
//! `match e { P => { a } _ => { b } }`, for every `if` of the function holding the site);
//! and a rewrite that only moves positions, which must always be invariant.

use tree_sitter::Node;

use super::{before_item, before_statement, place, Cx, Made, Variant};
use crate::edit::Edit;
use crate::site::ifs_in;
use crate::syntax::{descendants, text_of};

/// The harness's own control: comment lines inserted before the site's item (and its
/// statement, when it has one) move every position after them and change nothing else;
/// anything but full invariance here is the harness's fault (its position mapping).
pub fn shift(cx: &Cx<'_>) -> Made {
    let place = place(cx)?;
    let mut edits = vec![before_item(
        place,
        "// metamorphic control: positions move,\n// nothing else does",
    )];
    if place.statement.is_some() {
        edits.push(before_statement(
            place,
            &["// metamorphic control".to_string()],
        )?);
    }
    Ok(Variant::code(edits))
}

/// Every `if` of the site's function as a `match`.
pub fn if_to_match(cx: &Cx<'_>) -> Made {
    let place = place(cx)?;
    let f = place.function.clone().ok_or("the site is in no function")?;
    let ifs = ifs_in(cx.tree, f);
    // The outermost ones; nested ones are rendered with them.
    let outer: Vec<Node<'_>> = ifs
        .iter()
        .copied()
        .filter(|i| {
            !ifs.iter().any(|o| {
                o.id() != i.id() && o.start_byte() <= i.start_byte() && i.end_byte() <= o.end_byte()
            })
        })
        .collect();
    let mut edits = Vec::new();
    for i in outer {
        let rendered = render(i, cx.text);
        if rendered != text_of(i, cx.text) {
            edits.push(Edit::replace(i.byte_range(), rendered));
        }
    }
    if edits.is_empty() {
        return Err("the function has no `if` to turn into a `match`".into());
    }
    Ok(Variant::code(edits))
}

/// `n`'s text with every `if` in it rendered as a `match`.
fn render(n: Node<'_>, text: &str) -> String {
    if n.kind() == "if_expression" {
        if let Some(m) = render_if(n, text) {
            return m;
        }
    }
    let inner: Vec<Node<'_>> = descendants(n)
        .into_iter()
        .filter(|d| d.id() != n.id() && d.kind() == "if_expression")
        .collect();
    let mut out = String::new();
    let mut at = n.start_byte();
    for i in inner {
        if i.start_byte() < at {
            continue;
        }
        out.push_str(&text[at..i.start_byte()]);
        out.push_str(&render(i, text));
        at = i.end_byte();
    }
    out.push_str(&text[at..n.end_byte()]);
    out
}

/// The `match` an `if` means; `None` for a `let` chain (`if let A = a && b`).
fn render_if(n: Node<'_>, text: &str) -> Option<String> {
    let cond = n.child_by_field_name("condition")?;
    let then = n.child_by_field_name("consequence")?;
    let otherwise = match n.child_by_field_name("alternative") {
        Some(e) => {
            let body = e.named_child(0)?;
            match body.kind() {
                "block" => render(body, text),
                _ => format!("{{ {} }}", render(body, text)),
            }
        }
        None => "{}".to_string(),
    };
    let then = render(then, text);
    match cond.kind() {
        "let_condition" => {
            let pat = cond.child_by_field_name("pattern")?;
            let value = cond.child_by_field_name("value")?;
            Some(format!(
                "match {} {{ {} => {then} _ => {otherwise} }}",
                render(value, text),
                text_of(pat, text)
            ))
        }
        "let_chain" => None,
        _ => Some(format!(
            "match {} {{ true => {then} false => {otherwise} }}",
            render(cond, text)
        )),
    }
}
