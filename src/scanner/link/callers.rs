//! Who calls the function a request is in, a level or two up: what the request is for
//! when its own function's name does not say (a repository's `query_0` that only
//! `get_all_rss_registrations` calls reads the whole collection too). Found in the
//! call graph by name, like loops at call sites (`call_site_loop.rs`), and only when
//! a call certainly means the function: a name that functions of two types or files
//! define is followed only through calls on `self` in its own type.

use std::borrow::Borrow;
use std::hash::Hash;

use crate::scanner::index::graph::FnNode;
use crate::scanner::ir::CallerFn;
use crate::scanner::link::call_site_loop::{by_name_alone, Callers};
use crate::scanner::link::crates::Crates;

/// How many levels up callers are followed.
const LEVELS: usize = 2;

/// More callers than this at one level say nothing about what the function is for:
/// none are given.
const MAX_CALLERS: usize = 8;

/// The functions that call function `index` of file `fi`, each with its own callers,
/// [`LEVELS`] deep; empty when a call of it cannot be told from a same-named
/// function's, or when it has more than [`MAX_CALLERS`] callers (a caller with that
/// many has none listed).
pub fn callers_of<K: Borrow<str> + Hash + Eq>(
    fi: usize,
    index: usize,
    graphs: &[&[FnNode]],
    callers: &Callers<K>,
    crates: &Crates,
) -> Vec<CallerFn> {
    let mut seen = vec![(fi, index)];
    level(fi, index, graphs, callers, crates, LEVELS, &mut seen)
}

fn level<K: Borrow<str> + Hash + Eq>(
    fi: usize,
    index: usize,
    graphs: &[&[FnNode]],
    callers: &Callers<K>,
    crates: &Crates,
    depth: usize,
    seen: &mut Vec<(usize, usize)>,
) -> Vec<CallerFn> {
    let Some(f) = graphs.get(fi).and_then(|g| g.get(index)) else {
        return Vec::new();
    };
    if depth == 0 || f.test {
        return Vec::new();
    }
    let name: &str = &f.name;
    let own_ty = own_type(f);
    // A name several functions define (two types' `find_by_id`) is followed only
    // through calls on `self` of the same type; a common one (`get`) likewise.
    let by_name = by_name_alone(name) && !callers.ambiguous(fi, name, graphs, crates);
    let mut found: Vec<(usize, usize)> = Vec::new();
    for &(g, n) in callers.of_name(name) {
        let (g, n) = (g as usize, n as usize);
        let Some(caller) = graphs.get(g).and_then(|fs| fs.get(n)) else {
            continue;
        };
        if !crates.sees(crates.of(g), crates.of(fi)) || seen.contains(&(g, n)) {
            continue;
        }
        let on_self = caller
            .self_only
            .binary_search_by(|c| (**c).cmp(name))
            .is_ok();
        let means = if on_self {
            own_ty.is_some() && own_type(caller) == own_ty
        } else {
            by_name
        };
        if means && !found.contains(&(g, n)) {
            found.push((g, n));
        }
        if found.len() > MAX_CALLERS {
            return Vec::new();
        }
    }
    seen.extend(found.iter().copied());
    found
        .into_iter()
        .filter_map(|(g, n)| {
            let caller = graphs.get(g)?.get(n)?;
            Some(CallerFn {
                function: caller.qualified.to_string(),
                callers: level(g, n, graphs, callers, crates, depth - 1, seen),
            })
        })
        .collect()
}

/// The type a method is of (`Repo` of `Repo::find`), `None` for a free function.
fn own_type(f: &FnNode) -> Option<&str> {
    let q: &str = &f.qualified;
    q.strip_suffix(&*f.name)
        .and_then(|t| t.strip_suffix("::"))
        .filter(|t| !t.is_empty())
}
