//! The cross-file phase: resolves what one file could not (constants by path, fields
//! set in constructors, what the crate's functions return, the value a `OnceLock` is
//! set to, shard counts named by a constant, serialised structs), splices builders returned by or passed to
//! helper functions into their callers, and decides hot/cold from the call graph.
//! Cheap: no parsing, only lookups over the indexes.

pub(super) mod call_site_loop;
pub(super) mod callers;
pub(super) mod crates;
pub(super) mod reach;
pub(super) mod tables;

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

use crate::scanner::index::args::{calls, may_call, ArgSite, SiteKey};
use crate::scanner::index::deferred::{self, Looked, Wanted};
use crate::scanner::index::field_values::FieldValue;
use crate::scanner::index::fold::{Escape, HelperCall, PathStrings};
use crate::scanner::index::graph::{FnNode, ENTRY_PREFIX, MACRO_CALL_PREFIX, QUALIFIED_SEPARATOR};
use crate::scanner::index::items::{serialise, Given, StructDef};
use crate::scanner::index::resolve::{count_between, CtorCall, PendingRef, RefKind, PENDING};
use crate::scanner::index::returns::FnReturn;
use crate::scanner::index::types::TypeFacts;
use crate::scanner::index::{
    index_lean_with_args, index_ruled_out_with_args, index_source, FieldInit, FileIndex,
};
use crate::scanner::ir::{
    AttrMap, CallStep, ColdReason, ExprArg, HotReason, OpKind, Operation, Provenance, Resolved,
    ScanProblem, SetterCall, ValueInfo,
};
use crate::scanner::link::call_site_loop::{loop_at_call_site, Callers};
use crate::scanner::link::callers::callers_of;
use crate::scanner::link::crates::Crates;
use crate::scanner::link::reach::{one_off, reach, FnId, FnSet, Reached};
use crate::scanner::link::tables::Tables;
use crate::scanner::syntax::names::{intern, Name};
use crate::scanner::{ScanResult, ScanSettings};
use crate::source::Span;

/// Links file indexes into the crate's operations.
pub fn link(files: &[Arc<FileIndex>], settings: &ScanSettings) -> ScanResult {
    link_taking(files, settings, Vec::new())
}

/// A file's operations as its index holds them.
type FileOps = Vec<(Operation, Escape)>;

/// [`link`] of indexes the caller lets go of afterwards: the operations of the files
/// it alone holds are moved into the result, not copied (40,000 copies of 1.5 KB, and
/// freeing the originals, were most of a large file's link), when the link is sure to
/// run once. A later round links some files again from their indexes' operations, so
/// when one may follow (a file the pre-filter deferred, a parameter followed to its
/// callers' arguments, read again) they are copied as [`link`] copies them; so are
/// those of a file another file's chain may continue (none is moved while any
/// function returns a builder: such a file may be indexed again before the link).
pub fn link_owned(files: &mut [Arc<FileIndex>], settings: &ScanSettings) -> ScanResult {
    // Nothing can be indexed again when nothing can be read again: no file kept its
    // text (a ruled-out file's, for its calls' arguments) and no reader was given.
    let nothing_to_read = settings.reread.is_none() && files.iter().all(|f| f.text.is_none());
    let once = nothing_to_read
        || (files.iter().all(|f| f.deferred.is_none()) && !params_answerable(files));
    let taken: Vec<Option<FileOps>> = if once && returned_builders(files).is_empty() {
        files
            .iter_mut()
            .map(|f| Arc::get_mut(f).map(|f| std::mem::take(&mut f.ops)))
            .collect()
    } else {
        Vec::new()
    };
    link_taking(files, settings, taken)
}

/// Whether some file may call a function one of whose parameters a reference reads
/// (a later round would read those calls' arguments). A helper's value that is its
/// parameter (`S(id.into())` in `load_7(c, id)`) is such a reference, in every
/// function that sends a request: one no call names is answered by nothing, and
/// the 40,000 requests of a generated file are still linked once, in place.
fn params_answerable(files: &[Arc<FileIndex>]) -> bool {
    let param_fn = |k: &RefKind| -> Option<Name> {
        match k {
            RefKind::Param { function, .. } => Some(function.clone()),
            RefKind::Cast { value, .. } => match &**value {
                RefKind::Param { function, .. } => Some(function.clone()),
                _ => None,
            },
            _ => None,
        }
    };
    let asked: HashSet<Name> = files
        .iter()
        .flat_map(|f| f.refs.iter().filter_map(|r| param_fn(&r.kind)))
        .collect();
    if asked.is_empty() {
        return false;
    }
    files.iter().any(|f| {
        f.arg_sites.iter().any(|a| asked.contains(&a.callee))
            || f.site_keys.iter().any(|k| asked.contains(&k.callee))
            || f.fns.iter().any(|n| {
                n.calls.iter().any(|c| {
                    let name = c.rsplit(QUALIFIED_SEPARATOR).next().unwrap_or(c);
                    asked.contains(name)
                })
            })
    })
}

/// [`link`], with `taken[fi]` (when there is one) file `fi`'s operations, moved out of
/// its index by [`link_owned`]: linked by the first link, which is the only one.
fn link_taking(
    files: &[Arc<FileIndex>],
    settings: &ScanSettings,
    taken: Vec<Option<FileOps>>,
) -> ScanResult {
    let started = std::time::Instant::now();
    let mut stats = crate::scanner::ScanStats::count(files);
    let rounds = link_rounds(files, settings, taken);
    stats.reparsed = rounds.reparsed;
    let mut result = rounds.linked.result;
    result.unique_columns = unique_columns(&rounds.files);
    stats.operations = result.operations.len();
    stats.link = started.elapsed();
    result.stats = stats;
    result
}

/// What [`link_rounds`] ends with: the files as the last round left them (completed,
/// some indexed again), their lookup tables, the last whole link with the partial
/// ones merged in, and every parameter whose calls' arguments were asked.
pub(super) struct Rounds<'f> {
    pub files: Cow<'f, [Arc<FileIndex>]>,
    pub tables: Tables,
    pub linked: Linked,
    /// The parameters the rounds asked about ([`Linked::asked`]), and those asked as
    /// values: a file edited later that calls one of them is read with its arguments.
    pub asked: HashSet<RefKind>,
    pub asked_values: HashSet<RefKind>,
    /// And those asked for their texts per path only ([`Linked::asked_paths`]).
    pub asked_paths: HashSet<RefKind>,
    /// How many files were indexed again.
    pub reparsed: usize,
    /// Whether a file indexed again for its arguments offered other names than its
    /// first index (see `same_entries_but_arguments`): what the link answers then
    /// depends on which parameters were asked, so an edit anywhere may change it.
    pub reshaped: bool,
}

/// The link, in rounds until nothing more is asked: the one answer `check` and the
/// LSP's whole link both give.
pub(super) fn link_rounds<'f>(
    files: &'f [Arc<FileIndex>],
    settings: &ScanSettings,
    mut taken: Vec<Option<FileOps>>,
) -> Rounds<'f> {
    let mut reparsed = 0;
    let completed = parse_skipped_callers(files, settings);
    if let Some((_, n)) = &completed {
        reparsed = *n;
    }
    let mut files: Cow<'_, [Arc<FileIndex>]> = match completed {
        Some((c, _)) => Cow::Owned(c),
        None => Cow::Borrowed(files),
    };
    // Files indexed lean kept only their calls' keys, and files the pre-filter ruled
    // out were not parsed: once the link knows which parameters it asked about and
    // which names it looked up, the files whose calls may answer such a parameter
    // are indexed again with their arguments (`index_with_args`), and the files that
    // may define such a name are parsed (`parse_deferred`); then the link runs again,
    // until nothing more is asked. When only arguments were added, only the files
    // whose operations or tables read one of those parameters are linked again, with
    // the last whole link's graph facts (arguments change no function or call): the
    // link tracks, per file, the functions whose calls' arguments it read. A deferred
    // file parsed links again itself and the files whose lookups it may answer. A
    // tree with nothing asked links once.
    let mut covered: HashSet<RefKind> = HashSet::new();
    let mut redone: HashSet<(usize, bool)> = HashSet::new();
    // Who calls each name, built once for every round: the rounds change no function
    // or call (the graph's facts are kept too), and building it again for each
    // partial round was a whole-tree pass per round. It borrows the files as they
    // were before any round replaced one (their functions are the same).
    let first: Vec<Arc<FileIndex>> = files.to_vec();
    let graphs: Vec<&[FnNode]> = first.iter().map(|f| f.fns.as_slice()).collect();
    // The tables (mostly reading the manifests) and the callers are built side by
    // side: the link is otherwise one thread.
    let types: Vec<&TypeFacts> = first.iter().map(|f| &*f.types).collect();
    let (mut tables, callers) =
        rayon::join(|| Tables::new(&files), || Callers::new(&graphs, &types));
    let mut whole = link_files(
        &files,
        &tables,
        settings,
        None,
        true,
        Some(&callers),
        &mut taken,
    );
    let mut asked = std::mem::take(&mut whole.asked);
    let mut asked_values = std::mem::take(&mut whole.asked_values);
    let mut asked_paths = std::mem::take(&mut whole.asked_paths);
    let mut covered_values: HashSet<RefKind> = HashSet::new();
    let mut covered_paths: HashSet<RefKind> = HashSet::new();
    let mut wanted = std::mem::take(&mut whole.wanted);
    let mut reshaped_any = false;
    loop {
        asked.retain(|k| !covered.contains(k));
        asked_values.retain(|k| !covered_values.contains(k));
        asked_paths.retain(|k| !covered_paths.contains(k));
        let fresh: Vec<RefKind> = asked.drain().collect();
        let fresh_values: Vec<RefKind> = asked_values.drain().collect();
        let fresh_paths: Vec<RefKind> = asked_paths.drain().collect();
        // Every parameter asked as a value (or for its texts per path) so far: a file
        // read again reads the values its calls pass those functions only
        // (`read_with_args`).
        let values_of: Vec<RefKind> = (covered_values.iter().chain(&covered_paths))
            .chain(fresh_values.iter().chain(&fresh_paths))
            .cloned()
            .collect();
        let mut again = index_with_args(
            &files,
            None,
            (&fresh, &fresh_values, &fresh_paths),
            &values_of,
            &mut redone,
            &tables.crates,
            settings,
        );
        let deferred = parse_deferred(&files, &wanted, &tables.crates, &values_of, settings);
        // The lookups some newly parsed file may answer: the files that made one
        // are linked again, and so are the parsed files (their problems).
        let parsed: Vec<&crate::scanner::index::deferred::Deferred> = deferred
            .iter()
            .filter_map(|(fi, _)| files[*fi].deferred.as_ref())
            .collect();
        let mut answered: HashMap<crate::scanner::index::deferred::Lookup, bool> = HashMap::new();
        let mut relinked: HashSet<usize> = deferred.iter().map(|(fi, _)| *fi).collect();
        for (fi, looked) in whole.looked.iter().enumerate() {
            let reads_one = looked.iter().any(|l| {
                *answered
                    .entry(*l)
                    .or_insert_with(|| parsed.iter().any(|d| d.answers_one(l)))
            });
            if reads_one {
                relinked.insert(fi);
            }
        }
        again.extend(deferred);
        // A file's problems are reported by its link: one whose index now says more
        // (it could not be read again) is linked again.
        relinked.extend(
            again
                .iter()
                .filter(|(fi, idx)| idx.problems.len() != files[*fi].problems.len())
                .map(|(fi, _)| *fi),
        );
        if again.is_empty() {
            covered.extend(fresh);
            covered_values.extend(fresh_values);
            covered_paths.extend(fresh_paths);
            break;
        }
        let functions: HashSet<&str> = fresh
            .iter()
            .chain(&fresh_values)
            .chain(&fresh_paths)
            .filter_map(|k| match k {
                RefKind::Param { function, .. } => Some(&**function),
                _ => None,
            })
            .collect();
        relinked.extend(
            whole
                .reads
                .iter()
                .enumerate()
                .filter(|(_, r)| r.iter().any(|n| functions.contains(&**n)))
                .map(|(fi, _)| fi),
        );
        covered.extend(fresh);
        covered_values.extend(fresh_values);
        covered_paths.extend(fresh_paths);
        reparsed += again.len();
        // A file indexed again that offers other names than before (its whole parse
        // found an item the item parse did not, or lost one to a syntax error) changes
        // what any file's lookups answer, not only the files that read its arguments:
        // the link is whole again, or the files linked before would keep the old
        // answer and a later re-link of one of them (the LSP's) would give another.
        let reshaped = again.iter().any(|(fi, idx)| {
            files[*fi].deferred.is_none() && !tables::same_entries_but_arguments(&files[*fi], idx)
        });
        reshaped_any |= reshaped;
        let next = files.to_mut();
        for (fi, index) in again {
            let index = Arc::new(index);
            tables.replace(fi, &next[fi], &index);
            next[fi] = index;
        }
        // A whole link always has them; `None` would link the whole tree again.
        let graph = whole.graph.as_ref().filter(|_| !reshaped);
        match graph {
            Some(graph) => {
                if relinked.is_empty() {
                    wanted.clear();
                    continue;
                }
                let mut part = link_files(
                    &files,
                    &tables,
                    settings,
                    Some((&relinked, graph)),
                    true,
                    Some(&callers),
                    &mut [],
                );
                asked = std::mem::take(&mut part.asked);
                asked_values = std::mem::take(&mut part.asked_values);
                asked_paths = std::mem::take(&mut part.asked_paths);
                wanted = std::mem::take(&mut part.wanted);
                merge_part(&mut whole, part, &relinked, &files);
            }
            None => {
                // The last whole link is replaced: its operations, tables and graph
                // are let go before this one is made, not held beside it (they were
                // the peak of a tree whose rounds link whole again, with the new
                // link's reach: tree-10 +26 MB).
                whole.result = ScanResult::default();
                whole.tables = Vec::new();
                whole.graph = None;
                whole.reads = Vec::new();
                whole.looked = Vec::new();
                whole = link_files(
                    &files,
                    &tables,
                    settings,
                    None,
                    true,
                    Some(&callers),
                    &mut [],
                );
                asked = std::mem::take(&mut whole.asked);
                asked_values = std::mem::take(&mut whole.asked_values);
                asked_paths = std::mem::take(&mut whole.asked_paths);
                wanted = std::mem::take(&mut whole.wanted);
            }
        }
    }
    Rounds {
        files,
        tables,
        linked: whole,
        asked: covered,
        asked_values: covered_values,
        asked_paths: covered_paths,
        reparsed,
        reshaped: reshaped_any,
    }
}

/// Every file's ORM columns declared unique, in file order.
pub(super) fn unique_columns(files: &[Arc<FileIndex>]) -> Vec<crate::scanner::ir::UniqueColumn> {
    files
        .iter()
        .flat_map(|f| f.types.unique.iter().cloned())
        .collect()
}

/// `whole` (a whole link's result, with each file's tables and reads) with the
/// operations, problems, tables and reads of the `relinked` files taken from `part`,
/// a partial link of them: what a whole link would have given.
fn merge_part(
    whole: &mut Linked,
    part: Linked,
    relinked: &HashSet<usize>,
    files: &[Arc<FileIndex>],
) {
    let result = &mut whole.result;
    let paths: HashSet<&std::path::Path> = relinked.iter().map(|i| &*files[*i].path).collect();
    result.operations.retain(|op| !paths.contains(&*op.file));
    result.operations.extend(part.result.operations);
    // Stable: the operations of one file all come from one link, in its order.
    result
        .operations
        .sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
    result.problems.retain(|p| !paths.contains(&*p.file));
    result.problems.extend(part.result.problems);
    result.problems.sort_by(|a, b| {
        (&a.file, a.span.map(|s| s.start)).cmp(&(&b.file, b.span.map(|s| s.start)))
    });
    let each = part.tables.into_iter().zip(part.reads).zip(part.looked);
    for (fi, ((t, r), l)) in each.enumerate() {
        if relinked.contains(&fi) {
            whole.tables[fi] = t;
            whole.reads[fi] = r;
            whole.looked[fi] = l;
        }
    }
    result.tables = whole.tables.iter().flatten().cloned().collect();
}

/// The byte pre-filter's second look. A file without an SDK marker can still send a
/// builder that a helper in another file returns (`recent_orders(&c, id).send()`);
/// which functions return builders is known only now. Files the pre-filter skipped
/// whose tokens chain a call of one of them into a setter are indexed again, parsed;
/// so are files indexed lean (`index_file_lean`), which kept only the names of the
/// helpers their chains continue. `None` (nothing to redo) is the usual case and costs one pass over the names; else
/// the files, and how many were indexed again.
pub(super) fn parse_skipped_callers(
    files: &[Arc<FileIndex>],
    settings: &ScanSettings,
) -> Option<(Vec<Arc<FileIndex>>, usize)> {
    let mut out: Option<Vec<Arc<FileIndex>>> = None;
    let mut reparsed = 0;
    let mut seen = 0;
    // A file parsed again may return a chain on one of them: the files that chain
    // that function are parsed in the next round.
    for _ in 0..=MAX_RETURNED_DEPTH {
        let now = out.as_deref().unwrap_or(files);
        let returned = returned_builders(now);
        if returned.len() == seen {
            break;
        }
        seen = returned.len();
        let redo: Vec<(usize, FileIndex)> = now
            .par_iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i, parse_if_chained(f, &returned, settings)?)))
            .collect();
        if redo.is_empty() {
            break;
        }
        reparsed += redo.len();
        let o = out.get_or_insert_with(|| files.to_vec());
        for (i, index) in redo {
            o[i] = Arc::new(index);
        }
    }
    Some((out?, reparsed))
}

/// Files indexed lean ([`crate::scanner::index::index_file_lean`]) kept only their calls' keys
/// (`site_keys`), not what the calls pass, which the link reads only to follow a
/// parameter ([`RefKind::Param`]). The files (not redone before) with a call that may
/// answer one of `asked` (matched as the link matches it, test code included), read
/// and indexed again with their arguments ([`index_lean_with_args`]): what an index
/// with them would have been, as values at the calls of `values_of`'s functions
/// ([`read_with_args`]). A file is read again once for its calls' names (`redone`
/// holding `(file, false)`), and once more, with every call's values, when a call
/// whose values it left unread may pass one of `asked_values` (`(file, true)`), or
/// one of `asked_paths` and the file may build an argument's texts per path.
/// With `only`, that file alone is looked at.
fn index_with_args(
    files: &[Arc<FileIndex>],
    only: Option<usize>,
    (asked, asked_values, asked_paths): (&[RefKind], &[RefKind], &[RefKind]),
    values_of: &[RefKind],
    redone: &mut HashSet<(usize, bool)>,
    crates: &Crates,
    settings: &ScanSettings,
) -> Vec<(usize, FileIndex)> {
    fn by_function(kinds: &[RefKind]) -> HashMap<&str, Vec<&RefKind>> {
        let mut by_name: HashMap<&str, Vec<&RefKind>> = HashMap::new();
        for kind in kinds {
            if let RefKind::Param { function, .. } = kind {
                by_name.entry(&**function).or_default().push(kind);
            }
        }
        by_name
    }
    let (by_name, values_by_name) = (by_function(asked), by_function(asked_values));
    let paths_by_name = by_function(asked_paths);
    if by_name.is_empty() && values_by_name.is_empty() && paths_by_name.is_empty() {
        return Vec::new();
    }
    // A call may name the function's type by an alias (`DefaultStore::new(..)` of
    // `impl DynamoStore`): any alias of any crate, a superset of what the link keeps.
    let aliases: HashMap<&str, &str> = files
        .iter()
        .flat_map(|f| f.types.aliases.iter())
        .map(|(a, t)| (&**a, &**t))
        .collect();
    let canon = |t: &'_ str| -> String { aliases.get(t).map_or(t, |x| x).to_string() };
    let same = |a: &str, b: &str| a == b || canon(a) == canon(b);
    // The files defining each asked function (by its name and impl type): the link
    // binds a call in file `sf` only when `sf`'s crate sees the request's file
    // (`Linker::sees`), which defines the function, so a file whose crate sees none
    // of them (a vendored crate's own `.load(..)`) has nothing to give and is not
    // parsed again for it. An asked function no file is found to define is not
    // narrowed. Found on first need: few calls match an asked function at all.
    /// A function's defining files, each with its impl type.
    type Definers<'f> = Vec<(usize, Option<&'f str>)>;
    fn definers<'f>(files: &'f [Arc<FileIndex>], function: &str) -> Definers<'f> {
        let mut found = Vec::new();
        for (fi, f) in files.iter().enumerate() {
            for n in f.fns.iter().filter(|n| &*n.name == function) {
                let ty = (n.qualified.strip_suffix(function))
                    .and_then(|q| q.strip_suffix(QUALIFIED_SEPARATOR));
                found.push((fi, ty));
            }
        }
        found
    }
    let defined_in: RefCell<HashMap<Name, Definers<'_>>> = RefCell::default();
    let sees = |fi: usize, kind: &RefKind| {
        let RefKind::Param {
            function, self_ty, ..
        } = kind
        else {
            return true;
        };
        let mut known = defined_in.borrow_mut();
        let at = known
            .entry(Name::clone(function))
            .or_insert_with(|| definers(files, function));
        let mut any = false;
        at.iter()
            .filter(|(_, ty)| match (ty, self_ty) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            })
            .any(|(d, _)| {
                any = true;
                crates.file_sees(fi, *d)
            })
            || !any
    };
    let calls_one = |fi: usize, keys: &[SiteKey], of: &HashMap<&str, Vec<&RefKind>>| {
        keys.iter().any(|k| {
            of.get(&*k.callee)
                .is_some_and(|ps| ps.iter().any(|p| may_call(k, p, &same) && sees(fi, p)))
        })
    };
    let among: Box<dyn Iterator<Item = usize>> = match only {
        Some(fi) => Box::new(std::iter::once(fi)),
        None => Box::new(0..files.len()),
    };
    let todo: Vec<(usize, bool)> = among
        .filter_map(|fi| {
            let f = &files[fi];
            // Read for some functions' values only: again, for every call's, when a
            // call of another's may pass one the values it sends its request with.
            // Texts per path only come from a local the file appends to.
            let values = calls_one(fi, &f.value_keys, &values_by_name)
                || (calls_one(fi, &f.value_keys, &paths_by_name) && may_build_paths(f, settings));
            if values && redone.insert((fi, true)) {
                redone.insert((fi, false));
                return Some((fi, true));
            }
            let asked = calls_one(fi, &f.site_keys, &by_name)
                || (f.deferred.is_none()
                    && f.text.is_some()
                    && ruled_out_calling(f, &by_name, |p| sees(fi, p)));
            (asked && redone.insert((fi, false))).then_some((fi, false))
        })
        .collect();
    read_with_args(files, &todo, values_of, settings)
}

/// File `fi` of `files` (an edited file's new index) indexed again with its calls'
/// arguments when a call of it may answer one of the parameters `asked` (or, as
/// values, `asked_values`), as a round of [`link_rounds`] would have: `None` when none
/// does.
pub(super) fn with_args_if_asked(
    files: &[Arc<FileIndex>],
    fi: usize,
    asked: &HashSet<RefKind>,
    asked_values: &HashSet<RefKind>,
    asked_paths: &HashSet<RefKind>,
    crates: &Crates,
    settings: &ScanSettings,
) -> Option<FileIndex> {
    let asked: Vec<RefKind> = asked.iter().cloned().collect();
    let asked_values: Vec<RefKind> = asked_values.iter().cloned().collect();
    let asked_paths: Vec<RefKind> = asked_paths.iter().cloned().collect();
    // Every parameter asked as a value or for its paths: what a round reads the
    // values of.
    let values_of: Vec<RefKind> = asked_values.iter().chain(&asked_paths).cloned().collect();
    let again = index_with_args(
        files,
        Some(fi),
        (&asked, &asked_values, &asked_paths),
        &values_of,
        &mut HashSet::new(),
        crates,
        settings,
    );
    again.into_iter().next().map(|(_, idx)| idx)
}

/// Whether `f` is a file the byte pre-filter ruled out (so it kept no call's key)
/// whose call graph calls one of `by_name`'s functions: its calls' arguments are read
/// only by parsing it. Only one whose text was kept (`calls`, the LSP): indexed lean
/// (`check`), a ruled-out file is deferred and parsed when its names answer the link's
/// lookups, a parameter's callers among them (`parse_deferred`), unless it sets a
/// `OnceLock`, whose items are parsed at once; reading those again as well doubled the
/// files `check` parses again on the real-code trees (310 to 630 on the 10x tree).
/// Whether `f`'s text may build a call's argument per path (it appends to a string:
/// `push_str`, `+=`), read again if need be; when it cannot be read, it may.
fn may_build_paths(f: &FileIndex, settings: &ScanSettings) -> bool {
    let text = match (&f.text, settings.reread) {
        (Some(text), _) => Some(Arc::clone(text)),
        (None, Some(read)) => read(&f.path),
        (None, None) => None,
    };
    text.is_none_or(|t| crate::scanner::index::path_strings::may_append(&t))
}

fn ruled_out_calling(
    f: &FileIndex,
    by_name: &HashMap<&str, Vec<&RefKind>>,
    sees: impl Fn(&RefKind) -> bool,
) -> bool {
    !f.candidate
        && !f.generated
        && f.fns.iter().any(|n| {
            n.calls.iter().any(|c| {
                by_name
                    .get(c.as_ref())
                    .is_some_and(|ps| ps.iter().any(|p| sees(p)))
            })
        })
}

/// Files `todo`, read again and indexed lean with their calls' arguments: as values
/// and maps too at the calls of the functions whose parameters the link asked as
/// values (`values_of`, and the file's own helpers'; the other calls' keys kept,
/// `value_keys`, for a later round to read the file again should it ask another's),
/// or at every call for a file marked `true`. Reading every call's values (locals
/// followed to their `let`s, maps to their inserts) was half of reading a file again.
/// Without a reader (`calls`, the LSP, whose edits index a file with every call's
/// values), every call's. A file that cannot be read again (removed or unreadable
/// since the walk) keeps its index, with a note saying what the link could not look
/// at, and is not asked for again.
fn read_with_args(
    files: &[Arc<FileIndex>],
    todo: &[(usize, bool)],
    values_of: &[RefKind],
    settings: &ScanSettings,
) -> Vec<(usize, FileIndex)> {
    todo.par_iter()
        .filter_map(|&(fi, every)| {
            let values_of = (settings.reread.is_some() && !every).then_some(values_of);
            let f = &files[fi];
            // A ruled-out file indexed with its text kept has it; else it is read
            // again, when it can be (not at all when nothing can read it).
            let text = match (&f.text, settings.reread) {
                (Some(text), _) => Some(Arc::clone(text)),
                (None, Some(read)) => read(&f.path),
                (None, None) => return None,
            };
            Some(match text {
                Some(text) if !f.candidate => {
                    // Parsed for its arguments only: what the parse says of code the
                    // pre-filter ruled out (a syntax error) is not said, as it is not
                    // when no argument is asked of it.
                    let mut idx = index_ruled_out_with_args(&f.path, &text, settings, values_of);
                    idx.problems.clone_from(&f.problems);
                    (fi, idx)
                }
                Some(text) => (
                    fi,
                    index_lean_with_args(&f.path, &text, settings, values_of),
                ),
                None => (fi, unread_again(f)),
            })
        })
        .collect()
}

/// `f`'s index once it could not be read again: what it held, never parsed for its
/// names nor read for its calls' arguments (`deferred` and the calls' keys cleared:
/// it is not asked for again), and a note.
fn unread_again(f: &FileIndex) -> FileIndex {
    let what = if f.deferred.is_some() {
        "the names it defines"
    } else {
        "what its calls pass"
    };
    let mut kept = f.clone();
    kept.deferred = None;
    kept.site_keys.clear();
    kept.value_keys.clear();
    kept.problems.push(ScanProblem {
        file: f.path.clone(),
        span: None,
        message: format!(
            "could not be read again (removed or unreadable during the run), so {what} \
             were not looked up: a value that comes from this file is unknown"
        ),
    });
    kept
}

/// The files not parsed yet (`deferred.rs`) that hold every name of a lookup in
/// `wanted`, in a crate whose answer the looking file can use, parsed and indexed (with their calls' arguments): what their index would
/// have been had they been parsed with the others.
fn parse_deferred(
    files: &[Arc<FileIndex>],
    wanted: &Wanted,
    crates: &Crates,
    values_of: &[RefKind],
    settings: &ScanSettings,
) -> Vec<(usize, FileIndex)> {
    if wanted.is_empty() {
        return Vec::new();
    }
    let asked = deferred::Asked::new(wanted);
    let todo: Vec<(usize, bool)> = (0..files.len())
        .filter(|fi| {
            // What the link keeps of an answer: an item the looking file's crate can
            // name; a call (a parameter's caller) from a crate that can name the
            // parameter's function.
            let usable = |l: &deferred::Lookup, from: u32| match l {
                deferred::Lookup::Call { .. } => crates.sees(crates.of(*fi), from),
                _ => crates.sees(from, crates.of(*fi)),
            };
            files[*fi]
                .deferred
                .as_ref()
                .is_some_and(|d| d.answers(&asked, usable))
        })
        .map(|fi| (fi, false))
        .collect();
    read_with_args(files, &todo, values_of, settings)
}

/// The functions some file returns a builder from.
pub(super) fn returned_builders(files: &[Arc<FileIndex>]) -> HashSet<&str> {
    let mut returned: HashSet<&str> = files
        .iter()
        .flat_map(|f| &f.ops)
        .filter_map(|(_, e)| match e {
            Escape::Returned { function } => Some(function.as_str()),
            _ => None,
        })
        .collect();
    // A function that returns a chain on one of them returns a builder too
    // (`fn by_user(..) -> QueryFluentBuilder { query_in(..) }`), to a few levels.
    for _ in 0..MAX_RETURNED_DEPTH {
        let more: Vec<&str> = files
            .iter()
            .flat_map(|f| &f.helper_calls)
            .filter_map(|h| match &h.escape {
                Escape::Returned { function }
                    if returned.contains(h.helper.as_str())
                        && !returned.contains(function.as_str()) =>
                {
                    Some(function.as_str())
                }
                _ => None,
            })
            .collect();
        if more.is_empty() {
            break;
        }
        returned.extend(more);
    }
    returned
}

/// How many helpers deep a builder returned by a helper that returns another's is
/// followed.
const MAX_RETURNED_DEPTH: usize = 3;

/// A skipped file (or one indexed lean) indexed again with a parse, if it chains one
/// of `returned`. Only those have `chained` names.
pub(super) fn parse_if_chained(
    f: &FileIndex,
    returned: &HashSet<&str>,
    settings: &ScanSettings,
) -> Option<FileIndex> {
    if !f.chained.iter().any(|c| returned.contains(&**c)) {
        return None;
    }
    // A lean index (`index_file_lean`) kept no text: it is read again.
    let text = f
        .text
        .clone()
        .or_else(|| settings.reread.and_then(|read| read(&f.path)))?;
    Some(index_source(&f.path, &text, settings, true))
}

/// What the link learns from the whole call graph: which functions a request entry
/// reaches, and which only a one-off binary runs. It depends on the functions' names,
/// calls and entry points only, not on where they are in their files.
pub(super) struct GraphFacts {
    reached: Reached,
    one_off: FnSet,
    /// Who calls each name, kept once a partial link needs it (a whole link builds
    /// its own, borrowed from the graph, more cheaply).
    callers: Option<Callers<Box<str>>>,
}

impl GraphFacts {
    /// Keeps the callers of each name in `files`' call graph, if not kept yet.
    pub(super) fn keep_callers(&mut self, files: &[Arc<FileIndex>]) {
        if self.callers.is_none() {
            let graphs: Vec<&[FnNode]> = files.iter().map(|f| f.fns.as_slice()).collect();
            let types: Vec<&TypeFacts> = files.iter().map(|f| &*f.types).collect();
            self.callers = Some(Callers::owned(&graphs, &types));
        }
    }
}

/// A link's output, with what a later one can reuse.
pub(super) struct Linked {
    /// In a partial link, only the linked files' operations and problems.
    pub result: ScanResult,
    /// Each file's resolved table declarations (`result.tables` is them in order);
    /// empty for the files a partial link left out.
    pub tables: Vec<Vec<crate::scanner::index::create_table::TableDecl>>,
    /// Computed by a whole link; a partial one was given them.
    pub graph: Option<GraphFacts>,
    /// For each linked file (when tracked): the functions whose calls' arguments its
    /// operations and tables were read from.
    pub reads: Vec<Reads>,
    /// The parameters whose calls' arguments the link read ([`RefKind::Param`]).
    pub asked: HashSet<RefKind>,
    /// Those of them whose calls' arguments it read as values or maps too (a helper
    /// that sends its request with them, `Linker::bindings_at`).
    pub asked_values: HashSet<RefKind>,
    /// Those of them it read for their texts per path only (an expression a caller
    /// appends to on some paths, `ArgSite::paths`), not as values.
    pub asked_paths: HashSet<RefKind>,
    /// Every name the link looked up in the tables: a deferred file holding one is
    /// parsed before the next link (`deferred.rs`).
    pub wanted: Wanted,
    /// For each linked file (when tracked): the lookups its operations and tables
    /// made, so that a deferred file parsed later links again only those that may
    /// read it.
    pub looked: Vec<Looked>,
}

/// [`link`] once every file that can hold a request has been parsed. With `only`, the
/// operations, problems and tables of those files alone, with the call graph's facts
/// of an earlier link (the caller knows no file's functions changed since). `callers`:
/// who calls each name in `files`' call graph, when the caller keeps it across links.
/// `taken[fi]`: file `fi`'s operations, moved out of its index (see [`link_owned`]),
/// linked in place of copies of its index's.
pub(super) fn link_files(
    files: &[Arc<FileIndex>],
    tables: &Tables,
    settings: &ScanSettings,
    only: Option<(&HashSet<usize>, &GraphFacts)>,
    track: bool,
    callers: Option<&Callers<&str>>,
    taken: &mut [Option<FileOps>],
) -> Linked {
    // A file's operations, in its index or taken out of it.
    let op_count = |fi: usize, f: &FileIndex| {
        f.ops.len() + taken.get(fi).and_then(Option::as_ref).map_or(0, Vec::len)
    };
    let mut result = ScanResult::default();
    let mut decls: Vec<Vec<crate::scanner::index::create_table::TableDecl>> =
        vec![Vec::new(); files.len()];
    let mut reads: Vec<Reads> = vec![Reads::new(); files.len()];
    let mut looked: Vec<Looked> = vec![Looked::default(); files.len()];
    let wanted = |fi: usize| only.is_none_or(|(set, _)| set.contains(&fi));
    let linker = Linker::new(files, tables, track);
    let mut glob_problems = Vec::new();
    let cold_globs = globs(&settings.cold_paths, &mut glob_problems);
    // The entries hot-paths globs and handler macros make count only for the graph's
    // facts, which a partial link is given: its graph is the files' own.
    let glob_entries: Vec<Cow<'_, [FnNode]>> = match only {
        Some(_) => files.iter().map(|f| Cow::Borrowed(&f.fns[..])).collect(),
        None => {
            let hot_globs = globs(&settings.hot_paths, &mut glob_problems);
            result.problems = glob_problems;
            // Manifests that do not read: their crates see every crate.
            result.problems.extend(
                tables
                    .crates
                    .notes
                    .iter()
                    .map(|(path, message)| ScanProblem {
                        file: Arc::from(path.as_path()),
                        span: None,
                        message: message.clone(),
                    }),
            );
            hot_entries(files, tables, hot_globs.as_ref(), settings)
        }
    };
    let graph_refs: Vec<&[FnNode]> = glob_entries.iter().map(|g| &**g).collect();
    // Callers by name depend on names and calls only, so the hot-paths entries made
    // above do not change them. Built here when neither the caller nor the last whole
    // link's facts hold them: the one-off search below reads them too.
    let built = match (callers, only.and_then(|(_, g)| g.callers.as_ref())) {
        (None, None) => {
            let types: Vec<&TypeFacts> = files.iter().map(|f| &*f.types).collect();
            Some(Callers::new(&graph_refs, &types))
        }
        _ => None,
    };
    let borrowed = callers.or(built.as_ref());
    let computed = match (only, borrowed) {
        (None, Some(by_name)) => {
            // Two searches of the whole graph, independent: side by side.
            let (reached, one_off) = rayon::join(
                || {
                    let types: Vec<&TypeFacts> = files.iter().map(|f| &*f.types).collect();
                    reach(&graph_refs, &types, &tables.crates)
                },
                || one_off(&graph_refs, &tables.crates, by_name),
            );
            Some(GraphFacts {
                reached,
                one_off,
                callers: None,
            })
        }
        // A partial link has the last whole link's facts; a whole link has callers,
        // given or built above.
        _ => None,
    };
    let Some(graph) = computed.as_ref().or(only.map(|(_, g)| g)) else {
        return Linked {
            result,
            tables: decls,
            graph: None,
            reads,
            asked: linker.asked.take(),
            asked_values: linker.asked_values.take(),
            asked_paths: linker.asked_paths.take(),
            wanted: linker.wanted.take(),
            looked,
        };
    };
    let (reached, one_off) = (&graph.reached, &graph.one_off);

    // Each linked file's functions by qualified name, for the files with requests:
    // finding the function around each request scanned every function of its file (a
    // file of 40,000 requests in 4,000 functions: 160 million comparisons).
    let fns_by_name: HashMap<usize, HashMap<&str, Vec<usize>>> = files
        .iter()
        .zip(&graph_refs)
        .enumerate()
        .filter(|(fi, (f, _))| wanted(*fi) && (op_count(*fi, f) > 0 || !f.helper_calls.is_empty()))
        .map(|(fi, (_, fns))| {
            let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, n) in fns.iter().enumerate() {
                by_name.entry(&*n.qualified).or_default().push(i);
            }
            (fi, by_name)
        })
        .collect();
    // The innermost function with the request's qualified name that contains it.
    let enclosing = |op: &Operation, fi: usize| -> Option<usize> {
        let func = op.context.function.as_deref()?;
        let fns = graph_refs.get(fi)?;
        fns_by_name
            .get(&fi)?
            .get(func)?
            .iter()
            .filter_map(|i| Some((*i, fns.get(*i)?)))
            .filter(|(_, n)| n.span.start <= op.span.start)
            .max_by_key(|(_, n)| n.span.start)
            .map(|(i, _)| i)
    };
    // Whether a call of `name` in file `fi` certainly calls the one function of that
    // name, which is in file `tf`: the tree defines no other its crate can name.
    let sole_def = |fi: usize, name: &str, tf: usize| -> bool {
        let defs = match (borrowed, &graph.callers) {
            (Some(c), _) => c.defined_in(fi, name, &tables.crates),
            (None, Some(c)) => c.defined_in(fi, name, &tables.crates),
            (None, None) => return false,
        };
        defs == [tf]
    };
    // What a helper that receives the builder adds, then heat.
    let finish = |op: &mut Operation, escape: &Escape, fi: usize, cold_glob: Option<&str>| {
        // Returned unsent to callers that do not continue it: not seen sent.
        if matches!(escape, Escape::Returned { .. }) {
            op.complete_builder = false;
        }
        if let Escape::Passed { function, index } = escape {
            let received = tables
                .received
                .get(index)
                .and_then(|by_fn| by_fn.get(function.as_str()));
            let visible = received
                .into_iter()
                .flatten()
                .filter(|(tf, _)| tables.crates.file_sees(fi, *tf));
            // Whole only when handed to the one function of that name, which sends
            // it whole (`send(build(&c))`): what neither sets, the request lacks.
            let mut whole = op.complete_builder;
            let mut seen = 0usize;
            for (tf, ti) in visible {
                let Some(t) = files.get(*tf).and_then(|f| f.templates.get(*ti)) else {
                    continue;
                };
                seen += 1;
                whole &= t.sent && t.op.complete_builder && sole_def(fi, function, *tf);
                let mut helper = t.op.clone();
                linker.resolve_op(*tf, &mut helper, 0);
                let other = helper.file != op.file;
                overlay(op, &helper, other);
                op.paginated |= helper.paginated;
            }
            op.complete_builder = whole && seen == 1;
        }
        // `repo.delete_item().key(..).send()` on a function of the crate named like
        // the client's method, returning a builder that may set the table: the chain
        // is not the whole request.
        if op.complete_builder
            && op.table.is_none()
            && tables
                .returned
                .get(op.kind.sdk_method())
                .is_some_and(|r| r.iter().any(|(tf, _)| tables.crates.file_sees(fi, *tf)))
        {
            op.complete_builder = false;
        }
        let around = enclosing(op, fi);
        decide_heat(
            op,
            fi,
            around,
            &graph_refs,
            (reached, one_off),
            files,
            cold_glob,
        );
        if op.context.in_loop.is_none() {
            op.context.in_loop = match (around, borrowed, &graph.callers) {
                (None, _, _) => None,
                (Some(i), Some(c), _) => {
                    let only = linker.loop_sites.borrow();
                    let at = (c, &tables.crates, only.as_deref());
                    loop_at_call_site(op, fi, i, &graph_refs, files, at)
                }
                (Some(i), None, Some(c)) => {
                    let only = linker.loop_sites.borrow();
                    let at = (c, &tables.crates, only.as_deref());
                    loop_at_call_site(op, fi, i, &graph_refs, files, at)
                }
                (Some(_), None, None) => None,
            };
        }
        // Linked at the one call that makes it: that call, in the function it is in.
        if op.context.called_at.is_none() {
            if let Some(&[(sf, at)]) = linker.loop_sites.borrow().as_deref() {
                let caller = graph_refs.get(sf).and_then(|fns| {
                    fns.iter()
                        .filter(|n| !n.name.starts_with(ENTRY_PREFIX) && n.span.start <= at.start)
                        .max_by_key(|n| n.span.start)
                });
                op.context.called_at = caller.zip(files.get(sf)).map(|(n, f)| {
                    Box::new(CallStep {
                        function: n.qualified.to_string(),
                        file: f.path.clone(),
                        span: at,
                    })
                });
            }
        }
        // What a Query read as one page is for, when its function's name may not say.
        if op.kind == OpKind::Query && !op.paginated && op.context.callers.is_empty() {
            op.context.callers = match (around, borrowed, &graph.callers) {
                (Some(i), Some(c), _) => callers_of(fi, i, &graph_refs, c, &tables.crates),
                (Some(i), None, Some(c)) => callers_of(fi, i, &graph_refs, c, &tables.crates),
                _ => Vec::new(),
            };
        }
    };
    // Sized once: operations are large, and growing by doubling copied them (and
    // touched fresh pages) about twice over on the 40,000-call file. A chain on a
    // helper may give one per helper found: those few grow it.
    // The operations taken out of the indexes are linked in their own lists, the
    // first of which becomes this one (`append_linked`): sized for the others.
    let ops_wanted: usize = files
        .iter()
        .enumerate()
        .filter(|(fi, _)| wanted(*fi))
        .map(|(fi, f)| op_count(fi, f) + f.helper_calls.len())
        .sum();
    let taken_count: usize = (taken.iter().enumerate())
        .filter(|(fi, _)| wanted(*fi))
        .filter_map(|(_, t)| t.as_ref())
        .map(Vec::len)
        .sum();
    let mut ops: Vec<Operation> = Vec::with_capacity(ops_wanted.saturating_sub(taken_count));
    // Whether a helper a chain of file `fi` continues adds the items its argument
    // `index` builds to its transaction (`ParamParts::items`).
    let takes_items = |fi: usize, h: &HelperCall, index: usize| {
        (tables.returned.get(h.helper.as_str()).into_iter().flatten())
            .filter(|(tf, _)| tables.crates.file_sees(fi, *tf))
            .filter_map(|(tf, ti)| files.get(*tf)?.ops.get(*ti))
            .filter_map(|(op, _)| op.from_params.as_deref())
            .any(|parts| parts.items.iter().any(|p| p.index == index))
    };
    for (fi, f) in files.iter().enumerate() {
        if !wanted(fi) {
            continue;
        }
        result.problems.extend(f.problems.iter().cloned());
        let cold_glob = glob_match(cold_globs.as_ref(), &f.path, settings.root.as_deref());
        let ((), read) = linker.tracked(|| {
            // A chain on a helper's returned builder: the helper's setters, then ours.
            for h in &f.helper_calls {
                let (op, escape, helper) = (&h.op, &h.escape, &h.helper);
                // Returned on to callers that continue it: the request is theirs.
                if matches!(escape, Escape::Returned { function }
                if tables.continued.get(function.as_str()).is_some_and(|chains| {
                    chains.iter().any(|(cf, _)| tables.crates.file_sees(*cf, fi))
                })) {
                    continue;
                }
                let site = CallSite {
                    file: fi,
                    function: helper,
                    args: &h.args,
                    values: &h.values,
                    maps: &h.maps,
                    paths: &h.paths,
                    lists: &h.lists,
                    items: &h.items,
                };
                let returned = tables.returned.get(helper.as_str()).into_iter().flatten();
                // Only the helpers this file's crate can call: a chain on
                // `recent_orders(&c)` is not every copy's `recent_orders`.
                let mut visible = returned
                    .filter(|(tf, _)| tables.crates.file_sees(fi, *tf))
                    .peekable();
                // `self.scan()` with no helper of that name returning a builder: the
                // request it starts, linked as a client call's.
                if h.fallback && visible.peek().is_none() {
                    let mut op = op.clone();
                    let raw = linker.param_ref(fi, &op.table);
                    linker.resolve_op(fi, &mut op, 0);
                    finish(&mut op, escape, fi, cold_glob.as_deref());
                    let per_call = match raw {
                        Some(raw) if table_unknown(&op) => {
                            passed_text(&mut op, linker.table_per_call(fi, &raw, None))
                        }
                        _ => None,
                    };
                    push_per_table(&mut ops, op, per_call);
                    continue;
                }
                // The builders a call of that name may continue: the chain is whole
                // only when there is one.
                let candidates = [&tables.returned, &tables.returned_chains]
                    .into_iter()
                    .filter_map(|by_name| by_name.get(helper.as_str()))
                    .flatten()
                    .filter(|(tf, _)| tables.crates.file_sees(fi, *tf))
                    .count();
                // The chain's own function's parameters it holds or hands the
                // helper, bound at each of its calls that gives them something
                // different (see `param_bindings`), or at none.
                // Asked only of a chain on a helper that returns a builder: every value
                // handed to a function (`S(id)`) is such a chain, and asking their
                // parameters' calls read files again for nothing.
                let bindings = match visible.peek() {
                    Some(_) => linker.chain_bindings(fi, h),
                    None => None,
                };
                let runs: Vec<ChainRun<'_>> = match bindings {
                    Some(calls) => calls
                        .into_iter()
                        .map(|(c, sites)| (Some(c), Some(sites)))
                        .collect(),
                    None => vec![(None, None)],
                };
                for ((tf, ti), (outer, sites)) in
                    visible.flat_map(|t| runs.iter().map(move |r| (t, r)))
                {
                    linker.loop_sites.replace(sites.clone());
                    let run = || {
                        let helper_op = &files[*tf].ops[*ti].0;
                        let mut base = helper_op.clone();
                        // A generic helper (`fn base<T: Entity>(..)` with `T::TABLE`): the
                        // types this call gives it (`base::<User>(&c)`), not another
                        // caller's.
                        let mut resolve =
                            || linker.at_call_site(site, || linker.resolve_op(*tf, &mut base, 0));
                        match linker.types_of_call(*tf, helper_op, fi, op.method_span) {
                            Some(b) => linker.with_types(b, resolve),
                            None => resolve(),
                        }
                        let mut op = op.clone();
                        linker.resolve_op(fi, &mut op, 0);
                        op.kind = base.kind;
                        // What the chain leaves unset the helper may set, unless the
                        // helper is certainly the one function of that name and its
                        // builder, seen whole, sets it not.
                        op.complete_builder = op.complete_builder
                            && base.complete_builder
                            && candidates == 1
                            && sole_def(fi, helper, *tf);
                        // One of several builders the call may continue: sent only if
                        // the call means this one, so no error rests on its table.
                        if candidates > 1 {
                            op.possible_table = true;
                            named_table(&mut op).possible_table = true;
                        }
                        op.method_span = if base.file == op.file {
                            base.method_span
                        } else {
                            op.method_span
                        };
                        let other = base.file != op.file;
                        overlay(&mut op, &base, other);
                        pages_by_helper(&mut op, h, &base);
                        finish(&mut op, escape, fi, cold_glob.as_deref());
                        // The helper's table is its parameter: what this call passes, as
                        // written (`&self.event_table`, which `refs` may list), or each
                        // table the caller's own callers pass it.
                        let per_call = match (&h.op.table, linker.param_ref(*tf, &helper_op.table))
                        {
                            (None, Some(raw)) if table_unknown(&op) => {
                                let text = linker
                                    .arg_text(site, &raw)
                                    .or_else(|| unfollowed_text(h, &raw));
                                if let Some(text) = text {
                                    op.table_text = Some(text);
                                }
                                passed_text(&mut op, linker.table_per_call(*tf, &raw, Some(site)))
                            }
                            _ => None,
                        };
                        (op, per_call)
                    };
                    let (op, per_call) = match outer {
                        Some(c) => linker.at_bound(*c, run),
                        None => run(),
                    };
                    linker.loop_sites.replace(None);
                    push_per_table(&mut ops, op, per_call);
                }
                // A helper that returns another helper's builder with setters of its
                // own (`fn create_query(&self, table, ..) -> QueryFluentBuilder {
                // query_in(&self.client, table, ..) }`): that builder, then its setters,
                // then ours, the inner call's arguments read at this call. One level.
                let chains = tables
                    .returned_chains
                    .get(helper.as_str())
                    .into_iter()
                    .flatten();
                for (gf, gi) in chains.filter(|(gf, _)| tables.crates.file_sees(fi, *gf)) {
                    let Some(g) = files[*gf].helper_calls.get(*gi) else {
                        continue;
                    };
                    let inner = CallSite {
                        file: *gf,
                        function: &g.helper,
                        args: &g.args,
                        values: &g.values,
                        maps: &g.maps,
                        paths: &g.paths,
                        lists: &g.lists,
                        items: &g.items,
                    };
                    let returned = tables.returned.get(g.helper.as_str()).into_iter().flatten();
                    for (bf, bi) in returned.filter(|(bf, _)| tables.crates.file_sees(*gf, *bf)) {
                        let helper_op = &files[*bf].ops[*bi].0;
                        let mut base = helper_op.clone();
                        let mut resolve = || {
                            linker.at_nested_site(inner, site, || {
                                linker.resolve_op(*bf, &mut base, 0)
                            })
                        };
                        match linker.types_of_call(*bf, helper_op, *gf, g.op.method_span) {
                            Some(b) => linker.with_types(b, resolve),
                            None => resolve(),
                        }
                        let mut mid = g.op.clone();
                        linker.at_call_site(site, || linker.resolve_op(*gf, &mut mid, 0));
                        mid.kind = base.kind;
                        if base.file == mid.file {
                            mid.method_span = base.method_span;
                        }
                        let other = base.file != mid.file;
                        overlay(&mut mid, &base, other);
                        let mut op = op.clone();
                        linker.resolve_op(fi, &mut op, 0);
                        op.kind = mid.kind;
                        op.complete_builder = false;
                        if mid.file == op.file {
                            op.method_span = mid.method_span;
                        }
                        let other = mid.file != op.file;
                        overlay(&mut op, &mid, other);
                        pages_by_helper(&mut op, h, &mid);
                        finish(&mut op, escape, fi, cold_glob.as_deref());
                        // The inner helper's table is its parameter, given one of this
                        // helper's parameters: what this call passes for that one.
                        let raw = match (&g.op.table, linker.param_ref(*bf, &helper_op.table)) {
                            (None, Some(raw)) => linker.passed_param(inner, &raw),
                            _ => None,
                        };
                        let per_call = match (&h.op.table, raw) {
                            (None, Some(raw)) if table_unknown(&op) => {
                                if let Some(text) = linker.arg_text(site, &raw) {
                                    op.table_text = Some(text);
                                }
                                passed_text(&mut op, linker.table_per_call(*gf, &raw, Some(site)))
                            }
                            _ => None,
                        };
                        push_per_table(&mut ops, op, per_call);
                    }
                }
            }
            // A helper's own builder is reported only where no caller continues it.
            let continued = |escape: &Escape| {
                matches!(escape, Escape::Returned { function }
                if tables.continued.get(function.as_str()).is_some_and(|chains| {
                    chains.iter().any(|(cf, _)| tables.crates.file_sees(*cf, fi))
                }))
            };
            // The request linked, with the tables its calls give it when they are
            // several (see `per_table`).
            let link_one = |mut op: Operation, escape: &Escape| {
                // One request per binding its callers give it, each finished with the
                // loops around its own callers' calls; identical ones are one.
                let per_binding = |resolved: &mut dyn Iterator<Item = (Operation, _)>| {
                    let mut each: Vec<Operation> = Vec::new();
                    for (mut one, sites) in resolved {
                        linker.loop_sites.replace(Some(sites));
                        finish(&mut one, escape, fi, cold_glob.as_deref());
                        linker.loop_sites.replace(None);
                        // The same request made by two calls is one, made at neither.
                        let at = one.context.called_at.take();
                        let same = each.iter_mut().find_map(|o| {
                            let theirs = o.context.called_at.take();
                            let same = *o == one;
                            o.context.called_at = theirs;
                            same.then_some(o)
                        });
                        match same {
                            Some(o) if o.context.called_at != at => o.context.called_at = None,
                            Some(_) => {}
                            None => {
                                one.context.called_at = at;
                                each.push(one);
                            }
                        }
                    }
                    let mut it = each.into_iter();
                    (it.next(), it.collect())
                };
                // A generic function's request: one per type its callers give it.
                if let Some(bindings) = linker.type_bindings(fi, &op) {
                    return per_binding(&mut bindings.into_iter().map(|b| {
                        let mut one = op.clone();
                        let sites = b.sites.clone();
                        linker.with_types(b, || linker.resolve_op(fi, &mut one, 0));
                        (one, sites)
                    }));
                }
                // A helper whose names or expressions are its parameters, which its
                // calls give different values: one request per caller.
                if let Some(calls) = linker.param_bindings(fi, &op) {
                    let raw = linker.param_ref(fi, &op.table);
                    return per_binding(&mut calls.into_iter().flat_map(|(bound, sites)| {
                        let mut one = op.clone();
                        linker.at_bound(bound, || linker.resolve_op(fi, &mut one, 0));
                        let site = bound.site;
                        let Some(raw) = raw.as_ref().filter(|_| table_unknown(&one)) else {
                            return vec![(one, sites)];
                        };
                        // A table the call passes as written (`&self.config.table`),
                        // which a table's `refs` may list.
                        if let Some(text) = linker.arg_text(site, raw) {
                            one.table_text = Some(text);
                        }
                        // `&self.table` of an instance built with different tables:
                        // one request per table, each possible.
                        if let Some(tables) = linker.site_instance_tables(site, raw) {
                            return (tables.into_iter())
                                .map(|t| {
                                    let table = Resolved::Const {
                                        name: raw.text.to_string(),
                                        value: Box::new(t),
                                    };
                                    (on_possible_table(&one, table), sites.clone())
                                })
                                .collect();
                        }
                        // A table the call passes on from its own function's parameter
                        // (`Repo::new(c).query(table_name, ..)` in `fn stats(c,
                        // table_name)`): what that function's callers pass, as for a
                        // chain on a helper's builder.
                        let tables =
                            passed_text(&mut one, linker.table_per_call(fi, raw, Some(site)));
                        let (first, rest) = per_table(one, tables);
                        (first.into_iter().chain(rest))
                            .map(|each| (each, sites.clone()))
                            .collect()
                    }));
                }
                let source = linker.table_source(fi, &named_table(&mut op).table);
                let raw = source
                    .clone()
                    .filter(|pr| matches!(pr.kind, RefKind::Param { .. }));
                let source_text = linker.table_source_text(fi, &named_table(&mut op).table);
                linker.resolve_op(fi, &mut op, 0);
                if table_unknown(named_table(&mut op)) && source_text.is_some() {
                    named_table(&mut op).table_text = source_text;
                }
                let per_call = match raw {
                    Some(raw) if table_unknown(named_table(&mut op)) => {
                        passed_text(named_table(&mut op), linker.table_per_call(fi, &raw, None))
                    }
                    _ => None,
                };
                // `self.table`, which the constructors' calls set to different tables:
                // one request per table, each possible only (see `instance_tables`).
                if per_call.is_none() && table_unknown(named_table(&mut op)) {
                    if let Some(tables) = source.and_then(|pr| linker.instance_tables(fi, &pr)) {
                        finish(&mut op, escape, fi, cold_glob.as_deref());
                        let mut each = tables.into_iter().map(|t| on_possible_table(&op, t));
                        let first = each.next();
                        return (first, each.collect());
                    }
                }
                // One request per table, each repeated only by the loops around the
                // calls that pass it.
                match per_call {
                    Some(tables) => per_binding(&mut tables.into_iter().map(|t| {
                        let mut one = op.clone();
                        one.possible_table |= t.possible;
                        one.table = Some(t.table);
                        if t.text.is_some() {
                            one.table_text = t.text;
                        }
                        (one, t.sites)
                    })),
                    None => {
                        finish(&mut op, escape, fi, cold_glob.as_deref());
                        (Some(op), Vec::new())
                    }
                }
            };
            match taken.get_mut(fi).and_then(Option::take) {
                // Moved out of the index: linked as they are, in place, each written
                // over its own slot of the index's list (std collects a `Vec`'s
                // `into_iter().filter_map(..)` into its own allocation): moved into a
                // fresh list instead, the 40,000-call file's 60 MB of operations were
                // copied and their new pages faulted in, on one core, while the old
                // list was still held.
                Some(own) => {
                    let carried = carried_items(own.iter().map(|(o, e)| (o, e)), f, |h, i| {
                        takes_items(fi, h, i)
                    });
                    // The requests linked once per table beyond the first (rare),
                    // by the position they follow.
                    let mut more: Vec<(usize, Vec<Operation>)> = Vec::new();
                    let mut at = 0usize;
                    let linked: Vec<Operation> = own
                        .into_iter()
                        .filter(|(op, escape)| !continued(escape) && alone(op, escape, &carried))
                        .filter_map(|(op, escape)| {
                            let (first, rest) = link_one(op, &escape);
                            if !rest.is_empty() {
                                more.push((at, rest));
                            }
                            at += usize::from(first.is_some());
                            first
                        })
                        .collect();
                    append_linked(&mut ops, linked, more, ops_wanted);
                }
                None => {
                    // Copied on every core first: copied one after another, 40,000
                    // of them (1.5 KB each) were most of a large file's link, on one
                    // core while the other waited.
                    let carried = carried_items(f.ops.iter().map(|(o, e)| (o, e)), f, |h, i| {
                        takes_items(fi, h, i)
                    });
                    let copies: Vec<Option<Operation>> = f
                        .ops
                        .par_iter()
                        .with_min_len(256)
                        .map(|(op, escape)| {
                            (!continued(escape) && alone(op, escape, &carried)).then(|| op.clone())
                        })
                        .collect();
                    for (op, (_, escape)) in copies.into_iter().zip(&f.ops) {
                        if let Some(op) = op {
                            let (first, rest) = link_one(op, escape);
                            ops.extend(first);
                            ops.extend(rest);
                        }
                    }
                }
            }
        });
        reads[fi] = read.reads;
        looked[fi] = read.looked;
    }
    for (fi, f) in files.iter().enumerate().filter(|(fi, _)| wanted(*fi)) {
        let ((), read) = linker.tracked(|| {
            for d in &f.tables {
                let mut d = d.clone();
                linker.resolve_decl(fi, &mut d);
                result.tables.push(d.clone());
                decls[fi].push(d);
            }
        });
        reads[fi].extend(read.reads);
        looked[fi].extend(read.looked);
    }
    // What only building operations needed goes before they are sorted; the sort
    // moves them in place (a stable `sort_by` would take half their size again).
    drop(built);
    drop(fns_by_name);
    result.operations = ops;
    result
        .operations
        .sort_by_cached_key(|op| (op.file.clone(), op.span.start));
    result.problems.sort_by(|a, b| {
        (&a.file, a.span.map(|s| s.start)).cmp(&(&b.file, b.span.map(|s| s.start)))
    });
    Linked {
        result,
        tables: decls,
        graph: computed,
        reads,
        asked: linker.asked.take(),
        asked_values: linker.asked_values.take(),
        asked_paths: linker.asked_paths.take(),
        wanted: linker.wanted.take(),
        looked,
    }
}

/// Each file's call graph with the entries hot-paths globs and handler macros make:
/// in a file matched by a hot-paths glob every function is an entry, and a call of
/// one of the crate's handler macros (`macro_rules!` that start a Lambda runtime)
/// registers the functions it names or defines, in whichever file. Only the files
/// that change are copied.
fn hot_entries<'f>(
    files: &'f [Arc<FileIndex>],
    tables: &Tables,
    hot_globs: Option<&(GlobSet, Vec<String>)>,
    settings: &ScanSettings,
) -> Vec<Cow<'f, [FnNode]>> {
    // A call of a handler macro its crate can name (its own, or a dependency's).
    let macro_entry = |fi: usize, n: &FnNode| {
        (n.name.starts_with(MACRO_CALL_PREFIX)
            && tables
                .entry_macros
                .get(n.qualified.as_ref())
                .is_some_and(|defs| defs.iter().any(|(mf, _)| tables.crates.file_sees(fi, *mf))))
        .then(|| format!("handler macro `{}!`", n.qualified))
    };
    let mut out: Vec<Cow<'_, [FnNode]>> = Vec::with_capacity(files.len());
    for (fi, f) in files.iter().enumerate() {
        let hot = glob_match(hot_globs, &f.path, settings.root.as_deref());
        let registers = f.fns.iter().any(|n| macro_entry(fi, n).is_some());
        if hot.is_none() && !registers {
            out.push(Cow::Borrowed(&f.fns));
            continue;
        }
        let mut fns = f.fns.clone();
        for n in &mut fns {
            if n.entry.is_none() && !n.test {
                n.entry = macro_entry(fi, n).or_else(|| {
                    hot.as_ref()
                        .filter(|_| !n.name.starts_with(ENTRY_PREFIX))
                        .map(|g| format!("hot-paths glob `{g}`"))
                });
            }
        }
        out.push(Cow::Owned(fns));
    }
    out
}

/// The hot chain or cold reason of an operation's enclosing function.
fn decide_heat(
    op: &mut Operation,
    fi: usize,
    around: Option<usize>,
    graphs: &[&[FnNode]],
    (reached, one_off): (&Reached, &FnSet),
    files: &[Arc<FileIndex>],
    cold_glob: Option<&str>,
) {
    if let Some(g) = cold_glob {
        op.context.cold.get_or_insert(ColdReason::ColdPathGlob {
            glob: g.to_string(),
        });
    }
    let Some(fns) = graphs.get(fi) else { return };
    // The innermost function with the call's qualified name that contains it.
    let Some((index, node)) = around.and_then(|i| Some((i, fns.get(i)?))) else {
        return;
    };
    if node.test {
        op.context.cold.get_or_insert(ColdReason::Test);
    }
    let id = FnId::new(fi, index);
    // A request path wins: a helper a handler also calls is not one-off.
    if one_off.contains(&id) && !reached.contains(&id) {
        op.context.cold.get_or_insert(ColdReason::OneOffBinary);
    }
    if op.context.cold.is_some() {
        return;
    }
    if let Some((entry, chain)) = reached.get(&id) {
        let steps = chain
            .iter()
            .filter_map(|id| {
                let n = graphs.get(id.file())?.get(id.index())?;
                let f = files.get(id.file())?;
                if n.name.starts_with(ENTRY_PREFIX) {
                    return None;
                }
                Some(CallStep {
                    function: n.qualified.to_string(),
                    file: f.path.clone(),
                    span: n.span,
                })
            })
            .collect();
        op.context.hot = Some(HotReason {
            entry: entry.to_string(),
            chain: steps,
        });
    }
}

/// The first pattern of `globs` a file matches: by its path relative to the project's
/// root (the folder of `dynalint.toml`), or as given.
fn glob_match(
    globs: Option<&(GlobSet, Vec<String>)>,
    path: &std::path::Path,
    root: Option<&std::path::Path>,
) -> Option<String> {
    let (set, pats) = globs?;
    let first = |p: &std::path::Path| set.matches(p).first().map(|i| pats[*i].clone());
    let relative = root.and_then(|root| {
        let abs = std::fs::canonicalize(path).ok()?;
        abs.strip_prefix(root)
            .ok()
            .map(std::path::Path::to_path_buf)
    });
    relative
        .as_deref()
        .and_then(first)
        .or_else(|| first(path))
        .or_else(|| path.strip_prefix(".").ok().and_then(first))
}

fn globs(patterns: &[String], problems: &mut Vec<ScanProblem>) -> Option<(GlobSet, Vec<String>)> {
    if patterns.is_empty() {
        return None;
    }
    let mut b = GlobSetBuilder::new();
    let mut kept = Vec::new();
    for p in patterns {
        match Glob::new(p) {
            Ok(g) => {
                b.add(g);
                kept.push(p.clone());
            }
            Err(e) => problems.push(ScanProblem {
                file: Arc::from(std::path::Path::new("dynalint.toml")),
                span: None,
                message: format!("invalid path glob `{p}`: {e}"),
            }),
        }
    }
    b.build().ok().map(|s| (s, kept))
}

/// Applies what a helper does to a builder on top of the caller's operation.
fn overlay(op: &mut Operation, helper: &Operation, other_file: bool) {
    let at = op.method_span;
    let fix = |s: Span| if other_file { at } else { s };
    macro_rules! take {
        ($f:ident) => {
            if op.$f.is_none() {
                op.$f = helper.$f.clone();
            }
        };
    }
    if op.table.is_none() {
        op.table = helper.table.clone();
        op.table_span = helper.table_span.map(fix);
        op.table_text = helper.table_text.clone();
    }
    if op.index.is_none() {
        op.index = helper.index.clone();
        op.index_span = helper.index_span.map(fix);
    }
    for (slot, from) in [
        (&mut op.key_condition, &helper.key_condition),
        (&mut op.filter, &helper.filter),
        (&mut op.condition, &helper.condition),
        (&mut op.projection, &helper.projection),
        (&mut op.update, &helper.update),
        (&mut op.statement, &helper.statement),
    ] {
        if slot.is_none() {
            *slot = from.clone().map(|mut e| {
                if other_file {
                    e.span = at;
                    e.literal_start = None;
                }
                e
            });
        }
    }
    for (k, v) in &helper.names {
        op.names.entry(k.clone()).or_insert_with(|| {
            let mut v = v.clone();
            v.span = fix(v.span);
            v
        });
    }
    for (k, v) in &helper.values {
        op.values.entry(k.clone()).or_insert_with(|| {
            let mut v = v.clone();
            v.span = fix(v.span);
            v
        });
    }
    take!(item);
    take!(key);
    take!(consistent_read);
    take!(limit);
    take!(scan_index_forward);
    take!(select);
    take!(total_segments);
    take!(parameter_list);
    op.names_complete &= helper.names_complete;
    op.values_complete &= helper.values_complete;
    op.paginated |= helper.paginated;
    op.exclusive_start_key |= helper.exclusive_start_key;
    // The helper that sends the builder (`Passed`) decides how its response is read.
    op.first_item_only |= helper.first_item_only;
    if op.children.is_empty() {
        op.children = helper.children.clone();
    } else if matches!(
        op.kind,
        OpKind::TransactWriteItems | OpKind::TransactGetItems
    ) && !op.setters.iter().any(|s| s.method == "set_transact_items")
    {
        // `transact_items(item)` adds to the items the helper's builder holds: the
        // transaction carries both (a `set_transact_items` of the chain replaces them).
        let mut children = helper.children.clone();
        children.append(&mut op.children);
        op.children = children;
    }
    // The helper's setter calls, before the chain's: what counts calls (one
    // `transact_items(item)`, a statement's `parameters`) sees the whole request. In
    // another file their spans would point into this one, where a fix would edit the
    // wrong text: left out there.
    if !other_file {
        let mut setters: Vec<SetterCall> = (helper.setters.iter())
            .filter(|h| !op.setters.iter().any(|s| s.span == h.span))
            .cloned()
            .collect();
        setters.append(&mut op.setters);
        op.setters = setters;
    }
}

/// The text of the argument `h` passes for `param` when dynalint cannot follow it
/// (`ctx.refresh_table()`): the table is then known by that text, as it is when the
/// chain sets it in place.
fn unfollowed_text(h: &HelperCall, param: &PendingRef) -> Option<String> {
    let RefKind::Param { index, arity, .. } = &param.kind else {
        return None;
    };
    if h.args.len() != *arity {
        return None;
    }
    h.texts.get(*index)?.as_deref().map(str::to_string)
}

/// A chain in a loop on a helper's builder that sets `exclusive_start_key`
/// (`scan_page(&c, table, last_key.clone()).send()`): the loop around the chain is
/// read as it is around a chain that sets the key itself (see `LoopShape`), so a loop
/// that feeds `last_evaluated_key` back pages rather than repeats the read.
fn pages_by_helper(op: &mut Operation, h: &HelperCall, helper: &Operation) {
    let Some((in_loop, paged)) = &h.if_helper_pages else {
        return;
    };
    if helper.exclusive_start_key && !h.op.exclusive_start_key {
        op.context.in_loop = in_loop.clone();
        op.paginated |= *paged;
    }
}

/// `value as ty` for a number's text (`4294967295` as `i32` is `-1`); `None` for no
/// integer or no integer type.
fn cast_int(value: &str, ty: &str) -> Option<String> {
    use crate::scanner::index::ints::{cast, parse_int};
    cast(parse_int(value)?, ty).map(|n| n.to_string())
}

/// Whether a linked request's table is unknown.
/// What the calls of a request's function pass its table parameter
/// ([`Linker::table_per_call`]).
enum Passed {
    /// Several tables: the request is linked once per table.
    Tables(Vec<TablePassed>),
    /// One argument, the same text at every call.
    Text(String),
    Nothing,
}

/// One table the calls of a request's function pass it.
#[derive(Debug)]
struct TablePassed {
    table: Resolved,
    /// The argument's text, which a table's `refs` may list.
    text: Option<String>,
    /// The calls that pass it: the only ones a loop around repeats it.
    sites: Vec<(usize, Span)>,
    /// Passed as `self.table` of an instance whose constructors give it different
    /// tables ([`Linker::instance_tables`]): a table the request may have, not one it
    /// certainly has (`Operation::possible_table`).
    possible: bool,
}

/// [`Linker::table_per_call`]'s tables; the one text every call passes is put in the
/// request's `table_text` (what binding by `refs` reads).
fn passed_text(op: &mut Operation, passed: Passed) -> Option<Vec<TablePassed>> {
    match passed {
        Passed::Tables(tables) => Some(tables),
        Passed::Text(text) => {
            op.table_text = Some(text);
            None
        }
        Passed::Nothing => None,
    }
}

/// Where the items the file's requests (and chains on helpers' builders) carry start
/// (`index/loose.rs`), with the items a chain hands a helper whose transaction takes
/// them (`binds(h, argument)`, see `ParamParts::items`).
fn carried_items<'a>(
    ops: impl Iterator<Item = (&'a Operation, &'a Escape)>,
    f: &'a FileIndex,
    binds: impl Fn(&HelperCall, usize) -> bool,
) -> std::collections::HashSet<usize> {
    let chains = f.helper_calls.iter().map(|h| (&h.op, &h.escape));
    let mut starts = crate::scanner::index::loose::carried(ops.chain(chains));
    for h in f.helper_calls.iter().filter(|h| !h.items.is_empty()) {
        for (_, item) in h.items.iter().filter(|(i, _)| binds(h, *i)) {
            starts.insert(item.span.start);
            starts.extend(crate::scanner::index::loose::carried(std::iter::once((
                item,
                &Escape::None,
            ))));
        }
    }
    starts
}

/// Whether an operation is linked as a request of its own: a transaction's item built
/// on its own is not when a request of its file carries it.
fn alone(op: &Operation, escape: &Escape, carried: &std::collections::HashSet<usize>) -> bool {
    !matches!(escape, Escape::Item) || !carried.contains(&op.span.start)
}

/// The request that names the table: the request itself, or the one item of a
/// transaction built on its own (`index/loose.rs`), which names none.
fn named_table(op: &mut Operation) -> &mut Operation {
    if op.table.is_none() && op.children.len() == 1 {
        return &mut op.children[0];
    }
    op
}

fn table_unknown(op: &Operation) -> bool {
    op.table
        .as_ref()
        .is_some_and(|t| matches!(t.innermost(), Resolved::Unknown { .. }))
}

/// A copy of `op` on `table`, one of the tables an instance's field may hold: marked
/// possible (`Operation::possible_table`), on the request and on the one that names
/// the table.
fn on_possible_table(op: &Operation, table: Resolved) -> Operation {
    let mut one = op.clone();
    one.possible_table = true;
    let named = named_table(&mut one);
    named.table = Some(table);
    named.possible_table = true;
    one
}

/// A linked request, or one per table when its calls give it different tables
/// ([`Linker::table_per_call`]).
fn push_per_table(ops: &mut Vec<Operation>, op: Operation, tables: Option<Vec<TablePassed>>) {
    let (first, rest) = per_table(op, tables);
    ops.extend(first);
    ops.extend(rest);
}

/// [`push_per_table`]'s requests: the first table's, and the others' (none when the
/// request is linked once).
fn per_table(
    op: Operation,
    tables: Option<Vec<TablePassed>>,
) -> (Option<Operation>, Vec<Operation>) {
    let Some(tables) = tables else {
        return (Some(op), Vec::new());
    };
    let mut each = tables.into_iter().map(|t| {
        let mut one = op.clone();
        one.possible_table |= t.possible;
        let named = named_table(&mut one);
        named.table = Some(t.table);
        named.possible_table |= t.possible;
        if t.text.is_some() {
            named.table_text = t.text;
        }
        one
    });
    let first = each.next();
    (first, each.collect())
}

/// Appends a file's operations linked in their own list (`linked`, with `more`: the
/// requests linked once per table beyond the first, after the position in `linked`
/// each follows) to `ops`, which then has room for `total` operations. Into an empty
/// `ops`, `linked` is taken as it is: its list is not copied.
fn append_linked(
    ops: &mut Vec<Operation>,
    linked: Vec<Operation>,
    more: Vec<(usize, Vec<Operation>)>,
    total: usize,
) {
    let mut linked = if more.is_empty() {
        linked
    } else {
        let extra: usize = more.iter().map(|(_, m)| m.len()).sum();
        let mut out = Vec::with_capacity(linked.len() + extra);
        let mut more = more.into_iter().peekable();
        for (i, op) in linked.into_iter().enumerate() {
            out.push(op);
            while let Some((_, rest)) = more.next_if(|(at, _)| *at == i) {
                out.extend(rest);
            }
        }
        out
    };
    if ops.is_empty() {
        *ops = linked;
        ops.reserve(total.saturating_sub(ops.len()));
    } else {
        ops.reserve(total.saturating_sub(ops.len()));
        ops.append(&mut linked);
    }
}

/// Lookups over every file's constants, constructors and structs.
/// The files declaring a struct, and those declaring a data-less enum, by name.
type TypeNames = HashMap<Name, (Vec<usize>, Vec<usize>)>;

struct Linker<'a> {
    files: &'a [Arc<FileIndex>],
    /// Every file's entries by name.
    tables: &'a Tables,
    /// The files declaring a struct, and a data-less enum, of each name (from every
    /// file's tokens); made the first time a field's type is asked.
    type_names: std::cell::OnceCell<TypeNames>,
    /// What each function returns, once linked; `None` while it is being resolved, so
    /// recursion ends instead of looping.
    fn_results: RefCell<FnResults>,
    /// A parameter's value by (function, parameter, impl type, package, text), once
    /// followed; `None` while it is being followed. Without it, every use of a
    /// parameter re-followed every call of its function: on a 10-million-line tree
    /// with a hundred copies of the same crates, the link never ended.
    param_results: RefCell<ParamResults>,
    /// Whether calls in test code count when following a parameter: only for a
    /// `create_table` that names no table otherwise (a test helper's table is the
    /// one the tests use).
    tests_count: std::cell::Cell<bool>,
    /// When asked for: a stack of the functions whose calls' arguments what is being
    /// linked read (through parameters it follows), innermost last.
    reads: Option<RefCell<Vec<Deps>>>,
    /// Every parameter whose calls' arguments were read.
    asked: RefCell<HashSet<RefKind>>,
    /// Those of them whose calls' arguments were read as values or maps too.
    asked_values: RefCell<HashSet<RefKind>>,
    /// Those read for their texts per path only (see [`Linked::asked_paths`]).
    asked_paths: RefCell<HashSet<RefKind>>,
    /// Every name looked up in the tables (see [`Linked::wanted`]).
    wanted: RefCell<Wanted>,
    /// While a helper's returned builder is resolved for one chain that continues it:
    /// that call, whose arguments are the helper's parameters.
    call_site: RefCell<Option<CallSite<'a>>>,
    /// The calls being followed around `call_site`, innermost last (each the call of
    /// the function the next one is in): a chain on a helper's builder in
    /// `find_by_user`, linked at `count_by_user`'s call of it.
    enclosing: RefCell<Vec<Option<CallSite<'a>>>>,
    /// While a request is linked once per caller of a generic function: the types
    /// that caller gives it (see [`TypeBinding`]).
    types_at: RefCell<Option<TypeBinding>>,
    /// While such a request's loop is looked for: the calls that make it, so that a
    /// loop around another caller's call is not its.
    loop_sites: RefCell<Option<Vec<(usize, Span)>>>,
}

/// The types one call of a generic function gives its type parameters: `function` (of
/// impl `self_ty`), `of_fn` its own (`find::<User>(..)`) and `of_impl` the arguments of
/// its impl's type (`Repository::<User>::new(..)` as the receiver).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct TypeBinding {
    function: Name,
    self_ty: Option<Name>,
    /// The file of the call: the types are named there.
    file: usize,
    of_fn: Box<[Name]>,
    of_impl: Box<[Name]>,
    /// The calls that give these types (file, the called name): a loop around one of
    /// them repeats this request.
    sites: Vec<(usize, Span)>,
}

/// A call of a helper (`self.create_query(table, ..)` in `query_table`), in file `file`.
#[derive(Clone, Copy)]
struct CallSite<'a> {
    file: usize,
    function: &'a str,
    args: &'a [Option<Resolved>],
    /// What each argument is as an attribute value, for a chain on a helper's
    /// returned builder (`HelperCall::values`); empty for other calls.
    values: &'a [ValueInfo],
    /// The same as item or key maps (`HelperCall::maps`).
    maps: &'a [AttrMap],
    /// Each argument's texts per path, when it is a string appended to on some paths
    /// only (`HelperCall::paths`; empty when none is, and for other calls).
    paths: &'a [Option<PathStrings>],
    /// Each argument's length as a list literal (`HelperCall::lists`,
    /// `ArgSite::lists`): what a `set_parameters(params)` holds for this call.
    lists: &'a [Option<usize>],
    /// The transaction items each argument builds (`HelperCall::items`): what a
    /// helper's `transact_items(items)` holds for this call.
    items: &'a [(usize, Operation)],
}

/// What a parameter is to the request that holds it ([`Linker::params_in`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    /// Its table or index.
    Table,
    /// A name: an attribute's name, `#name`.
    Name,
    /// An expression (a key condition, a filter): a name, which a call may also
    /// build per path (`ArgSite::paths`, read with the values).
    Expr,
    /// An attribute value, a `:value`, a number (the limit).
    Value,
    /// An item or key map.
    Map,
    /// A PartiQL statement's parameter list (`set_parameters(params)`): its length.
    List,
}

/// A value as what tells two calls' values apart (its text, type and where it comes
/// from), when it says anything; only compared, never shown.
fn value_key(v: &ValueInfo) -> Option<String> {
    let said = v.literal.is_some()
        || v.ty.is_some()
        || v.text.is_some()
        || !matches!(v.provenance, Provenance::Unknown | Provenance::Param);
    said.then(|| {
        format!(
            "{:?}{:?}{:?}{:?}{}",
            v.literal, v.text, v.ty, v.provenance, v.nullable
        )
    })
}

/// A map as what tells two calls' maps apart (its attributes' names and values), when
/// it says anything; only compared, never shown.
fn map_key(m: &AttrMap) -> Option<String> {
    if m.attributes.is_empty() {
        return None;
    }
    let mut key = String::new();
    for a in &m.attributes {
        key.push_str(a.name.value().unwrap_or("?"));
        key.push('=');
        key.push_str(&value_key(&a.value).unwrap_or_default());
        key.push(';');
    }
    key.push_str(if m.complete { "." } else { "…" });
    Some(key)
}

/// A chain on a helper's builder linked at one call of its own function (with the
/// calls that give the same), or at none.
type ChainRun<'a> = (Option<Bound<'a>>, Option<Vec<(usize, Span)>>);

/// One caller's binding of a helper's parameters: a call that passes one set of values,
/// and every call (file, called name) that passes the same.
type PerCaller<'a> = (Bound<'a>, Vec<(usize, Span)>);

/// A call of a request's function that binds its parameters, and, when what it
/// passes is a parameter of the function it is in, the call of that function that
/// gives it (`find_by_user`'s `Repo::new(&c).query(limit as i32)`, at `count_by_user`'s
/// `self.find_by_user(id, u32::MAX)`): two levels, read as [`Linker::at_nested_site`]
/// reads them.
#[derive(Clone, Copy)]
struct Bound<'a> {
    site: CallSite<'a>,
    outer: Option<CallSite<'a>>,
}

/// A request's table read from a parameter whose calls pass different tables is linked
/// once per table, up to this many; beyond it the table stays unknown.
const MAX_TABLE_SPLIT: usize = 4;

/// The functions whose calls' arguments (`ArgSite`s) a result was read from: an edit
/// that changes what those calls pass changes it.
pub(super) type Reads = HashSet<Name>;

/// What a result was read from, when tracked: the functions whose calls' arguments
/// it read, and the lookups it made in the tables.
#[derive(Default)]
struct Deps {
    reads: Reads,
    looked: Looked,
}

impl Deps {
    fn extend(&mut self, other: &Deps) {
        self.reads.extend(other.reads.iter().cloned());
        self.looked.extend(other.looked.iter().copied());
    }
}

type ParamKey = (Name, usize, usize, Option<Name>, usize, Name, bool);
// Looked up for every reference the link follows: foldhash, as `names.rs` explains.
type ParamResults = foldhash::HashMap<ParamKey, Option<(Resolved, Rc<Deps>)>>;

/// Linked function results by (file, index into its `returns`).
type FnResults = foldhash::HashMap<(usize, usize), Option<(Resolved, ValueInfo, Rc<Deps>)>>;

impl<'a> Linker<'a> {
    fn new(files: &'a [Arc<FileIndex>], tables: &'a Tables, track: bool) -> Self {
        Self {
            files,
            tables,
            type_names: std::cell::OnceCell::new(),
            fn_results: RefCell::default(),
            param_results: RefCell::default(),
            tests_count: std::cell::Cell::new(false),
            reads: track.then(|| RefCell::new(Vec::new())),
            asked: RefCell::new(HashSet::new()),
            asked_values: RefCell::new(HashSet::new()),
            asked_paths: RefCell::new(HashSet::new()),
            wanted: RefCell::default(),
            call_site: RefCell::new(None),
            enclosing: RefCell::new(Vec::new()),
            types_at: RefCell::new(None),
            loop_sites: RefCell::new(None),
        }
    }

    /// Runs `f` with the parameters of `site`'s function bound to what `site` passes.
    fn at_call_site<R>(&self, site: CallSite<'a>, f: impl FnOnce() -> R) -> R {
        let outer = self.call_site.replace(Some(site));
        self.enclosing.borrow_mut().push(outer);
        let r = f();
        let outer = self.enclosing.borrow_mut().pop().flatten();
        self.call_site.replace(outer);
        r
    }

    /// Runs `f` where the call being followed is: with the call of its own function
    /// that encloses it bound (`count_by_user`'s call of `find_by_user`, while a
    /// helper `find_by_user` continues is followed), or none. What a call passes is
    /// read there.
    fn in_caller<R>(&self, f: impl FnOnce() -> R) -> R {
        let popped = self.enclosing.borrow_mut().pop();
        let current = self.call_site.replace(popped.flatten());
        let r = f();
        let outer = self.call_site.replace(current);
        if popped.is_some() {
            self.enclosing.borrow_mut().push(outer);
        }
        r
    }

    /// [`Self::at_call_site`] for `inner`, a call in a helper of what `outer` calls
    /// (`query_in(&self.client, table, ..)` returned by the `create_query(table, ..)`
    /// that `outer` continues): `inner`'s arguments are read with `outer`'s bound
    /// (`outer` encloses it, see [`Self::in_caller`]).
    fn at_nested_site<R>(
        &self,
        inner: CallSite<'a>,
        outer: CallSite<'a>,
        f: impl FnOnce() -> R,
    ) -> R {
        self.at_call_site(outer, || self.at_call_site(inner, f))
    }

    /// Runs `f` with `b`'s calls bound: its call, and the call around it when it
    /// has one.
    fn at_bound<R>(&self, b: Bound<'a>, f: impl FnOnce() -> R) -> R {
        match b.outer {
            Some(outer) => self.at_nested_site(b.site, outer, f),
            None => self.at_call_site(b.site, f),
        }
    }

    /// The call being followed and the parameter's place in it, when `pr` is one of
    /// that call's function's parameters (same name, same number of arguments).
    fn param_at_site(&self, pr: &PendingRef) -> Option<(CallSite<'a>, usize)> {
        let RefKind::Param {
            function,
            index,
            arity,
            ..
        } = &pr.kind
        else {
            return None;
        };
        let site = (*self.call_site.borrow())?;
        (site.function == &**function && site.args.len() == *arity).then_some((site, *index))
    }

    /// A parameter's value at the call being followed, when the reference is one of
    /// that call's function's parameters and the call passes a value dynalint can read.
    fn at_site(&self, pr: &PendingRef, depth: usize) -> Option<Resolved> {
        let (site, index) = self.param_at_site(pr)?;
        // Bound to this call: what it passes, or nothing known (never what the other
        // calls pass).
        let Some(mut v) = site.args.get(index).cloned().flatten() else {
            return Some(Resolved::Const {
                name: pr.text.to_string(),
                value: Box::new(Resolved::unknown("an argument dynalint cannot follow")),
            });
        };
        // The argument is read where the call is.
        self.in_caller(|| self.resolve(site.file, &mut v, depth + 1));
        Some(Resolved::Const {
            name: pr.text.to_string(),
            value: Box::new(v),
        })
    }

    /// An attribute value that is a parameter of a helper returning a builder
    /// (`.item("pk", pk)` in `fn put_in(c, pk: AttributeValue) -> PutItemFluentBuilder`)
    /// at the chain being linked that continues it: what that call passes, read where
    /// the call is. `None` for any other call (a parameter's value is then what it
    /// was: unknown, of the parameter's provenance).
    fn value_at_site(&self, pr: &PendingRef) -> Option<ValueInfo> {
        let (site, index) = self.param_at_site(pr)?;
        let mut v = site.values.get(index)?.clone();
        self.in_caller(|| self.resolve_value(site.file, &mut v));
        Some(v)
    }

    /// The length of the list literal the call being followed passes for a list
    /// parameter (`set_parameters(params)` of a helper, given `Some(vec![a, b])`).
    fn list_at_site(&self, pr: &PendingRef) -> Option<usize> {
        let (site, index) = self.param_at_site(pr)?;
        site.lists.get(index).copied().flatten()
    }

    /// The texts an expression that is a parameter of a helper returning a builder
    /// (`.key_condition_expression(kc)`) has on each path of the call being followed,
    /// when that call passes a string it appends to on some paths only.
    /// The text is the caller's argument as it names it (`key_condition`), read where
    /// the call is.
    fn paths_at_site(&self, fi: usize, e: &ExprArg) -> Option<(Resolved, Box<[String]>)> {
        if !e.paths.is_empty() {
            return None;
        }
        let pr = self.pending_ref(fi, Some(&e.text))?;
        let (site, index) = self.param_at_site(&pr)?;
        let passed = site.paths.get(index)?.as_ref()?;
        let mut text = passed.text.clone();
        self.in_caller(|| self.resolve(site.file, &mut text, 1));
        Some((text, passed.paths.clone()))
    }

    /// [`Self::value_at_site`] for an item or key map a helper is given.
    fn map_at_site(&self, pr: &PendingRef, depth: usize) -> Option<AttrMap> {
        let RefKind::Param {
            function,
            index,
            arity,
            ..
        } = &pr.kind
        else {
            return None;
        };
        let site = (*self.call_site.borrow())?;
        if site.function != &**function || site.args.len() != *arity || depth >= 4 {
            return None;
        }
        let mut m = site.maps.get(*index)?.clone();
        self.in_caller(|| self.resolve_map_at(site.file, &mut m, Span::new(0, 0), depth + 1));
        Some(m)
    }

    /// Runs `f`, and says which functions' calls it read the arguments of (when
    /// tracking); what it read, what encloses it read too.
    fn tracked<R>(&self, f: impl FnOnce() -> R) -> (R, Deps) {
        let Some(stack) = &self.reads else {
            return (f(), Deps::default());
        };
        stack.borrow_mut().push(Deps::default());
        let r = f();
        let mut stack = stack.borrow_mut();
        let mine = stack.pop().unwrap_or_default();
        if let Some(outer) = stack.last_mut() {
            outer.extend(&mine);
        }
        (r, mine)
    }

    /// Notes that what is being linked read what a cached result was read from.
    fn read_deps(&self, deps: &Deps) {
        if let Some(stack) = &self.reads {
            if let Some(top) = stack.borrow_mut().last_mut() {
                top.extend(deps);
            }
        }
    }

    /// Notes that what is being linked read the arguments of calls of `names`.
    fn read<'n>(&self, names: impl IntoIterator<Item = &'n Name>) {
        if let Some(stack) = &self.reads {
            if let Some(top) = stack.borrow_mut().last_mut() {
                top.reads.extend(names.into_iter().cloned());
            }
        }
    }

    /// Records a lookup in the tables made for file `fi` (see [`Linked::wanted`]).
    fn want(&self, fi: usize, lookup: deferred::Lookup) {
        let from = self.tables.crates.of(fi);
        self.wanted.borrow_mut().insert((lookup, from));
        if let Some(stack) = &self.reads {
            if let Some(top) = stack.borrow_mut().last_mut() {
                top.looked.insert(lookup);
            }
        }
    }

    /// Whether code in file `from` can name what file `to` defines (its own crate's,
    /// or a dependency's).
    fn sees(&self, from: usize, to: usize) -> bool {
        self.tables.crates.file_sees(from, to)
    }

    /// The type the alias `name` stands for, seen from file `fi` (`DynamoStore` of
    /// `type DefaultDynamoStore<T> = DynamoStore<T, P, D>`): `None` for no alias, or
    /// aliases of that name for different types.
    fn alias_target(&self, fi: usize, name: &str) -> Option<&'a Name> {
        let list = self.tables.aliases.get(name)?;
        let mut found: Option<&Name> = None;
        for (af, ai) in list.iter().filter(|(af, _)| self.sees(fi, *af)) {
            let (_, target) = self.files.get(*af)?.types.aliases.get(*ai)?;
            if found.is_some_and(|f| f != target) {
                return None;
            }
            found = Some(target);
        }
        found
    }

    /// Whether type names `a` and `b` name one type, seen from file `fi`: the same
    /// name, or an alias and the type it stands for (or two aliases of it).
    fn same_type(&self, fi: usize, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        let ca: &str = self.alias_target(fi, a).map_or(a, |n| n);
        let cb: &str = self.alias_target(fi, b).map_or(b, |n| n);
        ca == cb
    }

    /// The other names of type `ty` (its aliases, or what it is an alias of), for the
    /// lookups that match a type by name.
    fn type_names(&self, fi: usize, ty: &str) -> Vec<Name> {
        let mut out: Vec<Name> = Vec::new();
        if let Some(t) = self.alias_target(fi, ty) {
            out.push(t.clone());
        }
        let of = self.tables.alias_targets.get(ty).into_iter().flatten();
        for (af, ai) in of.filter(|(af, _)| self.sees(fi, *af)) {
            if let Some((alias, _)) = self.files.get(*af).and_then(|f| f.types.aliases.get(*ai)) {
                if !out.contains(alias) {
                    out.push(alias.clone());
                }
            }
        }
        out
    }

    /// The first struct named `name` that file `fi` can name.
    fn struct_def(&self, fi: usize, name: &str) -> Option<&'a StructDef> {
        self.want(fi, deferred::item(name, None, None));
        let list = self.tables.structs.get(name)?;
        let (f, i) = *list.iter().find(|(f, _)| self.sees(fi, *f))?;
        self.files.get(f)?.structs.get(i)
    }

    /// What every construction of struct `def` outside tests gives its field `field`
    /// (struct literals, assignments to a field of that name): `None` when one of them
    /// is not a value the tokens show, when no literal builds the struct, when it
    /// derives `Default`, or when a file reads it from a request or a document.
    fn given(&self, def: &StructDef, field: &str) -> Option<Vec<Given>> {
        if def.default {
            return None;
        }
        let production = |(_, f): &(usize, &Arc<FileIndex>)| {
            crate::scanner::index::context::cold_by_path(&f.path).is_none()
        };
        let ty = def.name.as_str();
        if self
            .files
            .iter()
            .any(|f| f.types.values.inputs.iter().any(|n| &**n == ty))
        {
            return None;
        }
        let mut out = Vec::new();
        let mut any = false;
        for (fi, f) in self.files.iter().enumerate().filter(production) {
            let v = &f.types.values;
            // A literal that gives no field a known value, or an unknown assignment to
            // a field of this name.
            let name_in = |list: &[Name], n: &str| list.binary_search_by(|x| (**x).cmp(n)).is_ok();
            if name_in(&v.opaque, ty) || name_in(&v.assigned_unknown, field) {
                return None;
            }
            let lits = v.literals.iter().filter(|l| &*l.ty == ty);
            let assigned = v.assigned.iter().filter(|(n, _)| &**n == field);
            let mut values = Vec::new();
            for l in lits {
                any = true;
                match l.fields.iter().find(|(n, _)| &**n == field) {
                    Some((_, v)) => values.push(v),
                    None => return None,
                }
            }
            values.extend(assigned.map(|(_, v)| v));
            for v in values {
                out.push(match v {
                    FieldValue::Absent => Given::Absent,
                    FieldValue::Str(s) => Given::Str(s.clone()),
                    FieldValue::Variant => Given::Variant,
                    FieldValue::Const(name) => Given::Str(self.const_text(fi, name)?),
                    FieldValue::Unknown => return None,
                });
            }
        }
        (any && !out.is_empty()).then_some(out)
    }

    /// The string a constant named `name` holds, as seen from file `fi`: one
    /// definition the file can name, resolved to text.
    fn const_text(&self, fi: usize, name: &Name) -> Option<String> {
        let f = self.files.get(fi)?;
        let cands = self.const_candidates(fi, std::slice::from_ref(name), &f.module);
        let [(cf, ci)] = cands.as_slice() else {
            return None;
        };
        let mut value = self.files.get(*cf)?.consts.get(*ci)?.value.clone();
        self.resolve(*cf, &mut value, 1);
        value.value().map(str::to_string)
    }

    /// Whether `ty`'s field `field` (the first struct of that name file `fi` can name,
    /// read from the tokens of every file) is of an enum whose variants carry no data,
    /// declared where `fi` can name it, and no struct of that name is.
    fn unit_enum_field(&self, fi: usize, ty: &str, field: &str) -> bool {
        let by_name = self.type_names.get_or_init(|| {
            let mut by_name = TypeNames::new();
            for (f, file) in self.files.iter().enumerate() {
                for (s, ..) in &file.types.structs {
                    by_name.entry(s.clone()).or_default().0.push(f);
                }
                for e in &file.types.unit_enums {
                    by_name.entry(e.clone()).or_default().1.push(f);
                }
            }
            by_name
        });
        let seen = |list: &[usize]| {
            list.iter()
                .copied()
                .filter(|f| self.sees(fi, *f))
                .collect::<Vec<_>>()
        };
        let Some(f) = by_name
            .get(ty)
            .and_then(|(structs, _)| seen(structs).first().copied())
        else {
            return false;
        };
        let Some(types) = self.files.get(f).map(|f| &f.types) else {
            return false;
        };
        let field_ty =
            types
                .structs
                .iter()
                .filter(|(s, ..)| &**s == ty)
                .find_map(|(_, from, to)| {
                    types
                        .fields
                        .get(*from as usize..*to as usize)?
                        .iter()
                        .find(|(n, _)| &**n == field)
                        .map(|(_, t)| t.clone())
                });
        field_ty.is_some_and(|t| {
            by_name
                .get(&t)
                .is_some_and(|(structs, enums)| seen(structs).is_empty() && !seen(enums).is_empty())
        })
    }

    /// The declared type of `ty`'s field `field` (the first declaration file `fi` can
    /// name).
    fn field_type(&self, fi: usize, ty: &str, field: &str) -> Option<&'a str> {
        self.want(fi, deferred::item(ty, None, Some(field)));
        let list = Tables::get_pair(&self.tables.field_types, ty, field)?;
        let (f, i) = *list.iter().find(|(f, _)| self.sees(fi, *f))?;
        Some(&self.files.get(f)?.field_types.get(i)?.field_ty)
    }

    /// Replaces every pending reference in an operation (and its children).
    fn resolve_op(&self, fi: usize, op: &mut Operation, depth: usize) {
        let r = |x: &mut Resolved| self.resolve(fi, x, 0);
        for x in [&mut op.table, &mut op.index].into_iter().flatten() {
            r(x);
        }
        for e in [
            &mut op.key_condition,
            &mut op.filter,
            &mut op.condition,
            &mut op.projection,
            &mut op.update,
            &mut op.statement,
        ]
        .into_iter()
        .flatten()
        {
            let passed = self.paths_at_site(fi, e);
            r(&mut e.text);
            if let Some(passed) = passed.filter(|_| e.text.value().is_none()) {
                e.text = passed.0;
                e.paths = passed.1;
            }
        }
        for n in op.names.values_mut() {
            r(&mut n.name);
        }
        for v in op.values.values_mut() {
            self.resolve_value(fi, v);
        }
        for v in [&mut op.limit, &mut op.total_segments]
            .into_iter()
            .flatten()
        {
            self.resolve_value(fi, v);
        }
        let at = op.method_span;
        for m in [&mut op.item, &mut op.key].into_iter().flatten() {
            self.resolve_map(fi, m, at);
        }
        if op.parameter_list.is_none() {
            op.parameter_list = (op.from_params.as_ref())
                .and_then(|p| p.parameter_list.as_ref())
                .and_then(|r| self.pending_ref(fi, Some(r)))
                .and_then(|pr| self.list_at_site(&pr));
        }
        if depth < 4 {
            for c in &mut op.children {
                self.resolve_op(fi, c, depth + 1);
            }
        }
        self.items_at_site(fi, op, depth);
    }

    /// The items the call being followed builds for a transaction's items parameter
    /// (`transact_items(items)` of a helper, given `vec![TransactWriteItem::builder()
    /// ..]`), added to its children and read where the call is. Another call's items
    /// are never this request's: with no call bound, the parameter adds nothing.
    fn items_at_site(&self, fi: usize, op: &mut Operation, depth: usize) {
        let Some(parts) = op
            .from_params
            .as_deref_mut()
            .filter(|p| !p.items.is_empty())
        else {
            return;
        };
        let params = std::mem::take(&mut parts.items);
        let mut unbound = Vec::new();
        for p in params {
            let Some((site, index)) = self
                .pending_ref(fi, Some(&p.param))
                .and_then(|pr| self.param_at_site(&pr))
            else {
                unbound.push(p);
                continue;
            };
            for (_, item) in site.items.iter().filter(|(i, _)| *i == index) {
                let mut item = item.clone();
                if p.conditional {
                    crate::scanner::index::batch::mark_conditional(&mut item, true);
                }
                if depth < 4 {
                    self.in_caller(|| self.resolve_op(site.file, &mut item, depth + 1));
                }
                op.children.push(item);
            }
        }
        // A parameter bound here is spent: the request holds this call's items.
        if let Some(parts) = op.from_params.as_deref_mut() {
            parts.items = unbound;
        }
    }

    /// Replaces every pending reference in a `create_table` declaration.
    fn resolve_decl(&self, fi: usize, d: &mut crate::scanner::index::create_table::TableDecl) {
        use crate::scanner::index::create_table::ProjectionDecl;
        let r = |x: &mut Resolved| self.resolve(fi, x, 0);
        if let Some(table) = &mut d.table {
            self.resolve_name(fi, table);
        }
        let throughputs = d
            .throughput
            .iter_mut()
            .chain(d.indexes.iter_mut().filter_map(|i| i.throughput.as_mut()));
        for t in throughputs {
            t.read.iter_mut().chain(t.write.iter_mut()).for_each(r);
        }
        // Key attribute names are names too: `create_table(client, name, "year",
        // "title")` hands them in as parameters.
        for k in &mut d.key_schema {
            self.resolve_name(fi, &mut k.attribute);
        }
        for a in &mut d.attributes {
            self.resolve_name(fi, &mut a.attribute);
        }
        for i in &mut d.indexes {
            self.resolve_name(fi, &mut i.name);
            for k in &mut i.key_schema {
                self.resolve_name(fi, &mut k.attribute);
            }
            if let Some(ProjectionDecl::Include(attrs)) = &mut i.projection {
                attrs.iter_mut().for_each(r);
            }
        }
    }

    /// A name a `create_table` declares. A helper `create_table(client, table_name)`
    /// that only tests call: the tests' name is the table's (nothing else names it).
    fn resolve_name(&self, fi: usize, name: &mut Resolved) {
        let original = name.clone();
        self.resolve(fi, name, 0);
        if matches!(name.innermost(), Resolved::Unknown { .. }) {
            let mut again = original;
            self.tests_count.set(true);
            self.resolve(fi, &mut again, 0);
            self.tests_count.set(false);
            if !matches!(again.innermost(), Resolved::Unknown { .. }) {
                *name = again;
            }
        }
    }

    /// `call_site` is where the operation is: attributes serialised from a struct get
    /// it as their span, because the struct's fields may sit in another file and every
    /// span of an operation is into the operation's own file.
    fn resolve_map(&self, fi: usize, m: &mut AttrMap, call_site: Span) {
        self.resolve_map_at(fi, m, call_site, 0);
    }

    fn resolve_map_at(&self, fi: usize, m: &mut AttrMap, call_site: Span, depth: usize) {
        // A map a crate function builds (`set_key(Some(key_of(id)))`): its map, in
        // place of the call, every span at the call.
        let from_fn = m.from_type.clone().map(Resolved::unknown);
        if let Some(pr) = self.pending_ref(fi, from_fn.as_ref()) {
            m.from_type = None;
            // A helper's parameter: what the chain continuing its builder passes.
            if matches!(pr.kind, RefKind::Param { .. }) {
                if let Some(mut map) = self.map_at_site(&pr, depth) {
                    for a in &mut map.attributes {
                        a.span = call_site;
                        a.value.span = call_site;
                        for p in &mut a.value.parts {
                            p.span = call_site;
                        }
                    }
                    // What the helper's own setters add after it (`.set_item(item)
                    // .item("pk", pk)`) stays: the request holds both.
                    let mut own = std::mem::take(&mut m.attributes);
                    for a in &mut own {
                        self.resolve(fi, &mut a.name, 0);
                        self.resolve_value(fi, &mut a.value);
                    }
                    *m = map;
                    for a in own {
                        match m.attributes.iter_mut().find(|x| x.name == a.name) {
                            Some(x) => *x = a,
                            None => m.attributes.push(a),
                        }
                    }
                }
                return;
            }
            if let Some(mut map) = self.fn_map(fi, &pr, depth) {
                if let Some((cf, _)) = self.fn_candidates(fi, &pr.kind).first() {
                    if depth < 4 {
                        self.resolve_map_at(*cf, &mut map, call_site, depth + 1);
                    } else {
                        map.attributes.clear();
                        map.complete = false;
                    }
                }
                for a in &mut map.attributes {
                    a.span = call_site;
                    a.value.span = call_site;
                    for p in &mut a.value.parts {
                        p.span = call_site;
                    }
                }
                *m = map;
            }
            return;
        }
        let serialised_here = m.attributes.is_empty() || m.serde_at.is_some();
        if m.serde_at.is_some() {
            // Names first: which entries the struct's attributes replace goes by name.
            for a in &mut m.attributes {
                self.resolve(fi, &mut a.name, 0);
            }
        }
        if let (Some(ty), true) = (m.from_type.clone(), serialised_here) {
            let lookup = |name: &str| self.struct_def(fi, name).cloned();
            let given = |def: &StructDef, field: &str| self.given(def, field);
            if let Some(mut attrs) = serialise(&lookup, &given, &ty, 0) {
                for a in &mut attrs {
                    a.span = call_site;
                    a.value.span = call_site;
                }
                match m.serde_at.take() {
                    Some(at) => splice_serialised(&mut m.attributes, at, attrs),
                    None => m.attributes = attrs,
                }
                m.complete = true;
            }
        }
        for a in &mut m.attributes {
            self.resolve(fi, &mut a.name, 0);
            self.resolve_value(fi, &mut a.value);
        }
    }

    fn resolve_value(&self, fi: usize, v: &mut ValueInfo) {
        if let Some(pr) = self.pending_ref(fi, v.text.as_ref()) {
            match &pr.kind {
                RefKind::Call { .. } | RefKind::Method { .. } => {
                    match self.fn_value(fi, &pr) {
                        Some(f) => splice_value(v, f),
                        // Not a function of the crate: nothing more is known, and
                        // its arguments say nothing of what it returns (a digest or
                        // generated id inside it still does).
                        None => {
                            v.text = None;
                            if !matches!(
                                v.provenance,
                                Provenance::Hashed { .. } | Provenance::GeneratedId
                            ) {
                                v.provenance = Provenance::Unknown;
                            }
                        }
                    }
                    return;
                }
                // Only a chain that continues the helper's builder says what its
                // parameter holds (never asked of every caller: a value, unlike a
                // name, is not one the calls agree on).
                RefKind::Param { .. } => {
                    match self.value_at_site(&pr) {
                        Some(passed) => splice_value(v, passed),
                        None => v.text = None,
                    }
                    return;
                }
                // `limit as i32`: the number, wrapped to the type.
                RefKind::Cast { .. } => {
                    let n = self.pending(fi, &pr, 0);
                    v.text = None;
                    v.literal = n.value().map(str::to_string);
                    if v.literal.is_some() {
                        v.provenance = Provenance::Literal;
                    }
                    return;
                }
                // `log.action`: one of few values when its field is of an enum of
                // data-less variants.
                RefKind::FieldType { ty, field, mapped } => {
                    v.text = None;
                    if self.unit_enum_field(fi, ty, field) {
                        v.provenance = Provenance::EnumLike;
                    } else if *mapped {
                        v.provenance = Provenance::Unknown;
                    }
                    return;
                }
                RefKind::Count { .. } => {
                    let n = self.pending(fi, &pr, 0);
                    if let Provenance::ShardSuffix { modulus: m @ None } = &mut v.provenance {
                        *m = n.value().and_then(|s| s.parse().ok());
                    }
                    v.text = None;
                    return;
                }
                _ => {}
            }
        }
        if let Some(t) = &mut v.text {
            self.resolve(fi, t, 0);
            if v.literal.is_none() {
                if let Some(s) = t.value() {
                    v.literal = Some(s.to_string());
                }
            }
        }
        for p in &mut v.parts {
            self.resolve_value(fi, p);
        }
    }

    /// Resolves pending references inside `r`, in the context of file `fi`.
    fn resolve(&self, fi: usize, r: &mut Resolved, depth: usize) {
        match r {
            Resolved::Const { value, .. } => self.resolve(fi, value, depth + 1),
            Resolved::Template { template } if template.contains(PENDING) => {
                *r = self.fill_template(fi, template, depth);
            }
            Resolved::Unknown { reason } => {
                let Some(n) = reason
                    .strip_prefix(PENDING)
                    .and_then(|n| n.parse::<usize>().ok())
                else {
                    return;
                };
                let Some(pr) = self.files.get(fi).and_then(|f| f.pending_ref(n)).cloned() else {
                    *r = Resolved::unknown("internal: a reference was lost");
                    return;
                };
                *r = self.pending(fi, &pr, depth);
            }
            _ => {}
        }
    }

    /// Splices constants into a template's `{<pending>}` holes; a template whose
    /// holes are all filled is a literal.
    fn fill_template(&self, fi: usize, template: &str, depth: usize) -> Resolved {
        let mut out = String::new();
        let mut rest = template;
        let mut holes = false;
        let open = format!("{{{PENDING}");
        while let Some(i) = rest.find(&open) {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let end = after.find('}').unwrap_or(after.len());
            let mut r = Resolved::unknown(&after[..end]);
            self.resolve(fi, &mut r, depth + 1);
            match r.value() {
                Some(v) => out.push_str(v),
                None => {
                    holes = true;
                    out.push_str("{}");
                }
            }
            rest = after.get(end + 1..).unwrap_or("");
        }
        out.push_str(rest);
        holes |= out.contains("{}");
        if holes {
            Resolved::Template { template: out }
        } else {
            Resolved::literal(out)
        }
    }

    fn pending(&self, fi: usize, pr: &PendingRef, depth: usize) -> Resolved {
        if depth > 12 {
            return Resolved::unknown(format!(
                "`{}` refers to itself through too many names",
                pr.text
            ));
        }
        match &pr.kind {
            RefKind::Path {
                segments,
                module,
                self_ty,
            } => self.const_path(fi, &pr.text, segments, module, self_ty.as_ref(), depth),
            RefKind::Field { ty, fields, ctor } => {
                self.field(fi, &pr.text, ty, fields, ctor.as_deref(), depth)
            }
            RefKind::Call { .. } | RefKind::Method { .. } => {
                let found = self.fn_candidates(fi, &pr.kind);
                if found.is_empty() {
                    return Resolved::unknown(match &pr.kind {
                        RefKind::Method { name, .. } => {
                            format!("the value comes from a call to `.{name}()`")
                        }
                        _ => format!("the value comes from a call to `{}`", pr.text),
                    });
                }
                let results: Vec<Resolved> =
                    found.iter().map(|c| self.fn_result(*c, depth).0).collect();
                agree(results).unwrap_or_else(|n| {
                    Resolved::unknown(format!(
                        "`{}` names {n} functions that return different values",
                        pr.text
                    ))
                })
            }
            RefKind::Once { path } => self.once_value(path, &pr.text, depth),
            // A value's type, not its text: only `resolve_value` reads it.
            RefKind::FieldType { .. } => {
                Resolved::unknown(format!("`{}` is not a value dynalint can follow", pr.text))
            }
            RefKind::TypeParam { .. } => self.type_param_value(fi, pr, depth),
            RefKind::Param {
                function,
                index,
                self_ty,
                arity,
            } => {
                if let Some(v) = self.at_site(pr, depth) {
                    return v;
                }
                let key: ParamKey = (
                    function.clone(),
                    *arity,
                    *index,
                    self_ty.clone(),
                    self.tables.packages.get(fi).copied().unwrap_or(usize::MAX),
                    pr.text.clone(),
                    self.tests_count.get(),
                );
                let name = self.reads.as_ref().map(|_| intern(function));
                let known = self.param_results.borrow().get(&key).cloned();
                if let Some(known) = known {
                    self.read(&name);
                    return match known {
                        Some((value, deps)) => {
                            self.read_deps(&deps);
                            value
                        }
                        None => Resolved::unknown(format!(
                            "`{}` is a parameter whose value depends on itself",
                            pr.text
                        )),
                    };
                }
                self.param_results.borrow_mut().insert(key.clone(), None);
                let (value, deps) = self.tracked(|| {
                    self.read(&name);
                    self.param_value(fi, pr, function, *index, depth)
                });
                self.param_results
                    .borrow_mut()
                    .insert(key, Some((value.clone(), Rc::new(deps))));
                value
            }
            RefKind::Count {
                high,
                low,
                inclusive,
            } => {
                let sub = PendingRef {
                    text: pr.text.clone(),
                    kind: (**high).clone(),
                };
                let v = self.pending(fi, &sub, depth + 1);
                let n = v
                    .value()
                    .and_then(crate::scanner::index::resolve::int_literal)
                    .and_then(|h| count_between(*low, h, *inclusive));
                match n {
                    Some(n) => Resolved::literal(n.to_string()),
                    None => Resolved::unknown(format!(
                        "`{}` is not a number dynalint can read",
                        pr.text
                    )),
                }
            }
            RefKind::Cast { value, ty } => {
                let sub = PendingRef {
                    text: pr.text.clone(),
                    kind: (**value).clone(),
                };
                // A number is a value: a parameter's only as the call being followed
                // passes it, never what every caller agrees on.
                let v = match &sub.kind {
                    RefKind::Param { .. } => self.value_at_site(&sub).and_then(|v| v.literal),
                    _ => self
                        .pending(fi, &sub, depth + 1)
                        .value()
                        .map(str::to_string),
                };
                match v.as_deref().and_then(|v| cast_int(v, ty)) {
                    Some(n) => Resolved::literal(n),
                    None => Resolved::unknown(format!(
                        "`{}` is not a number dynalint can read",
                        pr.text
                    )),
                }
            }
        }
    }

    /// Runs `f` with the types of one caller of a generic function bound.
    fn with_types<R>(&self, b: TypeBinding, f: impl FnOnce() -> R) -> R {
        let outer = self.types_at.replace(Some(b));
        let r = f();
        self.types_at.replace(outer);
        r
    }

    /// The parameter `r` stands for, if it is one: through a cast (`limit as i32`:
    /// the parameter inside it).
    fn param_through_cast(&self, fi: usize, r: Option<&Resolved>) -> Option<PendingRef> {
        let mut p = self.pending_ref(fi, r)?;
        if let RefKind::Cast { value, .. } = &p.kind {
            p.kind = (**value).clone();
        }
        matches!(p.kind, RefKind::Param { .. }).then_some(p)
    }

    /// The parameter references a request holds, each with what it is to the request:
    /// a name (its table or index, an expression attribute name or an expression:
    /// `#sk` given `sk` of `fn query_in(c, sk: &str)`), a value (an attribute value, a
    /// `:value`, the limit: `.limit(limit as i32)`), or an item or key map
    /// (`.set_item(item)`).
    fn params_in(&self, fi: usize, op: &Operation) -> Vec<(PendingRef, Use)> {
        let mut found: Vec<(PendingRef, Use)> = Vec::new();
        let mut look = |r: Option<&Resolved>, what: Use| {
            let inner = match r {
                Some(Resolved::Const { value, .. }) => Some(&**value),
                other => other,
            };
            if let Some(p) = self.param_through_cast(fi, inner) {
                found.push((p, what));
            }
        };
        look(op.table.as_ref(), Use::Table);
        look(op.index.as_ref(), Use::Table);
        for e in [
            &op.key_condition,
            &op.filter,
            &op.condition,
            &op.projection,
            &op.update,
        ]
        .into_iter()
        .flatten()
        {
            look(Some(&e.text), Use::Expr);
        }
        for n in op.names.values() {
            look(Some(&n.name), Use::Name);
        }
        for v in op.values.values().chain(op.limit.as_deref()) {
            look(v.text.as_ref(), Use::Value);
        }
        let list = op
            .from_params
            .as_ref()
            .and_then(|p| p.parameter_list.as_ref());
        look(list, Use::List);
        for m in [&op.key, &op.item].into_iter().flatten() {
            let from = m.from_type.clone().map(Resolved::unknown);
            look(from.as_ref(), Use::Map);
            for a in &m.attributes {
                look(Some(&a.name), Use::Name);
                look(a.value.text.as_ref(), Use::Value);
            }
        }
        found
    }

    /// For a request whose names, values or maps are parameters of its function, the
    /// calls of that function that give them something dynalint can read: one per
    /// different set of what they give, at most [`MAX_TABLE_SPLIT`], each with the
    /// calls that give it (a loop around one of them repeats that request). Names
    /// split it only when the calls give different ones (`direct(c, "SK")` and
    /// `direct(c, "Title")` for `#sk`; when they agree, the parameter is what they all
    /// pass); a value or a map binds it at its calls even when one call gives it
    /// (`count_by_user` passing `u32::MAX` to `find_by_user`'s `limit`): a value is
    /// never what every caller agrees on, only what one call certainly passes. A value
    /// or map is read only from a call that certainly calls the function (a function's
    /// or a path's call, or a method called on a receiver of its type); a call on a
    /// receiver of another type is not one of its calls. `None` when nothing is read,
    /// or when the parameters are of more than one function.
    fn param_bindings(&self, fi: usize, op: &Operation) -> Option<Vec<PerCaller<'a>>> {
        self.bindings_at(fi, self.params_in(fi, op), true)
    }

    /// [`Self::param_bindings`] for a chain on a helper's returned builder in file
    /// `fi`: the parameters of its own function it holds, and those it hands the
    /// helper (`self.query_of(user_id, limit as i32)` in `find_by_user`, whose calls
    /// then say what the helper's `.limit(..)` is). Already a level above the helper:
    /// bound at its own function's calls only.
    fn chain_bindings(&self, fi: usize, h: &HelperCall) -> Option<Vec<PerCaller<'a>>> {
        let mut refs = self.params_in(fi, &h.op);
        let mut param = |r: Option<&Resolved>, what: Use| {
            if let Some(p) = self.param_through_cast(fi, r) {
                refs.push((p, what));
            }
        };
        // Names it hands the helper are the helper's to bind (its table is followed
        // to this function's callers by `table_per_call`).
        for v in h.values.iter() {
            param(v.text.as_ref(), Use::Value);
        }
        for m in h.maps.iter() {
            let from = m.from_type.clone().map(Resolved::unknown);
            param(from.as_ref(), Use::Map);
        }
        self.bindings_at(fi, refs, false)
    }

    /// The calls that bind the parameters `refs` (see [`Self::param_bindings`]). With
    /// `deeper`, a call that passes a value or map that is a parameter of the function
    /// it is in (`limit as i32` in `find_by_user`) is bound at each call of that
    /// function that gives it something dynalint can read (`count_by_user`'s
    /// `u32::MAX`), one level more, each such pair one request: a value a caller
    /// passes reaches the request whether the function between sends it itself or
    /// calls a repository's method that does.
    fn bindings_at(
        &self,
        fi: usize,
        refs: Vec<(PendingRef, Use)>,
        deeper: bool,
    ) -> Option<Vec<PerCaller<'a>>> {
        let (first, _) = refs.first()?;
        let RefKind::Param {
            function,
            arity,
            self_ty,
            ..
        } = &first.kind
        else {
            return None;
        };
        let mut uses: Vec<(usize, Use)> = Vec::new();
        for (r, what) in &refs {
            match &r.kind {
                RefKind::Param {
                    function: f,
                    arity: a,
                    index,
                    ..
                } if f == function && a == arity => uses.push((*index, *what)),
                _ => return None,
            }
        }
        let reads_values =
            (uses.iter()).any(|(_, u)| matches!(u, Use::Value | Use::Map | Use::List));
        let reads_paths = uses.iter().any(|(_, u)| *u == Use::Expr);
        // With names only, a table is `table_per_call`'s (one request per table);
        // with values, each call's table is part of what it gives.
        if !reads_values {
            uses.retain(|(_, u)| *u != Use::Table);
            if uses.is_empty() {
                return None;
            }
        }
        uses.sort_unstable();
        uses.dedup();
        // An edit of what these calls pass links this request again.
        self.read(&self.reads.as_ref().map(|_| intern(function)));
        if reads_values {
            self.asked_values.borrow_mut().insert(first.kind.clone());
        } else if reads_paths {
            self.asked_paths.borrow_mut().insert(first.kind.clone());
        }
        let mut out: Vec<PerCaller<'a>> = Vec::new();
        let mut passed: Vec<Vec<Option<String>>> = Vec::new();
        let mut any_value = false;
        let mut any_paths = false;
        for (sf, site) in self.param_sites(fi, first, function) {
            if site.args.len() != *arity {
                continue;
            }
            let certain = match (&site.receiver, self_ty) {
                // `other.find(..)` on a value of another type: not this function.
                (Some(r), Some(t)) if r != t => continue,
                (Some(_), Some(_)) => true,
                _ => !site.method,
            };
            // What a call that certainly calls the function gives it; another call
            // gives names only.
            let given = certain.then_some(site);
            let values: &[ValueInfo] = given.map_or(&[], |s| &s.values);
            let maps: &[AttrMap] = given.map_or(&[], |s| &s.maps);
            let paths: &[Option<PathStrings>] = given.map_or(&[], |s| &s.paths);
            let lists: &[Option<usize>] = given.map_or(&[], |s| &s.lists);
            let call = CallSite {
                file: sf,
                function: &site.callee,
                args: &site.args,
                values,
                maps,
                paths,
                lists,
                items: &[],
            };
            // An expression the call builds per path (`kc.push_str(..)` in a `match`
            // arm): its texts, which no other call passes, bind it at this call.
            let built = |i: usize| paths.get(i).and_then(Option::as_ref);
            // What the call passes, read where it is: `"SK"` and `SK` (a constant
            // holding "SK") are one caller's request.
            let key_here = || -> Vec<Option<String>> {
                uses.iter()
                    .map(|(i, what)| match what {
                        Use::Name | Use::Expr | Use::Table => {
                            let text = site.args.get(*i).cloned().flatten().and_then(|mut v| {
                                self.resolve(sf, &mut v, 1);
                                v.value().map(str::to_string)
                            });
                            text.or_else(|| built(*i).map(|p| p.paths.join("\n")))
                        }
                        Use::Value => {
                            let mut v = values.get(*i)?.clone();
                            self.resolve_value(sf, &mut v);
                            value_key(&v)
                        }
                        Use::Map => {
                            let mut m = maps.get(*i)?.clone();
                            self.resolve_map_at(sf, &mut m, Span::new(0, 0), 1);
                            map_key(&m)
                        }
                        Use::List => lists.get(*i).copied().flatten().map(|n| n.to_string()),
                    })
                    .collect()
            };
            any_paths |= uses
                .iter()
                .any(|(i, what)| *what == Use::Expr && built(*i).is_some());
            // The values it passes that are its own function's parameters: bound at
            // that function's calls, each a request (or, when they give nothing
            // dynalint can read, this call alone, the values unknown).
            let around = match deeper {
                true => self.passed_params(sf, function, &uses, values, maps),
                false => Vec::new(),
            };
            let outers = match around.is_empty() {
                true => None,
                false => self.bindings_at(sf, around, false),
            };
            let bound: Vec<(Bound<'a>, Vec<Option<String>>)> = match outers {
                Some(outers) => outers
                    .into_iter()
                    .map(|(o, _)| {
                        let b = Bound {
                            site: call,
                            outer: Some(o.site),
                        };
                        (b, self.at_call_site(o.site, key_here))
                    })
                    .collect(),
                None => vec![(
                    Bound {
                        site: call,
                        outer: None,
                    },
                    key_here(),
                )],
            };
            for (b, key) in bound {
                any_value |= uses.iter().zip(&key).any(|((_, what), k)| {
                    matches!(what, Use::Value | Use::Map | Use::List) && k.is_some()
                });
                match passed.iter().position(|p| *p == key) {
                    Some(k) => {
                        if !out[k].1.contains(&(sf, site.at)) {
                            out[k].1.push((sf, site.at));
                        }
                    }
                    None => {
                        passed.push(key);
                        out.push((b, vec![(sf, site.at)]));
                    }
                }
                if out.len() > MAX_TABLE_SPLIT {
                    return None;
                }
            }
        }
        let split = out.len() > 1 || ((reads_values && any_value) || any_paths) && !out.is_empty();
        split.then_some(out)
    }

    /// The parameters of the function a call is in (file `sf`) that it passes as a
    /// value or map of `uses` to `function` (`limit as i32` of `find_by_user`, handed
    /// to the repository method whose request holds it), each once: what a level up
    /// binds. None when the call is in `function` itself (a recursion binds nothing
    /// more).
    fn passed_params(
        &self,
        sf: usize,
        function: &str,
        uses: &[(usize, Use)],
        values: &[ValueInfo],
        maps: &[AttrMap],
    ) -> Vec<(PendingRef, Use)> {
        let mut found: Vec<(PendingRef, Use)> = Vec::new();
        for (i, what) in uses {
            let r = match what {
                Use::Value => values.get(*i).and_then(|v| v.text.clone()),
                Use::Map => maps
                    .get(*i)
                    .and_then(|m| m.from_type.clone())
                    .map(Resolved::unknown),
                Use::Name | Use::Expr | Use::Table | Use::List => None,
            };
            let Some(p) = self.param_through_cast(sf, r.as_ref()) else {
                continue;
            };
            let own = matches!(&p.kind, RefKind::Param { function: f, .. } if **f == *function);
            if !own && !found.iter().any(|(q, u)| q.kind == p.kind && u == what) {
                found.push((p, *what));
            }
        }
        found
    }

    /// The type parameter reference a request holds in its table, index, key or item
    /// names, or expressions (`T::TABLE`, `T::KEY`), if any.
    fn type_param_in(&self, fi: usize, op: &Operation) -> Option<PendingRef> {
        let mut found: Option<PendingRef> = None;
        let mut look = |r: Option<&Resolved>| {
            if found.is_none() {
                found = self
                    .pending_ref(fi, r)
                    .filter(|p| matches!(p.kind, RefKind::TypeParam { .. }));
            }
        };
        look(op.table.as_ref());
        look(op.index.as_ref());
        for e in [
            &op.key_condition,
            &op.filter,
            &op.condition,
            &op.projection,
            &op.update,
        ]
        .into_iter()
        .flatten()
        {
            look(Some(&e.text));
        }
        for n in op.names.values() {
            look(Some(&n.name));
        }
        for m in [&op.key, &op.item].into_iter().flatten() {
            for a in &m.attributes {
                look(Some(&a.name));
            }
        }
        found
    }

    /// For a request of a generic function that names a type parameter's constant or
    /// function (`T::TABLE`), the types its callers give it: one binding per
    /// different one, when there are at most [`MAX_TABLE_SPLIT`] (a caller whose types
    /// the code does not show gives one with none, whose values stay unknown).
    fn type_bindings(&self, fi: usize, op: &Operation) -> Option<Vec<TypeBinding>> {
        let pr = self.type_param_in(fi, op)?;
        let RefKind::TypeParam {
            function,
            self_ty,
            of_impl,
            ..
        } = &pr.kind
        else {
            return None;
        };
        let mut out: Vec<TypeBinding> = Vec::new();
        let sites = self.tables.type_sites.get(function).into_iter().flatten();
        for &(sf, si) in sites {
            if !self.sees(sf, fi) {
                continue;
            }
            let Some(site) = self.files.get(sf).and_then(|f| f.types.sites.get(si)) else {
                continue;
            };
            // Another type's method of the name, or a call that shows no type for `T`.
            let relevant = if *of_impl {
                !site.self_types.is_empty() && site.self_type.as_ref() == self_ty.as_ref()
            } else {
                !site.fn_types.is_empty()
            };
            if !relevant {
                continue;
            }
            let b = TypeBinding {
                function: function.clone(),
                self_ty: self_ty.clone(),
                file: sf,
                of_fn: site.fn_types.clone(),
                of_impl: site.self_types.clone(),
                sites: vec![(sf, site.at)],
            };
            match out
                .iter_mut()
                .find(|o| o.of_fn == b.of_fn && o.of_impl == b.of_impl)
            {
                Some(same) => same.sites.push((sf, site.at)),
                None => out.push(b),
            }
            if out.len() > MAX_TABLE_SPLIT {
                return None;
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The types one call gives a generic helper whose returned builder it continues
    /// (`base::<User>(&c).send()`, `users.base(..)` with `users: Repo<User>`): the
    /// binding of the helper's type parameter (in `helper`, of file `tf`) by the type
    /// site of file `fi` whose called name is inside `call` (the chain's call, from
    /// its called name on). `None` when the helper names no type parameter or the
    /// call shows no type for it.
    fn types_of_call(
        &self,
        tf: usize,
        helper: &Operation,
        fi: usize,
        call: Span,
    ) -> Option<TypeBinding> {
        let pr = self.type_param_in(tf, helper)?;
        let RefKind::TypeParam {
            function,
            self_ty,
            of_impl,
            ..
        } = &pr.kind
        else {
            return None;
        };
        let site = self
            .files
            .get(fi)?
            .types
            .sites
            .iter()
            .filter(|s| s.callee == *function)
            .filter(|s| call.start <= s.at.start && s.at.end <= call.end)
            .min_by_key(|s| s.at.start)?;
        let relevant = if *of_impl {
            !site.self_types.is_empty() && site.self_type.as_ref() == self_ty.as_ref()
        } else {
            !site.fn_types.is_empty()
        };
        relevant.then(|| TypeBinding {
            function: function.clone(),
            self_ty: self_ty.clone(),
            file: fi,
            of_fn: site.fn_types.clone(),
            of_impl: site.self_types.clone(),
            sites: vec![(fi, site.at)],
        })
    }

    /// `T::TABLE` / `T::table_name()` for the type the caller being linked gives `T`
    /// ([`Linker::types_at`]); unknown otherwise, since each caller may give another.
    fn type_param_value(&self, fi: usize, pr: &PendingRef, depth: usize) -> Resolved {
        let RefKind::TypeParam {
            function,
            self_ty,
            of_impl,
            position,
            rest,
            call,
            ..
        } = &pr.kind
        else {
            return Resolved::unknown("internal: not a type parameter");
        };
        let bound = self.types_at.borrow().clone();
        let ty = bound
            .as_ref()
            .filter(|b| b.function == *function && b.self_ty == *self_ty)
            .and_then(|b| {
                let list = if *of_impl { &b.of_impl } else { &b.of_fn };
                Some((b.file, list.get(*position)?.clone()))
            });
        let Some((file, ty)) = ty else {
            let _ = fi;
            return Resolved::unknown(format!(
                "`{}` depends on the type each caller of `{function}` gives it",
                pr.text
            ));
        };
        let mut segments: Vec<Name> = vec![ty.clone()];
        segments.extend(rest.iter().cloned());
        let text = segments.iter().map(|s| &**s).collect::<Vec<_>>().join("::");
        let module = self
            .files
            .get(file)
            .map(|f| f.module.clone())
            .unwrap_or_default();
        let kind = if *call {
            RefKind::Call {
                segments: segments.into(),
                module,
                self_ty: None,
            }
        } else {
            RefKind::Path {
                segments: segments.into(),
                module,
                self_ty: None,
            }
        };
        let sub = PendingRef {
            text: intern(&text),
            kind,
        };
        // Read where the call is, with the caller's own types bound, if any.
        let outer = self.types_at.replace(None);
        let v = self.pending(file, &sub, depth + 1);
        self.types_at.replace(outer);
        v
    }

    /// The text of the argument `site` passes for parameter `param` of its function.
    fn arg_text(&self, site: CallSite<'a>, param: &PendingRef) -> Option<String> {
        let RefKind::Param { index, arity, .. } = &param.kind else {
            return None;
        };
        if site.args.len() != *arity {
            return None;
        }
        let arg = site.args.get(*index)?.as_ref()?;
        Some(self.pending_ref(site.file, Some(arg))?.text.to_string())
    }

    /// The tables `site` passes for `param` when its argument is `self.table` of an
    /// instance built with different tables ([`Self::passed_instance_tables`]).
    fn site_instance_tables(
        &self,
        site: CallSite<'a>,
        param: &PendingRef,
    ) -> Option<Vec<Resolved>> {
        let RefKind::Param { index, arity, .. } = &param.kind else {
            return None;
        };
        if site.args.len() != *arity {
            return None;
        }
        let arg = site.args.get(*index)?.as_ref()?;
        self.passed_instance_tables(site.file, arg)
    }

    /// The parameter of its own function that `site` passes on for `param`
    /// (`query_in(&self.client, table, ..)` in `fn create_query(&self, table: &str,
    /// ..)`), when it passes one.
    fn passed_param(&self, site: CallSite<'a>, param: &PendingRef) -> Option<PendingRef> {
        let RefKind::Param { index, arity, .. } = &param.kind else {
            return None;
        };
        if site.args.len() != *arity {
            return None;
        }
        let arg = site.args.get(*index)?.as_ref()?;
        let pr = self.pending_ref(site.file, Some(arg.innermost()))?;
        matches!(pr.kind, RefKind::Param { .. }).then_some(pr)
    }

    /// The parameter a request's unlinked table is, if it is one: also through a
    /// local built by a constructor call (`let t = Tables::new(table); &t.table`),
    /// whose argument it is.
    fn param_ref(&self, fi: usize, table: &Option<Resolved>) -> Option<PendingRef> {
        let pr = self.table_source(fi, table)?;
        matches!(pr.kind, RefKind::Param { .. }).then_some(pr)
    }

    /// The reference a request's unlinked table is, seen through locals built by a
    /// constructor call (`&t.table` is `table` of `Tables::new(table)`).
    fn table_source(&self, fi: usize, table: &Option<Resolved>) -> Option<PendingRef> {
        // Most tables are literals and constants: no reference is looked up for them.
        // A local copy is what it copies (`let t = table.to_owned()`, a value moved
        // into a spawned task).
        let Some(Resolved::Unknown { reason }) = table.as_ref().map(Resolved::innermost) else {
            return None;
        };
        let n: usize = reason.strip_prefix(PENDING)?.parse().ok()?;
        let mut pr = self.files.get(fi)?.pending_ref(n)?.clone();
        for _ in 0..4 {
            let RefKind::Field {
                ty,
                fields,
                ctor: Some(call),
            } = &pr.kind
            else {
                break;
            };
            let arg = self.ctor_arg(fi, ty, fields, call)?;
            pr = self.pending_ref(fi, Some(&arg))?;
        }
        Some(pr)
    }

    /// The tables a request's table may be when it is a field of the receiver
    /// (`self.table`, `pr`) that the constructors set to different tables: each
    /// value a constructor gives it, a constructor's parameter followed to what its
    /// calls pass (through constructors that pass it on: `DefaultStore::new(table)`
    /// calling `Self::new_with_db(table, client)`), one of unknown table for a value
    /// dynalint cannot follow. Two to [`MAX_TABLE_SPLIT`] of them, else `None`.
    ///
    /// Which instance a call reaches is not followed: each table is one the request
    /// may be sent to, if the code calls it on that instance (the users store may
    /// never run the paths store's Query), so each is marked possible
    /// (`Operation::possible_table`).
    fn instance_tables(&self, fi: usize, pr: &PendingRef) -> Option<Vec<Resolved>> {
        let RefKind::Field {
            ty,
            fields,
            ctor: None,
        } = &pr.kind
        else {
            return None;
        };
        let (last, path) = fields.split_last()?;
        let mut ty: &str = ty;
        for f in path {
            ty = self.field_type(fi, ty, f)?;
        }
        let inits = Tables::get_pair(&self.tables.inits, ty, last)?;
        let visible: Vec<(usize, &Resolved)> = inits
            .iter()
            .filter(|(cf, _)| self.sees(fi, *cf))
            .filter_map(|(cf, i)| Some((*cf, self.files.get(*cf)?.field_inits.get(*i)?)))
            // A test's instance (`table_name: "some_table"` in a test's literal) is
            // not one the service builds.
            .filter(|(_, init)| !init.test)
            .map(|(cf, init)| (cf, &init.value))
            // A copy of the field (`Clone` by hand) says nothing of its value.
            .filter(|(cf, v)| {
                !self.pending_ref(*cf, Some(v.innermost())).is_some_and(|p| {
                    matches!(&p.kind, RefKind::Field { ty: t, fields: f, .. }
                        if **t == *ty && f.len() == 1 && f[0] == *last)
                })
            })
            .collect();
        if visible.len() < 2 && !visible.iter().any(|(cf, v)| self.is_param(*cf, v)) {
            return None;
        }
        // As for one value (`field`): a constructor only tests call is the tests'.
        let visible = self.production_first(visible);
        let mut out: Vec<Resolved> = Vec::new();
        for (cf, v) in visible {
            self.instance_values(cf, v, 0, &mut out);
            if out.len() > MAX_TABLE_SPLIT {
                return None;
            }
        }
        (out.len() > 1).then(|| {
            out.into_iter()
                .map(|v| Resolved::Const {
                    name: pr.text.to_string(),
                    value: Box::new(v),
                })
                .collect()
        })
    }

    /// The values constructors give a field (each in its file), without those set from
    /// a parameter that only tests pass; all of them when every one is such.
    fn production_first<'r>(
        &self,
        visible: Vec<(usize, &'r Resolved)>,
    ) -> Vec<(usize, &'r Resolved)> {
        let production: Vec<(usize, &Resolved)> = visible
            .iter()
            .copied()
            .filter(|(cf, v)| !self.only_tests_pass(*cf, v))
            .collect();
        if production.is_empty() {
            visible
        } else {
            production
        }
    }

    /// Whether `v` (in file `cf`) is a parameter of the function it is in.
    fn is_param(&self, cf: usize, v: &Resolved) -> bool {
        self.pending_ref(cf, Some(v.innermost()))
            .is_some_and(|p| matches!(p.kind, RefKind::Param { .. }))
    }

    /// Each value `v` (in file `cf`) may be, into `out` (each once, one unknown for
    /// all that are): a parameter is what each of its function's calls passes,
    /// followed through parameters passed on, up to four calls deep.
    fn instance_values(&self, cf: usize, v: &Resolved, depth: usize, out: &mut Vec<Resolved>) {
        let param = self.pending_ref(cf, Some(v.innermost()));
        if let Some(p) = param.filter(|_| depth < 4) {
            if let RefKind::Param {
                function, index, ..
            } = &p.kind
            {
                self.read(&self.reads.as_ref().map(|_| intern(function)));
                for (sf, call) in self.param_sites(cf, &p, function) {
                    match call.args.get(*index) {
                        Some(Some(arg)) => self.instance_values(sf, arg, depth + 1, out),
                        _ => {
                            push_value(out, Resolved::unknown("an argument dynalint cannot follow"))
                        }
                    }
                }
                return;
            }
        }
        let mut r = v.clone();
        self.resolve(cf, &mut r, 1);
        push_value(out, r);
    }

    /// The text a request's table is written as, when it is a field of a local built
    /// by a constructor call (`&t.table`): that of the argument the call passes
    /// (`&self.orders_table`), which a table's `refs` may list.
    fn table_source_text(&self, fi: usize, table: &Option<Resolved>) -> Option<String> {
        let Some(Resolved::Unknown { reason }) = table.as_ref().map(Resolved::innermost) else {
            return None;
        };
        let n: usize = reason.strip_prefix(PENDING)?.parse().ok()?;
        let first = self.files.get(fi)?.pending_ref(n)?;
        if !matches!(first.kind, RefKind::Field { ctor: Some(_), .. }) {
            return None;
        }
        let pr = self.table_source(fi, table)?;
        (pr != *first).then(|| pr.text.to_string())
    }

    /// The reference an `Unknown` stands for, if it is a pending one.
    fn pending_ref(&self, fi: usize, r: Option<&Resolved>) -> Option<PendingRef> {
        let Some(Resolved::Unknown { reason }) = r else {
            return None;
        };
        let n: usize = reason.strip_prefix(PENDING)?.parse().ok()?;
        self.files.get(fi)?.pending_ref(n).cloned()
    }

    /// The functions a call or method reference can mean, as (file, index).
    fn fn_candidates(&self, fi: usize, kind: &RefKind) -> Vec<(usize, usize)> {
        let (segs, module) = match kind {
            RefKind::Call {
                segments,
                module,
                self_ty,
            } => (self.normalise(fi, segments, self_ty.as_ref()), module),
            RefKind::Method {
                ty,
                fields,
                name,
                ctor,
            } => {
                // `let u = User::new(..)?`: `User` only if `User::new` returns a `User`
                // (wrapped in a `Result`/`Option` exactly when the call site unwraps it).
                if let Some((f, unwrapped)) = ctor {
                    let wrapped = usize::from(*unwrapped);
                    self.want(fi, deferred::item(f, Some(ty), None));
                    let known = Tables::get_pair(&self.tables.ctors, ty, f).is_some_and(|c| {
                        c.iter().any(|(cf, w)| *w == wrapped && self.sees(fi, *cf))
                    });
                    if !known {
                        return Vec::new();
                    }
                }
                let mut ty = &**ty;
                for f in fields.iter() {
                    match self.field_type(fi, ty, f) {
                        Some(t) => ty = t,
                        None => return Vec::new(),
                    }
                }
                self.want(fi, deferred::item(name, Some(ty), None));
                let all = self.tables.returns.get(&**name).into_iter().flatten();
                return all
                    .copied()
                    .filter(|(cf, ri)| {
                        let p = &self.files[*cf].returns[*ri].path;
                        p.len() >= 2 && *p[p.len() - 2] == *ty && self.sees(fi, *cf)
                    })
                    .collect();
            }
            _ => return Vec::new(),
        };
        let Some(last) = segs.last() else {
            return Vec::new();
        };
        // Every segment is in the function's path (`ends_with` below).
        let qualifier = segs.len().checked_sub(2).map(|i| &*segs[i]);
        self.want(fi, deferred::item(last, qualifier, None));
        let cands: Vec<(usize, usize)> = self
            .tables
            .returns
            .get(&**last)
            .into_iter()
            .flatten()
            .copied()
            .filter(|(cf, ri)| {
                self.sees(fi, *cf) && ends_with(&self.files[*cf].returns[*ri].path, &segs)
            })
            .collect();
        self.narrow(fi, module, cands, &|cf, ri| {
            &self.files[cf].returns[ri].path
        })
    }

    /// What one function returns: the value when every return path agrees.
    fn fn_result(&self, (cf, ri): (usize, usize), depth: usize) -> (Resolved, ValueInfo) {
        let Some(f) = self.files.get(cf).and_then(|f| f.returns.get(ri)) else {
            return (
                Resolved::unknown("internal: a function was lost"),
                ValueInfo::unknown(Span::new(0, 0)),
            );
        };
        let name = f.path.last().map_or("?", |n| &**n);
        let at = Span::new(0, 0);
        let known = self.fn_results.borrow().get(&(cf, ri)).cloned();
        match known {
            Some(Some((r, v, deps))) => {
                self.read_deps(&deps);
                return (r, v);
            }
            Some(None) => {
                let r = Resolved::unknown(format!(
                    "`{name}` calls itself; dynalint does not follow recursion"
                ));
                let mut v = ValueInfo::unknown(at);
                v.text = Some(r.clone());
                return (r, v);
            }
            None => {}
        }
        if depth > 12 {
            let r = Resolved::unknown(format!(
                "`{name}` is reached through too many calls to follow"
            ));
            let mut v = ValueInfo::unknown(at);
            v.text = Some(r.clone());
            return (r, v);
        }
        self.fn_results.borrow_mut().insert((cf, ri), None);
        let (done, deps) = self.tracked(|| self.fn_result_of(f, depth, cf));
        self.fn_results.borrow_mut().insert(
            (cf, ri),
            Some((done.0.clone(), done.1.clone(), Rc::new(deps))),
        );
        done
    }

    /// [`Linker::fn_result`] once neither known nor being resolved.
    fn fn_result_of(&self, f: &FnReturn, depth: usize, cf: usize) -> (Resolved, ValueInfo) {
        let name = f.path.last().map_or("?", |n| &**n);
        let at = Span::new(0, 0);
        let strings: Vec<Resolved> = f
            .strings
            .iter()
            .map(|s| {
                let mut s = s.clone();
                self.resolve(cf, &mut s, depth + 1);
                s
            })
            .collect();
        let values: Vec<ValueInfo> = f
            .values
            .iter()
            .map(|v| {
                let mut v = v.clone();
                self.resolve_value(cf, &mut v);
                v
            })
            .collect();
        let paths = strings.len();
        let result = match agree(strings) {
            Ok(_) if paths == 0 => {
                Resolved::unknown(format!("`{name}` returns no value dynalint can see"))
            }
            Ok(r) => Resolved::Const {
                name: format!("{name}()"),
                value: Box::new(r),
            },
            Err(n) => Resolved::unknown(format!(
                "`{name}` returns {n} different values on its {paths} return paths"
            )),
        };
        let value = match (result.innermost(), values.first()) {
            (Resolved::Unknown { .. }, _) | (_, None) => {
                let mut v = ValueInfo::unknown(at);
                v.text = Some(result.clone());
                v
            }
            (_, Some(first)) => {
                let mut v = first.clone();
                if values.iter().any(|o| o.provenance != first.provenance) {
                    v.provenance = Provenance::Unknown;
                }
                if matches!(
                    v.text.as_ref().map(Resolved::innermost),
                    Some(Resolved::Unknown { .. }) | None
                ) {
                    v.text = Some(result.clone());
                }
                v
            }
        };
        (result, value)
    }

    /// The item or key map a crate function returns, when it has one return path and
    /// one function answers the call; else an empty, incomplete map.
    /// A parameter's value: what the calls of its function pass, those in the
    /// function's own package first.
    fn param_value(
        &self,
        fi: usize,
        pr: &PendingRef,
        function: &str,
        index: usize,
        depth: usize,
    ) -> Resolved {
        let sites = self.param_sites(fi, pr, function);
        let passed: Vec<Resolved> = sites
            .into_iter()
            .map(|(sf, site)| match site.args.get(index) {
                Some(Some(v)) => {
                    let mut v = v.clone();
                    self.resolve(sf, &mut v, depth + 1);
                    v
                }
                _ => Resolved::unknown("an argument dynalint cannot follow"),
            })
            .collect();
        if passed.is_empty() {
            return Resolved::unknown(format!(
                "`{}` is a parameter of `{function}`, and no call of it in the crate passes a value dynalint can follow",
                pr.text
            ));
        }
        let n = passed.len();
        // `AUDIT_TABLE` here, `"Audit"` there: the same name.
        let same_value = passed
            .first()
            .and_then(Resolved::value)
            .filter(|v| passed.iter().all(|p| p.value() == Some(*v)))
            .map(Resolved::literal);
        if let (Some(v), true) = (same_value, n > 1) {
            return Resolved::Const {
                name: pr.text.to_string(),
                value: Box::new(v),
            };
        }
        match agree(passed) {
            Ok(v) if !matches!(v.innermost(), Resolved::Unknown { .. }) => {
                Resolved::Const {
                    name: pr.text.to_string(),
                    value: Box::new(v),
                }
            }
            Ok(_) => Resolved::unknown(format!(
                "`{}` is a parameter of `{function}`, whose callers pass a value dynalint cannot follow",
                pr.text
            )),
            Err(k) => Resolved::unknown(format!(
                "`{}` is a parameter of `{function}`, passed {k} different values by its {n} calls",
                pr.text
            )),
        }
    }

    /// The calls that may be calls of the function whose parameter `pr` is, those in
    /// the function's own package first.
    fn param_sites(&self, fi: usize, pr: &PendingRef, function: &str) -> Vec<(usize, &'a ArgSite)> {
        self.asked.borrow_mut().insert(pr.kind.clone());
        if let RefKind::Param { self_ty, .. } = &pr.kind {
            self.want(
                fi,
                deferred::Lookup::Call {
                    function: deferred::hash(Some(function)),
                    self_ty: deferred::hash(self_ty.as_deref()),
                },
            );
            // `DynamoStore::new("apps")` calls `new` of `impl DefaultDynamoStore<T>`,
            // an alias of it (and the other way round).
            for other in self_ty.iter().flat_map(|t| self.type_names(fi, t)) {
                self.want(
                    fi,
                    deferred::Lookup::Call {
                        function: deferred::hash(Some(function)),
                        self_ty: deferred::hash(Some(&other)),
                    },
                );
            }
        }
        let sites: Vec<(usize, &ArgSite)> = self
            .tables
            .arg_sites
            .get(function)
            .into_iter()
            .flatten()
            // The calls whose crate can name the function (its own, or its users').
            .filter(|(sf, _)| self.sees(*sf, fi))
            .filter_map(|(sf, i)| Some((*sf, self.files.get(*sf)?.arg_sites.get(*i)?)))
            .filter(|(sf, site)| {
                let same = |a: &str, b: &str| self.same_type(*sf, a, b);
                calls(site, &pr.kind, self.tests_count.get(), &same)
            })
            .collect();
        // Several packages in one repository (a Lambda per folder, each with
        // its own `handler`): the calls in the function's own package count.
        let package = |f: usize| self.tables.packages.get(f).copied();
        let own: Vec<(usize, &ArgSite)> = sites
            .iter()
            .copied()
            .filter(|(sf, _)| package(*sf) == package(fi))
            .collect();
        if own.is_empty() {
            sites
        } else {
            own
        }
    }

    /// The table of a request whose table is a parameter (`table` of `query_table`,
    /// or of the helper `create_query` its builder comes from, bound at `site`) that
    /// its calls give different values: each call's table, when there are two to
    /// [`MAX_TABLE_SPLIT`] (a call whose table dynalint cannot follow gives one
    /// of unknown table). Each is a request the code makes; linked as one, its table
    /// is unknown, and none of them is judged.
    ///
    /// With one table, the text every call passes it as (`&self.config.tables.journal`,
    /// a field that does not resolve), which a table's `refs` may list as for a table
    /// named there.
    fn table_per_call(&self, fi: usize, raw: &PendingRef, site: Option<CallSite<'a>>) -> Passed {
        match self.tables_passed(fi, raw, site) {
            Some(tables) if tables.len() > 1 => Passed::Tables(tables),
            Some(mut one) => match one.pop().and_then(|t| t.text) {
                Some(text) => Passed::Text(text),
                None => Passed::Nothing,
            },
            None => Passed::Nothing,
        }
    }

    /// Each different table the calls of a request's function pass its table
    /// parameter (through `site`, the helper call a chain continues), with the
    /// argument's text; `None` past [`MAX_TABLE_SPLIT`] or for no parameter.
    fn tables_passed(
        &self,
        fi: usize,
        raw: &PendingRef,
        site: Option<CallSite<'a>>,
    ) -> Option<Vec<TablePassed>> {
        let RefKind::Param {
            function,
            index,
            arity,
            ..
        } = &raw.kind
        else {
            return None;
        };
        // Through the helper's call: the parameter is the caller's it passes on.
        let (pf, pr) = match site {
            Some(s) if s.function == &**function && s.args.len() == *arity => {
                let arg = s.args.get(*index)?.as_ref()?;
                let pr = self.pending_ref(s.file, Some(arg))?;
                // `&self.table` handed to the helper: each table the instance may have.
                if !matches!(pr.kind, RefKind::Param { .. }) {
                    let each = self.passed_instance_tables(s.file, arg)?;
                    let each = each.into_iter().map(|t| TablePassed {
                        table: Resolved::Const {
                            name: raw.text.to_string(),
                            value: Box::new(t),
                        },
                        text: None,
                        sites: Vec::new(),
                        possible: true,
                    });
                    return Some(each.collect());
                }
                (s.file, pr)
            }
            _ => (fi, raw.clone()),
        };
        let RefKind::Param {
            function, index, ..
        } = &pr.kind
        else {
            return None;
        };
        // An edit of what these calls pass links this request again.
        self.read(&self.reads.as_ref().map(|_| intern(function)));
        let mut tables: Vec<TablePassed> = Vec::new();
        for (sf, call) in self.param_sites(pf, &pr, function) {
            let (v, text, split) = match call.args.get(*index) {
                Some(Some(arg)) => {
                    let text = self.pending_ref(sf, Some(arg)).map(|p| p.text.to_string());
                    let mut v = arg.clone();
                    self.resolve(sf, &mut v, 1);
                    // `&self.table` of an instance built with different tables: each.
                    let split = matches!(v.innermost(), Resolved::Unknown { .. })
                        .then(|| self.passed_instance_tables(sf, arg))
                        .flatten();
                    (v, text, split)
                }
                _ => (
                    Resolved::unknown("an argument dynalint cannot follow"),
                    None,
                    None,
                ),
            };
            let possible = split.is_some();
            for v in split.unwrap_or_else(|| vec![v]) {
                let one = TablePassed {
                    table: Resolved::Const {
                        name: pr.text.to_string(),
                        value: Box::new(v),
                    },
                    text: text.clone(),
                    sites: vec![(sf, call.at)],
                    possible,
                };
                match tables.iter_mut().find(|t| t.table == one.table) {
                    Some(t) => {
                        t.sites.extend(one.sites);
                        // One call that certainly passes it makes it certain.
                        t.possible &= one.possible;
                    }
                    None => tables.push(one),
                }
            }
            if tables.len() > MAX_TABLE_SPLIT {
                return None;
            }
        }
        Some(tables)
    }

    /// The tables an argument may be when it is `self.table` of an instance whose
    /// constructors give it different tables ([`Linker::instance_tables`]), as a
    /// request written on `self.table` itself would be linked.
    fn passed_instance_tables(&self, sf: usize, arg: &Resolved) -> Option<Vec<Resolved>> {
        let pr = self.table_source(sf, &Some(arg.clone()))?;
        self.instance_tables(sf, &pr)
    }

    fn fn_map(&self, fi: usize, pr: &PendingRef, depth: usize) -> Option<AttrMap> {
        let found = self.fn_candidates(fi, &pr.kind);
        let maps: Vec<&AttrMap> = found
            .iter()
            .filter_map(|(cf, ri)| self.files.get(*cf)?.returns.get(*ri))
            .filter(|r| !r.maps.is_empty())
            .flat_map(|r| r.maps.iter())
            .collect();
        match maps.as_slice() {
            [] => None,
            [one] if depth < 4 => Some((*one).clone()),
            _ => Some(AttrMap::default()),
        }
    }

    /// The value of a call in attribute-value position, when it is a crate function.
    fn fn_value(&self, fi: usize, pr: &PendingRef) -> Option<ValueInfo> {
        let found = self.fn_candidates(fi, &pr.kind);
        let first = *found.first()?;
        let (r, v) = self.fn_result(first, 0);
        let all_agree = found[1..].iter().all(|c| self.fn_result(*c, 0).0 == r);
        if all_agree {
            let mut v = v;
            v.text = Some(r);
            Some(v)
        } else {
            let mut v = ValueInfo::unknown(Span::new(0, 0));
            v.text = Some(Resolved::unknown(format!(
                "`{}` names {} functions that return different values",
                pr.text,
                found.len()
            )));
            Some(v)
        }
    }

    /// The one value a `OnceLock`/`OnceCell` static at `path` is given in the crate.
    fn once_value(&self, path: &[Name], text: &str, depth: usize) -> Resolved {
        let mut values = Vec::new();
        for (sf, si) in &self.tables.once_sets {
            let Some(set) = self.files.get(*sf).and_then(|f| f.once_sets.get(*si)) else {
                continue;
            };
            let RefKind::Path {
                segments,
                module,
                self_ty,
            } = &set.target
            else {
                continue;
            };
            let segs = self.normalise(*sf, segments, self_ty.as_ref());
            let targets = self.const_candidates(*sf, &segs, module);
            let hits = targets
                .iter()
                .any(|(cf, ci)| *self.files[*cf].consts[*ci].path == *path);
            if hits {
                let mut v = set.value.clone();
                self.resolve(*sf, &mut v, depth + 1);
                values.push(v);
            }
        }
        if values.is_empty() {
            return Resolved::unknown(format!(
                "`{text}` is a OnceLock that nothing in the crate sets to a value"
            ));
        }
        agree(values).unwrap_or_else(|n| {
            Resolved::unknown(format!("`{text}` is set to {n} different values"))
        })
    }

    /// `crate::`, `self::` and `crate::scanner::` dropped, `Self` made the impl type, and a
    /// leading `use` alias of the referring file expanded.
    fn normalise(&self, fi: usize, segments: &[Name], self_ty: Option<&Name>) -> Vec<Name> {
        let mut segs: Vec<Name> = segments
            .iter()
            .filter(|s| !matches!(&***s, "crate" | "self" | "super"))
            .map(|s| match (&**s, self_ty) {
                ("Self", Some(t)) => Arc::clone(t),
                _ => Arc::clone(s),
            })
            .collect();
        if let (Some(first), Some(f)) = (segs.first().cloned(), self.files.get(fi)) {
            if let Some(u) = f.uses.iter().find(|u| u.alias == first) {
                let mut p: Vec<Name> = u
                    .path
                    .iter()
                    .filter(|s| !matches!(&***s, "crate" | "self" | "super"))
                    .cloned()
                    .collect();
                p.extend(segs.drain(1..));
                segs = p;
            }
        }
        segs
    }

    /// The constants a normalised path can mean, narrowed like any reference.
    fn const_candidates(&self, fi: usize, segs: &[Name], module: &[Name]) -> Vec<(usize, usize)> {
        let Some(last) = segs.last() else {
            return Vec::new();
        };
        // Without a match, the path is tried again without its first segment.
        let qualifier = segs
            .len()
            .checked_sub(2)
            .filter(|i| *i > 0)
            .map(|i| &*segs[i]);
        self.want(fi, deferred::item(last, qualifier, None));
        let matching = |segs: &[Name]| -> Vec<(usize, usize)> {
            self.tables
                .consts
                .get(&**last)
                .into_iter()
                .flatten()
                .copied()
                .filter(|(cf, ci)| {
                    self.sees(fi, *cf) && ends_with(&self.files[*cf].consts[*ci].path, segs)
                })
                .collect()
        };
        let mut cands = matching(segs);
        if cands.is_empty() && segs.len() > 1 {
            // `use orders_service::TABLE` in a binary names its own library by the
            // package's name, which module paths do not carry.
            cands = matching(&segs[1..]);
        }
        self.narrow(fi, module, cands, &|cf, ci| &self.files[cf].consts[ci].path)
    }

    /// Of several items a reference can mean: the referring file's own, else the
    /// referring module's, else all of them (the caller checks that they agree).
    fn narrow(
        &self,
        fi: usize,
        module: &[Name],
        cands: Vec<(usize, usize)>,
        path_of: &dyn Fn(usize, usize) -> &'a [Name],
    ) -> Vec<(usize, usize)> {
        // Several in the file (`User::TABLE` and `Order::TABLE` for `T::TABLE`) or in
        // the module are all kept: the caller checks that they agree, rather than the
        // first standing for the others.
        let own: Vec<(usize, usize)> = cands.iter().copied().filter(|(cf, _)| *cf == fi).collect();
        if !own.is_empty() {
            return own;
        }
        let in_module: Vec<(usize, usize)> = cands
            .iter()
            .copied()
            .filter(|(cf, ci)| {
                let p = path_of(*cf, *ci);
                p[..p.len().saturating_sub(1)] == *module
            })
            .collect();
        if !in_module.is_empty() {
            return in_module;
        }
        cands
    }

    fn const_path(
        &self,
        fi: usize,
        text: &str,
        segments: &[Name],
        module: &[Name],
        self_ty: Option<&Name>,
        depth: usize,
    ) -> Resolved {
        let segs = self.normalise(fi, segments, self_ty);
        let Some(last) = segs.last() else {
            return Resolved::unknown(format!("`{text}` names nothing"));
        };
        let cands = self.const_candidates(fi, &segs, module);
        if cands.is_empty() {
            let reason = format!("`{text}` is not a constant dynalint found in the crate");
            // A SCREAMING_CASE name from another crate is still a constant the code names
            // the value by: keep the name so a table's `refs` can match it.
            let const_like = last.chars().any(|c| c.is_ascii_uppercase())
                && last
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            return if const_like {
                Resolved::Const {
                    name: text.to_string(),
                    value: Box::new(Resolved::unknown(reason)),
                }
            } else {
                Resolved::unknown(reason)
            };
        }
        let vals: Vec<Resolved> = cands
            .iter()
            .map(|(cf, ci)| {
                let mut v = self.files[*cf].consts[*ci].value.clone();
                self.resolve(*cf, &mut v, depth + 1);
                v
            })
            .collect();
        let Ok(value) = agree(vals) else {
            return Resolved::unknown(format!(
                "`{text}` matches {} constants with different values",
                cands.len()
            ));
        };
        Resolved::Const {
            name: text.to_string(),
            value: Box::new(value),
        }
    }

    /// The argument of `call` (a constructor call of `ty` a local was bound to, in file
    /// `fi`) that the field `fields` of what it builds holds: the constructor sets the
    /// field from that parameter (`Self { table: table.into() }` in `fn new(table)`).
    /// `None` when it sets the field any other way, or to different parameters.
    fn ctor_arg(&self, fi: usize, ty: &str, fields: &[Name], call: &CtorCall) -> Option<Resolved> {
        let [field] = fields else {
            return None;
        };
        self.want(
            fi,
            deferred::Lookup::Named(deferred::hash(Some(ty)), deferred::hash(Some(field))),
        );
        let inits = Tables::get_pair(&self.tables.inits, ty, field)?;
        let mut index = None;
        for (cf, i) in inits.iter().filter(|(cf, _)| self.sees(fi, *cf)) {
            let init = &self.files.get(*cf)?.field_inits.get(*i)?.value;
            let Some(pr) = self.pending_ref(*cf, Some(init)) else {
                continue;
            };
            if let RefKind::Param {
                function,
                self_ty: Some(s),
                index: at,
                arity,
            } = &pr.kind
            {
                if *function == call.function
                    && self.same_type(*cf, s, ty)
                    && *arity == call.args.len()
                {
                    if index.is_some_and(|x| x != *at) {
                        return None;
                    }
                    index = Some(*at);
                }
            }
        }
        Some(match call.args.get(index?)? {
            Some(arg) => arg.clone(),
            None => Resolved::unknown(format!(
                "`{}::{}` is given a value dynalint cannot follow",
                ty, call.function
            )),
        })
    }

    /// Whether `v` (in file `cf`) is a parameter that tests pass and no other call
    /// does. (One no call passes is the crate's users' to give: unknown.)
    fn only_tests_pass(&self, cf: usize, v: &Resolved) -> bool {
        let Some(pr) = self.pending_ref(cf, Some(v)) else {
            return false;
        };
        let RefKind::Param { function, .. } = &pr.kind else {
            return false;
        };
        if self.tests_count.get() || !self.param_sites(cf, &pr, function).is_empty() {
            return false;
        }
        self.tests_count.set(true);
        let tested = !self.param_sites(cf, &pr, function).is_empty();
        self.tests_count.set(false);
        tested
    }

    fn field(
        &self,
        fi: usize,
        text: &str,
        ty: &str,
        fields: &[Name],
        ctor: Option<&CtorCall>,
        depth: usize,
    ) -> Resolved {
        // `let t = Tables::new(name); .. &t.table`: what this call passes.
        if let Some(mut v) = ctor.and_then(|c| self.ctor_arg(fi, ty, fields, c)) {
            self.resolve(fi, &mut v, depth + 1);
            return Resolved::Const {
                name: text.to_string(),
                value: Box::new(v),
            };
        }
        let mut ty = ty.to_string();
        let Some((last, path)) = fields.split_last() else {
            return Resolved::unknown("no field");
        };
        for f in path {
            match self.field_type(fi, &ty, f) {
                Some(t) => ty = t.to_string(),
                None => {
                    return Resolved::unknown(format!(
                        "the type of `{f}` in `{text}` is not a struct dynalint found"
                    ))
                }
            }
        }
        self.want(
            fi,
            deferred::Lookup::Named(deferred::hash(Some(&ty)), deferred::hash(Some(last))),
        );
        let Some(vals) = Tables::get_pair(&self.tables.inits, &ty, last) else {
            return Resolved::unknown(format!("no constructor of `{ty}` in the crate sets `{last}` to a value dynalint can follow"));
        };
        let inits: Vec<(usize, &FieldInit)> = vals
            .iter()
            .filter(|(cf, _)| self.sees(fi, *cf))
            .filter_map(|(cf, i)| Some((*cf, self.files.get(*cf)?.field_inits.get(*i)?)))
            .collect();
        // A test's instance (`TableNames { journal: "custom-journal".into(), .. }` in a
        // config test) is not one the service builds: the other constructors decide,
        // as for a field several instances hold (`instance_tables`). Only tests' when
        // every one is a test's.
        let service = inits.iter().any(|(_, init)| !init.test);
        let visible: Vec<(usize, &Resolved)> = inits
            .into_iter()
            .filter(|(_, init)| !(service && init.test))
            .map(|(cf, init)| (cf, &init.value))
            .collect();
        // Constructors only crates this one cannot name hold are none: the same answer
        // whether or not the link parsed their files (a deferred file is parsed only
        // for a lookup whose crate can use its answer).
        if visible.is_empty() {
            return Resolved::unknown(format!("no constructor of `{ty}` in the crate sets `{last}` to a value dynalint can follow"));
        }
        // A constructor that sets the field from a parameter no call outside tests
        // passes (`with_client_and_table(client, table)`, for the tests' table) says
        // nothing of the table the code names: the other constructors decide.
        let visible = self.production_first(visible);
        let resolved: Vec<Resolved> = visible
            .into_iter()
            // `Clone` by hand (`table_name: self.table_name.clone()`) copies the
            // field: it says nothing of its value.
            .filter(|(cf, v)| {
                !self.pending_ref(*cf, Some(*v)).is_some_and(|pr| {
                    matches!(&pr.kind, RefKind::Field { ty: t, fields: f, .. }
                        if **t == *ty && f.len() == 1 && f[0] == *last)
                })
            })
            .map(|(cf, v)| {
                let mut v = v.clone();
                self.resolve(cf, &mut v, depth + 1);
                v
            })
            .collect();
        if resolved.windows(2).all(|w| w[0] == w[1]) {
            let v = resolved
                .into_iter()
                .next()
                .unwrap_or_else(|| Resolved::unknown("no value"));
            Resolved::Const {
                name: text.to_string(),
                value: Box::new(v),
            }
        } else {
            Resolved::unknown(format!(
                "constructors of `{ty}` set `{last}` to {} different values",
                resolved.len()
            ))
        }
    }
}

/// Adds `v` to `out` unless it holds it, or holds an unknown value and `v` is one too.
/// A value reached through other names (`table_name` bound to a `match` on
/// `env::var("TABLE_NAME")` in one constructor, `env::var("TABLE_NAME")?` in another)
/// is the same table: held too.
fn push_value(out: &mut Vec<Resolved>, v: Resolved) {
    let unknown = |r: &Resolved| matches!(r.innermost(), Resolved::Unknown { .. });
    let same = |r: &Resolved| !unknown(r) && r.innermost() == v.innermost();
    let held = out.contains(&v) || (unknown(&v) && out.iter().any(unknown)) || out.iter().any(same);
    if !held {
        out.push(v);
    }
}

/// Each file's package as a number: files of the same crate with the same
/// [`package_of`] share one (without manifests, the path alone decides).
pub(super) fn package_ids(files: &[Arc<FileIndex>], crates: &Crates) -> Vec<usize> {
    let mut ids: HashMap<(u32, std::path::PathBuf), usize> = HashMap::new();
    files
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            let n = ids.len();
            *ids.entry((crates.of(fi), package_of(&f.path))).or_insert(n)
        })
        .collect()
}

/// The folder holding a file's `src/`: its package, as far as paths tell.
fn package_of(path: &std::path::Path) -> std::path::PathBuf {
    let comps: Vec<_> = path.components().collect();
    match comps.iter().rposition(|c| c.as_os_str() == "src") {
        Some(i) => comps[..i].iter().collect(),
        None => path
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
    }
}

/// Whether an item path ends with the (normalised) path a reference wrote.
fn ends_with(path: &[Name], segs: &[Name]) -> bool {
    path.len() >= segs.len() && path[path.len() - segs.len()..] == *segs
}

/// The one value all of `values` are, or how many different ones there are.
fn agree(values: Vec<Resolved>) -> Result<Resolved, usize> {
    let mut distinct: Vec<&Resolved> = Vec::new();
    for v in &values {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    if distinct.len() > 1 {
        return Err(distinct.len());
    }
    Ok(values
        .into_iter()
        .next()
        .unwrap_or_else(|| Resolved::unknown("no value")))
}

/// Puts what a function returns in place of the call's value: the call's span stays,
/// and so does a type the call site shows (`AttributeValue::S(pk(id))`).
/// A map extended by a serialised struct, `at` entries in: the struct's attributes
/// replace the entries set before the `extend`, and are replaced by the ones set after
/// it on every path; one set after it on some paths only (`if let Some(id) = ..`)
/// leaves the struct's value on the others, so both are kept.
fn splice_serialised(
    attributes: &mut Vec<crate::scanner::AttrArg>,
    at: usize,
    struct_attrs: Vec<crate::scanner::AttrArg>,
) {
    let after = attributes.split_off(at.min(attributes.len()));
    let same = |a: &crate::scanner::AttrArg, b: &crate::scanner::AttrArg| {
        a.name.value().is_some() && a.name.value() == b.name.value()
    };
    attributes.retain(|b| !struct_attrs.iter().any(|s| same(s, b)));
    attributes.extend(
        struct_attrs
            .into_iter()
            .filter(|s| !after.iter().any(|a| !a.conditional && same(a, s))),
    );
    attributes.extend(after);
}

fn splice_value(v: &mut ValueInfo, mut f: ValueInfo) {
    let at = v.span;
    fn respan(v: &mut ValueInfo, at: Span) {
        v.span = at;
        for p in &mut v.parts {
            respan(p, at);
        }
    }
    respan(&mut f, at);
    // A function that passes a parameter on: the call's own arguments say more
    // (`pk(id)` is a parameter, `pk(&digest)` a digest). A digest or generated id in
    // the arguments wins over a body dynalint cannot read (`hex(&Sha256::digest(..))`).
    let strong = matches!(
        v.provenance,
        Provenance::Hashed { .. } | Provenance::GeneratedId
    );
    if (f.provenance == Provenance::Param && v.provenance != Provenance::Unknown)
        || (f.provenance == Provenance::Unknown && strong)
    {
        f.provenance = v.provenance.clone();
    }
    f.ty = v.ty.or(f.ty);
    f.nullable |= v.nullable;
    if f.literal.is_none() {
        f.literal = f.text.as_ref().and_then(|t| t.value()).map(str::to_string);
    }
    *v = f;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::index::index_text_lean;

    /// Requests sent, one in a loop, one handed to a helper that sends it.
    const SENT: &str = r#"
async fn load(c: &Client, ids: &[String]) {
    c.get_item().table_name("Orders").key("pk", S("a".into())).send().await;
    for id in ids {
        c.query().table_name("Orders").send().await;
    }
    send_it(c.scan().table_name("Orders"));
}
fn send_it(q: ScanFluentBuilder) { q.limit(5).send(); }
"#;

    /// A table name that is a parameter, followed to what its callers pass.
    const PARAM: &str = r#"
async fn put_in(c: &Client, table: &str) { c.put_item().table_name(table).send().await; }
async fn go(c: &Client) { put_in(c, "Audit").await; }
"#;

    fn reread(path: &std::path::Path) -> Option<Arc<str>> {
        [("a.rs", SENT), ("b.rs", PARAM)]
            .iter()
            .find(|(p, _)| path.ends_with(p))
            .map(|(_, t)| Arc::from(*t))
    }

    fn indexed(texts: &[(&str, &str)], settings: &ScanSettings) -> Vec<Arc<FileIndex>> {
        texts
            .iter()
            .map(|(p, t)| {
                let path: crate::source::FilePath = Arc::from(std::path::Path::new(p));
                Arc::new(index_text_lean(&path, &Arc::from(*t), settings))
            })
            .collect()
    }

    /// What [`link`] and [`link_owned`] give (operations, problems, tables), and
    /// whether `link_owned` left the indexes their operations.
    fn both(texts: &[(&str, &str)], settings: &ScanSettings) -> (String, String, usize, bool) {
        let shared = indexed(texts, settings);
        let copied = link(&shared, settings);
        let mut owned = indexed(texts, settings);
        let moved = link_owned(&mut owned, settings);
        let kept = owned.iter().any(|f| !f.ops.is_empty());
        let show = |r: &ScanResult| format!("{:?}", (&r.operations, &r.problems, &r.tables));
        (show(&copied), show(&moved), copied.operations.len(), kept)
    }

    /// A table name that is a parameter of a helper the same file calls: the lean
    /// index already holds the call's arguments, so the link follows the parameter
    /// with no file read again (this reader reads none: a read would leave the table
    /// unknown, with a note).
    #[test]
    fn a_parameter_its_own_file_answers_needs_no_second_read() {
        fn unreadable(_: &std::path::Path) -> Option<Arc<str>> {
            None
        }
        let settings = ScanSettings {
            reread: Some(unreadable),
            ..ScanSettings::default()
        };
        let result = link(&indexed(&[("b.rs", PARAM)], &settings), &settings);
        assert!(result.problems.is_empty(), "{:?}", result.problems);
        assert_eq!(result.operations.len(), 1);
        let shown = format!("{:?}", result.operations[0]);
        assert!(shown.contains("Audit"), "{shown}");
    }

    /// Reads a file from disk, but for the copies in `other/` (a read of one would
    /// leave a note).
    fn reread_but_other(path: &std::path::Path) -> Option<Arc<str>> {
        if path.components().any(|c| c.as_os_str() == "other") {
            return None;
        }
        std::fs::read_to_string(path).ok().map(Arc::from)
    }

    /// Links `files` (path under a fresh tree with crates `api` → `common` and
    /// `other`, text), written to disk and indexed lean: what it finds, and how many
    /// files it parsed again. With `deferred`, every file but the first is one the
    /// pre-filter ruled out.
    fn link_crates(files: &[(&str, &str)], deferred: bool) -> (ScanResult, String) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let manifests = [
            (
                "api/Cargo.toml",
                "[package]\nname = \"api\"\n[dependencies]\ncommon = { path = \"../common\" }\n",
            ),
            ("common/Cargo.toml", "[package]\nname = \"common\"\n"),
            ("other/Cargo.toml", "[package]\nname = \"other\"\n"),
        ];
        for (rel, text) in manifests.iter().chain(files) {
            let p = tmp.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
            std::fs::write(p, text).expect("write");
        }
        let settings = ScanSettings {
            reread: Some(reread_but_other),
            ..ScanSettings::default()
        };
        let paths: Vec<String> = files
            .iter()
            .map(|(rel, _)| tmp.path().join(rel).display().to_string())
            .collect();
        let texts: Vec<(&str, &str)> = paths
            .iter()
            .map(|p| &**p)
            .zip(files.iter().map(|f| f.1))
            .collect();
        let indexes = indexed(&texts, &settings);
        assert!(!deferred || indexes[1..].iter().all(|f| f.deferred.is_some()));
        let result = link(&indexes, &settings);
        let shown = format!("{:?}", result.operations);
        (result, shown)
    }

    /// A deferred file is parsed for a lookup only in a crate whose answer the link
    /// keeps: an item the looking file's crate can name, a call from a crate that can
    /// name the parameter's function. The copies in a crate that cannot are never
    /// read (reading one would leave a note).
    #[test]
    fn a_deferred_file_no_looking_crate_can_use_is_not_parsed() {
        let names = "pub const ORDERS: &str = \"Orders\";\n";
        let (result, shown) = link_crates(
            &[
                (
                    "api/src/main.rs",
                    "use common::names::ORDERS;\n\
                 async fn go(c: &Client) { c.put_item().table_name(ORDERS).send().await; }\n",
                ),
                ("common/src/names.rs", names),
                ("other/src/names.rs", names),
            ],
            true,
        );
        assert!(result.problems.is_empty(), "{:?}", result.problems);
        assert_eq!(result.stats.reparsed, 1);
        assert!(shown.contains("Orders"), "{shown}");
        let (result, shown) = link_crates(
            &[
                (
                    "common/src/lib.rs",
                    "pub async fn put_in(c: &Client, table: &str) {\n\
                 c.put_item().table_name(table).send().await; }\n",
                ),
                (
                    "api/src/main.rs",
                    "// A marker in a comment (`query()`): read as a candidate, every call.\n\
                 async fn go(c: &Client) { common::put_in(c, \"Audit\").await; }\n",
                ),
                (
                    "other/src/main.rs",
                    "// query()\nasync fn go(c: &Client) { put_in(c, \"Audit\").await; }\n",
                ),
            ],
            true,
        );
        assert!(result.problems.is_empty(), "{:?}", result.problems);
        assert_eq!(result.stats.reparsed, 1);
        assert!(shown.contains("Audit"), "{shown}");
    }

    /// A file is parsed again for its calls' arguments only when one may give the
    /// link something: a call in a crate that cannot name the asked function (a
    /// vendored crate's `.load(SeqCst)`, the name and arity of the asked
    /// `Views::load`) gives nothing.
    #[test]
    fn a_file_whose_crate_cannot_name_the_function_is_not_parsed_again() {
        let (result, shown) = link_crates(
            &[
                (
                    "common/src/lib.rs",
                    "pub struct Views { c: Client }\nimpl Views {\n\
                     pub async fn load(&self, table: &str) {\n\
                     self.c.query().table_name(table).send().await; } }\n",
                ),
                (
                    "api/src/main.rs",
                    "// A marker in a comment (`query()`): read as a candidate.\n\
                     async fn go(v: &common::Views) { v.load(\"Audit\").await; }\n",
                ),
                (
                    "other/src/main.rs",
                    "// Sets a static: parsed for its items, with its calls' keys.\n\
                     static COUNT: OnceLock<AtomicUsize> = OnceLock::new();\n\
                     fn go() -> usize { COUNT.get_or_init(AtomicUsize::default).load(SeqCst) }\n",
                ),
            ],
            false,
        );
        assert!(result.problems.is_empty(), "{:?}", result.problems);
        assert!(shown.contains("Audit"), "{shown}");
    }

    /// A helper whose key condition is its parameter asks its callers for their
    /// texts per path (`let mut kc = ..; if .. { kc.push_str(..) }`): a file that
    /// appends to no string has none and is not parsed again for them; one that
    /// does is, and the request is judged on each path.
    #[test]
    fn only_a_file_that_appends_is_parsed_again_for_texts_per_path() {
        const REPO: &str = "pub async fn find(c: &Client, kc: String) {\n\
             c.query().table_name(\"Orders\").key_condition_expression(kc)\n\
             .send().await; }\n";
        // A file with a helper of its own is read for its calls' arguments at once,
        // values at its own helper's calls only.
        const PLAIN: &str = "async fn put_in(c: &Client, t: &str) { c.put_item().table_name(t).send().await; }\n\
             async fn go(c: &Client) { put_in(c, \"Audit\").await; find(c, \"pk = :pk\".to_string()).await; }\n";
        const BUILT: &str =
            "async fn put_in(c: &Client, t: &str) { c.put_item().table_name(t).send().await; }\n\
             async fn go(c: &Client, all: bool) {\n\
             put_in(c, \"Audit\").await;\n\
             let mut kc = \"pk = :pk\".to_string();\n\
             if !all { kc.push_str(\" AND sk > :s\"); }\n\
             find(c, kc).await; }\n";
        fn read(path: &std::path::Path) -> Option<Arc<str>> {
            [("repo.rs", REPO), ("plain.rs", PLAIN), ("built.rs", BUILT)]
                .iter()
                .find(|(p, _)| path.ends_with(p))
                .map(|(_, t)| Arc::from(*t))
        }
        let settings = ScanSettings {
            reread: Some(read),
            ..ScanSettings::default()
        };
        let linked = |name: &str| {
            let text = read(std::path::Path::new(name)).expect("text");
            let files = indexed(&[("repo.rs", REPO), (name, &text)], &settings);
            link(&files, &settings)
        };
        let (plain, built) = (linked("plain.rs"), linked("built.rs"));
        assert_eq!(plain.stats.reparsed, 0);
        assert_eq!(built.stats.reparsed, 1);
        let shown = format!("{:?}", built.operations);
        assert!(shown.contains("sk > :s"), "{shown}");
    }

    /// A file read again for its calls' arguments reads them as values only at the
    /// calls of the functions whose parameters the link asked as values, and keeps
    /// the other calls' keys (`value_keys`); read for the values of a call of
    /// another, it reads every call's.
    #[test]
    fn a_file_read_again_reads_values_at_the_calls_of_value_helpers() {
        const REPO: &str = "pub async fn page(c: &Client, limit: i32) {\n\
             c.scan().table_name(\"Orders\").limit(limit).send().await; }\n";
        const APP: &str = "async fn go(c: &Client) { page(c, 25).await; other(c, 7); }\n";
        fn read(path: &std::path::Path) -> Option<Arc<str>> {
            [("repo.rs", REPO), ("app.rs", APP)]
                .iter()
                .find(|(p, _)| path.ends_with(p))
                .map(|(_, t)| Arc::from(*t))
        }
        let settings = ScanSettings {
            reread: Some(read),
            ..ScanSettings::default()
        };
        let files = indexed(&[("repo.rs", REPO), ("app.rs", APP)], &settings);
        let limit = RefKind::Param {
            function: intern("page"),
            self_ty: None,
            index: 1,
            arity: 2,
        };
        let valued = |idx: &FileIndex, callee: &str| {
            idx.arg_sites
                .iter()
                .any(|a| &*a.callee == callee && !a.values.is_empty())
        };
        let asked = std::slice::from_ref(&limit);
        let again = read_with_args(&files, &[(1, false)], asked, &settings);
        let app = &again[0].1;
        assert!(valued(app, "page") && !valued(app, "other"));
        assert!(app.value_keys.iter().any(|k| &*k.callee == "other"));
        assert!(!app.value_keys.iter().any(|k| &*k.callee == "page"));
        let again = read_with_args(&files, &[(1, true)], asked, &settings);
        let app = &again[0].1;
        assert!(valued(app, "page") && valued(app, "other"));
        assert!(app.value_keys.is_empty());
    }

    /// A link sure to run once moves the operations of the indexes it is given and
    /// links what copying them links; when a later round may link a file again from
    /// its index (a parameter followed to its callers' arguments, read again), nothing
    /// is moved.
    #[test]
    fn a_link_that_moves_operations_links_what_copying_links() {
        let once = ScanSettings::default();
        let (copied, moved, ops, kept) = both(&[("a.rs", SENT)], &once);
        assert_eq!(copied, moved);
        assert!(ops >= 3, "{ops}");
        assert!(!kept, "a link that runs once moves the operations");
        let rounds = ScanSettings {
            reread: Some(reread),
            ..ScanSettings::default()
        };
        let (copied, moved, _, kept) = both(&[("a.rs", SENT), ("b.rs", PARAM)], &rounds);
        assert_eq!(copied, moved);
        assert!(copied.contains("Audit"), "the round followed the parameter");
        assert!(kept, "a link that may run again copies");
    }
}
