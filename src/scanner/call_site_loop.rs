//! Requests made once per element through a helper: `for f in ids { repo.get_user(f) }`
//! where `get_user` sends the GetItem. The loop is not around the call itself but
//! around a call of its function; the call graph (by name, like hotness) finds it.

use std::sync::Arc;

use super::graph::{FnNode, ENTRY_PREFIX};
use super::index::FileIndex;
use super::ir::{CallStep, LoopInfo, Operation};
use super::sdk::op_for_method;

/// How many callers up a loop is looked for (`handler → service → repo`).
const MAX_DEPTH: usize = 3;

/// Names too common to match a crate function by name alone: a loop calling
/// `map.get(k)` says nothing about a repository's `get`.
const TOO_COMMON: &[&str] = &[
    "get",
    "set",
    "insert",
    "remove",
    "push",
    "pop",
    "new",
    "default",
    "from",
    "into",
    "clone",
    "len",
    "iter",
    "map",
    "find",
    "next",
    "send",
    "run",
    "call",
    "load",
    "read",
    "write",
    "update",
    "delete",
    "put",
    "execute",
    "handle",
    "process",
    "filter",
    "collect",
    "extend",
    "contains",
    "parse",
    "to_string",
    "as_str",
    "unwrap",
    "expect",
    "build",
    "await",
];

/// When the operation's function is called inside a loop (directly or a few callers
/// up), the loop, with the function that holds it.
pub fn loop_at_call_site(
    op: &Operation,
    fi: usize,
    graphs: &[Vec<FnNode>],
    files: &[Arc<FileIndex>],
) -> Option<LoopInfo> {
    let func = op.context.function.as_deref()?;
    let fns = graphs.get(fi)?;
    let start = fns
        .iter()
        .filter(|n| n.qualified == func && n.span.start <= op.span.start)
        .max_by_key(|n| n.span.start)?;
    let mut names: Vec<&str> = vec![start.name.as_str()];
    let mut seen: Vec<&str> = names.clone();
    for _ in 0..MAX_DEPTH {
        names.retain(|n| !TOO_COMMON.contains(n) && op_for_method(n).is_none());
        if names.is_empty() {
            return None;
        }
        // Callers in file order, so the answer does not depend on hashing.
        let callers = graphs.iter().enumerate().flat_map(|(gi, g)| {
            g.iter()
                .filter(|n| !n.test && !n.name.starts_with(ENTRY_PREFIX))
                .map(move |n| (gi, n))
        });
        let mut next: Vec<&str> = Vec::new();
        for (gi, caller) in callers {
            if let Some(lc) = caller
                .loop_calls
                .iter()
                .find(|c| names.contains(&c.name.as_str()))
            {
                let file = files.get(gi)?;
                return Some(LoopInfo {
                    kind: lc.kind.clone(),
                    span: lc.span,
                    caller: Some(CallStep {
                        function: caller.qualified.clone(),
                        file: file.path.clone(),
                        span: caller.span,
                    }),
                });
            }
            if caller.calls.iter().any(|c| names.contains(&c.as_str()))
                && !seen.contains(&caller.name.as_str())
            {
                next.push(caller.name.as_str());
                seen.push(caller.name.as_str());
            }
        }
        names = next;
    }
    None
}
