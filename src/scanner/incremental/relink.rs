//! The link again after one file changed (the LSP, on every keystroke): what the
//! other files' operations are cannot change when the changed file offers them the
//! same things as before, only at other places in it.
//!
//! What one file offers the others (its *link facts*) is everything in its index but
//! its own requests, tables and problems: functions, calls and entry points, consts,
//! constructors, structs, what its functions return, the arguments its calls pass,
//! the builders it returns or receives, the helpers whose builders it continues. When
//! they are the same but for positions, the earlier link's graph facts hold, the
//! changed file's operations are linked again, and so are those of the files that
//! continue a builder it returns or pass one to a helper of it (an overlay copies the
//! helper's spans); every other file's operations are kept, with the positions they
//! cite in the changed file (a hot chain's step, the loop of a caller, the call that
//! makes it) moved to where those functions are now. Anything else is a whole link: the answer is always the
//! one [`crate::scanner::link`] gives.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::scanner::index::create_table::TableDecl;
use crate::scanner::index::fold::Escape;
use crate::scanner::index::resolve::RefKind;
use crate::scanner::index::FileIndex;
use crate::scanner::ir::{Operation, ScanProblem};
use crate::scanner::link::tables::Tables;
use crate::scanner::link::{link_files, link_rounds, parse_if_chained, with_args_if_asked};
use crate::scanner::link::{GraphFacts, Reads, Rounds};
use crate::scanner::syntax::names::{intern, Name};
use crate::scanner::{ScanResult, ScanSettings, ScanStats};
use crate::source::Span;

/// What the last link saw and found, for the next one.
#[derive(Default)]
pub struct LinkState {
    last: Option<Last>,
    incremental: bool,
}

struct Last {
    settings: (Vec<String>, Vec<String>, Option<std::path::PathBuf>),
    /// The indexes as given.
    inputs: Vec<Arc<FileIndex>>,
    /// The same, with skipped files that continue a helper's builder parsed.
    completed: Vec<Arc<FileIndex>>,
    graph: GraphFacts,
    /// The parameters whose calls' arguments the link asked about (as values too):
    /// an edited file with a call that may pass one is read with its arguments, as a
    /// round of the link reads it.
    asked: HashSet<RefKind>,
    asked_values: HashSet<RefKind>,
    asked_paths: HashSet<RefKind>,
    /// A file the link read again for its arguments offers other names than its own
    /// index (`Rounds::reshaped`): an edit that changes which parameters are asked
    /// changes what every lookup answers, so each link is a whole one.
    reshaped: bool,
    /// Every file's entries by name, brought up to date file by file.
    lookups: Tables,
    /// For each file, the functions whose calls' arguments its operations and tables
    /// were read from (through parameters they follow).
    reads: Vec<Reads>,
    /// Every function in `reads` (and some that no longer are): only what calls of
    /// these pass is read by anyone (`ArgSite`s of other calls are inert).
    read_any: Reads,
    /// Empty while lent to the caller (see [`LinkState::give_back`]).
    operations: Vec<Operation>,
    /// How many operations the last link handed out, until they are given back: a
    /// copy of every operation per keystroke cost more than relinking one file.
    lent: Option<usize>,
    problems: Vec<ScanProblem>,
    tables: Vec<Vec<TableDecl>>,
    /// The counts of `inputs`, kept up to date file by file.
    counts: ScanStats,
    /// The link facts of `completed[i]` as the last re-link computed them: the next
    /// edit of the same file compares with them without computing them again.
    facts: Option<(usize, String)>,
    /// For each of `operations`, whether the link before handed it out as it is
    /// (`ScanResult::reused`).
    reused: Vec<bool>,
}

impl LinkState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the last [`LinkState::link`] reused the one before it.
    pub fn was_incremental(&self) -> bool {
        self.incremental
    }

    /// Links `files` (in the same order as last time, for the reuse to apply) and
    /// remembers what the next link can reuse. The operations are handed out, not
    /// copied: the next link reuses this one only once they are given back
    /// ([`LinkState::give_back`]).
    pub fn link(&mut self, files: &[Arc<FileIndex>], settings: &ScanSettings) -> ScanResult {
        let started = std::time::Instant::now();
        let key = (
            settings.hot_paths.clone(),
            settings.cold_paths.clone(),
            settings.root.clone(),
        );
        let reused = self
            .last
            .as_mut()
            // Operations not given back: the kept ones are gone, so a whole link.
            .filter(|l| l.settings == key && l.lent.is_none())
            .and_then(|l| relink(l, files, settings));
        self.incremental = reused.is_some();
        if reused.is_none() {
            self.last = None;
            // The link `check` runs, rounds and all. The LSP keeps the indexes:
            // nothing is taken out of them.
            let Rounds {
                files: completed,
                tables: lookups,
                linked,
                asked,
                asked_values,
                asked_paths,
                reshaped,
                ..
            } = link_rounds(files, settings, Vec::new());
            if let Some(graph) = linked.graph {
                self.last = Some(Last {
                    counts: ScanStats::count(files),
                    facts: None,
                    reused: Vec::new(),
                    lookups,
                    settings: key,
                    read_any: linked.reads.iter().flatten().cloned().collect(),
                    reads: linked.reads,
                    inputs: files.to_vec(),
                    completed: completed.into_owned(),
                    graph,
                    asked,
                    asked_values,
                    asked_paths,
                    reshaped,
                    operations: linked.result.operations,
                    lent: None,
                    problems: linked.result.problems,
                    tables: linked.tables,
                });
            }
        }
        let Some(last) = &mut self.last else {
            return ScanResult::default();
        };
        let mut stats = last.counts.clone();
        stats.reparsed = last
            .inputs
            .iter()
            .zip(&last.completed)
            .filter(|(a, b)| !Arc::ptr_eq(a, b))
            .count();
        stats.operations = last.operations.len();
        stats.link = started.elapsed();
        let operations = std::mem::take(&mut last.operations);
        last.lent = Some(operations.len());
        ScanResult {
            operations,
            problems: last.problems.clone(),
            tables: last.tables.iter().flatten().cloned().collect(),
            unique_columns: crate::scanner::link::unique_columns(files),
            stats,
            reused: std::mem::take(&mut last.reused),
        }
    }
}

impl LinkState {
    /// Gives back the operations the last [`LinkState::link`] returned, unchanged, for
    /// the next link to reuse; without them the next link is a whole one.
    pub fn give_back(&mut self, operations: Vec<Operation>) {
        if let Some(last) = &mut self.last {
            if last.lent == Some(operations.len()) {
                last.operations = operations;
                last.lent = None;
            }
        }
    }
}

/// Brings `last` up to date with `files` when at most one file changed and its link
/// facts did not; `None` when a whole link is needed.
fn relink(last: &mut Last, files: &[Arc<FileIndex>], settings: &ScanSettings) -> Option<()> {
    if files.len() != last.inputs.len() || last.reshaped {
        return None;
    }
    let mut changed = None;
    for (i, (new, old)) in files.iter().zip(&last.inputs).enumerate() {
        if Arc::ptr_eq(new, old) {
            continue;
        }
        if changed.is_some() || new.path != old.path {
            return None;
        }
        changed = Some(i);
    }
    let Some(fi) = changed else {
        last.reused = vec![true; last.operations.len()];
        return Some(());
    };
    // Completed as a whole link would: the builders returned are the same as before
    // unless this file's changed, and then its link facts differ and this is no reuse.
    let fresh = {
        let returned = last.lookups.returned.keys().map(|k| &**k).collect();
        parse_if_chained(&files[fi], &returned, settings)
            .map(Arc::new)
            .unwrap_or_else(|| Arc::clone(&files[fi]))
    };
    // Then, as a round of the link would, read with its calls' arguments when one may
    // pass a parameter the link asked about (the edited file in its place, for the
    // lookup).
    let fresh = {
        let held = std::mem::replace(&mut last.completed[fi], fresh);
        let again = with_args_if_asked(
            &last.completed,
            fi,
            &last.asked,
            &last.asked_values,
            &last.asked_paths,
            &last.lookups.crates,
            settings,
        );
        let fresh = std::mem::replace(&mut last.completed[fi], held);
        again.map(Arc::new).unwrap_or(fresh)
    };
    let old = &last.completed[fi];
    // A parameter the edit starts following is the edited file's own reference: its
    // calls are linked again anyway.
    let old_facts = match last.facts.take() {
        Some((i, facts)) if i == fi => facts,
        _ => link_facts(old),
    };
    let new_facts = link_facts(&fresh);
    if old_facts != new_facts {
        return None;
    }
    let moved = moved_spans(old, &fresh)?;
    let mut relinked = dependents(&last.completed, old, fi);
    // What the edited file's calls pass: the files that read it are linked again.
    let passed = changed_calls(old, &fresh, &last.read_any);
    if !passed.is_empty() {
        for (i, reads) in last.reads.iter().enumerate() {
            if reads.iter().any(|n| passed.contains(n)) {
                relinked.insert(i);
            }
        }
    }

    last.graph.keep_callers(&last.completed);
    last.lookups.replace(fi, old, &fresh);
    // In place (only this file's entries differ): should this re-link fail below, the
    // caller drops `last` and links from scratch.
    last.completed[fi] = fresh;
    let completed = &last.completed;
    let part = link_files(
        completed,
        &last.lookups,
        settings,
        Some((&relinked, &last.graph)),
        true,
        None,
        &mut [],
    );
    // A parameter no round asked about before: the files calling its function were
    // never read for their arguments, so a whole link.
    if part.asked.iter().any(|k| !last.asked.contains(k))
        || part
            .asked_values
            .iter()
            .any(|k| !last.asked_values.contains(k))
        || (part.asked_paths.iter()).any(|k| !last.asked_paths.contains(k))
    {
        return None;
    }
    let paths: HashSet<&std::path::Path> = relinked.iter().map(|i| &*completed[*i].path).collect();
    let changed_path = Arc::clone(&completed[fi].path);

    // The kept operations are moved, not copied: should one cite a place that is
    // gone, this returns `None` and the caller links from scratch, dropping `last`.
    // Each with whether it is as the last link handed it out (not one linked again,
    // nor one citing a place the edit moved).
    let mut tagged = Vec::with_capacity(last.operations.len());
    for mut op in std::mem::take(&mut last.operations) {
        if paths.contains(&*op.file) {
            continue;
        }
        let moved = move_cited(&mut op, &changed_path, &moved)?;
        tagged.push((op, !moved));
    }
    tagged.extend(part.result.operations.into_iter().map(|op| (op, false)));
    tagged.sort_by(|(a, _), (b, _)| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
    let (operations, reused): (Vec<Operation>, Vec<bool>) = tagged.into_iter().unzip();
    let mut problems: Vec<ScanProblem> = last
        .problems
        .iter()
        .filter(|p| !paths.contains(&*p.file))
        .cloned()
        .collect();
    problems.extend(part.result.problems);
    problems.sort_by(|a, b| {
        (&a.file, a.span.map(|s| s.start)).cmp(&(&b.file, b.span.map(|s| s.start)))
    });
    let mut tables = std::mem::take(&mut last.tables);
    for (i, t) in part.tables.into_iter().enumerate() {
        if relinked.contains(&i) {
            tables[i] = t;
        }
    }
    for i in &relinked {
        if let (Some(slot), Some(read)) = (last.reads.get_mut(*i), part.reads.get(*i)) {
            // Names no longer read only make the next comparison wider.
            last.read_any.extend(read.iter().cloned());
            *slot = read.clone();
        }
    }
    recount(&mut last.counts, &last.inputs[fi], &files[fi]);
    last.inputs[fi] = Arc::clone(&files[fi]);
    last.facts = Some((fi, new_facts));
    last.operations = operations;
    last.reused = reused;
    last.problems = problems;
    last.tables = tables;
    Some(())
}

/// `counts` with file `old`'s counted as `new`'s instead.
fn recount(counts: &mut ScanStats, old: &Arc<FileIndex>, new: &Arc<FileIndex>) {
    let (was, is) = (
        ScanStats::count(std::slice::from_ref(old)),
        ScanStats::count(std::slice::from_ref(new)),
    );
    let each = |c: &mut usize, was: usize, is: usize| *c = (*c + is).saturating_sub(was);
    each(&mut counts.parsed, was.parsed, is.parsed);
    each(
        &mut counts.skipped_by_prefilter,
        was.skipped_by_prefilter,
        is.skipped_by_prefilter,
    );
    each(&mut counts.deferred, was.deferred, is.deferred);
    each(
        &mut counts.generated_sdk,
        was.generated_sdk,
        is.generated_sdk,
    );
    each(&mut counts.functions, was.functions, is.functions);
    each(&mut counts.call_edges, was.call_edges, is.call_edges);
}

/// What a file offers the others, positions left out, as text: every field of the
/// index counts unless it is the file's own output, so a field added to
/// [`FileIndex`] later is compared without anyone remembering to. Positions are
/// `Span`s; an offset kept in another form stays in, which only makes a reuse rarer.
fn link_facts(f: &FileIndex) -> String {
    let FileIndex {
        path,
        module,
        candidate,
        generated,
        ops,
        templates,
        helper_calls,
        tables: _,
        refs: _,
        ref_pieces: _,
        consts,
        field_inits,
        field_types,
        uses,
        structs,
        returns,
        once_sets,
        arg_sites: _,
        site_keys: _,
        value_keys: _,
        fns,
        types,
        problems: _,
        chained,
        text: _,
        deferred,
        ctors,
    } = f;
    let returned: Vec<&(Operation, Escape)> = ops
        .iter()
        .filter(|(_, e)| matches!(e, Escape::Returned { .. }))
        .collect();
    let continued: Vec<&String> = helper_calls.iter().map(|h| &h.helper).collect();
    let text = format!(
        "{path:?}{module:?}{candidate:?}{generated:?}{returned:?}{templates:?}{continued:?}\
         {consts:?}{field_inits:?}{field_types:?}{uses:?}{structs:?}{returns:?}\
         {once_sets:?}{fns:?}{types:?}{chained:?}{ctors:?}{deferred:?}"
    );
    let mut out = without_spans(&with_refs(&text, f));
    // The maps a function returns are copied into callers with spans one level deep
    // only: compared with their positions.
    let maps: Vec<_> = returns.iter().map(|r| &r.maps).collect();
    out.push_str(&format!("{maps:?}"));
    out
}

/// The functions (of those some file reads the calls of) whose calls in the edited
/// file pass something else now, positions left out.
fn changed_calls(old: &FileIndex, new: &FileIndex, read: &Reads) -> HashSet<Name> {
    fn passed<'f>(f: &'f FileIndex, read: &Reads) -> HashMap<&'f str, Vec<String>> {
        let mut by_callee: HashMap<&str, Vec<String>> = HashMap::new();
        for a in f.arg_sites.iter().filter(|a| read.contains(&*a.callee)) {
            let text = without_spans(&with_refs(&format!("{a:?}"), f));
            by_callee.entry(&*a.callee).or_default().push(text);
        }
        by_callee
    }
    let (before, after) = (passed(old, read), passed(new, read));
    before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| intern(k))
        .collect()
}

/// Each pending reference (`\0pending:3`, a number into the file's `refs`) written
/// as the reference itself: the file's own calls number theirs among the same list,
/// so an edit to a call shifts the numbers of every reference after it.
fn with_refs(text: &str, f: &FileIndex) -> String {
    const MARK: &str = "\\0pending:";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(MARK) {
        out.push_str(&rest[..i + MARK.len()]);
        rest = &rest[i + MARK.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if let Some(r) = rest[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|n| f.pending_ref(n))
        {
            out.push_str(&format!("{r:?}"));
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// Positions left out: `Span { start: 1, end: 2 }` → `Span`, and an expression
/// literal's offset `literal_start: Some(7)` → `literal_start`.
fn without_spans(text: &str) -> String {
    const POSITIONS: [(&str, usize, char); 2] = [
        ("Span { start: ", 4, '}'),
        ("literal_start: Some(", 13, ')'),
    ];
    let mut out = String::with_capacity(text.len());
    // Where each pattern next occurs, searched again only once the text before it has
    // been passed (searching the rest for both on every step was quadratic in a file
    // with many spans and no `literal_start`).
    let mut found: [Option<usize>; 2] = [None; 2];
    let mut at = 0;
    let mut searched = [false; 2];
    loop {
        for (k, (open, ..)) in POSITIONS.iter().enumerate() {
            let stale = match found[k] {
                Some(i) => i < at,
                None => !searched[k],
            };
            if stale {
                found[k] = text.get(at..).and_then(|r| r.find(open)).map(|i| i + at);
                searched[k] = true;
            }
        }
        let next = (0..POSITIONS.len())
            .filter_map(|k| Some((found[k]?, k)))
            .min_by_key(|(i, _)| *i);
        let Some((i, k)) = next else {
            break;
        };
        let (open, keep, close) = POSITIONS[k];
        out.push_str(&text[at..i + keep]);
        let after = i + open.len();
        match text[after..].find(close) {
            Some(end) => at = after + end + 1,
            None => {
                at = after;
                break;
            }
        }
    }
    out.push_str(&text[at..]);
    out
}

/// Where each function and loop of the old index is in the new one (same link facts,
/// so the same functions in the same order); `None` if two places of the old one
/// would move to different places.
fn moved_spans(old: &FileIndex, new: &FileIndex) -> Option<HashMap<Span, Span>> {
    let mut moved = HashMap::new();
    let mut add = |from: Span, to: Span| match moved.insert(from, to) {
        Some(prev) if prev != to => None,
        _ => Some(()),
    };
    if old.fns.len() != new.fns.len() {
        return None;
    }
    for (a, b) in old.fns.iter().zip(&new.fns) {
        add(a.span, b.span)?;
        if a.loop_calls.len() != b.loop_calls.len() {
            return None;
        }
        for (x, y) in a.loop_calls.iter().zip(&b.loop_calls) {
            add(x.span, y.span)?;
        }
    }
    // The calls a request linked at one of them cites (`Context::called_at`); a
    // request citing one of a changed list finds no place and is linked again.
    if old.arg_sites.len() == new.arg_sites.len() {
        for (a, b) in old.arg_sites.iter().zip(&new.arg_sites) {
            add(a.at, b.at)?;
        }
    }
    Some(moved)
}

/// The files whose operations take something with its positions from file `fi`: the
/// file itself, those that continue a builder it returns, and those that pass one to
/// a helper of it.
fn dependents(files: &[Arc<FileIndex>], changed: &FileIndex, fi: usize) -> HashSet<usize> {
    let mut returns: HashSet<&str> = changed
        .ops
        .iter()
        .filter_map(|(_, e)| match e {
            Escape::Returned { function } => Some(function.as_str()),
            _ => None,
        })
        .chain(changed.helper_calls.iter().filter_map(returned_chain))
        .collect();
    // A helper that returns a chain on one of them is continued with it (one level,
    // as the link follows it).
    let nested: Vec<&str> = files
        .iter()
        .flat_map(|f| &f.helper_calls)
        .filter(|h| returns.contains(h.helper.as_str()))
        .filter_map(returned_chain)
        .collect();
    returns.extend(nested);
    let receives: HashSet<(&str, usize)> = changed
        .templates
        .iter()
        .filter_map(|t| Some((t.function.as_str(), t.param?)))
        .collect();
    let mut out = HashSet::from([fi]);
    if returns.is_empty() && receives.is_empty() {
        return out;
    }
    for (i, f) in files.iter().enumerate() {
        let continues = f
            .helper_calls
            .iter()
            .any(|h| returns.contains(h.helper.as_str()));
        let passes = f.ops.iter().any(|(_, e)| match e {
            Escape::Passed { function, index } => receives.contains(&(function.as_str(), *index)),
            _ => false,
        });
        if continues || passes {
            out.insert(i);
        }
    }
    out
}

/// The function a chain on a helper's builder is returned from, if it is.
fn returned_chain(h: &crate::scanner::index::fold::HelperCall) -> Option<&str> {
    match &h.escape {
        Escape::Returned { function } => Some(function.as_str()),
        _ => None,
    }
}

/// Moves the positions an operation cites in the changed file (hot chain steps, the
/// loop around a caller, the one call that makes it) to where they are now; `None` if one is not a function or
/// loop it knows.
/// Whether a position moved (`Some(true)`), or `None` when one is gone.
fn move_cited(
    op: &mut Operation,
    changed: &std::path::Path,
    moved: &HashMap<Span, Span>,
) -> Option<bool> {
    let mut any = false;
    let mut to = |span: &mut Span| -> Option<()> {
        let new = *moved.get(span)?;
        any |= new != *span;
        *span = new;
        Some(())
    };
    if let Some(hot) = &mut op.context.hot {
        for s in &mut hot.chain {
            if *s.file == *changed {
                to(&mut s.span)?;
            }
        }
    }
    if let Some(l) = &mut op.context.in_loop {
        if let Some(c) = &mut l.caller {
            if *c.file == *changed {
                to(&mut l.span)?;
                to(&mut c.span)?;
            }
        }
    }
    if let Some(c) = &mut op.context.called_at {
        if *c.file == *changed {
            to(&mut c.span)?;
        }
    }
    for c in &mut op.children {
        any |= move_cited(c, changed, moved)?;
    }
    Some(any)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn facts(text: &str) -> String {
        let f = SourceFile::new("src/repo.rs", text);
        link_facts(&crate::scanner::index_file(&f, &ScanSettings::default()))
    }

    /// A re-link says which operations it handed out as they were: every one it says
    /// so of is the last link's, and one that cites a place the edit moved (a hot
    /// chain's step in the edited file) is not.
    #[test]
    fn a_relink_says_which_operations_are_the_last_ones() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp-edits/src");
        let settings = ScanSettings::default();
        let names = ["main.rs", "names.rs", "repo.rs", "handlers.rs"];
        let files: Vec<SourceFile> = names
            .iter()
            .map(|n| SourceFile::new(root.join(n), std::fs::read_to_string(root.join(n)).unwrap()))
            .collect();
        let mut indexes: Vec<Arc<FileIndex>> = files
            .iter()
            .map(|f| Arc::new(crate::scanner::index_file(f, &settings)))
            .collect();
        let mut state = LinkState::new();
        let first = state.link(&indexes, &settings);
        assert!(first.reused.is_empty());
        let before = first.operations.clone();
        state.give_back(first.operations);
        // Nothing changed: all of them.
        let same = state.link(&indexes, &settings);
        assert!(same.reused.len() == before.len() && same.reused.iter().all(|r| *r));
        state.give_back(same.operations);
        // A line added at the top of the handlers: every place in them moves.
        let handlers = &files[3];
        let edited = SourceFile::new(handlers.path.to_path_buf(), format!("\n{}", handlers.text));
        indexes[3] = Arc::new(crate::scanner::index_file(&edited, &settings));
        let after = state.link(&indexes, &settings);
        assert!(state.was_incremental());
        assert_eq!(after.reused.len(), after.operations.len());
        let cites_handlers = |op: &Operation| {
            op.context
                .hot
                .as_ref()
                .is_some_and(|h| h.chain.iter().any(|s| *s.file == *handlers.path))
        };
        let (mut kept, mut moved) = (0, 0);
        for (op, reused) in after.operations.iter().zip(&after.reused) {
            if *reused {
                assert!(before.contains(op), "{op:?}");
                kept += 1;
            } else if *op.file != *handlers.path && cites_handlers(op) {
                assert!(!before.contains(op), "{op:?}");
                moved += 1;
            }
            assert!(!(*reused && (*op.file == *handlers.path || cites_handlers(op))));
        }
        assert!(kept > 0 && moved > 0, "kept {kept}, moved {moved}");
    }

    #[test]
    fn link_facts_ignore_positions_and_the_files_own_calls() {
        let base = "const T: &str = names::TABLE;\n\
                    fn f(c: &Client) { c.scan().table_name(other::X).send(); }\n\
                    const U: &str = names::OTHER;\n";
        // A comment moves everything; a literal for a constant in a call drops a
        // reference numbered before the consts' (their numbers shift, not what they
        // refer to).
        let moved = format!("// a comment\n{base}");
        let renamed = base.replace("other::X", "\"Orders\"");
        assert_eq!(facts(base), facts(&moved));
        assert_eq!(facts(base), facts(&renamed));
        // What other files read changed: a const's value, a function's calls.
        assert_ne!(
            facts(base),
            facts(&base.replace("names::OTHER", "names::THIRD"))
        );
        assert_ne!(facts(base), facts(&base.replace(".send()", ".send(); g()")));
    }

    #[test]
    fn spans_are_left_out_of_link_facts() {
        assert_eq!(
            without_spans(
                "A { span: Span { start: 1, end: 20 }, x: Some(Span { start: 3, end: 4 }), \
                 literal_start: Some(12), literal_start: None }"
            ),
            "A { span: Span, x: Some(Span), literal_start, literal_start: None }"
        );
    }
}
