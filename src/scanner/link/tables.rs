//! The link's lookups over every file, by name: constants, constructors' field values,
//! field types, structs, functions' returns, constructors, `OnceLock` sets, calls'
//! arguments, builders received and returned. A whole link builds them once; the LSP
//! keeps them between links and, after an edit, takes out the edited file's entries
//! and puts in its new ones ([`Tables::replace`]): building them over a tree of
//! thousands of files cost more than the rest of an edit's link.
//!
//! Entries are (file, index into that file's list), each list in file order, so a
//! lookup answers in the same order whether the tables were built or brought up to
//! date.

// Every lookup of the link hashes a name here: foldhash, as `names.rs` explains.
use foldhash::HashMap;
use std::sync::Arc;

use crate::scanner::index::fold::Escape;
use crate::scanner::index::graph::ENTRY_MACRO_PREFIX;
use crate::scanner::index::FileIndex;
use crate::scanner::link::crates::Crates;
use crate::scanner::syntax::names::Name;

/// Entries by name, each list sorted by (file, index).
pub(in crate::scanner) type ByName = HashMap<Name, Vec<(usize, usize)>>;

/// Entries by two names (`(type, field)`), looked up one name at a time.
pub(in crate::scanner) type ByPair = HashMap<Name, ByName>;

#[derive(Default, Debug, PartialEq)]
pub(in crate::scanner) struct Tables {
    /// Const name (last segment) → (file, index into `consts`).
    pub consts: ByName,
    /// Type → field → (file, index into `field_inits`).
    pub inits: ByPair,
    /// Type → field → (file, index into `field_types`); the first one counts.
    pub field_types: ByPair,
    /// Struct name → (file, index into `structs`); the first one counts.
    pub structs: ByName,
    /// Function name (last segment) → (file, index into `returns`).
    pub returns: ByName,
    /// Type → function → (file, whether the type comes wrapped, 0 or 1).
    pub ctors: ByPair,
    /// Every `OnceLock`/`OnceCell` `set`/`get_or_init`: (file, index into `once_sets`).
    pub once_sets: Vec<(usize, usize)>,
    /// Callee name → (file, index into `arg_sites`).
    pub arg_sites: ByName,
    /// Callee name → (file, index into `types.sites`): calls that show the types they
    /// give a generic function.
    pub type_sites: ByName,
    /// Type alias → (file, index into `types.aliases`): `type DefaultStore<T> =
    /// DynamoStore<T, P, D>;` makes `DefaultStore::new(..)` a call of `DynamoStore`'s.
    pub aliases: ByName,
    /// The same entries by the aliased type: the aliases a type is known by.
    pub alias_targets: ByName,
    /// Parameter position → function → (file, index into `templates`) of the
    /// builders helpers receive.
    pub received: HashMap<usize, ByName>,
    /// Function → (file, index into `ops`) of the builders functions return.
    pub returned: ByName,
    /// Helper name → (file, index into `helper_calls`) of the chains that continue
    /// what it returns.
    pub continued: ByName,
    /// Function → (file, index into `helper_calls`) of the chains on another helper's
    /// builder that it returns (`fn by_user(..) -> QueryFluentBuilder {
    /// query_in(&self.client, table, ..) }`): a builder it returns too.
    pub returned_chains: ByName,
    /// Qualified name → (file, index into `fns`) of the crate's handler macros.
    pub entry_macros: ByName,
    /// Each file's package (its crate, and the folder holding its `src/`), as a
    /// number.
    pub packages: Vec<usize>,
    /// Each file's crate and what it can name: read from the manifests once per
    /// whole link (an edit to a `.rs` file keeps every file's crate).
    pub crates: Crates,
}

impl Tables {
    pub fn new(files: &[Arc<FileIndex>]) -> Self {
        let crates = Crates::read(files.iter().map(|f| &*f.path));
        let mut t = Tables {
            packages: crate::scanner::link::package_ids(files, &crates),
            crates,
            ..Tables::default()
        };
        for (fi, f) in files.iter().enumerate() {
            t.update(fi, f, true);
        }
        t
    }

    /// File `fi`'s index was `old` and is `new` (same path: its package is the same).
    pub fn replace(&mut self, fi: usize, old: &FileIndex, new: &FileIndex) {
        self.update(fi, old, false);
        self.update(fi, new, true);
    }

    /// Adds (or takes out) every entry of file `fi`.
    fn update(&mut self, fi: usize, f: &FileIndex, add: bool) {
        entries(f, |e| match e {
            Entry::ByName(table, key, i) => put(self.by_name(table), key, (fi, i), add),
            Entry::ByPair(table, a, b, i) => put_pair(self.by_pair(table), a, b, (fi, i), add),
            Entry::OnceSet(i) => {
                let at = (fi, i);
                if add {
                    let p = self.once_sets.partition_point(|x| *x < at);
                    self.once_sets.insert(p, at);
                } else {
                    self.once_sets.retain(|x| *x != at);
                }
            }
            Entry::Received(param, function, i) => put(
                self.received.entry(param).or_default(),
                function,
                (fi, i),
                add,
            ),
        });
    }

    fn by_name(&mut self, table: NameTable) -> &mut ByName {
        match table {
            NameTable::ArgSites => &mut self.arg_sites,
            NameTable::TypeSites => &mut self.type_sites,
            NameTable::Aliases => &mut self.aliases,
            NameTable::AliasTargets => &mut self.alias_targets,
            NameTable::Returns => &mut self.returns,
            NameTable::Consts => &mut self.consts,
            NameTable::Structs => &mut self.structs,
            NameTable::Returned => &mut self.returned,
            NameTable::Continued => &mut self.continued,
            NameTable::ReturnedChains => &mut self.returned_chains,
            NameTable::EntryMacros => &mut self.entry_macros,
        }
    }

    fn by_pair(&mut self, table: PairTable) -> &mut ByPair {
        match table {
            PairTable::Ctors => &mut self.ctors,
            PairTable::Inits => &mut self.inits,
            PairTable::FieldTypes => &mut self.field_types,
        }
    }

    /// The entries of `(a, b)` in a table by pair.
    pub fn get_pair<'t>(map: &'t ByPair, a: &str, b: &str) -> Option<&'t [(usize, usize)]> {
        map.get(a)?.get(b).map(Vec::as_slice)
    }
}

/// The tables keyed by one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameTable {
    ArgSites,
    TypeSites,
    Aliases,
    AliasTargets,
    Returns,
    Consts,
    Structs,
    Returned,
    Continued,
    ReturnedChains,
    EntryMacros,
}

/// The tables keyed by two names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairTable {
    Ctors,
    Inits,
    FieldTypes,
}

/// One entry a file puts in the tables: the table, its key, and its index in the
/// file's list.
#[derive(Debug, PartialEq, Eq)]
enum Entry<'f> {
    ByName(NameTable, &'f str, usize),
    ByPair(PairTable, &'f str, &'f str, usize),
    OnceSet(usize),
    /// A builder received: the parameter's position, the function.
    Received(usize, &'f str, usize),
}

/// Every entry file `f` puts in the tables, in a fixed order.
fn entries<'f>(f: &'f FileIndex, mut visit: impl FnMut(Entry<'f>)) {
    for (i, a) in f.arg_sites.iter().enumerate() {
        visit(Entry::ByName(NameTable::ArgSites, &a.callee, i));
    }
    for (i, s) in f.types.sites.iter().enumerate() {
        visit(Entry::ByName(NameTable::TypeSites, &s.callee, i));
    }
    for (i, (alias, target)) in f.types.aliases.iter().enumerate() {
        visit(Entry::ByName(NameTable::Aliases, alias, i));
        visit(Entry::ByName(NameTable::AliasTargets, target, i));
    }
    for (i, r) in f.returns.iter().enumerate() {
        if let Some(last) = r.path.last() {
            visit(Entry::ByName(NameTable::Returns, last, i));
        }
    }
    for (t, n, wrapped) in &f.ctors {
        visit(Entry::ByPair(PairTable::Ctors, t, n, usize::from(*wrapped)));
    }
    for i in 0..f.once_sets.len() {
        visit(Entry::OnceSet(i));
    }
    for (i, c) in f.consts.iter().enumerate() {
        if let Some(last) = c.path.last() {
            visit(Entry::ByName(NameTable::Consts, last, i));
        }
    }
    for (i, init) in f.field_inits.iter().enumerate() {
        visit(Entry::ByPair(PairTable::Inits, &init.ty, &init.field, i));
    }
    for (i, t) in f.field_types.iter().enumerate() {
        visit(Entry::ByPair(PairTable::FieldTypes, &t.ty, &t.field, i));
    }
    for (i, s) in f.structs.iter().enumerate() {
        visit(Entry::ByName(NameTable::Structs, &s.name, i));
    }
    for (i, t) in f.templates.iter().enumerate() {
        if let Some(p) = t.param {
            visit(Entry::Received(p, &t.function, i));
        }
    }
    for (i, (_, e)) in f.ops.iter().enumerate() {
        if let Escape::Returned { function } = e {
            visit(Entry::ByName(NameTable::Returned, function, i));
        }
    }
    for (i, h) in f.helper_calls.iter().enumerate() {
        visit(Entry::ByName(NameTable::Continued, &h.helper, i));
        if let Escape::Returned { function } = &h.escape {
            visit(Entry::ByName(NameTable::ReturnedChains, function, i));
        }
    }
    for (i, n) in f.fns.iter().enumerate() {
        if n.name.starts_with(ENTRY_MACRO_PREFIX) {
            visit(Entry::ByName(NameTable::EntryMacros, &n.qualified, i));
        }
    }
}

/// Whether `a` and `b`, two indexes of one file, put the same entries in the tables
/// but for their calls' arguments: a file indexed again to read its arguments may
/// offer other names (its whole parse finds an item the item parse did not, or loses
/// one to a syntax error), which changes what other files' lookups answer.
pub(in crate::scanner) fn same_entries_but_arguments(a: &FileIndex, b: &FileIndex) -> bool {
    let list = |f| {
        let mut out = Vec::new();
        entries(f, |e| {
            if !matches!(e, Entry::ByName(NameTable::ArgSites, ..)) {
                out.push(e);
            }
        });
        out
    };
    list(a) == list(b)
}

/// [`put`] in the inner table of `a`.
fn put_pair(map: &mut ByPair, a: &str, b: &str, at: (usize, usize), add: bool) {
    if add && !map.contains_key(a) {
        map.insert(Name::from(a), ByName::default());
    }
    if let Some(inner) = map.get_mut(a) {
        put(inner, b, at, add);
        if inner.is_empty() {
            map.remove(a);
        }
    }
}

/// Adds `at` to `key`'s list in file order, or takes it out (and a list left empty).
fn put(map: &mut ByName, key: &str, at: (usize, usize), add: bool) {
    if add {
        if !map.contains_key(key) {
            map.insert(Name::from(key), Vec::new());
        }
        if let Some(list) = map.get_mut(key) {
            let p = list.partition_point(|x| *x < at);
            list.insert(p, at);
        }
    } else if let Some(list) = map.get_mut(key) {
        list.retain(|x| *x != at);
        if list.is_empty() {
            map.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{index_file, ScanSettings};
    use crate::source::SourceFile;

    fn index(path: &str, text: &str) -> Arc<FileIndex> {
        Arc::new(index_file(
            &SourceFile::new(path, text),
            &ScanSettings::default(),
        ))
    }

    /// Taking a file's entries out and putting its new ones in gives the tables a
    /// build over the new files gives, in the same order.
    #[test]
    fn replacing_a_file_is_building_again() {
        let a = "pub const TABLE: &str = \"Orders\";\n\
                 struct Repo { table: String }\n\
                 impl Repo { fn new() -> Self { Self { table: TABLE.into() } } }\n\
                 fn put(c: &Client, t: &str) { c.put_item().table_name(t).send(); }\n\
                 fn go(c: &Client) { put(c, \"Orders\"); put(c, TABLE); }\n";
        let b = "pub const TABLE: &str = \"Users\";\n\
                 struct Only { name: String }\n\
                 fn go(c: &Client) { put(c, \"Users\"); }\n";
        let edited = "pub const TABLE: &str = \"Users\";\n\
                      pub const OTHER: &str = \"Other\";\n\
                      struct Repo { table: String }\n\
                      fn go(c: &Client) { put(c, OTHER); }\n";
        let before = vec![
            index("src/a.rs", a),
            index("src/b.rs", b),
            index("src/c.rs", a),
        ];
        let mut after = before.clone();
        after[1] = index("src/b.rs", edited);
        let mut tables = Tables::new(&before);
        assert_ne!(tables, Tables::new(&after));
        tables.replace(1, &before[1], &after[1]);
        assert_eq!(tables, Tables::new(&after));
        assert_eq!(tables.consts["TABLE"], [(0, 0), (1, 0), (2, 0)]);
        tables.replace(1, &after[1], &before[1]);
        assert_eq!(tables, Tables::new(&before));
    }
}
