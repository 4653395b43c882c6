//! The pagination of a paginated Query or Scan removed: `into_paginator()..send()`
//! becomes `send()`, or the `exclusive_start_key` the loop feeds back is dropped.

use dynalint::scanner::{ColdReason, OpKind};

use super::{DefectCase, Expect};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{chain, node_at, Cx, Variant};
use crate::syntax::text_of;

pub fn remove_pagination(cx: &Cx<'_>, _run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !matches!(op.kind, OpKind::Query | OpKind::Scan) {
        return Err("not a Query or Scan".into());
    }
    if !op.paginated && !op.exclusive_start_key {
        return Err("the read is not paginated".into());
    }
    if matches!(op.context.cold, Some(ColdReason::Test | ColdReason::Bench)) {
        return Err("tests read the small tables they seed: the rule leaves them out".into());
    }
    if op.kind == OpKind::Query && cx.site.table.is_none() {
        return Err("a Query of a table the model does not have: its size is unknown, and the rule does not guess".into());
    }
    if op.limit.is_some() {
        return Err(
            "a bounded read (`limit`): the rule takes one page as what the limit asks for".into(),
        );
    }
    let chain = chain(cx)?;
    let mut cases = Vec::new();
    // `.into_paginator()[.items()].send()` → `.send()`.
    if let Some((name, r)) = &chain.other_terminal {
        if name == "into_paginator" {
            let mut n = node_at(cx.tree, r.clone()).ok_or("the paginator is no expression")?;
            let mut send_end = None;
            while let (Some(p), Some(gp)) = (n.parent(), n.parent().and_then(|p| p.parent())) {
                if p.kind() != "field_expression" || gp.kind() != "call_expression" {
                    break;
                }
                let m = p
                    .child_by_field_name("field")
                    .map(|f| text_of(f, cx.text))
                    .unwrap_or("");
                n = gp;
                if m == "send" {
                    send_end = Some(gp.end_byte());
                    break;
                }
            }
            let end = send_end.ok_or("the paginator is not sent in the chain")?;
            cases.push(DefectCase {
                variant: Variant::code(vec![Edit::replace(chain.builder.end..end, ".send()")]),
                expect: Expect::at_site("unpaginated-query"),
                label: "paginator-to-send".into(),
            });
        }
    }
    // `.set_exclusive_start_key(last)` / `.exclusive_start_key(k, v)` dropped.
    let esk: Vec<Edit> = chain
        .setters
        .iter()
        .filter(|s| {
            matches!(
                s.name.as_str(),
                "set_exclusive_start_key" | "exclusive_start_key"
            )
        })
        .map(|s| Edit::replace(s.call.clone(), ""))
        .collect();
    if !esk.is_empty() {
        cases.push(DefectCase {
            variant: Variant::code(esk),
            expect: Expect::at_site("unpaginated-query"),
            label: "start-key-dropped".into(),
        });
    }
    if cases.is_empty() {
        return Err("the pagination is not in the chain (a builder variable, a helper)".into());
    }
    Ok(cases)
}
