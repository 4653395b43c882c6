//! Requests made once per element through a helper: `for f in ids { repo.get_user(f) }`
//! where `get_user` sends the GetItem. The loop is not around the call itself but
//! around a call of its function; the call graph (by name, like hotness) finds it.

use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::Arc;

// Built over every call edge of the tree and read per operation: foldhash, as
// `names.rs` explains.
use foldhash::{HashMap, HashMapExt, HashSet};

use crate::scanner::index::graph::{FnNode, LoopCall, ENTRY_PREFIX, QUALIFIED_SEPARATOR};
use crate::scanner::index::types::{Receiver, TypeFacts};
use crate::scanner::index::FileIndex;
use crate::scanner::ir::{CallStep, LoopInfo, Operation};
use crate::scanner::link::crates::Crates;
use crate::scanner::sdk::op_for_method;
use crate::scanner::syntax::names::Name;
use crate::source::Span;

/// How many callers up a loop is looked for (`handler → service → repo`). A request
/// that is all its function does, which one function calls (a repository's method
/// built at its caller: `Repo::new(&c).get_user(id)` in `user`), is that caller's
/// request: the step to it is not counted.
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

/// A call by its file and the called name's span: for a request linked once per
/// caller of a generic function, the calls that make it (a loop around another
/// caller's call is not its).
pub type Site = (usize, Span);

/// One function a loop call may mean: its name, its crate, and the `impl` type and
/// trait it is a method of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Target<'g> {
    name: &'g str,
    krate: u32,
    ty: Option<&'g str>,
    tr: Option<&'g str>,
    /// The module path of its file (`[library, model, user]`).
    module: &'g [Name],
}

impl<'g> Target<'g> {
    fn of(f: &'g FnNode, krate: u32, module: &'g [Name]) -> Self {
        let name: &str = &f.name;
        let q: &str = &f.qualified;
        let ty = q
            .strip_suffix(name)
            .and_then(|t| t.strip_suffix("::"))
            .filter(|t| !t.is_empty());
        Self {
            name,
            krate,
            ty,
            tr: f.impl_trait.as_deref(),
            module,
        }
    }

    /// Whether a path call through module `m` (`user::get_item(..)`) can mean this
    /// free function: one of its file's modules is `m` (a re-export from a submodule
    /// too), or its file is a crate root, which the crate's name reaches.
    fn in_module(&self, m: &str) -> bool {
        self.ty.is_none() && (self.module.is_empty() || self.module.iter().any(|s| **s == *m))
    }

    /// How a path call spells this function (`HashTracker::get`, `dynamodb::get_item`):
    /// what [`by_path_only`](crate::scanner::index::graph::by_path_only) names are followed by.
    fn qualified(&self) -> Option<String> {
        let q = self.ty.or_else(|| self.module.last().map(|m| m.as_ref()))?;
        Some(format!("{q}{QUALIFIED_SEPARATOR}{}", self.name))
    }
}

/// Whether a name is followed by name alone: not one as common as `get`, nor the
/// SDK's own request methods, which a path call follows instead.
pub(super) fn by_name_alone(name: &str) -> bool {
    !TOO_COMMON.contains(&name) && op_for_method(name).is_none()
}

/// When the operation's function is called inside a loop (directly or a few callers
/// up), the loop, with the function that holds it.
/// `around` is the index in its file's graph of the function the operation is in.
/// A caller counts only if its crate can name the function it calls (its own crate's
/// or a dependency's): names are followed as (name, crate of the function). A loop
/// call whose receiver's type the tokens tell (`self.storage.get(id)` with `storage:
/// Arc<dyn Storage>`) means only the methods of that type or trait; one whose receiver
/// is not known means any function of the name, unless the name is too common to say.
pub fn loop_at_call_site<K: Borrow<str> + Hash + Eq>(
    op: &Operation,
    fi: usize,
    around: usize,
    graphs: &[&[FnNode]],
    files: &[Arc<FileIndex>],
    (callers, crates, only): (&Callers<K>, &Crates, Option<&[Site]>),
) -> Option<LoopInfo> {
    let start = graphs.get(fi)?.get(around)?;
    // A caller's loop may feed the start key back to a request that sets one, unless
    // the request reads every page in its own function already: then a loop around
    // its callers repeats the whole read (as one around its own paging loop does).
    let pages_from_caller = op.exclusive_start_key && !op.paginated;
    let module_of = |gi: usize| files.get(gi).map_or(&[][..], |f| &f.module[..]);
    let mut names: Vec<Target<'_>> = vec![Target::of(start, crates.of(fi), module_of(fi))];
    let mut seen: HashSet<Target<'_>> = names.iter().copied().collect();
    let mut counted = 0;
    for depth in 0..=MAX_DEPTH {
        if names.is_empty() || counted == MAX_DEPTH {
            return None;
        }
        // Whether a loop call in file `gi` can mean one of `names`: by its receiver's
        // type when the tokens tell it, else by name, unless the name is too common to
        // say or functions of two traits, types or files define it.
        let means_call = |gi: usize, lc: &LoopCall| {
            let types = lc.receiver.as_ref().and_then(|r| callers.types.of(r));
            let module = match &lc.receiver {
                Some(Receiver::Module(m)) => Some(m.as_ref()),
                _ => None,
            };
            names.iter().any(|t| {
                *t.name == *lc.name
                    && crates.sees(crates.of(gi), t.krate)
                    && match (&types, module) {
                        (Some(set), _) => {
                            t.ty.is_some_and(|x| set.contains(x))
                                || t.tr.is_some_and(|x| set.contains(x))
                        }
                        // `user::get_item(..)`: the free function of that module, even
                        // of a name two modules define.
                        (None, Some(m)) if t.in_module(m) => true,
                        _ => {
                            by_name_alone(t.name) && !callers.ambiguous(gi, t.name, graphs, crates)
                        }
                    }
            })
        };
        // Whether a call by `caller` (of unknown receiver, or on `self`) in file `gi`
        // can mean one of `names`, and only it: a name that functions of two traits,
        // types or files define (`find_by_id` of eleven repositories) does not say which
        // one a call means, unless it is called on `self`.
        let means = |gi: usize, caller: &FnNode, name: &str| {
            let on_self = caller
                .self_only
                .binary_search_by(|n| (**n).cmp(name))
                .is_ok();
            let own = Target::of(caller, crates.of(gi), module_of(gi));
            names.iter().any(|t| {
                t.name == name
                    && by_name_alone(t.name)
                    && crates.sees(crates.of(gi), t.krate)
                    && if on_self {
                        own.ty.is_some() && own.ty == t.ty
                    } else {
                        !callers.ambiguous(gi, name, graphs, crates)
                    }
            })
        };
        // A name followed only by its path (`HashTracker::get`, `dynamodb::get_item`):
        // a caller that spells that path calls it.
        let qualified: Vec<(String, Target<'_>)> = names
            .iter()
            .filter(|t| !by_name_alone(t.name))
            .filter_map(|t| Some((t.qualified()?, *t)))
            .collect();
        let means_path = |gi: usize, caller: &FnNode| {
            qualified.iter().any(|(q, t)| {
                crates.sees(crates.of(gi), t.krate)
                    && caller
                        .calls
                        .binary_search_by(|n| (**n).cmp(q.as_str()))
                        .is_ok()
            })
        };
        // Whether code in file `gi` can name one of `names`' crates: the callers of a
        // name in the other copies of a crate (a monorepo of look-alike services) are
        // left out before their calls are read.
        let sees_one = |gi: usize| names.iter().any(|t| crates.sees(crates.of(gi), t.krate));
        // The first caller in file order (so the answer does not depend on hashing)
        // whose loop calls one of the names once per iteration: a loop that pages
        // through the read or retries it is no repetition, and the search goes on up.
        let found = Callers::of(&callers.in_loops, names.iter().map(|t| t.name), sees_one)
            .into_iter()
            .find_map(|(gi, ni)| {
                let caller = graphs.get(gi)?.get(ni)?;
                let lc = caller.loop_calls.iter().find(|c| {
                    means_call(gi, c)
                        && c.shape.repeats(&c.kind, pages_from_caller)
                        && (depth > 0 || only.is_none_or(|o| o.contains(&(gi, c.at))))
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
        let mut next: Vec<Target<'_>> = Vec::new();
        let untyped = names
            .iter()
            .filter(|t| by_name_alone(t.name))
            .map(|t| t.name)
            .chain(qualified.iter().map(|(q, _)| q.as_str()));
        for (gi, ni) in Callers::of(&callers.calls, untyped, sees_one) {
            let Some(caller) = graphs.get(gi).and_then(|g| g.get(ni)) else {
                continue;
            };
            if !means_path(gi, caller)
                && !caller.calls.iter().any(|c| means(gi, caller, c.as_ref()))
            {
                continue;
            }
            let key = Target::of(caller, crates.of(gi), module_of(gi));
            // A method that calls a function of its own name on another type
            // (`SeaOrmRepo::find_by_id` calling sea-orm's `Entity::find_by_id`) is
            // another API's, not a call of the one searched for.
            let delegates = names.iter().any(|t| {
                t.name == key.name && t.ty.is_some() && key.ty.is_some() && t.ty != key.ty
            });
            if delegates {
                continue;
            }
            if seen.insert(key) {
                next.push(key);
            }
        }
        // The one caller of a function that only sends the request makes it.
        if !(depth == 0 && op.context.whole_function && next.len() == 1) {
            counted += 1;
        }
        names = next;
    }
    None
}

/// The types the code declares, for typing a loop call's receiver: each field name's
/// types, each function name's return types, and each generic parameter's or
/// associated type's bounds, over the whole tree (a name means any of them).
#[derive(Default)]
pub struct TypeIndex {
    fields: HashMap<Name, Vec<Name>>,
    returns: HashMap<Name, Vec<Name>>,
    bounds: HashMap<Name, Vec<Name>>,
}

impl TypeIndex {
    fn build(graphs: &[&[FnNode]], types: &[&TypeFacts]) -> Self {
        fn add(map: &mut HashMap<Name, Vec<Name>>, k: &Name, v: &Name) {
            let list = map.entry(Name::clone(k)).or_default();
            if !list.contains(v) {
                list.push(Name::clone(v));
            }
        }
        let mut out = Self::default();
        for g in graphs {
            for f in g.iter() {
                if let Some(r) = &f.returns {
                    add(&mut out.returns, &f.name, r);
                }
            }
        }
        for t in types {
            for (k, v) in &t.fields {
                add(&mut out.fields, k, v);
            }
            for (k, v) in &t.bounds {
                add(&mut out.bounds, k, v);
            }
        }
        out
    }

    /// The types a receiver can be: what it names, and what those names are bound to
    /// (`T: Storage`, `type Repo: UserRepo`), two steps deep. `None` when nothing
    /// tells.
    fn of<'s>(&'s self, r: &'s Receiver) -> Option<HashSet<&'s str>> {
        let first: Vec<&Name> = match r {
            Receiver::Type(t) => vec![t],
            Receiver::Field(f) => self.fields.get(f)?.iter().collect(),
            Receiver::Returned(m) => self.returns.get(m)?.iter().collect(),
            // A module is no type: the call is matched by its path.
            Receiver::Module(_) => return None,
        };
        let mut set: HashSet<&str> = HashSet::default();
        let mut todo: Vec<(&Name, u8)> = first.into_iter().map(|t| (t, 0)).collect();
        while let Some((t, depth)) = todo.pop() {
            if !set.insert(t.as_ref()) || depth >= 2 {
                continue;
            }
            for b in self.bounds.get(t).into_iter().flatten() {
                todo.push((b, depth + 1));
            }
        }
        (!set.is_empty()).then_some(set)
    }
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
    /// What loop calls' receivers are typed by.
    types: TypeIndex,
    /// Name → the functions (file order) of that name.
    defs: HashMap<K, Vec<(u32, u32)>>,
}

impl<'a> Callers<&'a str> {
    pub fn new(graphs: &[&'a [FnNode]], types: &[&TypeFacts]) -> Self {
        Self::build(graphs, types, |n| n)
    }
}

impl Callers<Box<str>> {
    /// Callers that outlive the graph they were built from.
    pub fn owned(graphs: &[&[FnNode]], types: &[&TypeFacts]) -> Self {
        Self::build(graphs, types, Box::from)
    }
}

impl<K: Borrow<str> + Hash + Eq> Callers<K> {
    fn build<'a>(
        graphs: &[&'a [FnNode]],
        types: &[&TypeFacts],
        key: impl Fn(&'a str) -> K,
    ) -> Self {
        let mut calls: HashMap<K, Vec<(u32, u32)>> = HashMap::new();
        let mut in_loops: HashMap<K, Vec<(u32, u32)>> = HashMap::new();
        let mut defs: HashMap<K, Vec<(u32, u32)>> = HashMap::new();
        for (gi, g) in graphs.iter().enumerate() {
            for (ni, n) in g.iter().enumerate() {
                if n.test || n.name.starts_with(ENTRY_PREFIX) {
                    continue;
                }
                // More than 4 billion files or functions in one file: not a tree.
                let (Ok(gi), Ok(ni)) = (u32::try_from(gi), u32::try_from(ni)) else {
                    continue;
                };
                match defs.get_mut(n.name.as_ref()) {
                    Some(v) => v.push((gi, ni)),
                    None => {
                        defs.insert(key(n.name.as_ref()), vec![(gi, ni)]);
                    }
                }
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
        for v in calls
            .values_mut()
            .chain(in_loops.values_mut())
            .chain(defs.values_mut())
        {
            v.shrink_to_fit();
        }
        Self {
            calls,
            in_loops,
            types: TypeIndex::build(graphs, types),
            defs,
        }
    }

    /// The functions (file order, each once; not tests, not registrations) that call
    /// `name`.
    pub fn of_name(&self, name: &str) -> &[(u32, u32)] {
        self.calls.get(name).map_or(&[], Vec::as_slice)
    }

    /// The files of the functions named `name` (not tests) that a call in file `gi`
    /// can mean: those its crate can name.
    pub(super) fn defined_in(&self, gi: usize, name: &str, crates: &Crates) -> Vec<usize> {
        let Some(defs) = self.defs.get(name) else {
            return Vec::new();
        };
        defs.iter()
            .map(|&(f, _)| f as usize)
            .filter(|f| crates.sees(crates.of(gi), crates.of(*f)))
            .collect()
    }

    /// Whether a call of `name` in file `gi` may mean two different functions, among
    /// those its crate can name: methods of two traits or types (which one runs is the
    /// receiver's type), or free functions of two files (`s3::restore` and
    /// `restore::restore`), which a call graph by name does not tell apart.
    /// (Implementations of one trait are one method: a loop over `storage.get(id)`
    /// runs whichever is configured.)
    pub(super) fn ambiguous(
        &self,
        gi: usize,
        name: &str,
        graphs: &[&[FnNode]],
        crates: &Crates,
    ) -> bool {
        let Some(defs) = self.defs.get(name) else {
            return false;
        };
        let mut owners = defs
            .iter()
            .filter(|(f, _)| crates.sees(crates.of(gi), crates.of(*f as usize)))
            .filter_map(|&(f, n)| {
                let owner = graphs.get(f as usize)?.get(n as usize)?.owner.as_ref();
                // A free function is its file's.
                Some((owner, if owner.is_some() { u32::MAX } else { f }))
            });
        let Some(first) = owners.next() else {
            return false;
        };
        owners.any(|o| o != first)
    }

    /// The functions (in file order, each once) that call one of `names`, in the
    /// files `keep` lets through.
    fn of<'n>(
        map: &HashMap<K, Vec<(u32, u32)>>,
        names: impl Iterator<Item = &'n str>,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = names
            .filter_map(|n| map.get(n))
            .flatten()
            .map(|&(g, n)| (g as usize, n as usize))
            .filter(|(g, _)| keep(*g))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
