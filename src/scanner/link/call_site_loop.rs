//! Requests made once per element through a helper: `for f in ids { repo.get_user(f) }`
//! where `get_user` sends the GetItem. The loop is not around the call itself but
//! around a call of its function; the call graph (by name, like hotness) finds it.

use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::Arc;

// Built over every call edge of the tree and read per operation: foldhash, as
// `names.rs` explains.
use foldhash::{HashMap, HashMapExt, HashSet};

use crate::scanner::index::graph::{FnNode, ENTRY_PREFIX};
use crate::scanner::index::FileIndex;
use crate::scanner::ir::{CallStep, LoopInfo, Operation};
use crate::scanner::link::crates::Crates;
use crate::scanner::sdk::op_for_method;

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
/// `around` is the index in its file's graph of the function the operation is in.
/// A caller counts only if its crate can name the function it calls (its own crate's
/// or a dependency's): names are followed as (name, crate of the function).
pub fn loop_at_call_site<K: Borrow<str> + Hash + Eq>(
    op: &Operation,
    fi: usize,
    around: usize,
    graphs: &[&[FnNode]],
    files: &[Arc<FileIndex>],
    (callers, crates): (&Callers<K>, &Crates),
) -> Option<LoopInfo> {
    let start = graphs.get(fi)?.get(around)?;
    let mut names: Vec<(&str, u32)> = vec![(start.name.as_ref(), crates.of(fi))];
    let mut seen: HashSet<(&str, u32)> = names.iter().copied().collect();
    for _ in 0..MAX_DEPTH {
        names.retain(|(n, _)| !TOO_COMMON.contains(n) && op_for_method(n).is_none());
        if names.is_empty() {
            return None;
        }
        // Whether code in file `gi` calling `name` can mean one of `names`.
        let means = |gi: usize, name: &str| {
            names
                .iter()
                .any(|(n, c)| *n == name && crates.sees(crates.of(gi), *c))
        };
        // Whether code in file `gi` can name one of `names`' crates: the callers of a
        // name in the other copies of a crate (a monorepo of look-alike services) are
        // left out before their calls are read.
        let sees_one = |gi: usize| names.iter().any(|(_, c)| crates.sees(crates.of(gi), *c));
        // The first caller in file order (so the answer does not depend on hashing)
        // whose loop calls one of the names once per iteration: a loop that pages
        // through the read or retries it is no repetition, and the search goes on up.
        let found = Callers::of(&callers.in_loops, &names, sees_one)
            .into_iter()
            .find_map(|(gi, ni)| {
                let caller = graphs.get(gi)?.get(ni)?;
                let lc = caller.loop_calls.iter().find(|c| {
                    means(gi, c.name.as_ref()) && c.shape.repeats(&c.kind, op.exclusive_start_key)
                })?;
                Some((gi, caller, lc))
            });
        if let Some((gi, caller, lc)) = found {
            let file = files.get(gi)?;
            return Some(LoopInfo {
                kind: lc.kind.to_string(),
                span: lc.span,
                caller: Some(CallStep {
                    function: caller.qualified.to_string(),
                    file: file.path.clone(),
                    span: caller.span,
                }),
                elements: None,
            });
        }
        let mut next: Vec<(&str, u32)> = Vec::new();
        for (gi, ni) in Callers::of(&callers.calls, &names, sees_one) {
            let Some(caller) = graphs.get(gi).and_then(|g| g.get(ni)) else {
                continue;
            };
            if !caller.calls.iter().any(|c| means(gi, c.as_ref())) {
                continue;
            }
            let key = (caller.name.as_ref(), crates.of(gi));
            if seen.insert(key) {
                next.push(key);
            }
        }
        names = next;
    }
    None
}

/// Who calls each name, built once per link: the search below runs for every
/// operation that is not in a loop, and scanning every function of the crate for each
/// of them made linking a large crate quadratic. Names are borrowed from the graph,
/// or owned (`Box<str>`) by a copy the LSP keeps while the graph does not change.
pub struct Callers<K> {
    /// Name → the functions (file order) that call it: (file, function) as `u32`s,
    /// one entry per call edge of the whole tree, which a link holds while it builds
    /// every operation.
    calls: HashMap<K, Vec<(u32, u32)>>,
    /// Name → the functions (file order) that call it inside a loop.
    in_loops: HashMap<K, Vec<(u32, u32)>>,
}

impl<'a> Callers<&'a str> {
    pub fn new(graphs: &[&'a [FnNode]]) -> Self {
        Self::build(graphs, |n| n)
    }
}

impl Callers<Box<str>> {
    /// Callers that outlive the graph they were built from.
    pub fn owned(graphs: &[&[FnNode]]) -> Self {
        Self::build(graphs, Box::from)
    }
}

impl<K: Borrow<str> + Hash + Eq> Callers<K> {
    fn build<'a>(graphs: &[&'a [FnNode]], key: impl Fn(&'a str) -> K) -> Self {
        let mut calls: HashMap<K, Vec<(u32, u32)>> = HashMap::new();
        let mut in_loops: HashMap<K, Vec<(u32, u32)>> = HashMap::new();
        for (gi, g) in graphs.iter().enumerate() {
            for (ni, n) in g.iter().enumerate() {
                if n.test || n.name.starts_with(ENTRY_PREFIX) {
                    continue;
                }
                // More than 4 billion files or functions in one file: not a tree.
                let (Ok(gi), Ok(ni)) = (u32::try_from(gi), u32::try_from(ni)) else {
                    continue;
                };
                for c in &n.calls {
                    match calls.get_mut(c.as_ref()) {
                        Some(v) => v.push((gi, ni)),
                        None => {
                            calls.insert(key(c.as_ref()), vec![(gi, ni)]);
                        }
                    }
                }
                for lc in &n.loop_calls {
                    if !in_loops.contains_key(lc.name.as_ref()) {
                        in_loops.insert(key(lc.name.as_ref()), Vec::new());
                    }
                    let Some(v) = in_loops.get_mut(lc.name.as_ref()) else {
                        continue;
                    };
                    if v.last() != Some(&(gi, ni)) {
                        v.push((gi, ni));
                    }
                }
            }
        }
        // Grown by pushes: give back what the lists grew beyond their length.
        for v in calls.values_mut().chain(in_loops.values_mut()) {
            v.shrink_to_fit();
        }
        Self { calls, in_loops }
    }

    /// The functions (in file order, each once) that call one of `names`, in the
    /// files `keep` lets through.
    fn of(
        map: &HashMap<K, Vec<(u32, u32)>>,
        names: &[(&str, u32)],
        keep: impl Fn(usize) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = names
            .iter()
            .filter_map(|(n, _)| map.get(n))
            .flatten()
            .map(|&(g, n)| (g as usize, n as usize))
            .filter(|(g, _)| keep(*g))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
