//! The LSP's re-index of an edited file, item by item: a keystroke changes one
//! top-level item, and indexing the whole file again (its parent links, the fold, the
//! batch searches) was most of a keystroke's time.
//!
//! The file's tree is still parsed whole, reusing the last parse (`parse.rs`). The
//! file is cut at every top-level item ([`pieces::items`]: a cut depends only on the
//! tokens around it, so an edit moves no other item's cut) and each item is indexed
//! as a piece of its own, as `check` indexes a large file's pieces (`index.rs`),
//! numbering its references from its position ([`REF_STRIDE`]) and joined in file
//! order. An item the edit left as it was keeps its last index, every position after
//! the edit moved by what the edit added or removed ([`Shift`]); only the edited items
//! are indexed again, from the whole file's tree (parent links built for their
//! subtrees only). An item whose index looked something up in the whole file (a
//! batch's same-file helper, an integer constant, `FileCx::whole_file_lookup_of`)
//! keeps it only when no edited item, before or after the edit, spells a name it
//! looked up: what the lookup finds is the same items, at positions moved as its own.
//! Anything else (a file that does not cut, a syntax error, an item moved to another
//! position among the items) is indexed whole by the caller, or item by item afresh.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;

use tree_sitter::{Node, Tree};

use crate::scanner::index::create_table::TableDecl;
use crate::scanner::index::fold::{Escape, Template};
use crate::scanner::index::items::{FieldDef, StructDef};
use crate::scanner::index::pieces::{self, REF_STRIDE};
use crate::scanner::index::resolve::{FileCaches, FileCx};
use crate::scanner::index::returns::FnReturn;
use crate::scanner::index::{index_tree, join_pieces, ArgValues, ConstDef, FileIndex};
use crate::scanner::ir::{
    AttrArg, AttrMap, CallStep, Context, ExprArg, HotReason, LoopInfo, NameArg, Operation,
    ScanProblem, SetterCall, ValueInfo,
};
use crate::scanner::syntax::lex::Token;
use crate::scanner::syntax::lex::{tokenize, Tok};
use crate::scanner::syntax::nodes::{descendants, field, kind_id, parent_map_in, Src};
use crate::scanner::syntax::parse::changed_bytes;
use crate::source::{FilePath, Span};

/// An edited file's last version, indexed item by item: what its next version's
/// re-index reuses.
#[derive(Clone)]
pub struct ItemIndexes {
    text: Arc<str>,
    items: Vec<ItemIndex>,
    /// How many items the re-index that made these kept (for tests and profiles).
    pub kept: usize,
}

/// One top-level item's piece of the file and its index.
#[derive(Clone)]
struct ItemIndex {
    range: (usize, usize),
    index: FileIndex,
    /// Code nested too deeply was skipped.
    truncated: bool,
    /// The names its index looked up in the whole file; `None` when it read only its
    /// own item.
    lookups: Option<Vec<String>>,
}

/// Indexes `idx`'s file (a candidate, `tree` its parse, without syntax errors) item by
/// item into `idx`, keeping the items of `last` (its last version) that the edit left
/// as they were. `None`, with `idx` untouched, when the file does not cut into items:
/// the caller indexes it whole.
pub(in crate::scanner) fn index_by_items(
    idx: &mut FileIndex,
    source: &Arc<str>,
    tokens: &[Token],
    tree: &Tree,
    last: Option<(ItemIndexes, &Tree)>,
) -> Option<ItemIndexes> {
    let text: &str = source;
    let cut = pieces::items(text.as_bytes(), tokens)?;
    let (mut items, names) = match last {
        Some((last, last_tree)) => kept_items(last, last_tree, &idx.path, (text, tree), &cut),
        None => (vec![None; cut.len()], HashSet::new()),
    };
    let kept = items.iter().filter(|i| i.is_some()).count();
    // Each item's top-level nodes (an item, its attributes, the comments before it).
    let root = tree.root_node();
    let mut roots: Vec<Vec<Node<'_>>> = vec![Vec::new(); cut.len()];
    let mut cursor = root.walk();
    let mut at = 0;
    for child in root.children(&mut cursor) {
        while cut
            .get(at)
            .is_some_and(|(_, end)| child.start_byte() >= *end)
        {
            at += 1;
        }
        let (start, end) = *cut.get(at)?;
        // A node across a cut: the tokens and the tree disagree; indexed whole.
        if child.start_byte() < start || child.end_byte() > end {
            return None;
        }
        roots.get_mut(at)?.push(child);
    }
    // Parent links for the items indexed again, not the whole file's (walking the
    // whole file was most of a re-index whose item looked up a same-file helper).
    let again: Vec<usize> = (0..items.len())
        .filter(|i| items.get(*i).is_some_and(Option::is_none))
        .collect();
    let groups: Vec<&[Node<'_>]> = again
        .iter()
        .map(|i| roots.get(*i).map_or(&[][..], Vec::as_slice))
        .collect();
    // What a lookup of a function by name searches: every `fn` item of the file.
    let fns = if again.is_empty() {
        Vec::new()
    } else {
        functions(root, text.as_bytes(), tokens)
    };
    // The searches of these items last time climbed in the functions they named;
    // they most likely will again (another climb is tree-sitter's, slower).
    let in_again = |f: &Node<'_>| {
        let at = cut.partition_point(|(_, end)| *end <= f.start_byte());
        items.get(at).is_some_and(Option::is_none)
    };
    let mut also: Vec<Node<'_>> = Vec::new();
    for f in &fns {
        let name = field(*f, "name").and_then(|n| text.get(n.byte_range()));
        let inside = also.last().is_some_and(|a| f.end_byte() <= a.end_byte());
        if name.is_some_and(|n| names.contains(n)) && !inside && !in_again(f) {
            also.push(*f);
        }
    }
    let (parents, walked) = parent_map_in(root, &groups, &also);
    // What the items' searches find under a node is the same for each of them (two
    // transactions building their requests with the same helpers searched them twice).
    let caches = Rc::new(FileCaches::default());
    let lets = crate::scanner::syntax::scope::let_offsets(text);
    let mut borrowed = Vec::new();
    for (i, (nodes, truncated)) in again.iter().copied().zip(walked) {
        let (start, end) = *cut.get(i)?;
        let src = Src {
            text,
            parents: &parents,
            lets: &lets,
        };
        let first_ref = i.checked_mul(REF_STRIDE)?;
        let cx = FileCx::for_piece(src, idx.module.clone(), first_ref, start..end)
            .with_items(&fns)
            .sharing(Rc::clone(&caches), i);
        let mut index = FileIndex::empty(&idx.path, idx.module.clone());
        index.candidate = true;
        index_tree(
            &mut index,
            &cx,
            &nodes,
            crate::scanner::index::fold::HelperChains::Fold,
            ArgValues::Resolved,
        );
        if index.refs.len() >= REF_STRIDE {
            return None;
        }
        let lookups = cx.needed_whole_file().then(|| cx.whole_file_names());
        if cx.borrowed() {
            borrowed.push(i);
        }
        *items.get_mut(i)? = Some(ItemIndex {
            range: (start, end),
            index,
            truncated,
            lookups,
        });
    }
    // An item that used what another item's search found did not look up the names
    // that search did: it counts every name any of them looked up.
    if !borrowed.is_empty() {
        let all = caches.names();
        for i in borrowed {
            let item = items.get_mut(i).and_then(Option::as_mut)?;
            let names = item.lookups.get_or_insert_with(Vec::new);
            for n in &all {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
    }
    let items: Vec<ItemIndex> = items.into_iter().collect::<Option<_>>()?;
    // A lookup in a file with code nested too deeply (which a whole walk skips, `fn`
    // items with it): indexed whole, as before.
    if items.iter().any(|i| i.lookups.is_some()) && items.iter().any(|i| i.truncated) {
        return None;
    }
    join_pieces(
        idx,
        items
            .iter()
            .map(|item| (item.index.clone(), Vec::new(), item.truncated))
            .collect(),
    );
    Some(ItemIndexes {
        text: Arc::clone(source),
        items,
        kept,
    })
}

/// The items of `last` that the new text's items `cut` keep, moved where the edit
/// puts them, at their positions in `cut` (`None` for those to index again); and the
/// names those to index again looked up in the whole file last time. The kept items
/// are taken out of `last`, not copied.
fn kept_items(
    last: ItemIndexes,
    last_tree: &Tree,
    path: &FilePath,
    (text, tree): (&str, &Tree),
    cut: &[(usize, usize)],
) -> (Vec<Option<ItemIndex>>, HashSet<String>) {
    let edit = Edit::between(&last.text, text);
    // An item is kept at its own position among the items only: its references are
    // numbered from it.
    let same = |i: usize, (start, end): (usize, usize)| -> bool {
        let Some(old) = last.items.get(i) else {
            return false;
        };
        if end <= edit.start {
            old.range == (start, end)
        } else if start >= edit.new_end {
            let back = |p: usize| p - edit.new_end + edit.old_end;
            old.range == (back(start), back(end))
        } else {
            false
        }
    };
    let kept: Vec<bool> = cut.iter().enumerate().map(|(i, r)| same(i, *r)).collect();
    let is_kept = |i: usize| kept.get(i).copied().unwrap_or(false);
    // The names the edited items spell, before and after: an item that looked one
    // up is indexed again (a lookup finds an item by the name it defines).
    let old_texts = (last.items.iter().enumerate())
        .filter(|(i, _)| !is_kept(*i))
        .filter_map(|(_, o)| last.text.get(o.range.0..o.range.1));
    let new_texts = (cut.iter().enumerate())
        .filter(|(i, _)| !is_kept(*i))
        .filter_map(|(_, (start, end))| text.get(*start..*end));
    let mut spelled: HashSet<&str> = HashSet::new();
    for t in old_texts.chain(new_texts) {
        let idents = tokenize(t.as_bytes())
            .into_iter()
            .filter(|k| k.kind == Tok::Ident);
        spelled.extend(idents.filter_map(|k| t.get(k.start as usize..k.end as usize)));
    }
    let moved = Moved {
        from: edit.old_end,
        delta: edit.new_end as isize - edit.old_end as isize,
        file: path,
    };
    // Which of the last items stay: at their own position, and not stale.
    let keep: Vec<bool> = (0..last.items.len())
        .map(|i| {
            let Some(old) = last.items.get(i).filter(|_| is_kept(i)) else {
                return false;
            };
            let stale = old.lookups.as_ref().is_some_and(|names| {
                names.iter().any(|n| spelled.contains(n.as_str()))
                    && !(untouched(last_tree, &last.text, (edit.start, edit.old_end), names)
                        && untouched(tree, text, (edit.start, edit.new_end), names))
            });
            !stale
        })
        .collect();
    let again = (last.items.iter().enumerate())
        .filter(|(i, _)| !keep.get(*i).copied().unwrap_or(false))
        .flat_map(|(_, o)| o.lookups.iter().flatten())
        .cloned()
        .collect();
    let mut old: Vec<Option<ItemIndex>> = last.items.into_iter().map(Some).collect();
    let items: Vec<Option<ItemIndex>> = (0..cut.len())
        .map(|i| {
            if !keep.get(i).copied().unwrap_or(false) {
                return None;
            }
            let mut item = old.get_mut(i)?.take()?;
            // Positions before the edit stay; an item that read only itself and ends
            // before it has none to move.
            if item.range.1 > edit.start || item.lookups.is_some() {
                item.index.shift(&moved);
            }
            item.range = (moved.at(item.range.0), moved.at(item.range.1));
            Some(item)
        })
        .collect();
    (items, again)
}

/// Every `fn` item of the file whose tree is under `root`, in pre-order, found from
/// its `fn` keyword among the file's `tokens` (a walk of the whole tree for them cost
/// what its parent links cost): the smallest named node over the keyword and the
/// token after it is the function, whose children they are (or a function type, a
/// macro's tokens, a trait's signature: left out).
fn functions<'t>(root: Node<'t>, text: &[u8], tokens: &[Token]) -> Vec<Node<'t>> {
    let fn_item = kind_id("function_item");
    let mut fns: Vec<Node<'t>> = tokens
        .windows(2)
        .filter_map(|pair| match pair {
            [kw, next] if kw.kind == Tok::Ident && kw.text(text) == b"fn" => {
                root.named_descendant_for_byte_range(kw.start as usize, next.end as usize)
            }
            _ => None,
        })
        .filter(|n| n.kind_id() == fn_item)
        .collect();
    // A raw name spelling the keyword (`fn r#fn()`) finds its function twice.
    fns.dedup_by_key(|n| n.id());
    fns
}

/// Whether an edit of `text`'s bytes `from..to` (`tree` its parse) leaves every item
/// named in `names` (a function, a constant or a static: what a lookup in the whole
/// file finds) as it was, with all that is around it: the edit is in a comment or
/// strictly inside a function's body, not inside such an item, and holds none.
fn untouched(tree: &Tree, text: &str, (from, to): (usize, usize), names: &[String]) -> bool {
    let Some(edited) = tree.root_node().descendant_for_byte_range(from, to) else {
        return false;
    };
    let named = |n: Node<'_>| {
        matches!(n.kind(), "function_item" | "const_item" | "static_item")
            && field(n, "name")
                .and_then(|x| text.get(x.byte_range()))
                .is_some_and(|x| names.iter().any(|m| m == x))
    };
    let mut in_place = false;
    let mut at = Some(edited);
    while let Some(n) = at {
        if named(n) {
            return false;
        }
        in_place |= matches!(n.kind(), "line_comment" | "block_comment")
            || (n.kind() == "function_item"
                && field(n, "body").is_some_and(|b| b.start_byte() < from && to < b.end_byte()));
        at = n.parent();
    }
    in_place && descendants(edited, &mut |n| named(n)).is_empty()
}

/// The one edit that turns a text into the next: `old_end - start` bytes from `start`
/// replaced by `new_end - start` bytes. Never empty in the old text (an insertion takes
/// the byte before it, or after it at the start of the file), so a position of the old
/// text is either at or before `start` (kept) or at or after `old_end` (moved).
#[derive(Debug, PartialEq)]
struct Edit {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl Edit {
    fn between(old: &str, new: &str) -> Self {
        let (start, old_end, new_end) = changed_bytes(old.as_bytes(), new.as_bytes());
        let mut edit = Edit {
            start,
            old_end,
            new_end,
        };
        if edit.start == edit.old_end {
            if edit.start > 0 {
                edit.start -= 1;
            } else if edit.old_end < old.len() {
                edit.old_end += 1;
                edit.new_end += 1;
            }
        }
        edit
    }
}

/// Where an edit moved the text of a file: positions from `from` on by `delta`.
pub struct Moved<'a> {
    from: usize,
    delta: isize,
    /// The file edited: a step of a call chain in another file stays.
    file: &'a FilePath,
}

impl Moved<'_> {
    fn at(&self, position: usize) -> usize {
        if position >= self.from {
            position.checked_add_signed(self.delta).unwrap_or(position)
        } else {
            position
        }
    }
}

/// Moving every byte position a value holds by an edit. Implemented by destructuring
/// every field, without `..`: a field added to an index type fails to compile until
/// it says whether it holds a position.
pub trait Shift {
    fn shift(&mut self, by: &Moved<'_>);
}

impl Shift for Span {
    fn shift(&mut self, by: &Moved<'_>) {
        let Span { start, end } = self;
        *start = by.at(*start);
        *end = by.at(*end);
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, by: &Moved<'_>) {
        if let Some(v) = self {
            v.shift(by);
        }
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, by: &Moved<'_>) {
        for v in self {
            v.shift(by);
        }
    }
}

impl<T: Shift> Shift for Box<T> {
    fn shift(&mut self, by: &Moved<'_>) {
        (**self).shift(by);
    }
}

impl<A: Shift, B: Shift> Shift for (A, B) {
    fn shift(&mut self, by: &Moved<'_>) {
        self.0.shift(by);
        self.1.shift(by);
    }
}

impl<A: Shift, B: Shift, C: Shift> Shift for (A, B, C) {
    fn shift(&mut self, by: &Moved<'_>) {
        self.0.shift(by);
        self.1.shift(by);
        self.2.shift(by);
    }
}

/// Values without positions.
macro_rules! no_positions {
    ($($t:ty),*) => {
        $(impl Shift for $t {
            fn shift(&mut self, _: &Moved<'_>) {}
        })*
    };
}

no_positions!(Escape, String);

impl Shift for crate::scanner::index::fold::HelperCall {
    fn shift(&mut self, by: &Moved<'_>) {
        // The arguments are resolved strings and references: no positions.
        let Self {
            op,
            escape: _,
            helper: _,
            args: _,
            texts: _,
            values,
            maps,
            paths: _,
            lists: _,
            items,
            fallback: _,
            if_helper_pages,
        } = self;
        op.shift(by);
        for (_, item) in items.iter_mut() {
            item.shift(by);
        }
        if let Some((Some(l), _)) = if_helper_pages {
            l.shift(by);
        }
        for v in values.iter_mut() {
            v.shift(by);
        }
        for m in maps.iter_mut() {
            m.shift(by);
        }
    }
}

impl Shift for FileIndex {
    fn shift(&mut self, by: &Moved<'_>) {
        let FileIndex {
            path: _,
            module: _,
            candidate: _,
            generated: _,
            ops,
            templates,
            helper_calls,
            tables,
            // No positions: names, paths, resolved strings, the call graph by name.
            refs: _,
            ref_pieces: _,
            consts,
            field_inits: _,
            field_types: _,
            uses: _,
            structs,
            returns,
            ctors: _,
            once_sets: _,
            arg_sites,
            site_keys: _,
            value_keys: _,
            fns: _,
            types: _,
            problems,
            chained: _,
            text: _,
            deferred: _,
        } = self;
        ops.shift(by);
        templates.shift(by);
        helper_calls.shift(by);
        tables.shift(by);
        consts.shift(by);
        structs.shift(by);
        returns.shift(by);
        problems.shift(by);
        for a in arg_sites {
            a.at.shift(by);
            for v in a.values.iter_mut() {
                v.shift(by);
            }
            for m in a.maps.iter_mut() {
                m.shift(by);
            }
        }
    }
}

impl Shift for Operation {
    fn shift(&mut self, by: &Moved<'_>) {
        let Operation {
            kind: _,
            file: _,
            span,
            method_span,
            table: _,
            table_span,
            table_text: _,
            index: _,
            index_span,
            key_condition,
            filter,
            condition,
            projection,
            update,
            statement,
            names,
            values,
            names_complete: _,
            values_complete: _,
            item,
            key,
            consistent_read: _,
            limit,
            scan_index_forward: _,
            select: _,
            select_choices: _,
            possible_table: _,
            setters,
            paginated: _,
            exclusive_start_key: _,
            first_item_only: _,
            total_segments,
            children,
            batch_size,
            complete_builder: _,
            parameter_list: _,
            from_params: _,
            context,
            fingerprint_text: _,
        } = self;
        span.shift(by);
        method_span.shift(by);
        table_span.shift(by);
        index_span.shift(by);
        for e in [
            key_condition,
            filter,
            condition,
            projection,
            update,
            statement,
        ] {
            e.shift(by);
        }
        for n in names.values_mut() {
            n.shift(by);
        }
        for v in values.values_mut() {
            v.shift(by);
        }
        item.shift(by);
        key.shift(by);
        limit.shift(by);
        setters.shift(by);
        total_segments.shift(by);
        children.shift(by);
        batch_size.shift(by);
        context.shift(by);
    }
}

impl Shift for ExprArg {
    fn shift(&mut self, by: &Moved<'_>) {
        let ExprArg {
            text: _,
            span,
            literal_start,
            conditional: _,
            paths: _,
        } = self;
        span.shift(by);
        if let Some(at) = literal_start {
            *at = by.at(*at);
        }
    }
}

impl Shift for NameArg {
    fn shift(&mut self, by: &Moved<'_>) {
        let NameArg {
            name: _,
            span,
            conditional: _,
        } = self;
        span.shift(by);
    }
}

impl Shift for ValueInfo {
    fn shift(&mut self, by: &Moved<'_>) {
        let ValueInfo {
            literal: _,
            ty: _,
            text: _,
            provenance: _,
            parts,
            nullable: _,
            span,
        } = self;
        parts.shift(by);
        span.shift(by);
    }
}

impl Shift for AttrMap {
    fn shift(&mut self, by: &Moved<'_>) {
        let AttrMap {
            attributes,
            complete: _,
            from_type: _,
            serde_at: _,
        } = self;
        attributes.shift(by);
    }
}

impl Shift for AttrArg {
    fn shift(&mut self, by: &Moved<'_>) {
        let AttrArg {
            name: _,
            value,
            span,
            conditional: _,
        } = self;
        value.shift(by);
        span.shift(by);
    }
}

impl Shift for SetterCall {
    fn shift(&mut self, by: &Moved<'_>) {
        let SetterCall {
            method: _,
            key: _,
            span,
            removal_span,
            conditional: _,
            lead: _,
        } = self;
        span.shift(by);
        removal_span.shift(by);
    }
}

impl Shift for Context {
    fn shift(&mut self, by: &Moved<'_>) {
        let Context {
            function: _,
            in_loop,
            hot,
            cold: _,
            callers: _,
            whole_function: _,
            called_at,
        } = self;
        in_loop.shift(by);
        hot.shift(by);
        called_at.shift(by);
    }
}

impl Shift for LoopInfo {
    fn shift(&mut self, by: &Moved<'_>) {
        let LoopInfo {
            kind: _,
            span,
            caller,
            elements: _,
        } = self;
        // In the caller's file when there is a caller.
        match caller {
            Some(c) => {
                if c.file == *by.file {
                    span.shift(by);
                }
                c.shift(by);
            }
            None => span.shift(by),
        }
    }
}

impl Shift for HotReason {
    fn shift(&mut self, by: &Moved<'_>) {
        let HotReason { entry: _, chain } = self;
        chain.shift(by);
    }
}

impl Shift for CallStep {
    fn shift(&mut self, by: &Moved<'_>) {
        let CallStep {
            function: _,
            file,
            span,
        } = self;
        if *file == *by.file {
            span.shift(by);
        }
    }
}

impl Shift for ScanProblem {
    fn shift(&mut self, by: &Moved<'_>) {
        let ScanProblem {
            file: _,
            span,
            message: _,
        } = self;
        span.shift(by);
    }
}

impl Shift for Template {
    fn shift(&mut self, by: &Moved<'_>) {
        let Template {
            function: _,
            param: _,
            op,
            sent: _,
        } = self;
        op.shift(by);
    }
}

impl Shift for TableDecl {
    fn shift(&mut self, by: &Moved<'_>) {
        // The declaration's parts are names and types, without positions.
        let TableDecl {
            file: _,
            span,
            kind: _,
            table: _,
            table_text: _,
            key_schema: _,
            attributes: _,
            indexes: _,
            billing_mode: _,
            throughput: _,
            unread: _,
        } = self;
        span.shift(by);
    }
}

impl Shift for ConstDef {
    fn shift(&mut self, by: &Moved<'_>) {
        let ConstDef {
            path: _,
            value: _,
            span,
        } = self;
        span.shift(by);
    }
}

impl Shift for StructDef {
    fn shift(&mut self, by: &Moved<'_>) {
        let StructDef {
            name: _,
            rename_all: _,
            custom: _,
            default: _,
            fields,
        } = self;
        fields.shift(by);
    }
}

impl Shift for FieldDef {
    fn shift(&mut self, by: &Moved<'_>) {
        let FieldDef {
            name: _,
            ty: _,
            rename: _,
            skip_if: _,
            skip: _,
            flatten: _,
            custom: _,
            span,
        } = self;
        span.shift(by);
    }
}

impl Shift for FnReturn {
    fn shift(&mut self, by: &Moved<'_>) {
        let FnReturn {
            path: _,
            strings: _,
            values,
            maps,
        } = self;
        values.shift(by);
        maps.shift(by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::incremental::index_file_again;
    use crate::scanner::index::index_file;
    use crate::scanner::index::tests::canonical;
    use crate::scanner::{LastParse, ScanSettings};
    use crate::source::SourceFile;

    /// Items of every kind the index reads: constants, `use`s, structs,
    /// constructors, requests with pending references, returned and received
    /// builders, `OnceLock` sets, calls' arguments, inline modules, test code, and
    /// a transaction and a batch built by the file's own helpers (lookups in the
    /// whole file).
    fn items(i: usize) -> String {
        format!(
            r#"
use crate::db::names::TABLE_{i} as T{i};
const PREFIX_{i}: &str = "orders-{i}";
const BATCH_{i}: usize = 25;
pub static ONCE_{i}: OnceLock<String> = OnceLock::new();

/// A store.
#[derive(Serialize, Deserialize)]
pub struct Store{i} {{
    client: Client,
    table: String,
}}

impl Store{i} {{
    pub fn new(client: Client) -> Self {{
        Self {{ client, table: std::env::var("TABLE_{i}").unwrap() }}
    }}
    fn table_name(&self) -> String {{ format!("{{}}-{i}", PREFIX_{i}) }}
    pub async fn get(&self, id: &str) -> Result<(), Error> {{
        let out = self.client.get_item().table_name(&self.table)
            .key("pk", AttributeValue::S(id.into())).send().await?;
        // Then the orders.
        self.client.query().table_name(self.table_name())
            .key_condition_expression("pk = :p")
            .expression_attribute_values(":p", AttributeValue::S(id.to_string()))
            .send().await?;
        put_in(&self.client, T{i}, id).await;
        Ok(())
    }}
}}

fn base{i}(c: &Client) -> QueryFluentBuilder {{ c.query().table_name(PREFIX_{i}) }}

async fn put_in(c: &Client, table: &str, id: &str) {{
    let _ = c.put_item().table_name(table).item("pk", AttributeValue::S(id.into())).send().await;
    let _ = base{i}(c).limit(5).send().await;
}}

pub struct Put{i} {{ id: String }}

impl Put{i} {{
    fn id(&self) -> &str {{ let s = &self.id; s }}
    /// The put.
    fn build(self) -> Put {{
        Put::builder().table_name("puts-{i}").item("pk", AttributeValue::S(self.id)).build().unwrap()
    }}
}}

async fn write_all_{i}(c: &Client, ops: Vec<Put{i}>) {{
    let items = ops.into_iter().map(|o| TransactWriteItem::builder().put(o.build()).build()).collect();
    c.transact_write_items().set_transact_items(Some(items)).send().await;
}}

fn put_order_{i}(o: &O) -> WriteRequest {{
    WriteRequest::builder().put_request(PutRequest::builder().item("pk", v).build()?).build()
}}

async fn save_{i}(c: &Client, os: &[O]) {{
    for chunk in os.chunks(BATCH_{i}) {{
        c.batch_write_item().request_items("t{i}", chunk.iter().map(put_order_{i}).collect()).send().await;
    }}
}}

pub fn init_{i}() {{ ONCE_{i}.set("t{i}".to_string()).ok(); }}

mod inner_{i} {{
    pub const NAME: &str = "inner-{i}";
    pub fn scan_all(c: &Client) {{ for _ in 0..3 {{ c.scan().table_name(NAME).send(); }} }}
}}

#[cfg(test)]
mod tests_{i} {{
    #[test]
    fn t() {{ c.delete_item().table_name("test-{i}").send(); }}
}}
"#
        )
    }

    /// Re-indexes `text` after `last`, checks the index is a fresh one's, and gives
    /// the parse to keep.
    fn again(text: &str, last: Option<&LastParse>) -> Option<LastParse> {
        again_indexed(text, last).1
    }

    /// [`again`], with the index.
    fn again_indexed(text: &str, last: Option<&LastParse>) -> (FileIndex, Option<LastParse>) {
        let settings = ScanSettings::default();
        let file = SourceFile::new("src/store.rs", text.to_string());
        let (idx, kept) = index_file_again(&file, &settings, last.cloned());
        let fresh = index_file(&file, &settings);
        assert_eq!(
            canonical(&idx),
            canonical(&fresh),
            "after the edit:\n{text}"
        );
        (idx, kept)
    }

    /// Indexes `text` as opened, then with `from` replaced by `to` elsewhere in the
    /// file: the first edit after opening indexes the whole file, so only the next one
    /// keeps items. Gives the edited text, its index and the parse to keep.
    fn opened_then_edited(
        text: &str,
        from: &str,
        to: &str,
    ) -> (String, FileIndex, Option<LastParse>) {
        let (_, last) = again_indexed(text, None);
        let text = text.replacen(from, to, 1);
        let (idx, last) = again_indexed(&text, last.as_ref());
        (text, idx, last)
    }

    #[test]
    fn an_edited_file_is_indexed_as_a_fresh_one() {
        let mut text: String = (0..4).map(items).collect();
        let mut last = again(&text, None);
        assert_eq!(last.as_ref().and_then(LastParse::items_kept), Some(0));
        let mut rng = fastrand::Rng::with_seed(16);
        let (mut kept, mut whole) = (0, 0);
        let mut good = text.clone();
        for step in 0..160 {
            let at = rng.usize(..text.len());
            match step % 8 {
                // Typing in a name, a string, a comment or between items.
                0..=2 => text.insert(at, 'x'),
                3 => text.insert(at, ' '),
                4 => {
                    text.remove(at);
                }
                5 => text.insert(at, '\n'),
                // An item added after one, and one taken out.
                6 => {
                    let after = text[at..].find("\n}\n").map_or(text.len(), |i| at + i + 3);
                    text.insert_str(after, &format!("fn added_{step}() {{ build(); }}\n"));
                }
                _ => {
                    if let Some(i) = text[at..].find("\nfn added_") {
                        let start = at + i + 1;
                        let end = text[start..]
                            .find('\n')
                            .map_or(text.len(), |e| start + e + 1);
                        text.replace_range(start..end, "");
                    }
                }
            }
            last = again(&text, last.as_ref());
            match last.as_ref().and_then(LastParse::items_kept) {
                Some(n) if n > 0 => kept += 1,
                Some(_) => {}
                None => whole += 1,
            }
            // A syntax error stays until it is undone, as typing fixes it.
            if crate::scanner::syntax::parse::parse(text.as_bytes())
                .is_none_or(|t| t.root_node().has_error())
            {
                text = good.clone();
                last = again(&text, last.as_ref());
            }
            good = text.clone();
        }
        // Most edits keep items (a broken edit is indexed whole, and the next one
        // item by item afresh).
        assert!(kept > 80, "kept {kept}, whole {whole}");
    }

    /// An edit to a helper that a transaction in another item builds its requests
    /// with: the transaction's item is indexed again, though its text is the same.
    #[test]
    fn an_item_that_looked_up_an_edited_item_is_indexed_again() {
        let text: String = (0..3).map(items).collect();
        let last = again(&text, None);
        let edited = text.replacen("\"puts-1\"", "\"puts-1b\"", 1);
        let kept = again(&edited, last.as_ref());
        let n = kept
            .as_ref()
            .and_then(LastParse::items_kept)
            .expect("item by item");
        assert!(n > 10, "{n}");
        // In the item that defines the helper (it spells its name), an edit inside the
        // body of another function, or in a comment beside the helper, keeps the
        // items that looked it up; one in the helper's body does not.
        let items_kept = |k: &Option<LastParse>| k.as_ref().and_then(LastParse::items_kept);
        let all = kept
            .as_ref()
            .and_then(|k| k.items())
            .map_or(0, |i| i.items.len());
        let body = edited.replacen("let s = &self.id;", "let xs = &self.id;", 1);
        let kept = again(&body, kept.as_ref());
        assert_eq!(items_kept(&kept), Some(all - 1));
        let doc = body.replacen("/// The put.", "/// The xput.", 1);
        let kept = again(&doc, kept.as_ref());
        assert_eq!(items_kept(&kept), Some(all - 1));
        let helper = doc.replacen("Put::builder()", "Put::builder().return_values(x)", 1);
        let kept = again(&helper, kept.as_ref());
        assert!(
            items_kept(&kept).is_some_and(|n| n < all - 1),
            "{:?}",
            items_kept(&kept)
        );
        // And one that no lookup reads keeps every other item.
        let commented = helper.replacen("// Then the orders.", "// Then the order.", 1);
        let all = kept
            .as_ref()
            .and_then(|k| k.items())
            .map_or(0, |i| i.items.len());
        let kept = again(&commented, kept.as_ref());
        assert_eq!(kept.as_ref().and_then(LastParse::items_kept), Some(all - 1));
    }

    /// The helper a transaction builds its requests with, edited in its body: the
    /// transaction's requests are what the helper now builds (its item is indexed
    /// again, with parent links for the helpers its search climbs in, not the whole
    /// file's).
    #[test]
    fn an_edit_in_a_helper_changes_the_transaction_built_with_it() {
        let transactions = |idx: &FileIndex| -> String {
            let ops = idx.ops.iter().map(|(o, _)| o);
            let writes = ops.filter(|o| o.kind == crate::scanner::ir::OpKind::TransactWriteItems);
            format!("{:?}", writes.collect::<Vec<_>>())
        };
        let text: String = (0..3).map(items).collect();
        let (text, idx, last) =
            opened_then_edited(&text, "// Then the orders.", "// Then the order.");
        assert!(transactions(&idx).contains("\"puts-1\""));
        let edited = text.replacen("\"puts-1\"", "\"puts-1b\"", 1);
        let (idx, kept) = again_indexed(&edited, last.as_ref());
        assert!(kept
            .as_ref()
            .and_then(LastParse::items_kept)
            .is_some_and(|n| n > 10));
        let after = transactions(&idx);
        assert!(
            after.contains("\"puts-1b\"") && !after.contains("\"puts-1\""),
            "{after}"
        );
    }

    /// Two transactions building their requests with the same helper, which builds
    /// them with another: re-indexed together, the second uses what the first's search
    /// found in the helpers (shared caches), and must still count the inner helper
    /// among its lookups, so that an edit to that one indexes it again.
    #[test]
    fn an_item_that_used_another_items_search_counts_its_lookups() {
        let text = r#"
fn inner_put(id: &str) -> Put {
    Put::builder().table_name("inner-a").item("pk", AttributeValue::S(id.into())).build().unwrap()
}

fn outer_put(id: &str) -> Put {
    inner_put(id)
}

async fn first(c: &Client) {
    c.transact_write_items().transact_items(TransactWriteItem::builder().put(outer_put("a")).build()).send().await;
}

async fn second(c: &Client) {
    c.transact_write_items().transact_items(TransactWriteItem::builder().put(outer_put("b")).build()).send().await;
}
"#;
        let tables = |idx: &FileIndex| format!("{:?}", idx.ops);
        let (text, _, last) = opened_then_edited(text, "async fn first", "async fn first_");
        // An edit in the outer helper's body: both transactions are indexed again, in
        // one pass.
        let outer = text.replacen("    inner_put(id)", "    inner_put(id )", 1);
        let (_, last) = again_indexed(&outer, last.as_ref());
        assert!(last
            .as_ref()
            .and_then(LastParse::items_kept)
            .is_some_and(|n| n >= 1));
        // Then in the inner one: both transactions' requests change.
        let inner = outer.replacen("\"inner-a\"", "\"inner-b\"", 1);
        let (idx, last) = again_indexed(&inner, last.as_ref());
        assert_eq!(last.as_ref().and_then(LastParse::items_kept), Some(1));
        let after = tables(&idx);
        assert!(
            after.matches("inner-b").count() >= 2 && !after.contains("inner-a"),
            "{after}"
        );
    }

    /// The `fn` items found from the tokens are those a walk of the tree finds.
    #[test]
    fn the_functions_are_the_trees_fn_items() {
        let text = r#"
pub(crate) const unsafe extern "C" fn a(f: fn(u8) -> u8) -> Box<dyn Fn()> {
    fn inner() { let g = |x: u8| { fn deepest() {} x }; }
    m!(fn not_an_item() {});
    "fn in_a_string() {}";
    todo!()
}
trait T { fn signature(&self); fn provided(&self) {} }
impl T for S { async fn signature(&self) {} }
macro_rules! mk { () => { fn made() {} }; }
mod m { pub fn r#fn() {} }
// fn in_a_comment() {}
"#;
        let tree = crate::scanner::syntax::parse::parse(text.as_bytes()).expect("parses");
        let root = tree.root_node();
        assert!(!root.has_error());
        let (_, nodes, _) = crate::scanner::syntax::nodes::parent_map(root);
        let want: Vec<Node<'_>> = (nodes.iter().copied())
            .filter(|n| n.kind() == "function_item")
            .collect();
        assert_eq!(want.len(), 6);
        assert_eq!(
            functions(root, text.as_bytes(), &tokenize(text.as_bytes())),
            want
        );
    }

    #[test]
    fn an_edit_is_never_empty_in_the_old_text() {
        let e = |a: &str, b: &str| {
            let e = Edit::between(a, b);
            (e.start, e.old_end, e.new_end)
        };
        assert_eq!(e("abcd", "abXcd"), (1, 2, 3));
        assert_eq!(e("abcd", "abd"), (2, 3, 2));
        assert_eq!(e("abcd", "Xabcd"), (0, 1, 2));
        assert_eq!(e("abcd", "abcdX"), (3, 4, 5));
        assert_eq!(e("aaa", "aaaa"), (2, 3, 4));
    }
}
