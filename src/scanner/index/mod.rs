//! The per-file phase: everything the scanner learns from one file alone, as plain
//! data that can be cached and recomputed when only that file changes.

pub(super) mod args;
pub(super) mod batch;
pub(super) mod context;
pub mod create_table;
pub(super) mod ctors;
pub(super) mod deferred;
pub(super) mod expr_crate;
pub(super) mod field_values;
pub(super) mod first_item;
pub(super) mod fold;
pub(super) mod graph;
pub(super) mod ints;
pub(super) mod items;
pub(super) mod key_conditions;
pub(super) mod loose;
pub(super) mod orm;
pub(super) mod path_strings;
pub(super) mod pieces;
pub(super) mod resolve;
pub(super) mod returns;
pub(super) mod sparse;
pub(super) mod types;

use std::sync::Arc;

use tree_sitter::{Node, Tree};

use crate::scanner::index::args::{arg_sites, may_call, site_keys, ArgSite, SiteKey, ValuesOf};
use crate::scanner::index::context::{attributes_of, cold_by_path, is_test_attr};
use crate::scanner::index::deferred::{defer, Deferred};
use crate::scanner::index::fold::{fold_file, Escape, HelperChains, Template, HELPER_SETTERS};
use crate::scanner::index::graph::{lexical_graph, FnNode};
use crate::scanner::index::items::{struct_defs, StructDef};
use crate::scanner::index::pieces::{Sizes, REF_STRIDE, SIZES};
use crate::scanner::index::resolve::{impl_type, type_name, FileCx, PendingRef, RefKind};
use crate::scanner::index::returns::{fn_returns, once_sets, FnReturn, OnceSet};
use crate::scanner::index::types::{type_facts, TypeFacts};
use crate::scanner::ir::{Operation, Resolved, ScanProblem};
use crate::scanner::sdk::{GENERATED_HEADER, MARKERS};
use crate::scanner::syntax::lex::{shadow_text, tokenize, Tok, Token};
use crate::scanner::syntax::names::{intern, intern_path, Name, Path};
use crate::scanner::syntax::nodes::{
    ancestors, descendants, field, method_name, named_children, span, Src,
};
use crate::scanner::syntax::parse::{kind, parse_reusing_within, parse_within, ranges};
use crate::scanner::ScanSettings;
use crate::source::{FilePath, SourceFile, Span};

/// Files above this size are not parsed (a generated file, most likely); the scanner
/// says so instead of spending seconds on it.
pub const MAX_FILE_BYTES: usize = crate::workspace::MAX_FILE_BYTES as usize;

/// A `const`/`static` (or `lazy_static!`/`LazyLock`) with a string-like value.
#[derive(Debug, Clone)]
pub struct ConstDef {
    /// Module path, then the impl type for associated consts, then the name.
    pub path: Path,
    pub value: Resolved,
    pub span: Span,
}

/// A field value a constructor assigns: `Self { table: env::var("T")? }`.
#[derive(Debug, Clone)]
pub struct FieldInit {
    pub ty: Name,
    pub field: Name,
    pub value: Resolved,
    /// In test code: a test's instance holds the test's table (`table_name:
    /// "some_table"` in a `#[cfg(test)]` literal), not one the service uses.
    pub test: bool,
}

/// A struct field's declared type, to follow `self.config.table`.
#[derive(Debug, Clone)]
pub struct FieldType {
    pub ty: Name,
    pub field: Name,
    pub field_ty: Name,
}

/// `use a::b::C as D;` → alias `D`, path `a::b::C`.
#[derive(Debug, Clone)]
pub struct UseAlias {
    pub alias: Name,
    pub path: Path,
}

/// What one file contributes; pure function of the file and the settings. Every
/// file's index lives until the link, so the names and paths in it are interned
/// (`names.rs`): a tree of many crates holds the same ones in every crate.
#[derive(Debug, Clone)]
pub struct FileIndex {
    pub path: FilePath,
    pub module: Path,
    /// Whether the byte pre-filter let it through (it was parsed for calls).
    pub candidate: bool,
    /// An SDK's own generated code ([`generated_sdk_code`]): never tokenized nor
    /// parsed; nothing of it is kept.
    pub generated: bool,
    pub ops: Vec<(Operation, Escape)>,
    pub templates: Vec<Template>,
    /// Chains continuing a builder some helper returns, with the helper's name.
    pub helper_calls: Vec<crate::scanner::index::fold::HelperCall>,
    /// `create_table` / `update_table` calls: tables the code declares.
    pub tables: Vec<crate::scanner::index::create_table::TableDecl>,
    pub refs: Vec<PendingRef>,
    /// For a file indexed in pieces (`pieces.rs`): where each piece's references start
    /// in `refs`. Its references are numbered from the piece's position times
    /// [`REF_STRIDE`]; see [`FileIndex::pending_ref`]. Empty for a file indexed whole.
    pub ref_pieces: Vec<usize>,
    pub consts: Vec<ConstDef>,
    pub field_inits: Vec<FieldInit>,
    pub field_types: Vec<FieldType>,
    pub uses: Vec<UseAlias>,
    pub structs: Vec<StructDef>,
    /// What the file's string-returning functions return, by path.
    pub returns: Vec<FnReturn>,
    /// Associated functions returning their own type: `(type, fn, wrapped)` (see
    /// `ctors.rs`).
    pub ctors: Vec<(Name, Name, bool)>,
    /// Values given to `OnceLock`/`OnceCell` statics (`set`, `get_or_init`).
    pub once_sets: Vec<OnceSet>,
    /// What the file's calls pass, for parameters that name tables.
    pub arg_sites: Vec<ArgSite>,
    /// Indexed [`lean`](index_file_lean): instead of `arg_sites`, only the calls' keys.
    /// Should a parameter reference match one, the link indexes the file again with
    /// its `arg_sites` ([`index_lean_with_args`]).
    pub site_keys: Vec<SiteKey>,
    /// Indexed lean with `arg_sites` for its own helpers' parameters: the keys of the
    /// other calls, whose arguments were read as names only, not as values or maps
    /// (see `args::ValuesOf`). Should the link ask what one of them passes a helper
    /// that sends its request with it, it indexes the file again
    /// ([`index_lean_with_args`]).
    pub value_keys: Vec<SiteKey>,
    pub fns: Vec<FnNode>,
    /// Field types and trait bounds the file declares, from its tokens: what a loop
    /// call's receiver is typed by (see `types.rs`). Shared: the files that declare
    /// none (half of a tree) hold one empty set ([`TypeFacts::shared`]).
    pub types: Arc<TypeFacts>,
    pub problems: Vec<ScanProblem>,
    /// For a file the pre-filter ruled out: the names of calls whose result it chains
    /// into a builder setter (`base(&c).send()`, `self.everything().limit(5)`) or hands
    /// to another function (`collect_all(self.base())`). Should
    /// one of them turn out to return a builder (known only once every file is
    /// indexed), the link phase indexes the file again with a parse. Interned: half
    /// the files of a tree keep a dozen of these common names until the link (an
    /// owned `String` each was 6 MB of the 10x real tree's peak).
    pub chained: Box<[Name]>,
    /// For a file the pre-filter ruled out and not indexed [`lean`](index_file_lean):
    /// its text, kept (shared, not copied) for the link to parse it should it chain a
    /// helper's builder (`chained`) or pass a helper's parameter.
    pub text: Option<Arc<str>>,
    /// For a file the pre-filter ruled out, indexed [`lean`](index_file_lean): not
    /// parsed yet, only its identifiers kept (its items, consts and the rest are
    /// empty). The link parses it when it looks up a name it holds (`deferred.rs`).
    pub deferred: Option<Deferred>,
}

impl FileIndex {
    /// An index with nothing in it yet.
    pub(super) fn empty(path: &FilePath, module: Path) -> Self {
        FileIndex {
            path: path.clone(),
            module,
            candidate: false,
            generated: false,
            ops: Vec::new(),
            templates: Vec::new(),
            helper_calls: Vec::new(),
            tables: Vec::new(),
            refs: Vec::new(),
            ref_pieces: Vec::new(),
            consts: Vec::new(),
            field_inits: Vec::new(),
            field_types: Vec::new(),
            uses: Vec::new(),
            structs: Vec::new(),
            returns: Vec::new(),
            ctors: Vec::new(),
            once_sets: Vec::new(),
            arg_sites: Vec::new(),
            site_keys: Vec::new(),
            value_keys: Vec::new(),
            fns: Vec::new(),
            types: TypeFacts::default().shared(),
            problems: Vec::new(),
            chained: Box::default(),
            text: None,
            deferred: None,
        }
    }

    /// The pending reference numbered `n` (`\0pending:n`).
    pub fn pending_ref(&self, n: usize) -> Option<&PendingRef> {
        if self.ref_pieces.is_empty() {
            return self.refs.get(n);
        }
        let (piece, local) = (n / REF_STRIDE, n % REF_STRIDE);
        let start = *self.ref_pieces.get(piece)?;
        let end = self
            .ref_pieces
            .get(piece + 1)
            .copied()
            .unwrap_or(self.refs.len());
        self.refs.get(start + local).filter(|_| start + local < end)
    }
}

/// The module path of a file: `src/db/names.rs` → `db::names`; `mod.rs`, `lib.rs` and
/// `main.rs` name their directory.
pub fn module_of(path: &std::path::Path) -> Vec<String> {
    let comps: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let start = comps
        .iter()
        .rposition(|c| c == "src")
        .map(|i| i + 1)
        .unwrap_or(0);
    let mut out: Vec<String> = comps[start.min(comps.len())..].to_vec();
    if let Some(last) = out.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last).to_string();
        if !matches!(stem.as_str(), "mod" | "lib" | "main") {
            out.push(stem);
        }
    }
    out
}

/// Whether the bytes can contain a DynamoDB request at all: whether any of
/// [`MARKERS`] occurs in them.
pub fn may_call_dynamodb(text: &[u8]) -> bool {
    use std::sync::OnceLock;
    // A regex of the markers' alternation rather than aho-corasick's automaton: this
    // reads every file of a tree, and regex's search took a quarter of the
    // instructions on the 1x real tree (the automaton stepped through each byte).
    static RE: OnceLock<Option<regex::bytes::Regex>> = OnceLock::new();
    let built = RE.get_or_init(|| {
        let alternation: Vec<String> = MARKERS.iter().map(|m| regex::escape(m)).collect();
        regex::bytes::Regex::new(&alternation.join("|")).ok()
    });
    match built {
        Some(re) => re.is_match(text),
        // Building the regex cannot fail for these patterns; if it did, scan all.
        None => true,
    }
}

/// The pre-filter's second look, for a file whose bytes hold a marker
/// ([`may_call_dynamodb`]): whether one occurs in its code (`tokens`, its [`tokenize`]d
/// text) where the fold could read it:
/// - in an identifier: an occurrence in a comment (docs that show a request) or a
///   literal (`uri.query()` in a test's string) is no code, and tree-sitter parses the
///   file as it would without it;
/// - a client method's (`query()`) only as a whole name: the fold starts a request at a
///   method named exactly `query` (`sdk::op_for_method`; `create_table.rs` likewise),
///   so `schema.http_query()` or `pool.begin_scan()` starts none;
/// - a typed builder's (`TransactWriteItem`) only as the whole name `sdk::typed_for`
///   reads: `TransactWriteItemsError` builds nothing;
/// - a typed builder or a rusoto input (`QueryInput`) only in a literal or a path, where
///   the fold reads them: a parameter's type (`input: QueryInput`, a wrapper's) is none;
/// - a builder method's (`key_condition_expression`) only in a method call, and
///   `table_name(` given a value: `fn index_name(&self)`, a test named
///   `key_condition_expression_between` and a getter `def.index_name()` set nothing.
///
/// A lean index defers a file with none ([`Items::Defer`]), as one the bytes rule out;
/// when the link looks up a name it holds, it is indexed as the bytes say, so whatever
/// it answers is what a parse for calls gives. On the 1x real tree this deferred a
/// quarter of the bytes the markers let through (the vendored HTTP and signing crates,
/// error types, rusoto wrappers, docs), none of which built a request.
pub fn markers_in_code(text: &[u8], tokens: &[Token]) -> bool {
    use aho_corasick::{AhoCorasick, Input, MatchKind};
    use std::sync::OnceLock;
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let built = AC.get_or_init(|| {
        AhoCorasick::builder()
            // Leftmost: `batch_get_item()` is reported, not the `get_item()` inside it.
            .match_kind(MatchKind::LeftmostFirst)
            .build(MARKERS)
            .ok()
    });
    // Building the automaton cannot fail for these patterns; if it did, scan all.
    let Some(ac) = built else { return true };
    let mut from = 0;
    while let Some(m) = ac.find(Input::new(text).span(from..text.len())) {
        let marker = MARKERS.get(m.pattern().as_usize()).copied();
        if in_code(tokens, m.start(), m.end(), marker) {
            return true;
        }
        // Every later start is still searched (no marker is a prefix of another, so
        // none starts here too; a test says so).
        from = m.start() + 1;
    }
    false
}

/// Whether the occurrence `start..end` of `marker` is one the fold could read (see
/// [`markers_in_code`]).
fn in_code(tokens: &[Token], start: usize, end: usize, marker: Option<&str>) -> bool {
    // The token the occurrence starts in, if any (else it is in a comment or a gap).
    let at = tokens.partition_point(|t| t.start as usize <= start);
    let Some(tok) = at.checked_sub(1).and_then(|i| tokens.get(i)) else {
        return false;
    };
    if tok.kind != Tok::Ident || tok.end as usize <= start {
        return false;
    }
    let whole_start = tok.start as usize == start;
    // What follows the name: the fold reads a typed builder or a rusoto input only in a
    // literal (`QueryInput { .. }`) or a path (`Put::builder()`, `..GetItemInput::default()`),
    // never as a type (`input: QueryInput`, `Vec<WriteRequest>`).
    let next = |k: usize| tokens.get(at + k);
    let literal_or_path = next(0).is_some_and(|t| t.is_punct(b'{'))
        || (next(0).is_some_and(|t| t.is_punct(b':')) && next(1).is_some_and(|t| t.is_punct(b':')));
    match marker {
        Some(m) if m.ends_with("()") => whole_start,
        // A builder's method (`table_name(`, `key_condition_expression`, `send_with`):
        // only a method call (`.set_filter_expression(f)`, `.into_paginator()`), not a
        // function's definition (`fn index_name(&self)`, a test named
        // `key_condition_expression_between`); `table_name(` and `index_name(` only
        // given a value, not a getter (`def.index_name()`).
        Some(m)
            if m.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'(') =>
        {
            let method = at
                .checked_sub(2)
                .and_then(|i| tokens.get(i))
                .is_some_and(|t| t.is_punct(b'.'))
                && next(0).is_some_and(|t| t.is_punct(b'('));
            method && (!m.ends_with('(') || next(1).is_some_and(|t| !t.is_punct(b')')))
        }
        Some(m) if crate::scanner::sdk::typed_for(m).is_some() => {
            whole_start && tok.end as usize == end && literal_or_path
        }
        Some(m) if m.ends_with("Input") => literal_or_path,
        _ => true,
    }
}

/// Whether the file is an SDK's generated code: smithy-rs's header
/// ([`GENERATED_HEADER`]) comes before any code, after only blank lines, comments and
/// inner attributes (`#![allow(..)]`, the crate docs of a `lib.rs`). Such a file
/// defines the builders every marker names, so the pre-filter would let it through, yet
/// it makes no request of an application's and declares none of its tables; its
/// consts, structs and constructors are the SDK's own, which no application name
/// resolves to, and its functions would only add the SDK's own names (`send`, `get`,
/// `build`) to a call graph matched by name. Nothing of it is kept. A file that
/// starts otherwise (the SDK's hand-written `tests/`) is indexed as any other; so is
/// one whose first lines this does not read (a multi-line attribute, a block comment).
pub fn generated_sdk_code(text: &[u8]) -> bool {
    for line in text.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.starts_with(GENERATED_HEADER) {
            return true;
        }
        if !(line.is_empty() || line.starts_with(b"//") || line.starts_with(b"#![")) {
            return false;
        }
    }
    false
}

/// Names of calls whose result the code chains into a builder setter, from tokens:
/// `name(..)`, then any `?` and `.await`, then `.send`/`.limit`/`.key`/..., or hands on
/// (an argument, or the value of a `let`) — the shapes the fold recognises as a
/// helper's returned builder.
pub fn chained_calls(src: &[u8], toks: &[Token]) -> Vec<String> {
    // For each open `(`: the token index of the name before it, if it is a name.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            Tok::Punct(b'(') => {
                open.push(i.checked_sub(1).filter(|p| toks[*p].kind == Tok::Ident));
            }
            Tok::Punct(b')') => {
                let Some(Some(name_at)) = open.pop() else {
                    continue;
                };
                let mut j = i + 1;
                loop {
                    if toks.get(j).is_some_and(|t| t.is_punct(b'?')) {
                        j += 1;
                    } else if toks.get(j).is_some_and(|t| t.is_punct(b'.'))
                        && toks.get(j + 1).is_some_and(|t| t.is_ident(src, "await"))
                    {
                        j += 2;
                    } else {
                        break;
                    }
                }
                let setter = toks.get(j).is_some_and(|t| t.is_punct(b'.'))
                    && toks.get(j + 1).is_some_and(|t| {
                        t.kind == Tok::Ident
                            && std::str::from_utf8(t.text(src))
                                .is_ok_and(|w| HELPER_SETTERS.contains(&w))
                    });
                // Handed on: an argument (`collect_all(self.base())`), or bound
                // (`let q = self.base();`) to be one later.
                let argument = j == i + 1
                    && toks
                        .get(j)
                        .is_some_and(|t| t.is_punct(b')') || t.is_punct(b','));
                let bound = j == i + 1
                    && toks.get(j).is_some_and(|t| t.is_punct(b';'))
                    && assigned(toks, name_at);
                if setter || argument || bound {
                    out.push(String::from_utf8_lossy(toks[name_at].text(src)).into_owned());
                }
            }
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether the call whose name is token `name_at` is the value of an assignment or a
/// `let`: `= a.b::c(`, walking back over its receiver and path.
fn assigned(toks: &[Token], name_at: usize) -> bool {
    let mut k = name_at;
    while let Some(p) = k.checked_sub(1) {
        let t = toks[p];
        if t.kind == Tok::Ident || t.is_punct(b'.') || t.is_punct(b':') {
            k = p;
        } else {
            return t.is_punct(b'=');
        }
    }
    false
}

/// Indexes one file: operations (when the pre-filter lets it through), constants,
/// constructors, serialisable structs and the call graph.
pub fn index_file(file: &SourceFile, settings: &ScanSettings) -> FileIndex {
    index_source(&file.path, &file.text, settings, false)
}

/// [`index_file`] for a caller that can read the file again
/// ([`ScanSettings::reread`]), so that its text need not stay alive: keeps neither the
/// text nor the chains that continue a helper's builder (`helper_calls`, one large
/// operation each, of which almost none turn out to continue a returned builder),
/// only those helpers' names in `chained`. Should one of them return a builder, the
/// link phase reads the file again and indexes it in full, which gives what
/// [`index_file`] would have.
///
/// Nor are its calls' arguments resolved (most of them no parameter reference asks
/// about, and resolving them was a tenth of `check`): only their keys are kept
/// (`site_keys`), and the link indexes the file again with
/// [`index_lean_with_args`] when a parameter reference matches one.
pub fn index_file_lean(file: &SourceFile, settings: &ScanSettings) -> FileIndex {
    index_text_lean(&file.path, &file.text, settings)
}

/// [`index_file_lean`] from a path and text, for a caller that has no [`SourceFile`]
/// (whose line starts it would not read).
pub fn index_text_lean(path: &FilePath, text: &Arc<str>, settings: &ScanSettings) -> FileIndex {
    lean(
        path,
        text,
        settings,
        ArgValues::KeysUnlessOwn,
        Items::Defer,
        false,
    )
}

/// [`index_file_lean`] with the calls' arguments resolved (`arg_sites`, no
/// `site_keys`): what that index is once the link needs the file's arguments. With
/// `values_of`, they are read as values and maps only at the calls of those functions
/// (and of the file's own helpers), the other calls' keys kept (`value_keys`):
/// [`ArgValues::CallsOf`].
pub fn index_lean_with_args(
    path: &FilePath,
    source: &Arc<str>,
    settings: &ScanSettings,
    values_of: Option<&[RefKind]>,
) -> FileIndex {
    lean(
        path,
        source,
        settings,
        values_of.map_or(ArgValues::Resolved, ArgValues::CallsOf),
        Items::Parse,
        false,
    )
}

/// [`index_lean_with_args`] for a file the byte pre-filter ruled out (it names no SDK
/// marker), parsed all the same: one of its calls may pass a helper's parameter its
/// table or keys (`stats(&client, &cfg.leo_stats)` in a file that never names the SDK).
pub fn index_ruled_out_with_args(
    path: &FilePath,
    source: &Arc<str>,
    settings: &ScanSettings,
    values_of: Option<&[RefKind]>,
) -> FileIndex {
    lean(
        path,
        source,
        settings,
        values_of.map_or(ArgValues::Resolved, ArgValues::CallsOf),
        Items::Parse,
        true,
    )
}

fn lean(
    path: &FilePath,
    source: &Arc<str>,
    settings: &ScanSettings,
    args: ArgValues<'_>,
    items: Items,
    force_parse: bool,
) -> FileIndex {
    let (mut idx, mut names) = index_reusing(
        path,
        source,
        settings,
        force_parse,
        HelperChains::NamesOnly,
        args,
        items,
        Some(SIZES),
    );
    idx.text = None;
    if !names.is_empty() {
        names.sort();
        names.dedup();
        idx.chained = names.iter().map(|n| intern(n)).collect();
    }
    shrink(&mut idx);
    idx
}

/// [`index_file`] from a path and text; `force_parse` overrides the pre-filter (the link
/// phase found that the file continues a builder a helper returns).
pub fn index_source(
    path: &FilePath,
    source: &Arc<str>,
    settings: &ScanSettings,
    force_parse: bool,
) -> FileIndex {
    index_reusing(
        path,
        source,
        settings,
        force_parse,
        HelperChains::Fold,
        ArgValues::Resolved,
        Items::Parse,
        Some(SIZES),
    )
    .0
}

/// [`index_file`] of an edited file up to its parse, reusing `last` (the parse of its
/// version before, see `incremental::LastParse`): the re-index (`incremental`) then
/// indexes the tree item by item, or [`index_parsed`] whole.
pub(in crate::scanner) fn parse_again(
    path: &FilePath,
    source: &Arc<str>,
    last: Option<(&[u8], &Tree)>,
) -> Indexed {
    index_until_parsed(
        path,
        source,
        false,
        Some(last),
        HelperChains::Fold,
        ArgValues::Resolved,
        Items::Parse,
        Some(SIZES),
    )
}

/// A file indexed as far as its parse.
pub(in crate::scanner) enum Indexed {
    /// Nothing was left to parse (or the parser gave up): the whole index, with the
    /// names of the helpers [`HelperChains::NamesOnly`] left unfolded.
    Done(FileIndex, Vec<String>),
    /// The tree is parsed; its passes are still to run.
    Parsed(Parsed),
}

/// A file's index before its tree's passes ran, with the tree.
pub(in crate::scanner) struct Parsed {
    pub idx: FileIndex,
    /// The text parsed (the shadow or sparse text, not the file's own).
    pub parse_text: Vec<u8>,
    pub tree: Tree,
    pub tokens: Vec<Token>,
}

/// [`index_source`]. With [`HelperChains::NamesOnly`], chains on a helper's result are
/// not folded: their helpers' names come back instead.
// One entry for every way a file is indexed: each caller names all its choices.
#[allow(clippy::too_many_arguments)]
fn index_reusing(
    path: &FilePath,
    source: &Arc<str>,
    settings: &ScanSettings,
    force_parse: bool,
    helpers: HelperChains,
    args: ArgValues<'_>,
    items: Items,
    pieces: Option<Sizes>,
) -> (FileIndex, Vec<String>) {
    let _ = settings;
    match index_until_parsed(
        path,
        source,
        force_parse,
        None,
        helpers,
        args,
        items,
        pieces,
    ) {
        Indexed::Done(idx, names) => (idx, names),
        Indexed::Parsed(parsed) => {
            // The parse is freed here, inline: freed on a thread of its own, its frees
            // contended with the link's allocations for the allocator's lock, which
            // cost the 40,000-call file more than the free itself.
            let (idx, _, _, names) = index_parsed(path, source, parsed, helpers, args);
            (idx, names)
        }
    }
}

/// The first half of [`index_reusing`]: up to the file's parse; with `reuse`, the parse
/// is that of the last version (when there is one).
#[allow(clippy::too_many_arguments)]
fn index_until_parsed(
    path: &FilePath,
    source: &Arc<str>,
    force_parse: bool,
    reuse: Option<Option<(&[u8], &Tree)>>,
    helpers: HelperChains,
    args: ArgValues<'_>,
    items: Items,
    pieces: Option<Sizes>,
) -> Indexed {
    let text: &str = source;
    let bytes = text.as_bytes();
    let mut idx = FileIndex::empty(path, intern_path(&module_of(path)));
    if bytes.len() > MAX_FILE_BYTES {
        idx.problems.push(ScanProblem {
            file: path.clone(),
            span: None,
            message: crate::workspace::too_large_message(bytes.len() as u64),
        });
        return Indexed::Done(idx, Vec::new());
    }
    idx.generated = !force_parse && generated_sdk_code(bytes);
    if idx.generated {
        // The SDK's own code makes no application request and holds nothing an
        // application's name resolves to (see `generated_sdk_code`); its functions
        // only added SDK names to the call graph. Nothing of it is read: it is 40% of
        // the bytes of a tree that vendors the SDK.
        return Indexed::Done(idx, Vec::new());
    }
    let tokens = tokenize(bytes);
    idx.candidate = force_parse || may_call_dynamodb(bytes);
    // Markers only outside code (`markers_in_code`): deferred as if the bytes had ruled
    // the file out, when it can be. Parsed on the link's asking (`Items::Parse`), it is
    // indexed as the bytes say: a candidate, whose every call's arguments are read.
    let mut deferred = None;
    if idx.candidate
        && !force_parse
        && matches!(items, Items::Defer)
        && !markers_in_code(bytes, &tokens)
    {
        deferred = defer(bytes, &tokens, &idx.module);
        idx.candidate = deferred.is_none();
    }
    // A large file is parsed in pieces (see `pieces.rs`), unless its parse is to be
    // kept for the next edit; its call graph is built from the tokens meanwhile.
    // The cut and the shadow text, both from the tokens, made side by side: a large
    // file's are tens of milliseconds each, before any piece can start.
    let (cut, shadow) =
        match pieces.filter(|s| idx.candidate && reuse.is_none() && bytes.len() >= s.min_file) {
            Some(sizes) => rayon::join(
                || crate::scanner::index::pieces::split(bytes, &tokens, sizes),
                || Some(shadow_text(bytes, &tokens)),
            ),
            None => (None, None),
        };
    match cut {
        Some(cut) => {
            let made;
            let parse_text: &[u8] = match &shadow {
                Some(text) => text,
                None => {
                    made = shadow_text(bytes, &tokens);
                    &made
                }
            };
            let ((fns, types), names) = rayon::join(
                || (lexical_graph(text, &tokens), type_facts(bytes, &tokens)),
                || index_pieces(&mut idx, text, parse_text, &cut, helpers, args),
            );
            idx.fns = fns;
            idx.types = types.shared();
            if let Some(names) = names {
                shrink(&mut idx);
                return Indexed::Done(idx, names);
            }
            // A piece was not what the whole parse gives: parsed whole below.
        }
        None => {
            idx.fns = lexical_graph(text, &tokens);
            idx.types = type_facts(bytes, &tokens).shared();
        }
    }
    // A file without calls only needs its items: keep their bytes, blank the rest,
    // so the parse costs what the items cost (see the module docs).
    // A sparse text is parsed only where it keeps bytes: its blanks would cost the
    // lexer a step each.
    let mut within = Vec::new();
    let parse_text = if idx.candidate {
        shadow.unwrap_or_else(|| shadow_text(bytes, &tokens))
    } else {
        idx.chained = chained_calls(bytes, &tokens)
            .iter()
            .map(|n| intern(n))
            .collect();
        // Shared, not copied: the link parses it again should one of its calls pass
        // a helper's parameter, or chain a helper's builder.
        idx.text = Some(Arc::clone(source));
        if matches!(items, Items::Defer) {
            if let Some(names) = deferred.or_else(|| defer(bytes, &tokens, &idx.module)) {
                idx.deferred = Some(names);
                return Indexed::Done(idx, Vec::new());
            }
        }
        match crate::scanner::index::sparse::item_text(bytes, &tokens) {
            Some((t, kept)) => {
                within = ranges(&t, &kept);
                t
            }
            None => return Indexed::Done(idx, Vec::new()),
        }
    };
    let Some(tree) = parse_reusing_within(&parse_text, &within, reuse.flatten()) else {
        idx.problems.push(ScanProblem {
            file: path.clone(),
            span: None,
            message: "the parser gave up on this file".to_string(),
        });
        return Indexed::Done(idx, Vec::new());
    };
    Indexed::Parsed(Parsed {
        idx,
        parse_text,
        tree,
        tokens,
    })
}

/// The second half of [`index_reusing`]: the passes over a parsed file's whole tree.
/// Gives the index, the text parsed and its tree, and the names of the helpers
/// [`HelperChains::NamesOnly`] left unfolded.
pub(in crate::scanner) fn index_parsed(
    path: &FilePath,
    source: &Arc<str>,
    parsed: Parsed,
    helpers: HelperChains,
    args: ArgValues<'_>,
) -> (FileIndex, Vec<u8>, Tree, Vec<String>) {
    let Parsed {
        mut idx,
        parse_text,
        tree,
        tokens: _,
    } = parsed;
    let text: &str = source;
    let root = tree.root_node();
    let (parents, nodes, truncated) = crate::scanner::syntax::nodes::parent_map(root);
    if truncated {
        idx.problems.push(truncated_problem(path));
    }
    let lets = crate::scanner::syntax::scope::let_offsets(text);
    let src = Src {
        text,
        parents: &parents,
        lets: &lets,
    };
    let cx = FileCx::new(src, idx.module.clone()).with_items(&nodes);
    if idx.candidate && root.has_error() {
        report_syntax_errors(&mut idx, root);
    }
    let helper_names = index_tree(&mut idx, &cx, &nodes, helpers, args);
    drop(cx);
    drop(parents);
    shrink(&mut idx);
    (idx, parse_text, tree, helper_names)
}

/// The problem saying that code nested too deeply was skipped.
fn truncated_problem(path: &FilePath) -> ScanProblem {
    ScanProblem {
        file: path.clone(),
        span: None,
        message: format!(
            "code nested deeper than {} levels was skipped",
            crate::scanner::syntax::nodes::MAX_DEPTH * 4
        ),
    }
}

/// Indexes a tree's `nodes` (the whole file's, or a piece's, see [`index_pieces`])
/// into `idx`: requests, declared tables, items, returns, constructors, `OnceLock`
/// sets, calls' arguments, structs and the pending references. Gives the names of
/// the helpers whose chains [`HelperChains::NamesOnly`] left unfolded.
pub(super) fn index_tree(
    idx: &mut FileIndex,
    cx: &FileCx<'_>,
    nodes: &[Node<'_>],
    helpers: HelperChains,
    args: ArgValues<'_>,
) -> Vec<String> {
    let src = cx.src;
    let path = &idx.path.clone();
    let by_kind = ByKind::of(nodes);
    // Each call's method name, found once (three field lookups a call): the fold and
    // the calls' keys both start from it, on every call of a file parsed for calls.
    let calls: Vec<(Node<'_>, Option<&str>)> = by_kind
        .calls
        .iter()
        .map(|n| (*n, method_name(src, *n)))
        .collect();
    let mut helper_names = Vec::new();
    // Whether the file was folded in full for a chain on its own helper's builder.
    let mut folded_own = false;
    if idx.candidate {
        let (decls, fns) = (&by_kind.declarations, &by_kind.fns);
        let mut folded = fold_file(cx, path, decls, &calls, fns, helpers);
        // A chain continuing a builder one of the file's own functions returns: the
        // link would read the file again and index it in full (`parse_if_chained`),
        // so it is folded in full now, from this parse (its references numbered as
        // that fold numbers them), with its calls' arguments read as names. Their
        // values are read at its own helpers' calls only, as a file answering its own
        // references reads them (`ArgValues::KeysUnlessOwn`): reading every call's
        // (locals followed to their `let`s, maps to their inserts) was most of what
        // indexing such a file cost, for values the link asks of a few helpers; should
        // it ask another's, the file is read again (`value_keys`).
        // A piece's index decides it over the whole file (`index_pieces`).
        if matches!(helpers, HelperChains::NamesOnly) && !cx.is_piece() {
            let names: Vec<&String> = folded.helper_names.iter().collect();
            if returns_chained(folded.ops.iter(), &names) {
                cx.refs.borrow_mut().clear();
                folded = fold_file(cx, path, decls, &calls, fns, HelperChains::Fold);
                folded_own = true;
            }
        }
        helper_names = folded.helper_names;
        let cold = cold_by_path(path);
        idx.ops = folded.ops;
        idx.templates = folded.templates;
        idx.helper_calls = folded.helper_calls;
        idx.tables =
            crate::scanner::index::create_table::declarations(cx, path, &by_kind.declarations);
        if let Some(c) = cold {
            for op in idx
                .ops
                .iter_mut()
                .map(|(o, _)| o)
                .chain(idx.helper_calls.iter_mut().map(|h| &mut h.op))
            {
                op.context.cold.get_or_insert(c.clone());
            }
        }
    }
    index_items(cx, &by_kind.items, idx);
    let module = idx.module.clone();
    let prefix = |n: Node<'_>| {
        let mut p: Vec<String> = module.iter().map(|s| s.to_string()).collect();
        p.extend(inline_mods(src, n));
        p
    };
    idx.returns = fn_returns(cx, &by_kind.fns, &prefix);
    idx.ctors = crate::scanner::index::ctors::self_constructors(src, &by_kind.fns)
        .into_iter()
        .map(|(ty, f, wrapped)| (intern(&ty), intern(&f), wrapped))
        .collect();
    idx.once_sets = once_sets(cx, &by_kind.calls);
    let test_file = matches!(
        cold_by_path(path),
        Some(crate::scanner::ir::ColdReason::Test)
    );
    match args {
        ArgValues::Resolved => {
            idx.arg_sites = arg_sites(cx, &by_kind.calls, test_file, ValuesOf::Every, None);
        }
        ArgValues::KeysOnly => idx.site_keys = site_keys(cx, &calls),
        ArgValues::KeysUnlessOwn => {
            let keys = site_keys(cx, &calls);
            let own = folded_own
                || answers_own(cx.refs.borrow().iter(), &keys.iter().collect::<Vec<_>>());
            if own {
                // Values only at calls of the file's own helpers that send their
                // request with them.
                let helpers = cx.value_params();
                let of = ValuesOf::CallsOf(&helpers);
                values_at_calls_of(idx, cx, &by_kind.calls, test_file, keys, of);
            } else {
                idx.site_keys = keys;
            }
        }
        ArgValues::CallsOf(tree) => {
            // Values at the calls of the file's own helpers and of every function
            // whose parameter some file's request holds as a value.
            let mut helpers = cx.value_params();
            for r in tree {
                if !helpers.contains(r) {
                    helpers.push(r.clone());
                }
            }
            let keys = site_keys(cx, &calls);
            let of = ValuesOf::NamedAs(&helpers);
            values_at_calls_of(idx, cx, &by_kind.calls, test_file, keys, of);
        }
    }
    idx.structs = struct_defs(src, &by_kind.structs);
    idx.refs = cx.refs.take();
    helper_names
}

/// `idx`'s calls' arguments (`arg_sites`, of `nodes`) read as names at every call, and
/// as values and maps at the calls that may call one of `of`'s functions; the keys of
/// the other calls (of `keys`, the file's calls') kept in `value_keys`, for the link
/// to read the file again should it ask the values one of them passes (but a call in
/// test code's: a test's call gives a request no value, `args::arg_sites`). Of
/// [`ValuesOf::NamedAs`], every call whose values were not read keeps its key (a
/// method of one of those names on a receiver of another type may be another
/// function's the link asks of later); of the file's own helpers, the calls of no
/// helper of that name.
fn values_at_calls_of(
    idx: &mut FileIndex,
    cx: &FileCx<'_>,
    nodes: &[Node<'_>],
    test_file: bool,
    keys: Vec<SiteKey>,
    of: ValuesOf<'_>,
) {
    let (helpers, same) = (of.helpers(), of.same());
    // Only the functions some call of the file may call.
    let called: Vec<RefKind> = helpers
        .iter()
        .filter(|r| keys.iter().any(|k| may_call(k, r, same)))
        .cloned()
        .collect();
    let of = match of {
        ValuesOf::NamedAs(_) => ValuesOf::NamedAs(&called),
        _ => ValuesOf::CallsOf(&called),
    };
    let mut unread = Vec::new();
    idx.arg_sites = arg_sites(cx, nodes, test_file, of, Some(&mut unread));
    unread.sort_unstable();
    unread.dedup();
    if !matches!(of, ValuesOf::NamedAs(_)) {
        unread.retain(|k| !called.iter().any(|r| may_call(k, r, same)));
    }
    idx.value_keys = unread;
}

/// Indexes a large candidate file in `pieces` (see `pieces.rs`), in parallel, and
/// joins the pieces' indexes into `idx` in file order. `None` (and `idx` untouched)
/// when a piece does not give what the whole parse would: the caller parses the file
/// whole.
fn index_pieces(
    idx: &mut FileIndex,
    text: &str,
    parse_text: &[u8],
    pieces: &[(usize, usize)],
    helpers: HelperChains,
    args: ArgValues<'_>,
) -> Option<Vec<String>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;
    let within = ranges(parse_text, pieces);
    let (path, module) = (&idx.path, &idx.module);
    // A piece sees only its own references and chains: whether the file answers its
    // own is decided below, over every piece, as the whole file's fold decides it.
    let own_args = matches!(args, ArgValues::KeysUnlessOwn);
    // A large file read again is read in pieces for every call's values.
    let piece_args = match args {
        ArgValues::KeysUnlessOwn => ArgValues::KeysOnly,
        ArgValues::CallsOf(_) => ArgValues::Resolved,
        a => a,
    };
    // Every piece's lookups read the whole file's `let`s: found once.
    let lets = crate::scanner::syntax::scope::let_offsets(text);
    let index_piece = |i: usize, range: &tree_sitter::Range| -> Option<Part> {
        let tree = parse_within(parse_text, std::slice::from_ref(range))?;
        let root = tree.root_node();
        // Error recovery could have read across a cut: the whole parse decides.
        if root.has_error() {
            return None;
        }
        let (parents, nodes, truncated) = crate::scanner::syntax::nodes::parent_map(root);
        let src = Src {
            text,
            parents: &parents,
            lets: &lets,
        };
        let first_ref = i.checked_mul(REF_STRIDE)?;
        let cx = FileCx::for_piece(
            src,
            module.clone(),
            first_ref,
            range.start_byte..range.end_byte,
        );
        let mut part = FileIndex::empty(path, module.clone());
        part.candidate = true;
        let names = index_tree(&mut part, &cx, &nodes, helpers, piece_args);
        let whole = cx.needed_whole_file() || part.refs.len() >= REF_STRIDE;
        drop(cx);
        (!whole).then_some((part, names, truncated))
    };
    // The pieces are taken in file order, one at a time by whichever thread is free
    // (as a job each: rayon's own split left runs of hundreds of pieces to one thread,
    // and the 40,000-call file's last run was parsed on one core while the other
    // waited), and each is joined as soon as the ones before it are, by the thread
    // that finished it, while the other goes on parsing: joined after the last piece,
    // the 40,000-call file's 60 MB of operations were moved on one core while the
    // other waited.
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let done: Mutex<Vec<Option<Part>>> = Mutex::new((0..within.len()).map(|_| None).collect());
    let joined = Mutex::new(Joining::new(
        FileIndex::empty(path, module.clone()),
        text.len(),
    ));
    let join_ready = || {
        // Whoever holds the join takes what is ready when it lets go (see below).
        let Ok(mut j) = joined.try_lock() else {
            return;
        };
        loop {
            let ready = done.lock().ok().and_then(|mut d| d.get_mut(j.next)?.take());
            let Some(part) = ready else {
                break;
            };
            let end = within.get(j.next).map_or(text.len(), |r| r.end_byte);
            j.join(part, end);
        }
    };
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads().max(1) {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(range) = within.get(i) else {
                    break;
                };
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                match index_piece(i, range) {
                    Some(part) => {
                        if let Some(slot) = done.lock().ok().as_mut().and_then(|d| d.get_mut(i)) {
                            *slot = Some(part);
                        }
                        join_ready();
                    }
                    None => failed.store(true, Ordering::Relaxed),
                }
            });
        }
    });
    if failed.load(Ordering::Relaxed) {
        return None;
    }
    // What a thread left when the other held the join.
    join_ready();
    let mut j = joined.into_inner().ok()?;
    if j.next != within.len() {
        return None;
    }
    let names = j.finish();
    let ops = j.idx.ops.iter();
    if matches!(helpers, HelperChains::NamesOnly)
        && returns_chained(ops, &names.iter().collect::<Vec<_>>())
    {
        return index_pieces(
            idx,
            text,
            parse_text,
            pieces,
            HelperChains::Fold,
            ArgValues::Resolved,
        );
    }
    let keys: Vec<&SiteKey> = j.idx.site_keys.iter().collect();
    if own_args && answers_own(j.idx.refs.iter(), &keys) {
        return index_pieces(idx, text, parse_text, pieces, helpers, ArgValues::Resolved);
    }
    take_joined(idx, j.idx);
    Some(names)
}

/// A piece's index, the helper names it left unfolded, and whether it skipped code
/// nested too deeply.
type Part = (FileIndex, Vec<String>, bool);

/// Pieces joined one at a time, in file order ([`index_pieces`]).
struct Joining {
    /// The pieces' lists, joined.
    idx: FileIndex,
    /// The next piece to join.
    next: usize,
    /// The file's length: the lists are sized from what the pieces so far hold per
    /// byte (grown by doubling, the operations, 1.5 KB each, were copied about twice
    /// over, and fresh pages touched for each copy).
    file_len: usize,
    helper_names: Vec<String>,
    named: std::collections::HashSet<String>,
    truncated: bool,
}

impl Joining {
    fn new(idx: FileIndex, file_len: usize) -> Self {
        Self {
            idx,
            next: 0,
            file_len,
            helper_names: Vec::new(),
            named: std::collections::HashSet::new(),
            truncated: false,
        }
    }

    /// Joins the next piece, which ends at byte `end`.
    fn join(&mut self, (part, names, cut): Part, end: usize) {
        let (to, total) = (end.max(1), self.file_len.max(end).max(1));
        // Room for the rest of the file at the rate so far (a tenth more), when a list
        // is full.
        fn room<T>(list: &mut Vec<T>, more: usize, to: usize, total: usize) {
            if list.len() + more > list.capacity() {
                let rate = (list.len() + more) as f64 / to as f64;
                let want = (rate * total as f64 * 1.1) as usize;
                list.reserve_exact(want.saturating_sub(list.len()).max(more));
            }
        }
        let idx = &mut self.idx;
        room(&mut idx.ops, part.ops.len(), to, total);
        room(&mut idx.refs, part.refs.len(), to, total);
        room(&mut idx.site_keys, part.site_keys.len(), to, total);
        room(&mut idx.arg_sites, part.arg_sites.len(), to, total);
        idx.ref_pieces.push(idx.refs.len());
        join_lists(idx, part);
        // Each name once, as a whole file's fold gives them.
        let named = &mut self.named;
        self.helper_names
            .extend(names.into_iter().filter(|n| named.insert(n.clone())));
        self.truncated |= cut;
        self.next += 1;
    }

    /// The helper names, each once, once every piece is joined.
    fn finish(&mut self) -> Vec<String> {
        finish_join(&mut self.idx, self.truncated);
        std::mem::take(&mut self.helper_names)
    }
}

/// Moves the lists `join_lists` fills from `joined` into `idx`.
fn take_joined(idx: &mut FileIndex, joined: FileIndex) {
    /// `from` after `to`'s own (moved whole when `to` is empty, as it is).
    fn put<T>(to: &mut Vec<T>, from: Vec<T>) {
        if to.is_empty() {
            *to = from;
        } else {
            to.extend(from);
        }
    }
    // Every field named: one added to `FileIndex` must say how pieces join it.
    let FileIndex {
        path: _,
        module: _,
        candidate: _,
        generated: _,
        fns: _,
        types: _,
        chained: _,
        text: _,
        deferred: _,
        ref_pieces,
        problems,
        ops,
        templates,
        helper_calls,
        tables,
        refs,
        consts,
        field_inits,
        field_types,
        uses,
        structs,
        returns,
        ctors,
        once_sets,
        arg_sites,
        site_keys,
        value_keys,
    } = joined;
    put(&mut idx.ref_pieces, ref_pieces);
    put(&mut idx.problems, problems);
    put(&mut idx.ops, ops);
    put(&mut idx.templates, templates);
    put(&mut idx.helper_calls, helper_calls);
    put(&mut idx.tables, tables);
    put(&mut idx.refs, refs);
    put(&mut idx.consts, consts);
    put(&mut idx.field_inits, field_inits);
    put(&mut idx.field_types, field_types);
    put(&mut idx.uses, uses);
    put(&mut idx.structs, structs);
    put(&mut idx.returns, returns);
    put(&mut idx.ctors, ctors);
    put(&mut idx.once_sets, once_sets);
    put(&mut idx.arg_sites, arg_sites);
    put(&mut idx.site_keys, site_keys);
    put(&mut idx.value_keys, value_keys);
}

/// Whether one of `ops` returns a builder from a function whose result a chain of the
/// same file continues (`names`, the helpers [`HelperChains::NamesOnly`] left
/// unfolded): the link would index the file again in full.
fn returns_chained<'a>(
    mut ops: impl Iterator<Item = &'a (Operation, Escape)>,
    names: &[&String],
) -> bool {
    ops.any(|(_, e)| matches!(e, Escape::Returned { function } if names.contains(&function)))
}

/// Whether a call (`keys`) may answer one of the parameter references `refs` of the
/// same file: the link would index the file again with its calls' arguments.
fn answers_own<'a>(mut refs: impl Iterator<Item = &'a PendingRef>, keys: &[&SiteKey]) -> bool {
    refs.any(|r| {
        matches!(r.kind, RefKind::Param { .. })
            && keys
                .iter()
                .any(|k| crate::scanner::index::args::may_call(k, &r.kind, &|a, b| a == b))
    })
}

/// Joins the indexes of a file's pieces (each with the helper names it left unfolded
/// and whether it skipped code nested too deeply), in file order, into `idx`; gives
/// the helper names, each once.
pub(super) fn join_pieces(idx: &mut FileIndex, parts: Vec<Part>) -> Vec<String> {
    let mut helper_names = Vec::new();
    let mut named = std::collections::HashSet::new();
    let mut truncated = false;
    // The large lists sized once: grown by doubling, the operations (1.5 KB each) were
    // copied about twice over, then once more by `shrink`, on one core.
    let total = |len: fn(&FileIndex) -> usize| parts.iter().map(|(p, _, _)| len(p)).sum();
    idx.ops.reserve_exact(total(|p| p.ops.len()));
    idx.templates.reserve_exact(total(|p| p.templates.len()));
    idx.helper_calls
        .reserve_exact(total(|p| p.helper_calls.len()));
    idx.refs.reserve_exact(total(|p| p.refs.len()));
    idx.arg_sites.reserve_exact(total(|p| p.arg_sites.len()));
    idx.site_keys.reserve_exact(total(|p| p.site_keys.len()));
    idx.ref_pieces.reserve_exact(parts.len());
    // Moved in one piece at a time: each piece's lists are freed as they are joined.
    for (part, names, cut) in parts {
        idx.ref_pieces.push(idx.refs.len());
        join_lists(idx, part);
        // Each name once, as a whole file's fold gives them.
        helper_names.extend(names.into_iter().filter(|n| named.insert(n.clone())));
        truncated |= cut;
    }
    finish_join(idx, truncated);
    helper_names
}

/// Appends a piece's lists to `idx`'s.
fn join_lists(idx: &mut FileIndex, part: FileIndex) {
    // Every field named: one added to `FileIndex` must say how pieces join it.
    let FileIndex {
        // The file's own, not the piece's (`index_tree` leaves them).
        path: _,
        module: _,
        candidate: _,
        generated: _,
        ref_pieces: _,
        fns: _,
        types: _,
        problems: _,
        chained: _,
        text: _,
        deferred: _,
        ops,
        templates,
        helper_calls,
        tables,
        refs,
        consts,
        field_inits,
        field_types,
        uses,
        structs,
        returns,
        ctors,
        once_sets,
        arg_sites,
        site_keys,
        value_keys,
    } = part;
    idx.ops.extend(ops);
    idx.templates.extend(templates);
    idx.helper_calls.extend(helper_calls);
    idx.tables.extend(tables);
    idx.refs.extend(refs);
    idx.consts.extend(consts);
    idx.field_inits.extend(field_inits);
    idx.field_types.extend(field_types);
    idx.uses.extend(uses);
    idx.structs.extend(structs);
    idx.returns.extend(returns);
    idx.ctors.extend(ctors);
    idx.once_sets.extend(once_sets);
    idx.arg_sites.extend(arg_sites);
    idx.site_keys.extend(site_keys);
    idx.value_keys.extend(value_keys);
}

/// What a join does once every piece is in: a whole file's keys are sorted and
/// without repeats (`args::site_keys`), and code nested too deeply is one problem.
fn finish_join(idx: &mut FileIndex, truncated: bool) {
    idx.site_keys.sort_unstable();
    idx.site_keys.dedup();
    if truncated {
        idx.problems.push(truncated_problem(&idx.path));
    }
}

/// Whether a file the pre-filter rules out is parsed for its items now, or only
/// when the link looks up a name it holds (`deferred.rs`; its text can be read again).
#[derive(Clone, Copy)]
enum Items {
    Parse,
    Defer,
}

/// Whether an index resolves its calls' arguments (`arg_sites`) or keeps only their
/// keys (`site_keys`).
#[derive(Clone, Copy)]
pub(super) enum ArgValues<'r> {
    Resolved,
    KeysOnly,
    /// Keys only, unless one of the file's calls may answer one of its own parameter
    /// references (`put_in(c, "Audit")` beside `fn put_in(c, table: &str)`): then
    /// resolved, as [`index_lean_with_args`] would index the file again once the link
    /// followed that parameter (22 of the 1x real tree's 270 files parsed for calls
    /// were parsed twice for it).
    KeysUnlessOwn,
    /// Resolved as names, and as values at the calls that may call one of these
    /// functions (those the link asked the values of) or the file's own helpers
    /// (`args::ValuesOf::NamedAs`): a file read again for the link's questions.
    CallsOf(&'r [RefKind]),
}

/// The nodes each pass after the fold reads, by kind, in the file's order: one look at
/// each node's kind (by id, [`kind`]) instead of one per pass over every node.
struct ByKind<'t> {
    /// `call_expression`: arguments, `OnceLock` setters.
    calls: Vec<Node<'t>>,
    /// `function_item`: returned values, constructors.
    fns: Vec<Node<'t>>,
    /// `struct_item`: serialisable structs.
    structs: Vec<Node<'t>>,
    /// Consts, statics, `use`s, struct literals and structs ([`index_items`]).
    items: Vec<Node<'t>>,
    /// Calls and struct literals: `create_table` declarations.
    declarations: Vec<Node<'t>>,
}

impl<'t> ByKind<'t> {
    fn of(nodes: &[Node<'t>]) -> Self {
        let mut by = ByKind {
            calls: Vec::new(),
            fns: Vec::new(),
            structs: Vec::new(),
            items: Vec::new(),
            declarations: Vec::new(),
        };
        for &n in nodes {
            match kind(n) {
                "call_expression" => {
                    by.calls.push(n);
                    by.declarations.push(n);
                }
                "function_item" => by.fns.push(n),
                "struct_expression" => {
                    by.items.push(n);
                    by.declarations.push(n);
                }
                "struct_item" => {
                    by.structs.push(n);
                    by.items.push(n);
                }
                "const_item" | "static_item" | "use_declaration" => by.items.push(n),
                _ => {}
            }
        }
        by
    }
}

/// Gives back what the lists grew beyond their length: every index stays alive until
/// the link, and a doubling `Vec` of operations (1.5 KB each) wastes a quarter on average.
pub(super) fn shrink(idx: &mut FileIndex) {
    idx.ops.shrink_to_fit();
    idx.templates.shrink_to_fit();
    idx.helper_calls.shrink_to_fit();
    idx.tables.shrink_to_fit();
    idx.refs.shrink_to_fit();
    idx.consts.shrink_to_fit();
    idx.field_inits.shrink_to_fit();
    idx.field_types.shrink_to_fit();
    idx.uses.shrink_to_fit();
    idx.structs.shrink_to_fit();
    idx.returns.shrink_to_fit();
    idx.once_sets.shrink_to_fit();
    idx.arg_sites.shrink_to_fit();
    idx.site_keys.shrink_to_fit();
    idx.value_keys.shrink_to_fit();
    idx.fns.shrink_to_fit();
    idx.problems.shrink_to_fit();
}

/// One problem per syntax error (the first few), so users know what was skipped.
fn report_syntax_errors(idx: &mut FileIndex, root: Node<'_>) {
    let errors = descendants(root, &mut |n| n.is_error() || n.is_missing());
    for e in errors.iter().take(5) {
        idx.problems.push(ScanProblem {
            file: idx.path.clone(),
            span: Some(span(*e)),
            message: if e.is_missing() {
                format!(
                    "syntax error: missing `{}`; calls around it may be missed",
                    e.kind()
                )
            } else {
                "syntax error; calls inside it may be missed".to_string()
            },
        });
    }
    if errors.len() > 5 {
        idx.problems.push(ScanProblem {
            file: idx.path.clone(),
            span: None,
            message: format!("{} more syntax errors", errors.len() - 5),
        });
    }
}

/// Consts, statics, constructor field values, struct field types and `use` aliases.
fn index_items(cx: &FileCx<'_>, nodes: &[Node<'_>], idx: &mut FileIndex) {
    let test_file = matches!(
        cold_by_path(&idx.path),
        Some(crate::scanner::ir::ColdReason::Test)
    );
    let src = cx.src;
    let items = nodes.iter().copied().filter(|n| {
        matches!(
            n.kind(),
            "const_item" | "static_item" | "struct_expression" | "use_declaration" | "struct_item"
        )
    });
    for n in items {
        match n.kind() {
            "const_item" | "static_item" => {
                let (Some(name), Some(value)) = (field(n, "name"), field(n, "value")) else {
                    continue;
                };
                if ancestors(src, n).any(|a| a.kind() == "function_item") {
                    continue;
                }
                let mut path: Vec<String> = idx.module.iter().map(|s| s.to_string()).collect();
                path.extend(inline_mods(src, n));
                if let Some(t) = impl_type(src, n) {
                    path.push(t);
                }
                path.push(src.of(name).to_string());
                let path = intern_path(&path);
                // `OnceLock::new()`: the value is what the crate `set`s it to.
                let value = if is_once_new(src, value) {
                    cx.pending(src.of(name), RefKind::Once { path: path.clone() })
                } else {
                    cx.string(value)
                };
                idx.consts.push(ConstDef {
                    path,
                    value,
                    span: span(name),
                });
            }
            "struct_expression" => {
                let Some(name) = field(n, "name").map(|x| src.of(x)) else {
                    continue;
                };
                let ty = if name == "Self" {
                    impl_type(src, n)
                } else {
                    Some(type_name(name))
                };
                let Some(ty) = ty else { continue };
                let Some(body) = field(n, "body") else {
                    continue;
                };
                let test = test_file || cx.is_test_code(n);
                for f in named_children(body) {
                    let (fname, value) = match f.kind() {
                        "field_initializer" => (field(f, "field"), field(f, "value")),
                        "shorthand_field_initializer" => {
                            let id = named_children(f)
                                .into_iter()
                                .find(|c| c.kind() == "identifier");
                            (id, id)
                        }
                        _ => continue,
                    };
                    let (Some(fname), Some(value)) = (fname, value) else {
                        continue;
                    };
                    if !worth_resolving(src.of(value)) {
                        continue;
                    }
                    let r = cx.name(value);
                    if matches!(&r, Resolved::Unknown { reason } if !reason.starts_with(crate::scanner::index::resolve::PENDING))
                    {
                        // Still recorded: two constructors disagreeing must be visible.
                    }
                    idx.field_inits.push(FieldInit {
                        ty: intern(&ty),
                        field: intern(src.of(fname)),
                        value: r,
                        test,
                    });
                }
            }
            "struct_item" => {
                let Some(name) = field(n, "name").map(|x| src.of(x).to_string()) else {
                    continue;
                };
                let Some(body) = field(n, "body") else {
                    continue;
                };
                for f in named_children(body) {
                    if f.kind() != "field_declaration" {
                        continue;
                    }
                    if let (Some(fname), Some(t)) = (field(f, "name"), field(f, "type")) {
                        idx.field_types.push(FieldType {
                            ty: intern(&name),
                            field: intern(src.of(fname)),
                            field_ty: intern(&crate::scanner::index::resolve::field_type_name(
                                src.of(t),
                            )),
                        });
                    }
                }
            }
            "use_declaration" => {
                if let Some(arg) = field(n, "argument") {
                    collect_uses(src, arg, &[], &mut idx.uses);
                }
            }
            _ => {}
        }
    }
    let _ = attributes_of;
    let _ = is_test_attr;
}

/// `OnceLock::new()`, `OnceCell::new()` (std, once_cell, or tokio's `const_new()`),
/// `OnceLock::default()`.
fn is_once_new(src: Src<'_>, value: Node<'_>) -> bool {
    let Some(path) =
        crate::scanner::syntax::nodes::call_path(src, crate::scanner::syntax::nodes::peel(value))
    else {
        return false;
    };
    // `OnceLock::new()`, `OnceCell::<String>::new()`, `once_cell::sync::OnceCell::new()`.
    let segs: Vec<&str> = path
        .split("::")
        .filter(|s| !s.trim_start().starts_with('<'))
        .collect();
    let ty = segs.len().checked_sub(2).map_or("", |i| segs[i]);
    matches!(ty.trim(), "OnceLock" | "OnceCell")
        && matches!(
            crate::scanner::syntax::nodes::last_segment(path),
            "new" | "default" | "const_new"
        )
}

/// Field values worth resolving: strings, env vars, consts, format templates, a
/// function of no arguments (`table_name()`, whose return the link reads).
fn worth_resolving(text: &str) -> bool {
    // `table_name.to_string()`, `config.table.clone()`, `(table_name()).into()`: a
    // name, a field path or a call, passed through.
    let mut core = text.trim();
    loop {
        let suffix = [
            ".to_string()",
            ".clone()",
            ".into()",
            ".to_owned()",
            ".as_str()",
            ".unwrap()",
            "?",
        ]
        .iter()
        .find_map(|s| core.strip_suffix(s));
        let inner = suffix.or_else(|| core.strip_prefix('(').and_then(|c| c.strip_suffix(')')));
        match inner {
            Some(rest) => core = rest.trim(),
            None => break,
        }
    }
    let path = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '.')
    };
    text.contains('"')
        || core.strip_suffix("()").is_some_and(path)
        || text.contains("env")
        // `table_name.unwrap_or(TABLE_NAME)`: a default name.
        || core.contains(".unwrap_or(")
        || text.contains("format")
        || core.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        || core
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// The names of inline `mod x { .. }` blocks around an item, outermost first.
fn inline_mods(src: Src<'_>, n: Node<'_>) -> Vec<String> {
    let mut v: Vec<String> = ancestors(src, n)
        .filter(|a| a.kind() == "mod_item")
        .filter_map(|m| field(m, "name").map(|x| src.of(x).to_string()))
        .collect();
    v.reverse();
    v
}

/// `use a::{b::C, D as E}` → aliases.
fn collect_uses(src: Src<'_>, n: Node<'_>, prefix: &[String], out: &mut Vec<UseAlias>) {
    let split = |t: &str| -> Vec<String> {
        t.split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    match n.kind() {
        "identifier" | "scoped_identifier" => {
            let mut path = prefix.to_vec();
            path.extend(split(src.of(n)));
            if let Some(alias) = path.last() {
                out.push(UseAlias {
                    alias: intern(alias),
                    path: intern_path(&path),
                });
            }
        }
        "use_as_clause" => {
            let (Some(p), Some(a)) = (field(n, "path"), field(n, "alias")) else {
                return;
            };
            let mut path = prefix.to_vec();
            path.extend(split(src.of(p)));
            out.push(UseAlias {
                alias: intern(src.of(a)),
                path: intern_path(&path),
            });
        }
        "scoped_use_list" => {
            let mut pre = prefix.to_vec();
            if let Some(p) = field(n, "path") {
                pre.extend(split(src.of(p)));
            }
            if let Some(list) = field(n, "list") {
                for c in named_children(list) {
                    collect_uses(src, c, &pre, out);
                }
            }
        }
        "use_list" => {
            for c in named_children(n) {
                collect_uses(src, c, prefix, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The index as text, each pending reference written as what it refers to: the
    /// pieces number theirs apart (see `pieces::REF_STRIDE`), which nothing but the
    /// lookup reads.
    /// [`canonical`] of `idx` with its calls' arguments as names only: a file read
    /// for its own helpers' arguments reads the other calls' as values only should
    /// the link ask (`FileIndex::value_keys`), a file read for the link's questions
    /// reads every call's.
    fn canonical_names(idx: &FileIndex) -> String {
        let mut bare = idx.clone();
        for a in &mut bare.arg_sites {
            a.values = Box::default();
            a.maps = Box::default();
        }
        bare.arg_sites
            .retain(|a| a.args.iter().any(Option::is_some));
        bare.value_keys.clear();
        canonical(&bare)
    }

    pub(crate) fn canonical(idx: &FileIndex) -> String {
        const MARK: &str = "\\0pending:";
        let mut bare = idx.clone();
        bare.refs.clear();
        bare.ref_pieces.clear();
        let text = format!("{bare:?}");
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find(MARK) {
            out.push_str(&rest[..i]);
            rest = &rest[i + MARK.len()..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = rest[..digits].parse().expect("a number");
            out.push_str(&format!("{:?}", idx.pending_ref(n).expect("a reference")));
            rest = &rest[digits..];
        }
        out.push_str(rest);
        out
    }

    /// rusoto requests are literals of the input structs the scanner reads; a literal
    /// of any other `*Input` (a serialiser's, a form's) is no request.
    #[test]
    fn pre_filter_knows_rusoto_inputs_by_name() {
        for code in [
            "let q = QueryInput { table_name: t, ..Default::default() };",
            "c.get_item(rusoto_dynamodb::GetItemInput{ key, ..Default::default() })",
            "c.transact_write_items(TransactWriteItemsInput { transact_items })",
            "c.execute_statement(ExecuteStatementInput\n    { statement })",
            "let t = CreateTableInput { key_schema: vec![], ..Default::default() };",
        ] {
            assert!(may_call_dynamodb(code.as_bytes()), "{code}");
        }
        for code in [
            "let i = Input { bytes, pos: 0 };",
            "Ok(ParseInput { text })",
            "let s = search::Input { haystack };",
        ] {
            assert!(!may_call_dynamodb(code.as_bytes()), "{code}");
        }
    }

    /// Whether the pre-filter, bytes then code, lets `code` through.
    fn second_look(code: &str) -> bool {
        let b = code.as_bytes();
        may_call_dynamodb(b) && markers_in_code(b, &tokenize(b))
    }

    /// A marker counts only in code: in a comment or a literal it builds nothing.
    #[test]
    fn pre_filter_reads_markers_in_code_only() {
        for code in [
            "/// let q = QueryInput { .. };\nfn f() {}",
            "// c.query().send()\nfn f() {}",
            "/* c.scan() /* nested */ c.get_item() */ fn f() {}",
            "let id = shape_id!(\"com.amazonaws.dynamodb\", \"GetItemInput\");",
            "let u = r#\"https://x/?a=1&c.query()\"#;",
            "let e: TransactWriteItemsError = e.into();",
            "fn f(e: SdkError<TransactGetItemsError>) {}",
            "let w = BatchWriteRequestBuilder::default();",
            "fn query(&self, input: QueryInput) -> R { self.inner.query(input) }",
            "use rusoto_dynamodb::{GetItemInput, PutItemInput};",
            "fn f(w: Vec<WriteRequest>) -> Vec<TransactWriteItem> {}",
            "let x: Option<ScanInput> = None;",
            "pub const fn index_name(&self) -> Option<&'static str> { None }",
            "Self::Secondary(def) => Some(def.index_name()),",
            "let t = table_name(&cfg);",
            "fn key_condition_expression_between() {}",
            "let filter_expression = None;",
        ] {
            assert!(!second_look(code), "{code}");
        }
        for code in [
            "/// docs\nfn f() { c.query().send() }",
            "let s = \"x\"; c.scan()",
            "let t = TransactWriteItem::builder().put(p).build();",
            "vec![WriteRequest { put_request: Some(p), delete_request: None }]",
            "let c = ConditionCheck::builder();",
            "let i = PutItemInput { item, ..PutItemInput::default() };",
            "..GetItemInput::default()",
            "CreateTableInput::builder().table_name(t)",
            "ExecuteStatementInput /* docs */ { statement }",
            "fn f(q: QueryFluentBuilder) {}",
            "let i = GetItemInput { key, ..Default::default() };",
            "x.set_table_name(Some(t))",
            "base(&c).index_name(\"by_user\").send()",
            "q\n    .table_name(T)",
            "b.set_expression_attribute_values(Some(v))",
            "helper(&c).into_paginator().send()",
            "QueryInput::builder().build()?.send_with(&c)",
            "'a'; c.scan()",
        ] {
            assert!(second_look(code), "{code}");
        }
    }

    /// The pre-filter searches on from one past a ruled-out occurrence's start, which
    /// misses nothing only while no marker is a prefix of another.
    #[test]
    fn no_marker_is_a_prefix_of_another() {
        for a in MARKERS {
            for b in MARKERS {
                assert!(a == b || !b.starts_with(a), "{a} / {b}");
            }
        }
    }

    /// A client method's marker counts only as a whole name: a method that merely ends
    /// like one (`http_query()`) starts no request, and a file holding only such names
    /// is not parsed for calls.
    #[test]
    fn pre_filter_reads_client_methods_as_whole_names() {
        for code in [
            "let r = client.query().table_name(t).send().await?;",
            "query()",
            "c\n    .scan()\n    .send()",
            "c.batch_get_item().request_items(t, k)",
            "x.http_query(); c.get_item().key(\"pk\", v)",
            "(get_item())",
            "c.r#query()",
            "let t = c.create_table();",
        ] {
            assert!(second_look(code), "{code}");
        }
        for code in [
            "if let Some(q) = schema.http_query() { q.value() }",
            "let pq = uri.path_and_query().cloned();",
            "let Some(o) = current.begin_scan() else { return };",
            "fn test_get_vanilla_query() {}",
            "let c = ListElementCollector::for_query();",
            "x.my_get_item(); y.can_create_table()",
        ] {
            assert!(!second_look(code), "{code}");
        }
    }

    /// (code, the calls chained into a builder setter or handed on).
    const CASES: &[(&str, &[&str])] = &[
        ("fn f() { base(&c).send(); }", &["base"]),
        // `b(c)` is handed to `helper`: it could return a builder too.
        (
            "fn f() { let x = helper(a, b(c))?.limit(5); }",
            &["b", "helper"],
        ),
        (
            "fn f() { pager::all(self.repo.base(id)).await; let q = base(1); x(q + 1)?; }",
            &["base"],
        ),
        (
            "fn f() { self.everything().await?.send().await; }",
            &["everything"],
        ),
        (
            "fn f() { q::base::<T>(c).send(); tx.clone().send(m); }",
            &["clone"],
        ),
        (
            "fn f() { http().post(u).send(); (a).send(); if (x) {} }",
            &["post"],
        ),
    ];

    #[test]
    fn chained_calls_are_the_calls_a_setter_follows() {
        for (code, want) in CASES {
            let got = chained_calls(code.as_bytes(), &tokenize(code.as_bytes()));
            assert_eq!(got, *want, "{code}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

        /// The pre-filter says a file may call DynamoDB exactly when one of the
        /// markers is in its bytes: pieces of markers, whole ones and other bytes
        /// side by side.
        #[test]
        fn the_prefilter_finds_exactly_the_markers(
            parts in proptest::collection::vec(
                (0..MARKERS.len(), 0..3usize, proptest::collection::vec(proptest::num::u8::ANY, 0..3)),
                0..12,
            )
        ) {
            let mut text = Vec::new();
            for (m, cut, noise) in parts {
                let marker = MARKERS[m].as_bytes();
                // The whole marker, or its first or last part alone.
                let part = match cut {
                    0 => marker,
                    1 => &marker[..marker.len() / 2],
                    _ => &marker[marker.len() / 2..],
                };
                text.extend_from_slice(part);
                text.extend_from_slice(&noise);
            }
            let holds = MARKERS
                .iter()
                .any(|m| text.windows(m.len()).any(|w| w == m.as_bytes()));
            proptest::prop_assert_eq!(may_call_dynamodb(&text), holds);
        }
    }

    #[test]
    fn generated_sdk_code_is_known_by_the_header_above_its_code() {
        let header =
            "// Code generated by software.amazon.smithy.rust.codegen.smithy-rs. DO NOT EDIT.";
        let cases = [
            (
                format!("{header}\nimpl X {{ fn f() {{ c.scan().send(); }} }}"),
                true,
            ),
            (
                format!("#![allow(x)]\n//! Docs\n\n  {header}\nmod a;"),
                true,
            ),
            (format!("fn f() {{}}\n{header}\n"), false),
            (format!("#![cfg_attr(\n  docsrs, x)]\n{header}\n"), false),
            (
                "// Code generated by prost. DO NOT EDIT.\nfn f() {}".to_string(),
                false,
            ),
            (String::new(), false),
        ];
        for (text, want) in cases {
            assert_eq!(generated_sdk_code(text.as_bytes()), want, "{text}");
        }
        // Nothing of it is kept: no request, no chain, no function for the call graph
        // to match an application's calls against by name.
        let text =
            format!("{header}\nfn send_with(c: &Client) {{ base(c).send(); c.scan().send(); }}");
        let file = SourceFile::new("builders.rs", text);
        let idx = index_file(&file, &ScanSettings::default());
        assert!(idx.generated && !idx.candidate && idx.ops.is_empty());
        assert!(idx.chained.is_empty() && idx.fns.is_empty() && idx.text.is_none());
    }

    /// One of the items of a file made to be cut: constants, `use`s, structs,
    /// constructors, requests with pending references, returned and received
    /// builders, a helper's chain, `OnceLock` sets, calls' arguments, inline modules
    /// and test code.
    fn items(i: usize) -> String {
        format!(
            r#"
use crate::db::names::TABLE_{i} as T{i};
const PREFIX_{i}: &str = "orders-{i}";
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
    let _ = remote_base{i}(c).limit(5).send().await;
}}

async fn with_builder(q: QueryFluentBuilder) {{ q.limit(1).send().await; }}

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

    /// The file indexed in pieces of about `piece` bytes, and whole.
    fn both(text: &str, helpers: HelperChains, piece: usize) -> [(FileIndex, Vec<String>); 2] {
        in_pieces_and_whole(text, helpers, ArgValues::Resolved, Items::Parse, piece)
    }

    /// The file indexed with `helpers`, `args` and `items`, in pieces of about `piece`
    /// bytes and whole.
    fn in_pieces_and_whole(
        text: &str,
        helpers: HelperChains,
        args: ArgValues<'_>,
        items: Items,
        piece: usize,
    ) -> [(FileIndex, Vec<String>); 2] {
        let path: FilePath = Arc::from(std::path::Path::new("src/store.rs"));
        let source: Arc<str> = Arc::from(text);
        let settings = ScanSettings::default();
        let sizes = Sizes { min_file: 0, piece };
        [Some(sizes), None].map(|pieces| {
            index_reusing(
                &path, &source, &settings, false, helpers, args, items, pieces,
            )
        })
    }

    #[test]
    fn a_file_indexed_in_pieces_is_indexed_as_whole() {
        let text: String = (0..12).map(items).collect();
        for helpers in [HelperChains::Fold, HelperChains::NamesOnly] {
            let [(pieces, piece_names), (whole, whole_names)] = both(&text, helpers, 3000);
            assert!(pieces.ref_pieces.len() > 4, "{}", pieces.ref_pieces.len());
            assert!(whole.ref_pieces.is_empty());
            assert!(whole.ops.len() > 50 && !whole.refs.is_empty());
            assert!(!whole.templates.is_empty() && !whole.consts.is_empty());
            assert!(!whole.once_sets.is_empty() && !whole.arg_sites.is_empty());
            assert_eq!(piece_names, whole_names);
            assert_eq!(canonical(&pieces), canonical(&whole));
        }
    }

    /// The file indexed lean, in pieces of about `piece` bytes and whole.
    fn lean_both(text: &str, piece: usize) -> [(FileIndex, Vec<String>); 2] {
        in_pieces_and_whole(
            text,
            HelperChains::NamesOnly,
            ArgValues::KeysUnlessOwn,
            Items::Defer,
            piece,
        )
    }

    /// A lean index folds in full a file that continues a builder one of its own
    /// functions returns, with its calls' arguments as names: the index the link
    /// would make when it read the file again (`link::parse_if_chained`), but for
    /// the values of calls of no helper of its own, whose keys it keeps instead
    /// (`value_keys`). Cut in pieces, the file decides it over every piece, as whole.
    /// A file whose chains continue other files' helpers keeps their names; one of
    /// whose calls answers its own parameter is read with its arguments, in pieces
    /// too.
    #[test]
    fn a_lean_index_folds_the_chains_on_its_own_builders() {
        let settings = ScanSettings::default();
        let path: FilePath = Arc::from(std::path::Path::new("src/store.rs"));
        let own: Arc<str> = Arc::from(
            "fn base(c: &Client) -> QueryFluentBuilder { c.query().table_name(\"Orders\") }\n\
             async fn go(c: &Client) { base(c).limit(5).send().await; }\n",
        );
        let lean = index_text_lean(&path, &own, &settings);
        let again = index_source(&path, &own, &settings, true);
        assert!(lean.chained.is_empty() && !lean.helper_calls.is_empty());
        assert_eq!(canonical_names(&lean), canonical_names(&again));
        // `base` has no value parameter: no call's values are read, each call's key
        // is kept for the link to ask.
        assert!(lean.arg_sites.iter().all(|a| a.values.is_empty()));
        assert!(lean.value_keys.iter().any(|k| &*k.callee == "base"));
        assert!(again.value_keys.is_empty());

        let items: String = (0..12).map(items).collect();
        let chained =
            format!("{items}\nasync fn go(c: &Client) {{ base3(c).limit(2).send().await; }}\n");
        let [(pieces, piece_names), (whole, whole_names)] = lean_both(&chained, 3000);
        assert!(pieces.ref_pieces.len() > 4 && whole.ref_pieces.is_empty());
        assert!(whole_names.is_empty() && piece_names.is_empty());
        assert!(!whole.helper_calls.is_empty() && !whole.arg_sites.is_empty());
        assert_eq!(canonical_names(&pieces), canonical_names(&whole));

        let [(pieces, piece_names), (whole, whole_names)] = lean_both(&items, 3000);
        assert!(pieces.ref_pieces.len() > 4 && whole.ref_pieces.is_empty());
        assert!(!whole_names.is_empty() && whole.helper_calls.is_empty());
        assert!(whole.site_keys.is_empty() && !whole.arg_sites.is_empty());
        assert_eq!(piece_names, whole_names);
        assert_eq!(canonical_names(&pieces), canonical_names(&whole));
    }

    /// A lean index's helper names are those of the chains a full fold folds, each
    /// once, in the order the file first names them (the fold skips a call whose
    /// method it has already named).
    #[test]
    fn names_only_names_the_helpers_the_fold_folds() {
        let text: String = (0..12).map(items).collect();
        let [(folded, _), _] = both(&text, HelperChains::Fold, 3000);
        let [(lean, names), _] = both(&text, HelperChains::NamesOnly, 3000);
        assert!(lean.helper_calls.is_empty());
        let mut seen = std::collections::HashSet::new();
        let expected: Vec<String> = folded
            .helper_calls
            .iter()
            .map(|h| h.helper.clone())
            .filter(|h| seen.insert(h.clone()))
            .collect();
        assert!(expected.len() > 1 && folded.helper_calls.len() > expected.len());
        assert_eq!(names, expected);
    }

    #[test]
    fn a_file_whose_pieces_would_differ_is_indexed_whole() {
        let items: String = (0..6).map(items).collect();
        // A batch's requests from a helper of the file (in another piece), a batch
        // size from a constant; a syntax error.
        let batch = format!(
            "const BATCH: usize = 25;\n{items}\nfn put_order(o: &O) -> WriteRequest {{ \
             WriteRequest::builder().put_request(PutRequest::builder().item(\"pk\", v).build()?).build() }}\n\
             async fn save(c: &Client, os: &[O]) {{ for chunk in os.chunks(BATCH) {{ \
             c.batch_write_item().request_items(\"t\", chunk.iter().map(put_order).collect()).send().await; }} }}\n"
        );
        let broken = format!("{items}\nfn broken( {{ c.query().send(); }}\n{items}");
        for text in [batch, broken] {
            let [(pieces, _), (whole, _)] = both(&text, HelperChains::Fold, 2000);
            assert!(pieces.ref_pieces.is_empty());
            assert_eq!(canonical(&pieces), canonical(&whole));
        }
    }

    /// Indexed lean, a file one of whose calls passes what its own parameter names is
    /// indexed with its calls' arguments, as the link would index it again; one whose
    /// parameter only other files' calls may answer keeps their keys.
    #[test]
    fn a_lean_index_reads_the_arguments_that_answer_its_own_parameters() {
        let settings = ScanSettings::default();
        let put_in = "async fn put_in(c: &Client, table: &str) { \
                      c.put_item().table_name(table).send().await; }\n";
        let lean = |text: String| {
            let path: FilePath = Arc::from(std::path::Path::new("src/store.rs"));
            let source: Arc<str> = Arc::from(text);
            let again = index_lean_with_args(&path, &source, &settings, None);
            (index_text_lean(&path, &source, &settings), again)
        };
        let (own, again) = lean(format!(
            "{put_in}async fn go(c: &Client) {{ put_in(c, \"Audit\").await; }}"
        ));
        assert!(own.site_keys.is_empty() && !own.arg_sites.is_empty());
        assert_eq!(canonical_names(&own), canonical_names(&again));
        // `put_in` sends no value of its callers': `go`'s call is read as names only,
        // and its key kept should the link ask its values.
        assert!(own.arg_sites.iter().all(|a| a.values.is_empty()));
        assert!(again.arg_sites.iter().any(|a| !a.values.is_empty()));
        assert!(own.value_keys.iter().any(|k| &*k.callee == "put_in"));
        let (other, _) = lean(format!(
            "{put_in}async fn go(c: &Client) {{ keep(c, \"Audit\").await; }}"
        ));
        assert!(other.arg_sites.is_empty() && !other.site_keys.is_empty());
    }

    #[test]
    fn a_skipped_file_keeps_its_text_shared_and_lean_keeps_none() {
        let settings = ScanSettings::default();
        let chains = SourceFile::new("a.rs", "fn f() { base(&c).send(); }");
        let idx = index_file(&chains, &settings);
        assert!(!idx.candidate);
        assert_eq!(idx.chained, [intern("base")].into());
        assert!(idx
            .text
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, &chains.text)));
        // Kept for its calls' arguments too (`stats(&c, &cfg.table)`): shared, no copy.
        let plain = SourceFile::new("b.rs", "fn f() { let x = y(1) + 2; }");
        let idx = index_file(&plain, &settings);
        assert!(idx.chained.is_empty());
        assert!(idx
            .text
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, &plain.text)));
        // A lean index can read the file again: it keeps no text.
        assert!(index_file_lean(&plain, &settings).text.is_none());
        let forced = index_source(&chains.path, &chains.text, &settings, true);
        assert!(forced.candidate && forced.chained.is_empty());
    }

    /// Indexed lean, a file whose markers are all outside code is deferred; once the
    /// link asks for it, it is a candidate again, every call's arguments read. One
    /// with a marker in code is a candidate at once, and an index that is not lean
    /// (the LSP's) goes by the bytes alone.
    #[test]
    fn a_file_with_markers_only_outside_code_is_deferred_when_lean() {
        let settings = ScanSettings::default();
        let docs = SourceFile::new(
            "docs.rs",
            "/// Sends `c.query()` for you.\n\
             pub async fn save(c: &Client, name: &str) { put_in(c, name).await; }\n",
        );
        let lean = index_file_lean(&docs, &settings);
        assert!(!lean.candidate && lean.deferred.is_some());
        let asked = index_lean_with_args(&docs.path, &docs.text, &settings, None);
        assert!(asked.candidate && asked.deferred.is_none());
        assert!(!asked.arg_sites.is_empty());
        assert!(index_file(&docs, &settings).candidate);
        let code = SourceFile::new(
            "code.rs",
            "/// Sends the query.\n\
             pub async fn save(c: &Client) { c.query().table_name(\"t\").send().await; }\n",
        );
        let lean = index_file_lean(&code, &settings);
        assert!(lean.candidate && lean.deferred.is_none() && lean.ops.len() == 1);
    }
}
