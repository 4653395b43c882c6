//! Small helpers over tree-sitter nodes: text, string literals, walking with a depth
//! guard. Node text is always sliced from the original source (never the shadow text
//! that was parsed), so spans and fingerprints are the user's bytes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

use crate::source::Span;

// Kinds by id from a table: `Node::kind` costs a `strlen` and a UTF-8 check per call.
use crate::scanner::syntax::parse::kind as node_kind;

/// How deep any recursive walk over the tree may go before giving up on a subtree.
pub const MAX_DEPTH: usize = 256;

/// Parent links of a tree, built in one walk: tree-sitter's own `Node::parent` walks
/// down from the root on every call, which made climbing chains quadratic.
pub struct Parents<'t> {
    /// Named node id → index of its parent in `inner`. Only named nodes: the climbs
    /// start from and pass through named nodes, and leaving out the punctuation
    /// (nearly half a file's nodes) halves the map, the biggest table a large file
    /// builds. An anonymous node's parent is tree-sitter's (see [`Parents::get`]).
    map: IdMap,
    /// Every node with children, once, in the order the walk entered them.
    inner: Vec<Node<'t>>,
}

type IdMap = HashMap<usize, u32, BuildHasherDefault<IdHasher>>;

thread_local! {
    /// The parent maps this thread let go of, cleared, one per size class, for the
    /// next files': a map of fresh memory per file was the index phase's largest
    /// allocation, given back to the system between files and faulted in again
    /// (zeroed by the kernel) for the next one, a cost that grew faster than the tree.
    static SPARE_MAPS: RefCell<[Option<IdMap>; 3]> = const { RefCell::new([None, None, None]) };
}

/// The largest map kept for the next file (entries): a 40,000-call file's map is
/// hundreds of megabytes, which an editor's server should not hold on to.
const SPARE_MAP_MAX: usize = 1 << 18;

/// The size class of a map of `n` entries: up to 2^12, 2^16, more. A spare of the
/// class is at most 16 times the map asked for (except the smallest's), so clearing
/// it (a byte per slot) costs little beside filling it.
fn size_class(n: usize) -> usize {
    match n {
        0..=0x1000 => 0,
        0x1001..=0x1_0000 => 1,
        _ => 2,
    }
}

/// An empty map with room for `n` links: this thread's spare of its size, or a fresh
/// one.
fn id_map(n: usize) -> IdMap {
    let spare = SPARE_MAPS.with(|s| {
        let mut spares = s.try_borrow_mut().ok()?;
        spares.get_mut(size_class(n))?.take()
    });
    match spare {
        Some(mut map) => {
            map.reserve(n);
            map
        }
        None => HashMap::with_capacity_and_hasher(n, Default::default()),
    }
}

impl Drop for Parents<'_> {
    /// Keeps the map, cleared, as this thread's spare of its size when it is the
    /// larger one (see [`id_map`]).
    fn drop(&mut self) {
        let mut map = std::mem::take(&mut self.map);
        if map.capacity() > SPARE_MAP_MAX {
            return;
        }
        SPARE_MAPS.with(|s| {
            let Ok(mut spares) = s.try_borrow_mut() else {
                return;
            };
            if let Some(slot) = spares.get_mut(size_class(map.capacity())) {
                if slot.as_ref().is_none_or(|m| m.capacity() < map.capacity()) {
                    map.clear();
                    *slot = Some(map);
                }
            }
        });
    }
}

impl<'t> Parents<'t> {
    /// The parent of a node of this tree.
    pub fn get<'n>(&self, node: Node<'n>) -> Option<Node<'n>>
    where
        't: 'n,
    {
        if !node.is_named() {
            // Not in the map: tree-sitter's search from the root (nothing asks for
            // these on a hot path).
            return node.parent();
        }
        match self.map.get(&node.id()) {
            Some(i) => self.inner.get(*i as usize).copied(),
            // Inside a literal (not walked), or the root (which has none); nothing
            // climbs from a literal's insides on a hot path either.
            None => node.parent(),
        }
    }
}

/// Node ids are addresses: a multiply and a fold is hash enough.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        // A node's id is the address of its 8-byte slot in its parent's array of
        // children: siblings are neighbours. The table's bucket is the hash's low bits,
        // so the slot number itself (the address over 8) keeps neighbours in
        // neighbouring buckets, and building the map in tree order or climbing from a
        // node touches memory a cache line at a time instead of at random (a
        // 40,000-call file's map is hundreds of megabytes). The top bits, which the
        // table compares to tell keys of one bucket group apart, come from a multiply.
        let x = n as u64;
        let mixed = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = (x >> 3) ^ (mixed & 0xFE00_0000_0000_0000);
    }
}

/// Node kinds the per-file phase looks at, collected by the same walk.
const INTERESTING: &[&str] = &[
    "call_expression",
    "struct_expression",
    "function_item",
    "const_item",
    "static_item",
    "use_declaration",
    "struct_item",
];

/// The grammar's symbol ids of [`INTERESTING`] kinds: comparing ids spares the
/// `strlen` and UTF-8 check `Node::kind` costs on every node of every file.
fn interesting_ids() -> &'static [u16] {
    static IDS: OnceLock<Vec<u16>> = OnceLock::new();
    IDS.get_or_init(|| {
        let lang: Language = tree_sitter_rust::LANGUAGE.into();
        INTERESTING
            .iter()
            .map(|k| lang.id_for_node_kind(k, true))
            .filter(|id| *id != 0)
            .collect()
    })
}

/// Every node's parent, and the nodes of [`INTERESTING`] kinds in pre-order, from one
/// cursor walk (depth-guarded like every walk).
/// The bool says the walk stopped at [`MAX_DEPTH`]` * 4` somewhere (parts skipped).
///
/// The walk is most of the work of building the map, and two things make it cheaper:
/// it knows how many children each node has, so it climbs from the last one instead of
/// asking the cursor for a sibling that is not there (a failed step costs the cursor a
/// climb and a descent); and it does not enter string and character literals, whose
/// quotes and contents no pass climbs from (a node missing from the map is found by
/// tree-sitter's own search, see [`Parents::get`]).
pub fn parent_map(root: Node<'_>) -> (Parents<'_>, Vec<Node<'_>>, bool) {
    parent_map_of(&[root], None)
}

/// [`parent_map`] of `root`'s children in `walked` (groups of consecutive top-level
/// nodes: the items of a file indexed again, `reindex.rs`) and of the subtrees
/// `also` (the functions a lookup in the whole file will climb in), with the links
/// of the nodes above them: walking the whole file was most of such a re-index.
/// Gives each group's nodes of [`INTERESTING`] kinds, in pre-order, and whether its
/// walk stopped at the depth guard (which counts from the tree's root, as the whole
/// walk's does).
pub fn parent_map_in<'t>(
    root: Node<'t>,
    walked: &[&[Node<'t>]],
    also: &[Node<'t>],
) -> (Parents<'t>, Vec<(Vec<Node<'t>>, bool)>) {
    let all: usize = (walked.iter().flat_map(|g| g.iter()))
        .chain(also)
        .map(|r| r.descendant_count())
        .sum();
    let mut parents = Parents {
        map: id_map(all / 3 * 2 + 1),
        inner: inner_nodes(all),
    };
    parents.inner.push(root);
    let mut groups = Vec::with_capacity(walked.len());
    for group in walked {
        let (mut nodes, mut truncated) = (Vec::new(), false);
        for top in group.iter() {
            if top.is_named() {
                parents.map.insert(top.id(), 0);
            }
            truncated |= walk(*top, 1, &mut parents, &mut nodes);
        }
        groups.push((nodes, truncated));
    }
    // Their nodes are not indexed; what the guard skips, tree-sitter links.
    let mut skipped = Vec::new();
    for f in also {
        // The nodes above, from tree-sitter (a search from the root each, for a few
        // nodes), so that a climb from the function goes on to the root.
        let mut above = Vec::new();
        let mut at = *f;
        while let Some(p) = at.parent() {
            above.push((at, p));
            at = p;
        }
        for (child, p) in above.iter().copied() {
            if parents.map.contains_key(&child.id()) {
                break;
            }
            let i = u32::try_from(parents.inner.len()).unwrap_or(u32::MAX);
            parents.inner.push(p);
            parents.map.insert(child.id(), i);
        }
        walk(*f, above.len(), &mut parents, &mut skipped);
    }
    (parents, groups)
}

/// Room for the nodes with children of a walk over `all` nodes, allocated once: about
/// 31% of a real file's nodes have children (38% at most in the 1x real tree's), and
/// grown by doubling the list was copied and faulted in again several times per file.
fn inner_nodes<'t>(all: usize) -> Vec<Node<'t>> {
    Vec::with_capacity(all / 8 * 3 + 16)
}

/// [`parent_map`] of the subtrees under `roots` only (in file order), children of
/// `parent` (or, without one, the tree's roots). The depth guard counts from the
/// tree's root, as the whole walk's does.
fn parent_map_of<'t>(
    roots: &[Node<'t>],
    parent: Option<Node<'t>>,
) -> (Parents<'t>, Vec<Node<'t>>, bool) {
    // The tree knows how many nodes the walk visits; about half are named (54% in
    // generated chains, fewer in hand-written code): sized once for two thirds.
    let all: usize = roots.iter().map(|r| r.descendant_count()).sum();
    let mut parents = Parents {
        map: id_map(all / 3 * 2 + 1),
        inner: inner_nodes(all),
    };
    let mut nodes = Vec::new();
    let mut truncated = false;
    // Climbs end at the tree's root: the roots' own parent is in the map too (asked
    // of tree-sitter, it is a search through the root's children).
    if let Some(p) = parent {
        parents.inner.push(p);
        for root in roots.iter().filter(|r| r.is_named()) {
            parents.map.insert(root.id(), 0);
        }
    }
    let depth = usize::from(parent.is_some());
    for root in roots {
        truncated |= walk(*root, depth, &mut parents, &mut nodes);
    }
    (parents, nodes, truncated)
}

/// One root's part of [`parent_map_of`]; true when it stopped at the depth guard.
fn walk<'t>(
    root: Node<'t>,
    depth: usize,
    parents: &mut Parents<'t>,
    nodes: &mut Vec<Node<'t>>,
) -> bool {
    let Parents { map, inner } = parents;
    let interesting = interesting_ids();
    let literals = literal_ids();
    let mut truncated = false;
    let mut cursor = root.walk();
    // Per node above the cursor: its index into `inner`, and how many of its children
    // come after the cursor's.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    loop {
        let n = cursor.node();
        let id = n.kind_id();
        if n.is_named() {
            if let Some((p, _)) = stack.last() {
                map.insert(n.id(), *p);
            }
            if interesting.contains(&id) {
                nodes.push(n);
            }
        }
        if depth + stack.len() < MAX_DEPTH * 4 {
            // The count first: most nodes are leaves, and a cursor's failed step down
            // costs more than the count, which the step down needs anyway.
            let children = n.child_count();
            if children > 0 && !literals.contains(&id) && cursor.goto_first_child() {
                // More nodes with children than `u32` counts cannot fit a file under
                // `MAX_FILE_BYTES`: each spans at least one byte.
                let at = u32::try_from(inner.len()).unwrap_or(u32::MAX);
                stack.push((at, children - 1));
                inner.push(n);
                continue;
            }
        } else if n.child_count() > 0 {
            truncated = true;
        }
        loop {
            let Some((_, after)) = stack.last_mut() else {
                return truncated;
            };
            if *after > 0 {
                *after -= 1;
                if cursor.goto_next_sibling() {
                    break;
                }
            }
            cursor.goto_parent();
            stack.pop();
        }
    }
}

/// String and character literals: the walk does not enter them.
fn literal_ids() -> &'static [u16] {
    static IDS: OnceLock<Vec<u16>> = OnceLock::new();
    IDS.get_or_init(|| {
        let lang: Language = tree_sitter_rust::LANGUAGE.into();
        ["string_literal", "raw_string_literal", "char_literal"]
            .iter()
            .map(|k| lang.id_for_node_kind(k, true))
            .filter(|id| *id != 0)
            .collect()
    })
}

/// The source a tree was parsed from, as the user wrote it, with its parent links.
#[derive(Clone, Copy)]
pub struct Src<'a> {
    pub text: &'a str,
    pub parents: &'a Parents<'a>,
    /// Where `let` is written in `text` (`scope::let_offsets`): a name's lookup reads a
    /// block's `let`s from here, not by searching the block's text again per name.
    pub lets: &'a [usize],
}

impl<'a> Src<'a> {
    /// The parent of a node of this tree.
    pub fn parent(&self, node: Node<'a>) -> Option<Node<'a>> {
        self.parents.get(node)
    }

    /// The node's text, or "" when its range is not on char boundaries.
    pub fn of(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    pub fn span_text(&self, span: Span) -> &'a str {
        self.text.get(span.range()).unwrap_or("")
    }
}

pub fn span(node: Node<'_>) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

/// Named children, collected. By index, not with a cursor: a cursor allocates its
/// stack, and this runs for most nodes the passes look at, most of which have two or
/// three children.
pub fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    (0..node.named_child_count())
        .filter_map(|i| node.named_child(i))
        .collect()
}

/// The child in a field. Field ids are looked up once per name: tree-sitter resolves a
/// name by comparing it with each of the grammar's field names, on every call.
pub fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_id(field_id(name)?)
}

/// The grammar's field names, in the order of [`field_id`]'s match.
const FIELD_NAMES: [&str; 31] = [
    "alias",
    "alternative",
    "argument",
    "arguments",
    "body",
    "bounds",
    "condition",
    "consequence",
    "default_type",
    "doc",
    "element",
    "field",
    "function",
    "inner",
    "left",
    "length",
    "list",
    "macro",
    "name",
    "operator",
    "outer",
    "parameters",
    "path",
    "pattern",
    "return_type",
    "right",
    "trait",
    "type",
    "type_arguments",
    "type_parameters",
    "value",
];

/// The grammar's id of a field name. A match on the name (a jump on its length, then
/// a compare) picks the slot: the passes ask this millions of times on a large file,
/// and hashing the name's bytes for a map cost more than the compare.
fn field_id(name: &str) -> Option<u16> {
    static IDS: OnceLock<[u16; FIELD_NAMES.len()]> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let lang: Language = tree_sitter_rust::LANGUAGE.into();
        FIELD_NAMES.map(|n| lang.field_id_for_name(n).map_or(0, u16::from))
    });
    let slot = match name {
        "alias" => 0,
        "alternative" => 1,
        "argument" => 2,
        "arguments" => 3,
        "body" => 4,
        "bounds" => 5,
        "condition" => 6,
        "consequence" => 7,
        "default_type" => 8,
        "doc" => 9,
        "element" => 10,
        "field" => 11,
        "function" => 12,
        "inner" => 13,
        "left" => 14,
        "length" => 15,
        "list" => 16,
        "macro" => 17,
        "name" => 18,
        "operator" => 19,
        "outer" => 20,
        "parameters" => 21,
        "path" => 22,
        "pattern" => 23,
        "return_type" => 24,
        "right" => 25,
        "trait" => 26,
        "type" => 27,
        "type_arguments" => 28,
        "type_parameters" => 29,
        "value" => 30,
        _ => return None,
    };
    ids.get(slot).copied().filter(|id| *id != 0)
}

/// The arguments of a call, without the comments.
pub fn call_args<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    let Some(args) = field(call, "arguments") else {
        return Vec::new();
    };
    // By index, kinds by id: this runs for most calls of every file parsed for calls,
    // and a cursor allocates (see [`named_children`]).
    let skip = not_args();
    (0..args.named_child_count())
        .filter_map(|i| args.named_child(i))
        .filter(|n| !skip.contains(&n.kind_id()))
        .collect()
}

/// How many arguments [`call_args`] gives, without collecting them.
pub fn call_arg_count(call: Node<'_>) -> usize {
    let Some(args) = field(call, "arguments") else {
        return 0;
    };
    let skip = not_args();
    (0..args.named_child_count())
        .filter_map(|i| args.named_child(i))
        .filter(|n| !skip.contains(&n.kind_id()))
        .count()
}

/// The named children of an argument list that are no argument.
fn not_args() -> &'static [u16; 3] {
    static IDS: OnceLock<[u16; 3]> = OnceLock::new();
    IDS.get_or_init(|| {
        [
            kind_id("line_comment"),
            kind_id("block_comment"),
            kind_id("attribute_item"),
        ]
    })
}

/// Whether a call passes no argument at all (`send()`, `x.into()`): decided without
/// collecting them.
pub fn no_args(call: Node<'_>) -> bool {
    field(call, "arguments").is_none_or(|a| a.named_child_count() == 0)
}

pub fn is_comment(node: Node<'_>) -> bool {
    matches!(node_kind(node), "line_comment" | "block_comment")
}

/// The value of a string literal node (escapes decoded), or None for other nodes.
pub fn string_value(src: Src<'_>, node: Node<'_>) -> Option<String> {
    match node_kind(node) {
        "string_literal" => Some(unescape(strip_quotes(src.of(node)))),
        "raw_string_literal" => {
            let t = src.of(node);
            let t = t.trim_start_matches(['b', 'r', 'c']);
            let hashes = t.len() - t.trim_start_matches('#').len();
            let inner = t.get(hashes..t.len().saturating_sub(hashes))?;
            Some(strip_quotes(inner).to_string())
        }
        _ => None,
    }
}

/// Byte offset in the file of a string literal's first content char.
pub fn string_content_start(src: Src<'_>, node: Node<'_>) -> Option<usize> {
    let t = src.of(node);
    let q = t.find('"')?;
    Some(node.start_byte() + q + 1)
}

fn strip_quotes(t: &str) -> &str {
    let t = t.trim_start_matches(['b', 'c']);
    let t = t.strip_prefix('"').unwrap_or(t);
    t.strip_suffix('"').unwrap_or(t)
}

/// Decodes Rust string escapes; an unknown escape is kept as written.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('\'') => out.push('\''),
            Some('\n') => {
                // A line continuation swallows the following whitespace.
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            Some('u') => {
                let mut hex = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    if c != '{' {
                        hex.push(c);
                    }
                }
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                if let Some(c) = u8::from_str_radix(&hex, 16).ok().map(char::from) {
                    out.push(c);
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Folds runs of whitespace into one space: the baseline fingerprint of a call.
pub fn fold_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// Strips wrappers that do not change a value: `(x)`, `&x`, `*x`, `x?`, `x.await`.
pub fn peel<'t>(mut node: Node<'t>) -> Node<'t> {
    for _ in 0..MAX_DEPTH {
        let inner = match node_kind(node) {
            "parenthesized_expression"
            | "reference_expression"
            | "try_expression"
            | "await_expression" => named_children(node)
                .into_iter()
                .rfind(|n| !is_comment(*n) && node_kind(*n) != "mutable_specifier"),
            "unary_expression" if node.child(0).is_some_and(|c| node_kind(c) == "*") => {
                named_children(node).into_iter().next()
            }
            _ => None,
        };
        match inner {
            Some(i) => node = i,
            None => return node,
        }
    }
    node
}

/// `recv.name(args)` → (recv, name, call); None for other nodes.
pub fn method_call<'t>(src: Src<'t>, node: Node<'t>) -> Option<(Node<'t>, String, Node<'t>)> {
    if node_kind(node) != "call_expression" {
        return None;
    }
    let mut f = field(node, "function")?;
    if node_kind(f) == "generic_function" {
        f = field(f, "function")?;
    }
    if node_kind(f) != "field_expression" {
        return None;
    }
    let recv = field(f, "value")?;
    let name = src.of(field(f, "field")?).to_string();
    Some((recv, name, node))
}

/// The method name of `recv.name(args)` without allocating, for checks that run on
/// every call of a file; None for other nodes.
pub fn method_name<'t>(src: Src<'t>, node: Node<'_>) -> Option<&'t str> {
    static IDS: OnceLock<[u16; 3]> = OnceLock::new();
    let [call, generic, field_expr] = *IDS.get_or_init(|| {
        [
            kind_id("call_expression"),
            kind_id("generic_function"),
            kind_id("field_expression"),
        ]
    });
    if node.kind_id() != call {
        return None;
    }
    let mut f = field(node, "function")?;
    if f.kind_id() == generic {
        f = field(f, "function")?;
    }
    if f.kind_id() != field_expr {
        return None;
    }
    field(f, "value")?;
    Some(src.of(field(f, "field")?))
}

/// The callee path of a plain call `a::b::c(..)` (not a method call), as written.
pub fn call_path<'a>(src: Src<'a>, node: Node<'_>) -> Option<&'a str> {
    if node_kind(node) != "call_expression" {
        return None;
    }
    let mut f = field(node, "function")?;
    if node_kind(f) == "generic_function" {
        f = field(f, "function")?;
    }
    match node_kind(f) {
        "identifier" | "scoped_identifier" => Some(src.of(f)),
        _ => None,
    }
}

/// The last segment of a path: `aws_sdk_dynamodb::types::Put::builder` → `builder`.
pub fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

/// The segment before the last: `Put::builder` → `Put`.
pub fn type_segment(path: &str) -> Option<&str> {
    let mut it = path.rsplit("::");
    it.next()?;
    // `Store::<User>::new`: the turbofish is no segment of its own.
    it.map(str::trim)
        .find(|s| !s.starts_with('<'))
        .map(|s| s.split('<').next().unwrap_or(s).trim())
}

/// Every descendant (pre-order) for which `keep` is true, depth-guarded; an explicit
/// walk, so deep trees cannot overflow the stack.
pub fn descendants<'t>(node: Node<'t>, keep: &mut dyn FnMut(Node<'t>) -> bool) -> Vec<Node<'t>> {
    descendants_between(node, 0, usize::MAX, keep)
}

/// The descendants of `node` that start at or after byte `after` and pass `keep`, in
/// pre-order: subtrees that end before `after` are skipped whole, which is what makes
/// following a variable's later uses through a long body cheap.
pub fn descendants_after<'t>(
    node: Node<'t>,
    after: usize,
    keep: &mut dyn FnMut(Node<'t>) -> bool,
) -> Vec<Node<'t>> {
    descendants_between(node, after, usize::MAX, keep)
}

/// The descendants of `node` inside bytes `from..to` (starting at or after `from`,
/// ending at or before `to`) that pass `keep`, in pre-order; subtrees wholly outside
/// are skipped without a visit.
pub fn descendants_between<'t>(
    node: Node<'t>,
    from: usize,
    to: usize,
    keep: &mut dyn FnMut(Node<'t>) -> bool,
) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    let mut depth = 0usize;
    loop {
        let n = cursor.node();
        let outside = n.end_byte() < from || n.start_byte() > to;
        if !outside && n.start_byte() >= from && n.end_byte() <= to && keep(n) {
            out.push(n);
        }
        if !outside && depth < MAX_DEPTH * 4 && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
    }
}

/// A node kind's symbol id (0 when the grammar has no such named kind): comparing
/// `kind_id()`s spares `Node::kind`'s `strlen` and UTF-8 check in walks over many nodes.
pub fn kind_id(kind: &str) -> u16 {
    static IDS: OnceLock<HashMap<String, u16, BuildHasherDefault<IdHasher>>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let lang: Language = tree_sitter_rust::LANGUAGE.into();
        (0..lang.node_kind_count())
            .filter_map(|id| u16::try_from(id).ok())
            .filter(|id| lang.node_kind_is_named(*id) && lang.node_kind_is_visible(*id))
            .filter_map(|id| lang.node_kind_for_id(id))
            .map(|k| (k.to_string(), lang.id_for_node_kind(k, true)))
            .collect()
    });
    ids.get(kind).copied().unwrap_or(0)
}

/// Ancestors from the parent up, stopping at the root.
pub fn ancestors<'a>(src: Src<'a>, node: Node<'a>) -> impl Iterator<Item = Node<'a>> {
    std::iter::successors(src.parent(node), move |n| src.parent(*n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Code with what makes trees irregular: hidden and aliased nodes, macros, literals
    /// of every kind, attributes, comments, syntax errors.
    const CODE: &str = r##"
use a::{b::C, D as E};
#[derive(Debug)]
struct S<T> where T: Clone { a: u8, b: Vec<T> }
impl S<u8> {
    /// Docs.
    pub async fn f(&self, c: &Client, id: &str) -> Result<(), E> {
        let _ = c.get_item().table_name("t\n\"x\"").key("pk", S(id.into())).send().await?;
        let (a, b) = (r#"raw"#, b"bytes");
        match x { Some(v) if v > 1 => 'c', _ => '\'' };
        for i in 0..10 { vec![1, 2, 3]; format!("{i}"); }
        if let Ok(t) = std::env::var("T") { g(t) } else { h() }
        let f = |x: u8| -> u8 { x + 1 };
        'outer: loop { break 'outer; }
    }
}
fn broken( { c.query().send(); }
macro_rules! m { ($x:expr) => { $x }; }
const X: &str = "x";
"##;

    #[test]
    fn field_names_are_the_grammars() {
        let lang: Language = tree_sitter_rust::LANGUAGE.into();
        assert_eq!(lang.field_count(), FIELD_NAMES.len());
        for name in FIELD_NAMES {
            let want = lang.field_id_for_name(name).map(u16::from);
            assert_eq!(field_id(name), want, "{name}");
            assert!(want.is_some(), "{name}");
        }
        assert_eq!(field_id("no_such_field"), None);
    }

    #[test]
    fn the_parent_map_is_every_named_nodes_parent() {
        let tree = crate::scanner::syntax::parse::parse(CODE.as_bytes()).expect("parses");
        let root = tree.root_node();
        let (parents, nodes, truncated) = parent_map(root);
        assert!(!truncated);
        // Every named node, by a plain recursive walk with tree-sitter's own parents.
        let mut all = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            all.push(n);
            let mut cursor = n.walk();
            let children: Vec<Node<'_>> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        let interesting = interesting_ids();
        let want: Vec<Node<'_>> = all
            .iter()
            .copied()
            .filter(|n| n.is_named() && interesting.contains(&n.kind_id()))
            .collect();
        assert_eq!(nodes, want);
        let mut inside_literals = 0;
        for n in all.iter().copied().filter(|n| n.is_named()) {
            assert_eq!(parents.get(n), n.parent(), "{n:?}");
            if !parents.map.contains_key(&n.id()) && n.parent().is_some() {
                inside_literals += 1;
            }
        }
        // String contents and escapes were left to tree-sitter.
        assert!(inside_literals > 3, "{inside_literals}");
    }

    #[test]
    fn a_map_of_some_items_gives_every_named_nodes_parent() {
        let tree = crate::scanner::syntax::parse::parse(CODE.as_bytes()).expect("parses");
        let root = tree.root_node();
        let mut cursor = root.walk();
        let tops: Vec<Node<'_>> = root.children(&mut cursor).collect();
        let kind = |k: &str| tops.iter().copied().find(|t| t.kind() == k).expect(k);
        // The `impl` walked as an item indexed again; the closure inside its function
        // as a function a lookup climbs in (with the nodes above it); the rest not.
        let item = [kind("impl_item")];
        let inner = descendants(kind("impl_item"), &mut |n| n.kind() == "closure_expression");
        assert!(!inner.is_empty());
        let (whole, all_nodes, _) = parent_map(root);
        let (parents, groups) = parent_map_in(root, &[&item], &inner);
        assert!(inner.iter().all(|c| parents.map.contains_key(&c.id())));
        assert!(!parents.map.contains_key(&kind("const_item").id()));
        let [(nodes, truncated)] = groups.as_slice() else {
            panic!("one group");
        };
        assert!(!truncated);
        let (start, end) = (item[0].start_byte(), item[0].end_byte());
        let want: Vec<Node<'_>> = (all_nodes.iter().copied())
            .filter(|n| n.start_byte() >= start && n.end_byte() <= end)
            .collect();
        assert_eq!(*nodes, want);
        let every = descendants(root, &mut |n| n.is_named());
        assert!(every.len() > 100);
        for n in every {
            assert_eq!(parents.get(n), whole.get(n), "{n:?}");
        }
    }
}
