//! Rewrites of the statement around the request: the chain split across `let`s, the
//! send in a closure, an `async move` block, a `tokio::spawn`ed task.

use super::{before_statement, chain, node_at, place, Cx, Made, Variant};
use crate::edit::Edit;
use crate::syntax::{free_names, has_control_flow, text_of};

/// `let mm_bN = client.query(); let mm_bN = mm_bN.table_name(..); ...`, the site
/// continuing from `mm_bN`.
pub fn split_let(cx: &Cx<'_>) -> Made {
    split(cx, false)
}

/// `let mut mm_bN = client.query(); mm_bN = mm_bN.table_name(..); ...`.
pub fn split_let_mut(cx: &Cx<'_>) -> Made {
    split(cx, true)
}

fn split(cx: &Cx<'_>, mutable: bool) -> Made {
    let chain = chain(cx)?;
    let place = place(cx)?;
    let b = format!("mm_b{}", cx.n);
    let start = &cx.text[chain.receiver.start..chain.op_call.end];
    let mut lines = vec![if mutable {
        format!("let mut {b} = {start};")
    } else {
        format!("let {b} = {start};")
    }];
    for s in &chain.setters {
        let call = cx.text[s.call.clone()].trim_start();
        lines.push(if mutable {
            format!("{b} = {b}{call};")
        } else {
            format!("let {b} = {b}{call};")
        });
    }
    Ok(Variant::code(vec![
        before_statement(place, &lines)?,
        Edit::replace(chain.builder.clone(), b),
    ]))
}

/// The builder must move without its `?`s and `.await`s changing their meaning.
fn movable(cx: &Cx<'_>, range: std::ops::Range<usize>) -> Result<(), String> {
    let n = node_at(cx.tree, range).ok_or("the chain is no expression")?;
    if has_control_flow(n, cx.text) {
        return Err("the chain's arguments use `?`, `.await` or `return`".into());
    }
    Ok(())
}

/// `let mm_callN = || client.query()...send();` before the statement; the site calls it.
pub fn closure(cx: &Cx<'_>) -> Made {
    let chain = chain(cx)?;
    let place = place(cx)?;
    let send = chain
        .send
        .clone()
        .ok_or("the chain is not sent where it is built")?;
    movable(cx, send.clone())?;
    let f = format!("mm_call{}", cx.n);
    let body = &cx.text[send.clone()];
    Ok(Variant::code(vec![
        before_statement(place, &[format!("let {f} = || {body};")])?,
        Edit::replace(send, format!("{f}()")),
    ]))
}

/// `async move { <chain>.send().await }.await` in place of the awaited send.
pub fn async_move(cx: &Cx<'_>) -> Made {
    let chain = chain(cx)?;
    let awaited = chain
        .awaited
        .clone()
        .ok_or("the send is not awaited at once")?;
    let send = chain.send.clone().ok_or("the chain is not sent")?;
    movable(cx, send)?;
    let inner = &cx.text[awaited.clone()];
    // A statement that starts with a block is over at its `}`: parentheses keep
    // `.await` on the block.
    let starts_statement = place(cx)
        .ok()
        .and_then(|p| p.statement.as_ref())
        .is_some_and(|s| s.range.start == awaited.start);
    let block = format!("async move {{ {inner} }}");
    let text = if starts_statement {
        format!("({block}).await")
    } else {
        format!("{block}.await")
    };
    Ok(Variant::code(vec![Edit::replace(awaited, text)]))
}

/// `tokio::spawn(async move { <chain>.send().await }).await.expect(..)`, every local and
/// `self` field the chain reads cloned into the task first (`to_owned()`), as a task
/// that must be `'static` needs.
pub fn tokio_spawn(cx: &Cx<'_>) -> Made {
    let chain = chain(cx)?;
    let place = place(cx)?;
    let awaited = chain
        .awaited
        .clone()
        .ok_or("the send is not awaited at once")?;
    let send = chain.send.clone().ok_or("the chain is not sent")?;
    movable(cx, send.clone())?;
    let node = node_at(cx.tree, send.clone()).ok_or("the chain is no expression")?;
    // Each free name, widened to the place it reads (`self.client`, `self.config.table`).
    let mut places: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for (r, name) in free_names(node, cx.text) {
        let Some(mut n) = cx
            .tree
            .root_node()
            .descendant_for_byte_range(r.start, r.end)
        else {
            continue;
        };
        if n.byte_range() != r {
            // A capture inside a format string: the name itself.
            places.push((r, name));
            continue;
        }
        while let Some(p) = n.parent() {
            let field_of_n = p.kind() == "field_expression"
                && p.child_by_field_name("value") == Some(n)
                && !p.parent().is_some_and(|c| {
                    c.kind() == "call_expression" && c.child_by_field_name("function") == Some(p)
                });
            if !field_of_n {
                break;
            }
            n = p;
        }
        if text_of(n, cx.text) == "self" {
            return Err("the chain calls a method of `self`, which a task cannot borrow".into());
        }
        places.push((n.byte_range(), text_of(n, cx.text).to_string()));
    }
    let mut names: Vec<String> = Vec::new();
    let mut lets = Vec::new();
    let mut replaced: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for (r, text) in &places {
        let i = match names.iter().position(|t| t == text) {
            Some(i) => i,
            None => {
                names.push(text.clone());
                lets.push(format!(
                    "let mm_v{}_{} = {text}.to_owned();",
                    names.len() - 1,
                    cx.n
                ));
                names.len() - 1
            }
        };
        replaced.push((r.clone(), format!("mm_v{i}_{}", cx.n)));
    }
    replaced.sort_by_key(|(r, _)| r.start);
    replaced.dedup_by(|a, b| a.0.start < b.0.end);
    let mut inner = String::new();
    let mut at = send.start;
    for (r, t) in &replaced {
        if r.start < at {
            continue;
        }
        inner.push_str(&cx.text[at..r.start]);
        inner.push_str(t);
        at = r.end;
    }
    inner.push_str(&cx.text[at..send.end]);
    let mut edits = vec![Edit::replace(
        awaited,
        format!("tokio::spawn(async move {{ {inner}.await }})\n{}    .await\n{}    .expect(\"the task runs to its end\")", place.statement.as_ref().map_or("", |s| s.indent.as_str()), place.statement.as_ref().map_or("", |s| s.indent.as_str())),
    )];
    if !lets.is_empty() {
        edits.push(before_statement(place, &lets)?);
    }
    Ok(Variant::code(edits))
}
