//! The hot/cold decision over the whole tree's call graph (`index::graph` builds each
//! file's share from its tokens): which functions a request entry point reaches, with
//! the chain kept, and which are a one-off binary's. Every search is linear in the
//! graph.

use std::borrow::{Borrow, Cow};
use std::collections::VecDeque;
use std::hash::Hash;

// The graph's searches hash a (name, crate) or a function per call edge of the whole
// tree: foldhash, as `names.rs` explains, where SipHash was a tenth of the link.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::scanner::index::graph::{FnNode, ENTRY_PREFIX};
use crate::scanner::index::types::TypeFacts;
use crate::scanner::link::call_site_loop::Callers;
use crate::scanner::link::crates::{Crates, NO_CRATE};

/// Where a function sits in the crate, for the breadth-first search: (file, index in
/// its file) as `u32`s, since the searches keep one per function or call edge of the
/// whole tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnId {
    file: u32,
    index: u32,
}

impl FnId {
    /// Function `index` of file `file` (neither ever reaches 4 billion).
    pub fn new(file: usize, index: usize) -> Self {
        Self {
            file: u32::try_from(file).unwrap_or(u32::MAX),
            index: u32::try_from(index).unwrap_or(u32::MAX),
        }
    }

    pub fn file(self) -> usize {
        self.file as usize
    }

    pub fn index(self) -> usize {
        self.index as usize
    }
}

/// The tree's functions numbered in file order, so that what a search keeps per
/// function is a vector indexed by number: hash tables keyed by function, as large as
/// the tree's graph, outgrew the caches and were rebuilt as they grew (the searches
/// grew faster than the tree).
#[derive(Debug, Default)]
struct Numbering {
    /// The first number of each file's functions, then their total.
    starts: Vec<usize>,
}

impl Numbering {
    fn new(files: &[&[FnNode]]) -> Self {
        let mut starts = Vec::with_capacity(files.len() + 1);
        let mut n = 0;
        starts.push(0);
        for fns in files {
            n += fns.len();
            starts.push(n);
        }
        Self { starts }
    }

    fn len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// `id`'s number, `None` for a function not in the graph.
    fn of(&self, id: FnId) -> Option<usize> {
        let (start, end) = (self.starts.get(id.file())?, self.starts.get(id.file() + 1)?);
        let n = start + id.index();
        (n < *end).then_some(n)
    }
}

/// A set of the tree's functions (see [`Numbering`]).
#[derive(Debug, Default)]
pub struct FnSet {
    numbering: Numbering,
    member: Vec<bool>,
}

impl FnSet {
    fn new(files: &[&[FnNode]]) -> Self {
        let numbering = Numbering::new(files);
        let member = vec![false; numbering.len()];
        Self { numbering, member }
    }

    /// Adds `id`; whether it was not there (a function not in the graph never is).
    fn insert(&mut self, id: FnId) -> bool {
        match self.numbering.of(id).and_then(|n| self.member.get_mut(n)) {
            Some(m) if !*m => {
                *m = true;
                true
            }
            _ => false,
        }
    }

    pub fn contains(&self, id: &FnId) -> bool {
        self.numbering
            .of(*id)
            .and_then(|n| self.member.get(n))
            .is_some_and(|m| *m)
    }

    /// The functions in the set, in file order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = FnId> + '_ {
        let starts = &self.numbering.starts;
        starts.windows(2).enumerate().flat_map(move |(fi, w)| {
            (w[0]..w[1])
                .filter(|n| self.member.get(*n).is_some_and(|m| *m))
                .map(move |n| FnId::new(fi, n - w[0]))
        })
    }
}

/// Functions that only a one-off binary runs: each `main` that reaches no server start
/// through the crate's calls (by name, so a `main` that might start one is not
/// one-off), and the functions of its own file that it reaches through its own file.
/// Functions in other files may be shared with a server, so they are left to the hot
/// search.
///
/// Linear in the graph: which functions reach a server start is one backward search
/// from the starts over callers by name, not a forward search per `main` (a monorepo
/// holds hundreds of binaries, and each one's search used to cover the whole crate).
/// The callers by name are the link's own (`callers`), not a second index of every call
/// edge: the two, with the rest of the link, were the scan's peak memory.
pub fn one_off<K: Borrow<str> + Hash + Eq>(
    files: &[&[FnNode]],
    crates: &Crates,
    callers: &Callers<K>,
) -> FnSet {
    let reaches_server = reaches_server(files, crates, callers);
    let mut out = FnSet::new(files);
    for (fi, fns) in files.iter().enumerate() {
        let mains = fns
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                f.main
                    && !f.test
                    && f.entry.is_none()
                    && !reaches_server.contains(&FnId::new(fi, *i))
            })
            .map(|(i, _)| i);
        let mut by_name: Option<HashMap<&str, Vec<usize>>> = None;
        for main in mains {
            // The file's own callable functions by name, built once per file with a main.
            let by_name = by_name.get_or_insert_with(|| {
                let mut m: HashMap<&str, Vec<usize>> = HashMap::new();
                for (i, f) in fns.iter().enumerate() {
                    if !f.test && !f.name.starts_with(ENTRY_PREFIX) {
                        m.entry(f.name.as_ref()).or_default().push(i);
                    }
                }
                m
            });
            let mut queue = VecDeque::from([main]);
            out.insert(FnId::new(fi, main));
            while let Some(i) = queue.pop_front() {
                let Some(n) = fns.get(i) else { continue };
                for c in &n.calls {
                    for callee in by_name.get(c.as_ref()).into_iter().flatten() {
                        if out.insert(FnId::new(fi, *callee)) {
                            queue.push_back(*callee);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Every function from which a call chain by name reaches one that starts a server
/// (tests and registrations aside: they are never a `main` that asks, and lead
/// nowhere): a backward breadth-first search from the starts, each (crate, name)
/// expanded once, over the callers of each name that its crate's users hold.
fn reaches_server<K: Borrow<str> + Hash + Eq>(
    files: &[&[FnNode]],
    crates: &Crates,
    callers: &Callers<K>,
) -> FnSet {
    let mut queue = VecDeque::new();
    let mut out = FnSet::new(files);
    for (fi, fns) in files.iter().enumerate() {
        for (i, f) in fns.iter().enumerate() {
            let id = FnId::new(fi, i);
            if f.starts_server && out.insert(id) {
                queue.push_back(id);
            }
        }
    }
    let mut expanded: HashSet<(&str, u32)> = HashSet::new();
    while let Some(id) = queue.pop_front() {
        let Some(f) = files.get(id.file()).and_then(|fs| fs.get(id.index())) else {
            continue;
        };
        let krate = crates.of(id.file());
        // Tests and registrations are never reached by a call, so they lead nowhere.
        if f.test || f.name.starts_with(ENTRY_PREFIX) || !expanded.insert((f.name.as_ref(), krate))
        {
            continue;
        }
        // The callers that can name this function: its crate's, its users', and the
        // files no manifest describes.
        let users = crates.visible_to(krate);
        for &(gi, ni) in callers.of_name(f.name.as_ref()) {
            let from = crates.of(gi as usize);
            let sees = from == NO_CRATE || users.is_none_or(|u| u.binary_search(&from).is_ok());
            let caller = FnId::new(gi as usize, ni as usize);
            if sees && out.insert(caller) {
                queue.push_back(caller);
            }
        }
    }
    out
}

/// Functions by name within each crate: what code in a crate can reach by a name is
/// its own crate's, its dependencies', and the files no manifest describes
/// ([`NO_CRATE`]).
#[derive(Default)]
struct ByCrate<'a> {
    /// (name, crate) → the functions, in file order.
    by_crate: HashMap<(&'a str, u32), Vec<FnId>>,
    /// name → the crates that have one.
    crates: HashMap<&'a str, Vec<u32>>,
}

impl<'a> ByCrate<'a> {
    /// Adds `id` (in file order) under `name` in crate `krate`.
    fn add(&mut self, name: &'a str, krate: u32, id: FnId) {
        let list = self.by_crate.entry((name, krate)).or_default();
        if list.is_empty() {
            self.crates.entry(name).or_default().push(krate);
        }
        list.push(id);
    }

    /// The entries of `name` in `crates` and in [`NO_CRATE`] (every crate's for
    /// `None`), in file order; borrowed when one crate has them all (a tree without
    /// manifests is one [`NO_CRATE`]).
    fn get(&self, name: &'a str, crates: Option<&[u32]>) -> Cow<'_, [FnId]> {
        let Some(have) = self.crates.get(name) else {
            return Cow::Borrowed(&[]);
        };
        // Whichever is shorter: the crates that have the name (a common name is in
        // thousands), or those asked for (a crate and its dependencies).
        let lists: Vec<&Vec<FnId>> = match crates {
            Some(c) if c.len() < have.len() => c
                .iter()
                .chain([&NO_CRATE])
                .filter_map(|k| self.by_crate.get(&(name, *k)))
                .collect(),
            _ => have
                .iter()
                .filter(|k| **k == NO_CRATE || crates.is_none_or(|c| c.binary_search(k).is_ok()))
                .filter_map(|k| self.by_crate.get(&(name, *k)))
                .collect(),
        };
        match lists.as_slice() {
            [] => Cow::Borrowed(&[]),
            [one] => Cow::Borrowed(one.as_slice()),
            _ => {
                let mut out: Vec<FnId> = lists.into_iter().flatten().copied().collect();
                out.sort_unstable();
                Cow::Owned(out)
            }
        }
    }
}

/// Every function a call by name can reach (not tests, not registrations).
fn callable_by_name<'a>(files: &[&'a [FnNode]], crates: &Crates) -> ByCrate<'a> {
    let mut by_name = ByCrate::default();
    for (fi, fns) in files.iter().enumerate() {
        for (i, f) in fns.iter().enumerate() {
            if !f.test && !f.name.starts_with(ENTRY_PREFIX) {
                by_name.add(f.name.as_ref(), crates.of(fi), FnId::new(fi, i));
            }
        }
    }
    by_name
}

/// The functions reachable from an entry point, each with its entry and the function
/// it was reached from: a chain is rebuilt only for the functions that hold requests
/// (a large tree reaches hundreds of thousands of functions, and a chain and a copy of
/// the entry's reason for each was most of the link's memory).
#[derive(Debug, Default)]
pub struct Reached {
    /// The entries' reasons.
    reasons: Vec<String>,
    numbering: Numbering,
    /// Per function (by number): how it was reached, `None` when it was not.
    parent: Vec<Option<Step>>,
}

/// How a function was reached: its entry's reason (a number into `reasons`) and the
/// function it was reached from, itself for an entry.
#[derive(Debug, Clone, Copy)]
struct Step {
    reason: u32,
    from: FnId,
}

impl Reached {
    fn step(&self, id: FnId) -> Option<Step> {
        self.numbering
            .of(id)
            .and_then(|n| self.parent.get(n).copied().flatten())
    }

    pub fn contains(&self, id: &FnId) -> bool {
        self.step(*id).is_some()
    }

    /// The entry's reason and the path (entry first) that reaches `id`.
    pub fn get(&self, id: &FnId) -> Option<(&str, Vec<FnId>)> {
        let reason = self.step(*id)?.reason;
        let mut chain = vec![*id];
        let mut cur = *id;
        while let Some(p) = self.step(cur).map(|s| s.from).filter(|p| *p != cur) {
            if chain.len() > 64 || chain.contains(&p) {
                break;
            }
            chain.push(p);
            cur = p;
        }
        chain.reverse();
        let reason = usize::try_from(reason)
            .ok()
            .and_then(|r| self.reasons.get(r));
        Some((reason.map_or("", String::as_str), chain))
    }
}

/// The type of the `impl` a method is in (`ScyllaDataService` of
/// `ScyllaDataService::list`); `None` for a free function or a trait's default method.
fn own_type(f: &FnNode) -> Option<&str> {
    f.qualified
        .strip_suffix(f.name.as_ref())
        .and_then(|t| t.strip_suffix("::"))
        .filter(|t| !t.is_empty())
}

/// The implementations of the workspace's traits that a caller reaches by dispatch
/// rather than by naming their crate: `app` holds a `P: QueryProcessor` and calls
/// `self.processor.list_tenants()`; `kernel` declares the trait; `adapter` implements
/// it with a Scan; the binary that depends on `app` and `adapter` plugs one into the
/// other. `app` cannot name `adapter`, so a call graph by name stops at the trait.
struct Dispatch<'a> {
    /// Trait → the crates that declare one of that name.
    declared: HashMap<&'a str, Vec<u32>>,
    /// (crate, trait): code of the crate holds a value of the trait by a generic
    /// bound or a field's type (`P: QueryProcessor`, `Arc<dyn Storage>`).
    held: HashSet<(u32, &'a str)>,
    /// Method name → the implementations of a declared trait: (function, trait, crate).
    impls: HashMap<&'a str, Vec<(FnId, &'a str, u32)>>,
    /// Per crate: itself and every crate that depends on it, at any depth (built on
    /// demand: only crates that call a dispatched method ask).
    dependents: HashMap<u32, Vec<u32>>,
}

impl<'a> Dispatch<'a> {
    fn new(files: &[&'a [FnNode]], types: &[&'a TypeFacts], crates: &Crates) -> Self {
        let mut declared: HashMap<&str, Vec<u32>> = HashMap::new();
        for (fi, t) in types.iter().enumerate() {
            for tr in &t.traits {
                let list = declared.entry(tr.as_ref()).or_default();
                let k = crates.of(fi);
                if !list.contains(&k) {
                    list.push(k);
                }
            }
        }
        let mut held = HashSet::new();
        let mut impls: HashMap<&str, Vec<(FnId, &str, u32)>> = HashMap::new();
        if declared.is_empty() {
            return Self {
                declared,
                held,
                impls,
                dependents: HashMap::new(),
            };
        }
        for (fi, t) in types.iter().enumerate() {
            for (_, ty) in t.bounds.iter().chain(&t.fields) {
                if declared.contains_key(ty.as_ref()) {
                    held.insert((crates.of(fi), ty.as_ref()));
                }
            }
        }
        for (fi, fns) in files.iter().enumerate() {
            for (i, f) in fns.iter().enumerate() {
                let Some(tr) = f.impl_trait.as_deref() else {
                    continue;
                };
                if f.test || !declared.contains_key(tr) {
                    continue;
                }
                impls.entry(f.name.as_ref()).or_default().push((
                    FnId::new(fi, i),
                    tr,
                    crates.of(fi),
                ));
            }
        }
        Self {
            declared,
            held,
            impls,
            dependents: HashMap::new(),
        }
    }

    /// The implementations of a call of `name` by code of crate `from` that `from`
    /// cannot name but runs through a trait it holds: a trait of that name declared in
    /// a crate both `from` and the implementation's crate see (the same trait, not a
    /// look-alike of another service), and a crate that depends on both (a binary
    /// that builds one and hands it to the other).
    fn targets(&mut self, name: &str, from: u32, crates: &Crates) -> Vec<FnId> {
        let Some(cands) = self.impls.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // `from`'s dependents, looked up once the first candidate needs them.
        let mut mine: Option<Vec<u32>> = None;
        for &(id, tr, krate) in cands {
            if crates.sees(from, krate) || !self.held.contains(&(from, tr)) {
                continue;
            }
            let same_trait = self.declared.get(tr).is_some_and(|ks| {
                ks.iter()
                    .any(|k| crates.sees(from, *k) && crates.sees(krate, *k))
            });
            if !same_trait {
                continue;
            }
            let a =
                mine.get_or_insert_with(|| dependents(&mut self.dependents, from, crates).to_vec());
            let b = dependents(&mut self.dependents, krate, crates);
            if a.iter().any(|x| b.binary_search(x).is_ok()) {
                out.push(id);
            }
        }
        out
    }
}

/// `krate` and every crate that depends on it, at any depth (sorted), computed once.
fn dependents<'d>(cache: &'d mut HashMap<u32, Vec<u32>>, krate: u32, crates: &Crates) -> &'d [u32] {
    cache.entry(krate).or_insert_with(|| {
        let mut seen: HashSet<u32> = HashSet::new();
        let mut todo = vec![krate];
        seen.insert(krate);
        while let Some(k) = todo.pop() {
            for d in crates.visible_to(k).into_iter().flatten() {
                if seen.insert(*d) {
                    todo.push(*d);
                }
            }
        }
        let mut v: Vec<u32> = seen.into_iter().collect();
        v.sort_unstable();
        v
    })
}

/// For every function reachable from an entry point: the entry's reason and the path
/// (entry first) that reaches it, by a breadth-first search so chains are shortest.
/// A call also reaches the implementations of a trait its crate holds in crates it
/// cannot name ([`Dispatch`]).
pub fn reach(files: &[&[FnNode]], types: &[&TypeFacts], crates: &Crates) -> Reached {
    let by_name = callable_by_name(files, crates);
    let mut dispatch = Dispatch::new(files, types, crates);
    let mut dispatched: HashSet<(&str, u32)> = HashSet::new();
    let numbering = Numbering::new(files);
    let mut reasons: Vec<String> = Vec::new();
    let mut parent: Vec<Option<Step>> = vec![None; numbering.len()];
    let mut queue = VecDeque::new();
    for (fi, fns) in files.iter().enumerate() {
        for (i, f) in fns.iter().enumerate() {
            if let (Some(reason), false) = (&f.entry, f.test) {
                let id = FnId::new(fi, i);
                // Fewer entries than functions, which a `u32` numbers.
                let r = u32::try_from(reasons.len()).unwrap_or(u32::MAX);
                reasons.push(reason.clone());
                if let Some(slot) = numbering.of(id).and_then(|n| parent.get_mut(n)) {
                    *slot = Some(Step {
                        reason: r,
                        from: id,
                    });
                }
                queue.push_back((id, r));
            }
        }
    }
    // A name's candidates are expanded at most twice (to its delegating functions, and
    // to all of them): once a name has been expanded one way, every candidate of that
    // way already has its parent, so later callers of the name add nothing. Without
    // this, every caller of a common name (`new`, `get`) walks all its candidates.
    // A name is a different set of functions in each crate (its own and its
    // dependencies'), so the unit expanded once is (name, crate).
    let mut expanded: HashMap<(&str, u32), (bool, bool)> = HashMap::new();
    let mut delegating: HashMap<(&str, u32), Vec<FnId>> = HashMap::new();
    // A name's functions by their type, built once per (name, crate) the first time a
    // method calls the name on `self`.
    let mut by_type: HashMap<(&str, u32), HashMap<&str, Vec<FnId>>> = HashMap::new();
    while let Some((id, reason)) = queue.pop_front() {
        let Some(f) = files.get(id.file()).and_then(|fs| fs.get(id.index())) else {
            continue;
        };
        let krate = crates.of(id.file());
        let scope = crates.scope(krate);
        let visible = crates.visible_from(scope);
        let own = own_type(f);
        for c in &f.calls {
            let c = c.as_ref();
            let key = (c, scope);
            // A call on `self` means its own type's method. A crate that sees every
            // crate names every implementation already.
            let on_self = own.filter(|_| f.self_only.binary_search_by(|n| (**n).cmp(c)).is_ok());
            if on_self.is_none() && visible.is_some() && dispatched.insert((c, krate)) {
                for callee in dispatch.targets(c, krate, crates) {
                    let Some(slot) = numbering.of(callee).and_then(|n| parent.get_mut(n)) else {
                        continue;
                    };
                    if slot.is_none() {
                        *slot = Some(Step { reason, from: id });
                        queue.push_back((callee, reason));
                    }
                }
            }
            // A call on `self` (`self.list()`, `DataService::list(self)`) means its own
            // type's method when the type has one: `list` of another store of the same
            // trait is not reached through it.
            if let Some(ty) = on_self {
                let types = by_type.entry(key).or_insert_with(|| {
                    let mut m: HashMap<&str, Vec<FnId>> = HashMap::new();
                    for d in by_name.get(c, visible).iter() {
                        if let Some(t) = files
                            .get(d.file())
                            .and_then(|fs| fs.get(d.index()))
                            .and_then(own_type)
                        {
                            m.entry(t).or_default().push(*d);
                        }
                    }
                    m
                });
                if let Some(targets) = types.get(ty) {
                    for callee in targets {
                        let Some(slot) = numbering.of(*callee).and_then(|n| parent.get_mut(n))
                        else {
                            continue;
                        };
                        if slot.is_none() {
                            *slot = Some(Step { reason, from: id });
                            queue.push_back((*callee, reason));
                        }
                    }
                    continue;
                }
            }
            if expanded.get(&key).is_some_and(|done| done.1) {
                continue;
            }
            // Same-name delegation (`Service::list_all` calling `self.repo.list_all()`):
            // a caller of the name reaches the delegating ones, and they the rest, so the
            // chain shows the layer in between.
            let delegates = delegating.entry(key).or_insert_with(|| {
                by_name
                    .get(c, visible)
                    .iter()
                    .filter(|d| {
                        files
                            .get(d.file())
                            .and_then(|fs| fs.get(d.index()))
                            .is_some_and(|n| n.calls.binary_search_by(|x| (**x).cmp(c)).is_ok())
                    })
                    .copied()
                    .collect()
            });
            let filter = *f.name != *c && !delegates.is_empty();
            let done = expanded.entry(key).or_default();
            let targets: Cow<'_, [FnId]> = if filter {
                if done.0 {
                    continue;
                }
                done.0 = true;
                Cow::Borrowed(delegates)
            } else {
                done.1 = true;
                by_name.get(c, visible)
            };
            for callee in targets.iter() {
                let Some(slot) = numbering.of(*callee).and_then(|n| parent.get_mut(n)) else {
                    continue;
                };
                if slot.is_some() {
                    continue;
                }
                *slot = Some(Step { reason, from: id });
                queue.push_back((*callee, reason));
            }
        }
    }
    Reached {
        reasons,
        numbering,
        parent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::names::{intern, Name};
    use crate::source::Span;

    fn node(name: &str, calls: &[&str]) -> FnNode {
        let mut calls: Vec<Name> = calls.iter().map(|c| intern(c)).collect();
        calls.sort();
        FnNode {
            name: intern(name),
            qualified: intern(name),
            span: Span::new(0, 0),
            calls: calls.into(),
            entry: None,
            test: false,
            main: false,
            starts_server: false,
            loop_calls: Box::default(),
            impl_trait: None,
            returns: None,
            self_only: Box::default(),
            owner: None,
        }
    }

    fn main_fn(calls: &[&str]) -> FnNode {
        FnNode {
            main: true,
            ..node("main", calls)
        }
    }

    #[test]
    fn a_main_that_reaches_a_server_start_through_another_file_is_not_one_off() {
        let server = [main_fn(&["boot"]), node("helper", &[])];
        let lib = [FnNode {
            starts_server: true,
            ..node("boot", &["route"])
        }];
        let files: [&[FnNode]; 2] = [&server, &lib];
        assert!(one_off(
            &files,
            &Crates::unknown(files.len()),
            &Callers::new(&files, &[])
        )
        .iter()
        .next()
        .is_none());
    }

    #[test]
    fn a_main_that_reaches_no_server_is_one_off_with_its_own_files_helpers() {
        let tool = [
            main_fn(&["backfill"]),
            node("backfill", &["write"]),
            node("unused", &[]),
        ];
        let server = [
            main_fn(&["serve_all"]),
            FnNode {
                starts_server: true,
                ..node("serve_all", &["write"])
            },
        ];
        let shared = [node("write", &[])];
        let files: [&[FnNode]; 3] = [&tool, &server, &shared];
        let got: HashSet<FnId> = one_off(
            &files,
            &Crates::unknown(files.len()),
            &Callers::new(&files, &[]),
        )
        .iter()
        .collect();
        let want: HashSet<FnId> = [FnId::new(0, 0), FnId::new(0, 1)].into_iter().collect();
        assert_eq!(
            got, want,
            "`write` is shared with a server and `unused` is not reached"
        );
    }

    #[test]
    fn many_mains_calling_common_names_stay_linear_and_each_is_decided() {
        // Hundreds of binaries calling the same names: each is still decided.
        let lib = [node("new", &["get"]), node("get", &[])];
        let tools: Vec<[FnNode; 1]> = (0..300).map(|_| [main_fn(&["new"])]).collect();
        let mut files: Vec<&[FnNode]> = vec![&lib];
        files.extend(tools.iter().map(|t| t.as_slice()));
        let got = one_off(
            &files,
            &Crates::unknown(files.len()),
            &Callers::new(&files, &[]),
        );
        assert_eq!(got.iter().count(), 300);
        assert!(got.iter().all(|id| id.file() > 0 && id.index() == 0));
    }
}
