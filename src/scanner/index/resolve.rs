//! Value resolution inside one file: strings (table names, expressions, attribute
//! names) and attribute values with their type and provenance.
//!
//! What needs other files (a `const` by path, `self.table` set in a constructor, what
//! a function or method of the crate returns, the value a `OnceLock` is set to, a
//! shard count named by a constant) is left as a *pending reference*: an `Unknown` whose reason points into
//! [`FileCx::refs`]; the link phase replaces it with the resolved value or an honest
//! reason. Nothing here guesses: what cannot be followed stays unknown, with why.

use std::cell::RefCell;

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::context::{attributes_of, is_test_attr};
use crate::scanner::ir::{Provenance, Resolved, ValueInfo};
use crate::scanner::syntax::names::{intern, intern_path, Name, Path};
use crate::scanner::syntax::nodes::{
    ancestors, call_args, call_path, descendants, descendants_between, field, last_segment,
    method_call, named_children, peel, span, string_value, type_segment, Src, MAX_DEPTH,
};
use crate::scanner::syntax::scope::{lookup, Binding};

/// More branches than this are not one of few values: a `match` of many arms, each a
/// constant, is as good as unknown.
const MAX_BRANCHES: usize = 16;

/// Marks an `Unknown` reason as a pending reference (index into `FileCx::refs`).
pub const PENDING: &str = "\u{0}pending:";

/// A name the link phase resolves with the whole crate in view.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// A `const`/`static` by path, seen from `module` (and `impl` type for `Self::`).
    Path {
        segments: Path,
        module: Path,
        self_ty: Option<Name>,
    },
    /// `self.a.b` (or `x.a` with `x: Type`): a field set in `ty`'s constructors.
    /// With `ctor`, `x` is a local bound to that constructor's call (`let t =
    /// Tables::new(name)`): the field holds what this call passes, not what every
    /// construction of `ty` agrees on.
    Field {
        ty: Name,
        fields: Path,
        ctor: Option<Box<CtorCall>>,
    },
    /// `orders_table()`, `names::table()`, `Self::table()`: what the crate's function
    /// by that path returns (see `returns.rs`).
    Call {
        segments: Path,
        module: Path,
        self_ty: Option<Name>,
    },
    /// `self.table_name()` (or `x.f()` with `x: Type`): what `Type::name` returns.
    /// With `fields`, the receiver is a field path from a value of `ty`
    /// (`self.config.tables()`): the method is looked up on the last field's type.
    Method {
        ty: Name,
        fields: Path,
        name: Name,
        /// The receiver is a local bound to `ty::ctor(..)` (unwrapped once when the
        /// bool says so): `ty` holds only if that function returns its own type.
        ctor: Option<(Name, bool)>,
    },
    /// A `OnceLock`/`OnceCell` static at `path`: the one value the crate sets it to.
    Once { path: Path },
    /// Parameter `index` (not counting `self`) of the crate's function `function` (in
    /// impl `self_ty` for a method or constructor): what the crate's calls of it pass.
    Param {
        function: Name,
        self_ty: Option<Name>,
        index: usize,
        /// How many parameters it takes (not counting `self`): a call with another
        /// count is of another function of the same name.
        arity: usize,
    },
    /// `T::TABLE` or `T::table_name()` with `T` a generic parameter of `function` (in
    /// impl `self_ty`), or of its `impl`: what the type each caller gives `T` holds
    /// (`Repository::<User>::new(..)`, `repo.find::<User>(..)`). `position` counts
    /// the function's type parameters, or, for the impl's (`of_impl`), the arguments of
    /// the impl's type (`Repository<T>`).
    TypeParam {
        function: Name,
        self_ty: Option<Name>,
        /// How many parameters it takes (not counting `self`), as for `Param`.
        arity: usize,
        of_impl: bool,
        position: usize,
        /// The path after `T` (`TABLE`, `table_name`).
        rest: Path,
        /// `T::table_name()`: a function's result, not a constant.
        call: bool,
    },
    /// How many values `low..high` (or `low..=high`) holds, `high` a constant: a shard
    /// count. `% SHARDS` is `Count { low: 0, inclusive: false }`.
    Count {
        high: Box<RefKind>,
        low: u64,
        inclusive: bool,
    },
    /// `value as ty` with `ty` a primitive integer type and `value` another reference
    /// (a parameter, a constant): the value it resolves to, wrapped as `as` wraps it
    /// (`u32::MAX as i32` is -1).
    Cast { value: Box<RefKind>, ty: Name },
    /// `x.field` with `x: Type` a parameter: a value of the field's declared type,
    /// which the link looks up (`structs` and `unit_enums` of `types.rs`): one of an
    /// enum's data-less variants is one of few values. `mapped`: the value was passed
    /// through a function of it alone (`serde_json::to_value(x.kind)`, `.map(|v| ..)`),
    /// and is unknown unless it is such an enum's.
    FieldType { ty: Name, field: Name, mapped: bool },
}

/// The constructor call a local was bound to (`let t = Tables::new(name, 3)`): the
/// function's name and each argument dynalint can follow, as [`crate::scanner::index::args`]
/// reads a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CtorCall {
    pub function: Name,
    pub args: Box<[Option<Resolved>]>,
}

/// A reference left for the link phase, with the source text for messages. Every
/// file's references live until the link, tens of thousands of them on a large tree,
/// so their names and paths are interned (see `names.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRef {
    pub text: Name,
    pub kind: RefKind,
}

/// What resolution needs of the file it runs in.
pub struct FileCx<'a> {
    pub src: Src<'a>,
    /// The module path of the file (`src/db/names.rs` → `db::names`).
    pub module: Path,
    pub refs: RefCell<Vec<PendingRef>>,
    /// Set while resolving a name (see [`FileCx::name`]): a parameter is then followed
    /// to the arguments the crate's calls pass.
    follow_params: std::cell::Cell<bool>,
    /// Set while reading what a call passes (see [`FileCx::passing`]): a
    /// parameter passed on is then a reference in any function.
    passing: std::cell::Cell<bool>,
    /// What the file's searches found, by node: shared by the contexts of the items
    /// one re-index indexes (`reindex.rs`, [`FileCx::sharing`]), whose searches walk
    /// the same helpers.
    caches: std::rc::Rc<FileCaches>,
    /// Which context over `caches` this is: an entry another one made is borrowed.
    owner: usize,
    /// Set when this context used an entry of `caches` that another one made (or
    /// added to): what that search looked up by name in the whole file was recorded
    /// by the other context, so this one counts every name any of them looked up
    /// (see [`FileCaches::names`]).
    borrowed: std::cell::Cell<bool>,
    /// The tree's nodes of the kinds `syntax::parent_map` collects, when the caller
    /// has them (or only its `fn` items, `reindex.rs`): the file's `fn` items are
    /// among them, so finding them needs no walk of the whole tree again (most of an
    /// edited file's re-index with a batch in it).
    items: Option<&'a [Node<'a>]>,
    /// For a piece of a large file (see `pieces.rs`): the number its references
    /// start from, so that the pieces' numbers do not collide when their indexes are
    /// joined, and the piece's byte range. `None` for a whole file.
    piece: Option<(usize, std::ops::Range<usize>)>,
    /// Set when a piece's code looked for something in the whole file (a same-file
    /// helper, a constant by name): a piece sees only its own items, so the file is
    /// then indexed whole.
    whole_file: std::cell::Cell<bool>,
    /// The names those lookups asked for (functions, constants): a piece indexed
    /// again after an edit elsewhere in the file can keep its index when no edited
    /// item names one of them (`reindex.rs`).
    whole_file_names: RefCell<Vec<String>>,
    /// The parameters [`FileCx::value_param_ref`] gave a reference to, each once: the
    /// functions whose calls' arguments are read as values (`args::ValuesOf`).
    value_params: RefCell<Vec<RefKind>>,
}

/// What resolution finds under a tree's nodes (by node id), the same whichever
/// context asks: kept for every context over one tree that shares it.
#[derive(Default)]
pub struct FileCaches {
    /// Whether code in a function or module (by node id) is test code, once per item:
    /// asked of every call, it climbed to the root and read attributes each time.
    test_items: RefCell<std::collections::HashMap<usize, bool>>,
    /// Where the file's functions are (byte ranges, by name), found on first need:
    /// every batch or transaction setter looks for same-file helpers, and each walked
    /// the whole file for them.
    fn_ranges: std::cell::OnceCell<FnRanges>,
    /// Where the `fn` items are in `items` (see [`FileCx::function_nodes`]).
    fn_items: std::cell::OnceCell<Vec<usize>>,
    /// The `impl` type around each function (by node id), for [`FileCx::impl_type`].
    fn_impls: RefCell<std::collections::HashMap<usize, Option<String>>>,
    /// Whether a function (by node id) holds a request its values go into, for
    /// [`FileCx::value_param_ref`].
    fn_requests: RefCell<std::collections::HashMap<usize, bool>>,
    /// The `.push(..)`-like calls in each block (by node id), for [`FileCx::pushes`].
    pushes: RefCell<std::collections::HashMap<usize, std::rc::Rc<[Push]>>>,
    /// What each search for typed builders found (`batch.rs`), by (what it wants, node
    /// id, depth): the nodes' bytes and ids, with the context that searched.
    roots: RefCell<std::collections::HashMap<RootsKey, (usize, Vec<NodeAt>)>>,
    /// What those searches look at under each node (by node id): the same for every
    /// search of the file, and each setter's search walked the same helpers again.
    /// With the context that made it ([`SHARED`] once another added to it).
    shapes: RefCell<std::collections::HashMap<usize, (usize, ShapeAt)>>,
    /// Every name a context over these looked up in the whole file
    /// ([`FileCx::whole_file_lookup_of`]).
    names: RefCell<Vec<String>>,
}

/// A search for typed builders: what it wants, from which node (id), at which depth.
type RootsKey = (u8, usize, usize);

/// The owner of a [`FileCaches`] entry that several contexts made.
const SHARED: usize = usize::MAX;

impl FileCaches {
    /// Every name a context over these looked up in the whole file: what a context
    /// that borrowed an entry counts as its lookups.
    pub fn names(&self) -> Vec<String> {
        self.names.borrow().clone()
    }
}

/// A call that adds to a collection, `recv.push(..)` (or `extend`, `insert`,
/// `push_back`): the call's bytes and its receiver's (references peeled). Byte ranges,
/// not nodes, so that the context stays covariant in the tree's lifetime.
#[derive(Clone, Copy)]
pub struct Push {
    pub call: (usize, usize),
    pub receiver: (usize, usize),
}

/// A node by its bytes and id (see [`FileCx::roots_found`]).
pub type NodeAt = (usize, usize, usize);

/// Where a node is, for [`FileCx::node_at`].
pub fn node_place(n: Node<'_>) -> NodeAt {
    (n.start_byte(), n.end_byte(), n.id())
}

/// What a search for typed builders looks at under a node (`batch::Shape`), by the
/// places of its nodes; the parts a search did not get to are `None`.
#[derive(Clone, Default)]
pub struct ShapeAt {
    pub typed: Vec<(NodeAt, crate::scanner::sdk::Typed)>,
    pub bindings: Option<Vec<(Option<NodeAt>, Vec<NodeAt>)>>,
    pub helpers: Option<Vec<NodeAt>>,
}

/// A file's `fn` items by name, as byte ranges (in file order).
pub type FnRanges = std::collections::HashMap<String, Vec<(usize, usize)>>;

/// Methods that hand their receiver's value through unchanged.
const PASS_THROUGH: &[&str] = &[
    "ok",
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_ref",
    "as_deref",
    "borrow",
    "deref",
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_or",
    "unwrap_or_else",
    "context",
    "with_context",
    "map_err",
    "ok_or",
    "ok_or_else",
    "to_owned_string",
    "get_or_init",
    "as_string",
    "into_owned",
    "get",
    "build",
];

/// Names whose call makes a hash digest.
const HASHERS: &[&str] = &[
    "md5",
    "Md5",
    "sha1",
    "Sha1",
    "sha2",
    "sha256",
    "Sha256",
    "sha512",
    "Sha512",
    "sha3",
    "Sha3_256",
    "Keccak256",
    "blake2",
    "blake3",
    "Blake2b",
    "Blake2s",
    "DefaultHasher",
    "finish",
    "xxh3",
    "xxh64",
    "xxh32",
    "xxhash",
    "XxHash64",
    "seahash",
    "crc32",
    "Crc32",
    "crc32fast",
    "new_v5",
    "new_v3",
    "digest",
    "hash_one",
    "murmur3",
    "fxhash",
    "FxHasher",
];

/// Calls that make a fresh unique id.
const GENERATORS: &[&str] = &[
    "new_v4", "now_v7", "new_v7", "Ulid", "ulid", "nanoid", "ksuid", "Ksuid", "cuid",
];

impl<'a> FileCx<'a> {
    pub fn new(src: Src<'a>, module: Path) -> Self {
        Self {
            src,
            module,
            refs: RefCell::new(Vec::new()),
            follow_params: std::cell::Cell::new(false),
            passing: std::cell::Cell::new(false),
            caches: std::rc::Rc::default(),
            owner: 0,
            borrowed: std::cell::Cell::new(false),
            items: None,
            piece: None,
            whole_file: std::cell::Cell::new(false),
            whole_file_names: RefCell::new(Vec::new()),
            value_params: RefCell::new(Vec::new()),
        }
    }

    /// This context, knowing the tree's nodes that `syntax::parent_map` collected from
    /// its root (in pre-order, as that walk found them), or at least its `fn` items.
    pub fn with_items(self, items: &'a [Node<'a>]) -> Self {
        Self {
            items: Some(items),
            ..self
        }
    }

    /// This context, sharing `caches` with the other contexts over the same tree (and
    /// the same items, [`FileCx::with_items`]), as context `owner` among them.
    pub fn sharing(self, caches: std::rc::Rc<FileCaches>, owner: usize) -> Self {
        Self {
            caches,
            owner,
            ..self
        }
    }

    /// The context of the piece `range` of a large file, whose references are
    /// numbered from `first_ref` (see [`FileCx::piece`]).
    pub fn for_piece(
        src: Src<'a>,
        module: Path,
        first_ref: usize,
        range: std::ops::Range<usize>,
    ) -> Self {
        Self {
            piece: Some((first_ref, range)),
            ..Self::new(src, module)
        }
    }

    /// The text of the code this context's tree holds: the file's, or a piece's. A
    /// pass that skips a file never spelling some name asks it of this text, not of
    /// the whole file once per piece.
    pub fn own_text(&self) -> &'a str {
        match &self.piece {
            Some((_, range)) => self.src.text.get(range.clone()).unwrap_or(""),
            None => self.src.text,
        }
    }

    /// Notes that a lookup needs the whole file's items, not only this tree's: a
    /// piece's index is then not the file's (see `pieces.rs`).
    pub fn whole_file_lookup(&self) {
        if self.piece.is_some() {
            self.whole_file.set(true);
        }
    }

    /// [`FileCx::whole_file_lookup`] of the items named `name`: what it finds can
    /// change only with an item whose text spells the name.
    pub fn whole_file_lookup_of(&self, name: &str) {
        if self.piece.is_some() {
            self.whole_file.set(true);
            for names in [&self.whole_file_names, &self.caches.names] {
                let mut names = names.borrow_mut();
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
        }
    }

    /// Whether this is a piece's context (see [`FileCx::for_piece`]).
    pub fn is_piece(&self) -> bool {
        self.piece.is_some()
    }

    /// Whether a piece's code looked up something in the whole file.
    pub fn needed_whole_file(&self) -> bool {
        self.whole_file.get() || self.borrowed.get()
    }

    /// Whether this context used what another context sharing its caches found
    /// ([`FileCx::sharing`]): its lookups are then every name those looked up.
    pub fn borrowed(&self) -> bool {
        self.borrowed.get()
    }

    /// The names a piece's code looked up in the whole file (see
    /// [`FileCx::whole_file_lookup_of`]).
    pub fn whole_file_names(&self) -> Vec<String> {
        self.whole_file_names.borrow().clone()
    }

    /// What a search for typed builders (`want`) from `node` at `depth` found before,
    /// when one did (see `batch.rs`).
    pub fn roots_found(&self, want: u8, node: Node<'a>, depth: usize) -> Option<Vec<Node<'a>>> {
        let roots = self.caches.roots.borrow();
        let (owner, found) = roots.get(&(want, node.id(), depth))?;
        self.borrow_of(*owner);
        let top = ancestors(self.src, node).last().unwrap_or(node);
        found.iter().map(|&at| self.node_at(top, at)).collect()
    }

    /// The node of the tree under `top` at `at` ([`node_place`]).
    pub fn node_at(&self, top: Node<'a>, (start, end, id): NodeAt) -> Option<Node<'a>> {
        // The node is the smallest named one over its bytes, or one above it over the
        // same bytes.
        let mut n = top.named_descendant_for_byte_range(start, end)?;
        while n.id() != id {
            n = self
                .src
                .parent(n)
                .filter(|p| p.byte_range() == (start..end))?;
        }
        Some(n)
    }

    /// Remembers what a search for typed builders found (see [`FileCx::roots_found`]).
    pub fn keep_roots(&self, want: u8, node: Node<'_>, depth: usize, found: &[Node<'_>]) {
        let found = found
            .iter()
            .map(|n| (n.start_byte(), n.end_byte(), n.id()))
            .collect();
        self.caches
            .roots
            .borrow_mut()
            .insert((want, node.id(), depth), (self.owner, found));
    }

    /// Notes that an entry of the shared caches that `owner` made was used.
    fn borrow_of(&self, owner: usize) {
        if owner != self.owner {
            self.borrowed.set(true);
        }
    }

    /// What the searches for typed builders found under `node` before
    /// ([`ShapeAt`]), when one looked there.
    pub(in crate::scanner) fn shape_at(&self, node: usize) -> Option<ShapeAt> {
        let shapes = self.caches.shapes.borrow();
        let (owner, at) = shapes.get(&node)?;
        self.borrow_of(*owner);
        Some(at.clone())
    }

    /// Remembers what a search looks at under `node` (the part found first).
    pub(in crate::scanner) fn keep_shape(&self, node: usize, at: ShapeAt) {
        self.caches
            .shapes
            .borrow_mut()
            .insert(node, (self.owner, at));
    }

    /// Adds to what is remembered under `node` (a later part of a search); an entry
    /// another context made is then both's.
    pub(in crate::scanner) fn add_to_shape(&self, node: usize, add: impl FnOnce(&mut ShapeAt)) {
        if let Some((owner, at)) = self.caches.shapes.borrow_mut().get_mut(&node) {
            if *owner != self.owner {
                self.borrowed.set(true);
                *owner = SHARED;
            }
            add(at);
        }
    }

    /// The calls in `block` that add to a collection ([`Push`]), in pre-order, found
    /// once per block: a transaction's items are searched for at every binding, helper
    /// and depth, and each search walked the body between a `let` and its last use.
    pub fn pushes(&self, block: Node<'_>) -> std::rc::Rc<[Push]> {
        if let Some(known) = self.caches.pushes.borrow().get(&block.id()) {
            return std::rc::Rc::clone(known);
        }
        let src = self.src;
        let call_k = crate::scanner::syntax::nodes::kind_id("call_expression");
        let found: std::rc::Rc<[Push]> = descendants(block, &mut |n| n.kind_id() == call_k)
            .into_iter()
            .filter_map(|call| {
                let (recv, m, _) = method_call(src, call)?;
                let recv = peel(recv);
                matches!(m.as_str(), "push" | "extend" | "insert" | "push_back").then(|| Push {
                    call: (call.start_byte(), call.end_byte()),
                    receiver: (recv.start_byte(), recv.end_byte()),
                })
            })
            .collect();
        self.caches
            .pushes
            .borrow_mut()
            .insert(block.id(), std::rc::Rc::clone(&found));
        found
    }

    /// [`impl_type`], remembered per function: every pending path or call asks it, and
    /// outside an `impl` the climb went all the way to the root.
    pub fn impl_type(&self, node: Node<'_>) -> Option<String> {
        let src = self.src;
        for a in ancestors(src, node) {
            match crate::scanner::syntax::parse::kind(a) {
                "impl_item" => return field(a, "type").map(|t| type_name(src.of(t))),
                "function_item" => {
                    if let Some(known) = self.caches.fn_impls.borrow().get(&a.id()) {
                        return known.clone();
                    }
                    let ty = impl_type(src, a);
                    self.caches.fn_impls.borrow_mut().insert(a.id(), ty.clone());
                    return ty;
                }
                _ => {}
            }
        }
        None
    }

    /// [`FileCx::impl_type`], interned, for what the index keeps.
    fn impl_name(&self, node: Node<'_>) -> Option<Name> {
        self.impl_type(node).map(|t| intern(&t))
    }

    /// The byte ranges of the `fn` items of the file under `root`, by name.
    pub fn functions(&self, root: Node<'_>) -> &FnRanges {
        let src = self.src;
        self.whole_file_lookup();
        self.caches.fn_ranges.get_or_init(|| {
            let mut by_name = FnRanges::new();
            // The parent map's walk is the one `descendants` makes from the root (same
            // order and depth guard; the literals it leaves out hold no items).
            let fn_item = crate::scanner::syntax::nodes::kind_id("function_item");
            let fns = match self.items {
                Some(items) => items
                    .iter()
                    .copied()
                    .filter(|n| n.kind_id() == fn_item)
                    .collect(),
                None => descendants(root, &mut |n| n.kind() == "function_item"),
            };
            for f in fns {
                if let Some(name) = field(f, "name") {
                    by_name
                        .entry(src.of(name).to_string())
                        .or_default()
                        .push((f.start_byte(), f.end_byte()));
                }
            }
            by_name
        })
    }

    /// [`FileCx::functions`] as nodes, when the caller gave the tree's items
    /// ([`FileCx::with_items`]): found among them, rather than each searched for in
    /// the tree by its range (a search per function, for every batch setter's search).
    pub fn function_nodes(&self) -> Option<std::collections::HashMap<&'a str, Vec<Node<'a>>>> {
        let items = self.items?;
        self.whole_file_lookup();
        let src = self.src;
        // Where the `fn` items are among the items, found once: the items are every
        // call too, and each batch setter's search filtered them all again.
        let at = self.caches.fn_items.get_or_init(|| {
            let fn_item = crate::scanner::syntax::nodes::kind_id("function_item");
            (0..items.len())
                .filter(|i| items.get(*i).is_some_and(|n| n.kind_id() == fn_item))
                .collect()
        });
        let mut by_name: std::collections::HashMap<&'a str, Vec<Node<'a>>> =
            std::collections::HashMap::with_capacity(at.len());
        for f in at.iter().filter_map(|i| items.get(*i).copied()) {
            if let Some(name) = field(f, "name") {
                by_name.entry(src.of(name)).or_default().push(f);
            }
        }
        Some(by_name)
    }

    /// Whether a node is inside a `#[test]` fn or a `#[cfg(test)]` module, remembered
    /// per enclosing item (asked of every call, it climbed to the root each time).
    pub fn is_test_code(&self, node: Node<'_>) -> bool {
        self.test_code_above(ancestors(self.src, node))
    }

    /// [`FileCx::is_test_code`] of the node whose ancestors, innermost first, are
    /// `above` (`context::around` climbs once for this and more).
    pub fn test_code_above<'n>(&self, above: impl Iterator<Item = Node<'n>>) -> bool {
        let src = self.src;
        let mut known = self.caches.test_items.borrow_mut();
        // The items around the node, innermost first, up to one already known.
        let mut items: Vec<usize> = Vec::new();
        let mut test = false;
        for a in above {
            if !matches!(
                crate::scanner::syntax::parse::kind(a),
                "function_item" | "mod_item"
            ) {
                continue;
            }
            if let Some(k) = known.get(&a.id()) {
                test = *k;
                break;
            }
            items.push(a.id());
            if attributes_of(src, a).iter().any(|t| is_test_attr(t)) {
                test = true;
                break;
            }
        }
        // Each item's answer is its own attributes or an outer item's: once one is
        // test code, everything inside it is.
        for id in items {
            known.insert(id, test);
        }
        test
    }

    /// Resolves a name the code hands around: a table or index name, a field a
    /// constructor fills, a call's argument. Unlike [`FileCx::string`], a parameter
    /// is followed to what the crate's calls pass (`fn put_in(c, table: &str)` called
    /// as `put_in(c, "Orders")`); a key value's parameter stays a parameter, a value
    /// that changes per call.
    pub fn name(&self, node: Node<'_>) -> Resolved {
        let before = self.follow_params.replace(true);
        let r = self.string(node);
        self.follow_params.set(before);
        r
    }

    /// A reference for the link phase, as the `Unknown` that stands for it until then.
    pub fn pending(&self, text: &str, kind: RefKind) -> Resolved {
        let mut refs = self.refs.borrow_mut();
        refs.push(PendingRef {
            text: intern(text),
            kind,
        });
        let first = self.piece.as_ref().map_or(0, |(first, _)| *first);
        Resolved::unknown(format!("{PENDING}{}", first + refs.len() - 1))
    }

    /// Resolves a string-valued expression.
    pub fn string(&self, node: Node<'_>) -> Resolved {
        self.string_at(node, 0)
    }

    fn string_at(&self, node: Node<'_>, depth: usize) -> Resolved {
        if depth > 24 {
            return Resolved::unknown("the value is built too deeply to follow");
        }
        let src = self.src;
        let node = peel(node);
        if let Some(s) = string_value(src, node) {
            return Resolved::literal(s);
        }
        match node.kind() {
            "integer_literal" => {
                return match int_literal(src.of(node)) {
                    Some(n) => Resolved::literal(n.to_string()),
                    None => Resolved::unknown(format!(
                        "`{}` is not a number dynalint can read",
                        short(src.of(node))
                    )),
                }
            }
            // A `bool`'s text is what `to_string()` and `format!` give (`const
            // ARCHIVED: bool = false;` written as `ARCHIVED.to_string()`).
            "boolean_literal" => return Resolved::literal(src.of(node).to_string()),
            "identifier" => return self.identifier(node, depth),
            "scoped_identifier" => return self.path(node),
            "field_expression" => return self.field_ref(node),
            "binary_expression" => return self.concat(node, depth),
            "macro_invocation" => {
                return Resolved::unknown(format!(
                    "the macro `{}!` is not one dynalint can expand",
                    field(node, "macro").map(|m| src.of(m)).unwrap_or("?")
                ))
            }
            "call_expression" => {}
            "if_expression" | "match_expression" => return self.branch_string(node, depth),
            _ => {
                return Resolved::unknown(format!(
                    "`{}` is not a value dynalint can follow",
                    short(src.of(node))
                ))
            }
        }
        if let Some(path) = call_path(src, node) {
            let last = last_segment(path);
            let args = call_args(node);
            match last {
                "format" | "format_args" => return self.format(node, &args, depth).0,
                "concat" => return self.concat_args(&args, depth),
                "var" | "env" | "option_env" | "var_os"
                    if path.contains("env") || last == "env" || last == "option_env" =>
                {
                    return match args.first().map(|a| self.string_at(*a, depth + 1)) {
                        Some(r) => match r.value() {
                            Some(v) => Resolved::Env { var: v.to_string() },
                            None => Resolved::unknown(
                                "the environment variable's name is not known statically",
                            ),
                        },
                        None => Resolved::unknown("`env::var` without a name"),
                    };
                }
                "from" | "new" if matches!(type_segment(path), Some("String" | "Cow")) => {
                    if let Some(a) = args.first() {
                        return self.string_at(*a, depth + 1);
                    }
                }
                "new" if matches!(type_segment(path), Some("LazyLock" | "Lazy" | "LazyCell")) => {
                    if let Some(body) = args.first().and_then(|c| closure_body(*c)) {
                        return self.string_at(body, depth + 1);
                    }
                }
                "Some" | "Ok" => {
                    if let Some(a) = args.first() {
                        return self.string_at(*a, depth + 1);
                    }
                }
                _ => {}
            }
            // `T::table_name()` of a type parameter: what each caller's type returns.
            if let Some(kind) = self.type_param_ref(node, &split_path(path), true) {
                return self.pending(path, kind);
            }
            // `required_env("TABLE")`: a helper of this file that reads the environment
            // variable its parameter names.
            if let Some(var) = self.env_helper_var(node, path, &args, depth) {
                return var;
            }
            // Maybe a function of the crate: the link phase looks at what it returns.
            return self.pending(path, self.call_kind(node, path));
        }
        if let Some((recv, name, call)) = method_call(src, node) {
            if name == "get_or_init" {
                if let Some(body) = call_args(call).first().and_then(|c| closure_body(*c)) {
                    return self.string_at(body, depth + 1);
                }
            }
            // `table_name.unwrap_or(TABLE_NAME)` of a parameter `table_name:
            // Option<&str>`: the crate's default, known by the parameter's name too (a
            // `refs` entry matches it), as a library's constructor offers it.
            if name == "unwrap_or" && self.optional_param(recv) {
                if let Some(default) = call_args(call).first() {
                    return Resolved::Const {
                        name: src.of(peel(recv)).to_string(),
                        value: Box::new(self.string_at(*default, depth + 1)),
                    };
                }
            }
            if PASS_THROUGH.contains(&name.as_str()) {
                return self.string_at(recv, depth + 1);
            }
            if name == "join" || name == "concat" {
                return Resolved::unknown("the value is joined from parts at run time");
            }
            if let Some(kind) = self.method_kind(recv, &name) {
                return self.pending(&name, kind);
            }
            return Resolved::unknown(format!("the value comes from a call to `.{name}()`"));
        }
        Resolved::unknown(format!(
            "`{}` is not a value dynalint can follow",
            short(src.of(node))
        ))
    }

    fn identifier(&self, node: Node<'_>, depth: usize) -> Resolved {
        let src = self.src;
        let name = src.of(node);
        match lookup(src, node, name) {
            Some(Binding::Let { decl, value, .. }) => {
                let Some(value) = value else {
                    return Resolved::unknown(format!("`{name}` is declared without a value"));
                };
                let base = self.string_at(value, depth + 1);
                let base = self.apply_pushes(decl, node, name, base, depth);
                Resolved::Const {
                    name: name.to_string(),
                    value: Box::new(base),
                }
            }
            Some(Binding::Param { .. }) => match self.param_ref(node, name) {
                Some(kind) if self.follow_params.get() => self.pending(name, kind),
                _ => Resolved::unknown(format!(
                    "`{name}` is a parameter of `{}`",
                    enclosing_fn_name(src, node).unwrap_or("the function")
                )),
            },
            Some(Binding::LoopVar) => {
                Resolved::unknown(format!("`{name}` changes with each iteration"))
            }
            Some(Binding::Pattern) => Resolved::unknown(format!("`{name}` is bound by a pattern")),
            None => self.path(node),
        }
    }

    /// An `if` or `match` as a string: the value of the one branch that gives one,
    /// when every other diverges (`Err(_) => { eprintln!(..); std::process::exit(1); }`,
    /// `None => return`), else the value all its branches give alike. Branches that
    /// give two values, or one the scanner cannot read, leave it unknown: one known
    /// branch beside others is not the value.
    fn branch_string(&self, node: Node<'_>, depth: usize) -> Resolved {
        let unknown = || Resolved::unknown("the value depends on a branch");
        let mut ends = Vec::new();
        crate::scanner::index::returns::tails(self.src, node, &mut ends, 0);
        if ends.is_empty() || ends.len() > MAX_BRANCHES || ends.iter().any(|e| e.id() == node.id())
        {
            return unknown();
        }
        if let [one] = ends.as_slice() {
            return self.string_at(*one, depth + 1);
        }
        let mut values = ends.iter().map(|e| self.string_at(*e, depth + 1));
        let Some(first) = values.next() else {
            return unknown();
        };
        let certain = |r: &Resolved| r.value().is_some() || matches!(r, Resolved::Env { .. });
        if certain(&first) && values.all(|r| r == first) {
            first
        } else {
            unknown()
        }
    }

    /// Whether `node` is a parameter declared `Option<..>`.
    fn optional_param(&self, node: Node<'_>) -> bool {
        let n = peel(node);
        n.kind() == "identifier"
            && matches!(
                lookup(self.src, n, self.src.of(n)),
                Some(Binding::Param { ty: Some(t) }) if self.src.of(t).trim_start_matches('&').trim().starts_with("Option<")
            )
    }

    /// `required_env("TABLE")` where this file's `fn required_env(name: &str)` returns
    /// `env::var(name)` (unwrapped or its error mapped): the variable the argument
    /// names, as `env::var("TABLE")` is.
    fn env_helper_var(
        &self,
        call: Node<'_>,
        path: &str,
        args: &[Node<'_>],
        depth: usize,
    ) -> Option<Resolved> {
        let src = self.src;
        if path.contains("::") || args.is_empty() {
            return None;
        }
        self.whole_file_lookup_of(path);
        let root = ancestors(src, call).last()?;
        let ranges = self.functions(root).get(path)?;
        let [(start, end)] = ranges.as_slice() else {
            return None;
        };
        let f = root
            .descendant_for_byte_range(*start, *end)
            .filter(|f| f.kind() == "function_item")?;
        let params: Vec<Node<'_>> = field(f, "parameters")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.kind() == "parameter")
            .collect();
        if params.len() != args.len() {
            return None;
        }
        // The body is one expression: `env::var(name)` under unwrapping and error
        // mapping.
        let body = field(f, "body")?;
        let parts = named_children(body);
        let [tail] = parts.as_slice() else {
            return None;
        };
        let mut e = peel(*tail);
        while let Some((recv, name, _)) = method_call(src, e) {
            if !matches!(
                name.as_str(),
                "map_err"
                    | "unwrap"
                    | "expect"
                    | "ok"
                    | "context"
                    | "with_context"
                    | "ok_or"
                    | "ok_or_else"
                    | "unwrap_or_else"
                    | "unwrap_or_default"
                    | "unwrap_or"
            ) {
                return None;
            }
            e = peel(recv);
        }
        let read = call_path(src, e)?;
        if !(read.ends_with("env::var") || read == "var") {
            return None;
        }
        let named = call_args(e).first().map(|a| src.of(peel(*a)))?;
        let index = params.iter().position(|p| {
            field(*p, "pattern").is_some_and(|pt| src.of(pt).trim_start_matches("mut ") == named)
        })?;
        let arg = self.string_at(*args.get(index)?, depth + 1);
        arg.value().map(|v| Resolved::Env { var: v.to_string() })
    }

    /// The parameter `name` of the function around `at`, as a reference to the
    /// arguments of its calls.
    pub(crate) fn param_ref(&self, at: Node<'_>, name: &str) -> Option<RefKind> {
        let src = self.src;
        let f = ancestors(src, at).find(|a| a.kind() == "function_item")?;
        let function = field(f, "name").map(|n| src.of(n).to_string())?;
        let params: Vec<Node<'_>> = field(f, "parameters")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.kind() == "parameter")
            .collect();
        let index = params.iter().position(|p| {
            field(*p, "pattern")
                .is_some_and(|pt| src.of(pt).trim_start_matches("mut ").trim() == name)
        })?;
        Some(RefKind::Param {
            function: intern(&function),
            self_ty: self.impl_name(f),
            index,
            arity: params.len(),
        })
    }

    /// [`Self::param_ref`] for a value a request holds (`.item("pk", pk)`,
    /// `.limit(limit as i32)`, `.set_item(item)`): the link reads it per call, at each
    /// chain that continues a helper's returned builder, or at each call of a helper
    /// that sends the request itself when its callers pass values it can read
    /// (`Linker::param_bindings`). Anywhere else it stays the unknown parameter.
    ///
    /// Only in a function that holds a request: one that returns a request's builder
    /// (`-> QueryFluentBuilder`) or sends one (`.send()`), or as what a call passes
    /// ([`Self::passing`]), which the link asks of only when the called function's
    /// parameter is a request's value. A parameter of any other function (`fn pk(id:
    /// &str) -> String`) is no request's value there; followed, it asked every caller
    /// of every function that passes one on, and parsed their ruled-out files again,
    /// for values no rule reads.
    pub fn value_param_ref(&self, at: Node<'_>, name: &str) -> Option<RefKind> {
        let src = self.src;
        let f = ancestors(src, at).find(|a| a.kind() == "function_item")?;
        let known = self.caches.fn_requests.borrow().get(&f.id()).copied();
        let holds = known.unwrap_or_else(|| {
            let holds = field(f, "return_type")
                .is_some_and(|t| src.of(t).trim_end().ends_with("FluentBuilder"))
                || field(f, "body").is_some_and(|b| src.of(b).contains(".send()"));
            self.caches.fn_requests.borrow_mut().insert(f.id(), holds);
            holds
        });
        if !holds {
            // Passed on by a function that holds no request: not one of the file's
            // own request helpers' (`value_params`), whose calls' values are read
            // only once the link asks for them.
            return self
                .passing
                .get()
                .then(|| self.param_ref(at, name))
                .flatten();
        }
        let kind = self.param_ref(at, name)?;
        let mut seen = self.value_params.borrow_mut();
        if !seen.contains(&kind) {
            seen.push(kind.clone());
        }
        Some(kind)
    }

    /// The parameters a request of this context's code holds as a value or map
    /// (see [`FileCx::value_param_ref`]).
    pub fn value_params(&self) -> Vec<RefKind> {
        self.value_params.borrow().clone()
    }

    /// `let mut s = String::from("a"); s.push_str("b"); s += "c";` before the use.
    fn apply_pushes(
        &self,
        decl: Node<'_>,
        use_at: Node<'_>,
        name: &str,
        base: Resolved,
        depth: usize,
    ) -> Resolved {
        let src = self.src;
        let Some(block) = src.parent(decl) else {
            return base;
        };
        let (from, to) = (decl.end_byte(), use_at.start_byte());
        // Most names are only read between their `let` and the use: a look at the
        // text spares the walk over everything in between, which made long functions
        // quadratic (every use walked the body up to it).
        if !may_change(src.text, from, to, name) || !changed_in_tree(src, block, from, to, name) {
            return base;
        }
        let mut parts = vec![base];
        let mut any = false;
        // A change made on some paths only (in an `if`, a loop, a closure) leaves the
        // string unknown: each path builds another one, and a guess would be wrong on
        // some (`SET a = :a` on one path, `SET a = :a, b = :b` on the other).
        // A branch that holds the use too is a path the use is on: no choice there.
        let holds_use = |a: Node<'_>| {
            a.start_byte() <= use_at.start_byte() && use_at.end_byte() <= a.end_byte()
        };
        let on_some_paths = |n: Node<'_>| {
            ancestors(src, n)
                .take_while(|a| a.id() != block.id())
                .any(|a| match a.kind() {
                    "block" => {
                        src.parent(a).is_some_and(|p| p.kind() == "if_expression") && !holds_use(a)
                    }
                    "match_arm" | "else_clause" => !holds_use(a),
                    "while_expression" | "for_expression" | "loop_expression"
                    | "closure_expression" => true,
                    _ => false,
                })
        };
        let changed_on_some_paths = || {
            Resolved::unknown(format!(
                "`{name}` is changed on some paths only: each path builds another string"
            ))
        };
        for n in descendants_between(block, from, to, &mut |n| {
            matches!(
                n.kind(),
                "call_expression"
                    | "compound_assignment_expr"
                    | "assignment_expression"
                    | "macro_invocation"
                    | "reference_expression"
            )
        }) {
            match n.kind() {
                "compound_assignment_expr" => {
                    let left = field(n, "left").map(|l| src.of(l));
                    if left == Some(name) {
                        if on_some_paths(n) || !src.of(n).contains("+=") {
                            return changed_on_some_paths();
                        }
                        if let Some(r) = field(n, "right") {
                            parts.push(self.string_at(r, depth + 1));
                            any = true;
                        }
                    }
                }
                "assignment_expression" => {
                    if field(n, "left").is_some_and(|l| src.of(l) == name) {
                        if on_some_paths(n) {
                            return changed_on_some_paths();
                        }
                        // Assigned anew: what came before no longer counts.
                        let Some(r) = field(n, "right") else {
                            return changed_on_some_paths();
                        };
                        parts = vec![self.string_at(r, depth + 1)];
                        any = true;
                    }
                }
                // `write!(s, ..)`, `&mut s` handed to a function: changed in ways the
                // scanner does not follow.
                "macro_invocation" => {
                    if macro_first_arg(src.of(n)) == Some(name) {
                        return Resolved::unknown(format!(
                            "`{name}` is written to by a macro dynalint does not expand"
                        ));
                    }
                }
                "reference_expression" => {
                    let mutable = src.of(n).starts_with("&mut");
                    if mutable && named_children(n).last().is_some_and(|v| src.of(*v) == name) {
                        return Resolved::unknown(format!(
                            "`{name}` is lent as `&mut` and may be changed"
                        ));
                    }
                }
                _ => {
                    let Some((recv, m, call)) = method_call(src, n) else {
                        continue;
                    };
                    if src.of(recv) != name {
                        continue;
                    }
                    match m.as_str() {
                        "push_str" | "push" => {
                            if on_some_paths(n) {
                                return changed_on_some_paths();
                            }
                            if let Some(a) = call_args(call).first() {
                                parts.push(self.string_at(*a, depth + 1));
                                any = true;
                            }
                        }
                        "pop" | "truncate" | "clear" | "insert" | "insert_str" | "remove"
                        | "retain" | "drain" | "replace_range" | "extend" | "split_off" => {
                            return Resolved::unknown(format!(
                                "`{name}` is changed by `.{m}()`, which dynalint does not follow"
                            ));
                        }
                        _ => {}
                    }
                }
            }
        }
        if !any {
            return parts.pop().unwrap_or_else(|| Resolved::unknown("empty"));
        }
        join_parts(&parts)
    }

    /// `T::TABLE` / `T::table_name()` with `T` a type parameter in scope at `node`:
    /// the reference to what each caller gives `T` (see [`RefKind::TypeParam`]).
    fn type_param_ref(&self, node: Node<'_>, segments: &[Name], call: bool) -> Option<RefKind> {
        let src = self.src;
        let (first, rest) = segments.split_first()?;
        if rest.is_empty() {
            return None;
        }
        let f = ancestors(src, node).find(|a| a.kind() == "function_item")?;
        let function = field(f, "name").map(|n| src.of(n).to_string())?;
        let names_of = |params: Option<Node<'_>>| -> Vec<String> {
            params
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.kind() == "type_parameter")
                .filter_map(|p| field(p, "name").map(|n| src.of(n).to_string()))
                .collect()
        };
        let arity = field(f, "parameters")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.kind() == "parameter")
            .count();
        let own = names_of(field(f, "type_parameters"));
        let (of_impl, position) = match own.iter().position(|n| **n == **first) {
            Some(i) => (false, i),
            None => {
                let imp = ancestors(src, f).find(|a| a.kind() == "impl_item")?;
                if !names_of(field(imp, "type_parameters"))
                    .iter()
                    .any(|n| **n == **first)
                {
                    return None;
                }
                // `impl<T: Entity> Repository<T>`: `T`'s place among the type's arguments.
                let args = field(imp, "type").and_then(|t| field(t, "type_arguments"))?;
                let i = named_children(args)
                    .iter()
                    .position(|a| src.of(*a) == &**first)?;
                (true, i)
            }
        };
        Some(RefKind::TypeParam {
            function: intern(&function),
            self_ty: self.impl_name(f),
            arity,
            of_impl,
            position,
            rest: rest.to_vec().into(),
            call,
        })
    }

    /// A path as a reference: `names::TABLE`, `Self::TABLE`, `TABLE`.
    pub fn path_ref(&self, node: Node<'_>) -> RefKind {
        RefKind::Path {
            segments: split_path(self.src.of(node)),
            module: self.module.clone(),
            self_ty: self.impl_name(node),
        }
    }

    /// A call of `path` (a plain call, not a method) as a reference to the crate's fn.
    fn call_kind(&self, call: Node<'_>, path: &str) -> RefKind {
        RefKind::Call {
            segments: split_path(path),
            module: self.module.clone(),
            self_ty: self.impl_name(call),
        }
    }

    /// A call that may be a function of the crate (`key_of(id)`, `Self::key(id)`,
    /// `self.key(id)`), as a pending reference the link phase looks up.
    pub fn fn_ref(&self, call: Node<'_>) -> Option<Resolved> {
        if let Some(path) = call_path(self.src, call) {
            return Some(self.pending(path, self.call_kind(call, path)));
        }
        let (recv, name, _) = method_call(self.src, call)?;
        let kind = self.method_kind(recv, &name)?;
        Some(self.pending(&name, kind))
    }

    /// `recv.name(..)` as a reference to a method of the crate, when the receiver's
    /// type is known: `self`, a typed local or parameter, or a field path from one of
    /// them (`self.config.tables()`, whose type the link phase finds).
    fn method_kind(&self, recv: Node<'_>, name: &str) -> Option<RefKind> {
        let mut fields = Vec::new();
        let mut cur = peel(recv);
        for _ in 0..4 {
            while cur.kind() == "field_expression" && fields.len() < 8 {
                fields.push(self.src.of(field(cur, "field")?).to_string());
                cur = peel(field(cur, "value")?);
            }
            // `let db = self.db.clone(); db.orders_table()`: the copied value's method.
            match copy_of(self.src, cur) {
                Some(c) => cur = c,
                None => break,
            }
        }
        fields.reverse();
        let (ty, ctor) = self.receiver_type(cur)?;
        Some(RefKind::Method {
            ty: intern(&ty),
            fields: intern_path(&fields),
            name: intern(name),
            ctor: ctor.map(|(f, unwrapped)| (intern(&f), unwrapped)),
        })
    }

    /// The type of a method call's receiver when it is `self` or a typed local, or a
    /// local bound to a constructor call (`let u = User::new(..)?`), which the link
    /// phase confirms.
    fn receiver_type(&self, recv: Node<'_>) -> Option<(String, Option<(String, bool)>)> {
        let recv = peel(recv);
        match recv.kind() {
            "self" => self.impl_type(recv).map(|t| (t, None)),
            "identifier" => match declared_type(self.src, recv) {
                Some(t) => Some((type_name(&t), None)),
                None => match lookup(self.src, recv, self.src.of(recv)) {
                    Some(Binding::Let {
                        value: Some(v),
                        ty: None,
                        ..
                    }) => constructed(self.src, v),
                    _ => None,
                },
            },
            _ => None,
        }
    }

    /// How many values `node` counts — a divisor (`% 15`), or the high end of a range
    /// from `low` (`0..=14`): known now, or a reference the link phase resolves when it
    /// is a constant (`% SHARDS`), or neither (`% self.shards`).
    fn count(
        &self,
        node: Node<'_>,
        low: u64,
        inclusive: bool,
        depth: usize,
    ) -> (Option<u64>, Option<Resolved>) {
        let src = self.src;
        let mut node = peel(node);
        while node.kind() == "type_cast_expression" {
            match field(node, "value") {
                Some(v) => node = peel(v),
                None => break,
            }
        }
        let size = |high: u128| count_between(low, high, inclusive);
        let pending = |n: Node<'_>| {
            let kind = RefKind::Count {
                high: Box::new(self.path_ref(n)),
                low,
                inclusive,
            };
            (None, Some(self.pending(src.of(n), kind)))
        };
        match node.kind() {
            "integer_literal" => (int_literal(src.of(node)).and_then(size), None),
            "identifier" => match lookup(src, node, src.of(node)) {
                Some(Binding::Let { value: Some(v), .. }) if depth < 4 => {
                    self.count(v, low, inclusive, depth + 1)
                }
                None => pending(node),
                _ => (None, None),
            },
            "scoped_identifier" => pending(node),
            _ => (None, None),
        }
    }

    /// The number of values `gen_range(0..=14)` / `random_range(0..15)` /
    /// `gen_range(0, 15)` draws from.
    fn range_count(&self, call: Node<'_>, depth: usize) -> (Option<u64>, Option<Resolved>) {
        let args = call_args(call);
        let low_of = |n: Option<Node<'_>>| match n {
            None => Some(0),
            Some(n) => int_literal(self.src.of(peel(n))).and_then(|v| u64::try_from(v).ok()),
        };
        match args.as_slice() {
            [r] if peel(*r).kind() == "range_expression" => {
                let r = peel(*r);
                let mut c = r.walk();
                let inclusive = r.children(&mut c).any(|k| k.kind() == "..=");
                let kids = named_children(r);
                let (lo, hi) = match kids.as_slice() {
                    [lo, hi] => (Some(*lo), *hi),
                    // `..15`: from zero.
                    [hi] if self.src.of(r).trim_start().starts_with("..") => (None, *hi),
                    _ => return (None, None),
                };
                match low_of(lo) {
                    Some(low) => self.count(hi, low, inclusive, depth),
                    None => (None, None),
                }
            }
            // rand before 0.8: `gen_range(low, high)`, high exclusive.
            [lo, hi] => match low_of(Some(*lo)) {
                Some(low) => self.count(*hi, low, false, depth),
                None => (None, None),
            },
            _ => (None, None),
        }
    }

    /// A path to a `const`/`static`, resolved at link time.
    fn path(&self, node: Node<'_>) -> Resolved {
        let text = self.src.of(node);
        let segments = split_path(text);
        if let Some(kind) = self.type_param_ref(node, &segments, false) {
            return self.pending(text, kind);
        }
        if segments.len() == 1 && segments[0].chars().any(|c| c.is_ascii_lowercase()) {
            // A lowercase single name that is no local: a fn item or a glob import.
            if !segments[0]
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            {
                return self.pending(
                    text,
                    RefKind::Path {
                        segments,
                        module: self.module.clone(),
                        self_ty: self.impl_name(node),
                    },
                );
            }
        }
        self.pending(
            text,
            RefKind::Path {
                segments,
                module: self.module.clone(),
                self_ty: self.impl_name(node),
            },
        )
    }

    /// `self.table` or `cfg.table` (with `cfg: Config`): a constructor's field value.
    fn field_ref(&self, node: Node<'_>) -> Resolved {
        let src = self.src;
        let mut fields = Vec::new();
        let mut cur = node;
        for _ in 0..8 {
            // `self.config.as_ref().unwrap().orders_table`: an `Option` field opened on
            // the way reads the same field (a field's type is kept without its
            // `Option`, see [`field_type_name`]).
            while let Some(recv) = opened(src, cur) {
                cur = recv;
            }
            // `let cfg = self.config.clone(); &cfg.table`: the copied value's field.
            if let Some(c) = copy_of(src, cur) {
                cur = c;
                continue;
            }
            if cur.kind() != "field_expression" {
                break;
            }
            if let Some(f) = field(cur, "field") {
                fields.push(src.of(f).to_string());
            }
            match field(cur, "value") {
                Some(v) => cur = peel(v),
                None => break,
            }
        }
        fields.reverse();
        let ty = match cur.kind() {
            "self" => self.impl_type(node),
            "identifier" => local_type(src, cur, 0),
            _ => None,
        };
        match ty {
            Some(ty) if !fields.is_empty() => {
                let ctor = match (cur.kind(), fields.len()) {
                    ("identifier", 1) => self.ctor_call(cur, &ty),
                    _ => None,
                };
                let kind = RefKind::Field {
                    ty: intern(&ty),
                    fields: intern_path(&fields),
                    ctor,
                };
                self.pending(src.of(node), kind)
            }
            _ => Resolved::unknown(format!(
                "`{}` is a field of a value whose type dynalint does not know",
                short(src.of(node))
            )),
        }
    }

    /// The constructor call a local holding a `ty` was bound to (`let t =
    /// Tables::new(name)?`, unannotated or annotated), with its arguments.
    fn ctor_call(&self, ident: Node<'_>, ty: &str) -> Option<Box<CtorCall>> {
        let Some(Binding::Let { value: Some(v), .. }) = lookup(self.src, ident, self.src.of(ident))
        else {
            return None;
        };
        let (t, f, _, call) = constructed_call(self.src, v)?;
        if t != ty {
            return None;
        }
        let args = call_args(call)
            .into_iter()
            .map(|a| crate::scanner::index::args::followable(self, a))
            .collect();
        Some(Box::new(CtorCall {
            function: intern(&f),
            args,
        }))
    }

    fn concat(&self, node: Node<'_>, depth: usize) -> Resolved {
        let src = self.src;
        let op = node.child_by_field_name("operator").map(|o| src.of(o));
        if op != Some("+") {
            return Resolved::unknown(format!(
                "`{}` is not a string dynalint can follow",
                short(src.of(node))
            ));
        }
        let parts: Vec<Resolved> = [field(node, "left"), field(node, "right")]
            .into_iter()
            .flatten()
            .map(|n| self.string_at(n, depth + 1))
            .collect();
        join_parts(&parts)
    }

    fn concat_args(&self, args: &[Node<'_>], depth: usize) -> Resolved {
        let parts: Vec<Resolved> = args.iter().map(|a| self.string_at(*a, depth + 1)).collect();
        join_parts(&parts)
    }

    /// `format!("USER#{}", id)`: the template with holes for what is not known, plus
    /// what is known of each hole's value.
    pub fn format(
        &self,
        call: Node<'_>,
        args: &[Node<'_>],
        depth: usize,
    ) -> (Resolved, Vec<ValueInfo>) {
        let src = self.src;
        let Some(tpl) = args.first().and_then(|a| string_value(src, *a)) else {
            return (
                Resolved::unknown("the format string is not a literal"),
                Vec::new(),
            );
        };
        let rest = &args[1..];
        let mut out = String::new();
        let mut parts = Vec::new();
        let mut positional = 0usize;
        let mut all_known = true;
        let mut chars = tpl.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    out.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    out.push('}');
                }
                '{' => {
                    let mut spec = String::new();
                    for c in chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        spec.push(c);
                    }
                    let name = spec.split(':').next().unwrap_or("").trim().to_string();
                    let arg: Option<Node<'_>> = if name.is_empty() {
                        positional += 1;
                        rest.get(positional - 1).copied()
                    } else if let Ok(i) = name.parse::<usize>() {
                        rest.get(i).copied()
                    } else {
                        // `{id}`: a named argument `id = expr`, or the variable `id`.
                        rest.iter()
                            .find_map(|a| {
                                (a.kind() == "assignment_expression"
                                    && field(*a, "left").is_some_and(|l| src.of(l) == name))
                                .then(|| field(*a, "right"))
                                .flatten()
                            })
                            .or(None)
                    };
                    let arg = arg.map(|a| {
                        if a.kind() == "assignment_expression" {
                            field(a, "right").unwrap_or(a)
                        } else {
                            a
                        }
                    });
                    let info = match arg {
                        Some(a) => self.value_at(a, depth + 1),
                        None if !name.is_empty() => self.named_hole(call, &name, depth),
                        None => ValueInfo::unknown(span(call)),
                    };
                    let debug = spec.contains('?');
                    match (&info.text, debug) {
                        (Some(r), false) if r.value().is_some() => {
                            out.push_str(r.value().unwrap_or(""))
                        }
                        // A constant from another file: a hole the link phase fills.
                        (Some(Resolved::Unknown { reason }), false)
                            if reason.starts_with(PENDING)
                                && !matches!(info.provenance, Provenance::ShardSuffix { .. }) =>
                        {
                            all_known = false;
                            out.push('{');
                            out.push_str(reason);
                            out.push('}');
                        }
                        _ => {
                            all_known = false;
                            out.push_str("{}");
                        }
                    }
                    parts.push(info);
                }
                c => out.push(c),
            }
        }
        if all_known {
            (Resolved::literal(out), parts)
        } else {
            (Resolved::Template { template: out }, parts)
        }
    }

    /// `{id}` inside a format string: the variable `id` in scope.
    fn named_hole(&self, call: Node<'_>, name: &str, depth: usize) -> ValueInfo {
        let mut v = ValueInfo::unknown(span(call));
        match lookup(self.src, call, name) {
            Some(Binding::Let {
                value: Some(val), ..
            }) => return self.value_at(val, depth + 1),
            Some(Binding::Param { ty, .. }) => {
                v.provenance = param_provenance(ty.map(|t| self.src.of(t)));
            }
            Some(Binding::LoopVar) => v.provenance = Provenance::Param,
            // `{PREFIX}` naming a constant: resolved at link time.
            None if name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit()) =>
            {
                v.text = Some(self.pending(
                    name,
                    RefKind::Path {
                        segments: intern_path(&[name]),
                        module: self.module.clone(),
                        self_ty: self.impl_name(call),
                    },
                ));
                v.provenance = Provenance::Constant;
            }
            _ => {}
        }
        v
    }

    /// What is known of an attribute value or placeholder value.
    pub fn value(&self, node: Node<'_>) -> ValueInfo {
        self.value_at(node, 0)
    }

    /// Runs `f` reading what a call passes (a helper's that returns or sends a
    /// request's builder, or receives one: its arguments as values and maps): a
    /// parameter of the function the call is in is then a reference whatever that
    /// function does itself, since the called function may put it into its request
    /// (`find_by_user(&self, limit: u32)` calling `query_in(&self.client, limit as
    /// i32)` or `Repo::new(&c).query(limit as i32)`): the link reads it at this
    /// function's calls when the called one's parameter is asked
    /// (`Linker::bindings_at`).
    pub fn passing<R>(&self, f: impl FnOnce() -> R) -> R {
        let before = self.passing.replace(true);
        let r = f();
        self.passing.set(before);
        r
    }

    /// `v` as a function of it alone leaves it: an enum-like value stays one, and a
    /// field's pending type is marked `mapped`; `None` for any other value (what a
    /// function makes of it is not known).
    fn mapped(&self, mut v: ValueInfo) -> Option<ValueInfo> {
        if v.provenance == Provenance::EnumLike {
            return Some(v);
        }
        let pr = v.text.as_ref().and_then(|t| self.pending_of(t))?;
        let RefKind::FieldType { ty, field, .. } = pr.kind else {
            return None;
        };
        let kind = RefKind::FieldType {
            ty,
            field,
            mapped: true,
        };
        v.text = Some(self.pending(&pr.text, kind));
        Some(v)
    }

    /// Whether `f`, a method's argument, computes from its own parameters alone: a
    /// conversion's path (`String::from`), or a closure whose body names no local but
    /// its parameters and no path but a conversion's (`Utc::now()`, `Uuid::new_v4()`
    /// give a new value per call, whatever the input).
    fn captures_nothing(&self, f: Node<'_>) -> bool {
        let src = self.src;
        let f = peel(f);
        let conversion =
            |p: Node<'_>| CONVERSIONS.contains(&last_segment(src.of(p).trim_start_matches('<')));
        if f.kind() == "scoped_identifier" {
            return conversion(f);
        }
        if f.kind() != "closure_expression" {
            return false;
        }
        let params: Vec<&str> = field(f, "parameters")
            .map(|p| {
                descendants(p, &mut |n| n.kind() == "identifier")
                    .into_iter()
                    .map(|n| src.of(n))
                    .collect()
            })
            .unwrap_or_default();
        let Some(body) = field(f, "body") else {
            return false;
        };
        let paths = descendants(body, &mut |n| {
            matches!(n.kind(), "scoped_identifier" | "scoped_type_identifier")
        });
        // Each outermost path (`std::string::String::from`, not its `std::string`).
        let inside = |a: &Node<'_>, b: &Node<'_>| {
            a.id() != b.id() && b.start_byte() <= a.start_byte() && a.end_byte() <= b.end_byte()
        };
        let outermost = paths.iter().filter(|p| !paths.iter().any(|q| inside(p, q)));
        if !outermost.into_iter().all(|p| conversion(*p)) {
            return false;
        }
        let in_path = |n: &Node<'_>| {
            paths
                .iter()
                .any(|p| p.start_byte() <= n.start_byte() && n.end_byte() <= p.end_byte())
        };
        descendants(body, &mut |n| n.kind() == "identifier")
            .iter()
            .all(|n| params.contains(&src.of(*n)) || in_path(n))
    }

    fn value_at(&self, node: Node<'_>, depth: usize) -> ValueInfo {
        let src = self.src;
        let node = peel(node);
        let mut v = ValueInfo::unknown(span(node));
        if depth > MAX_DEPTH / 8 {
            return v;
        }
        // AttributeValue::S(x) and friends.
        if let Some(path) = call_path(src, node) {
            let last = last_segment(path);
            let args = call_args(node);
            if type_segment(path) == Some("AttributeValue") {
                let ty = attr_type(last);
                let mut inner = match args.first() {
                    Some(a) => self.value_at(*a, depth + 1),
                    None => ValueInfo::unknown(span(node)),
                };
                inner.span = span(node);
                inner.ty = ty;
                if ty == Some(AttributeType::Null) {
                    inner.nullable = true;
                    inner.literal = None;
                    inner.provenance = Provenance::Literal;
                }
                if ty == Some(AttributeType::Bool) && inner.provenance != Provenance::Literal {
                    inner.provenance = Provenance::EnumLike;
                }
                return inner;
            }
            // `serde_json::to_value(log.action)`: the serialised form of a value of
            // few values takes as few.
            if path == "serde_json::to_value" {
                if let Some(mut inner) = args
                    .first()
                    .and_then(|a| self.mapped(self.value_at(*a, depth + 1)))
                {
                    inner.span = span(node);
                    return inner;
                }
                return v;
            }
            if matches!(last, "format" | "format_args") {
                let (text, parts) = self.format(node, &args, depth);
                v.provenance = combine(parts.iter().map(|p| &p.provenance));
                v.literal = text.value().map(str::to_string);
                if v.literal.is_some() {
                    v.provenance = Provenance::Constant;
                }
                v.text = Some(text);
                v.parts = parts;
                return v;
            }
            if matches!(last, "Some" | "Ok" | "from") && args.len() == 1 {
                if last == "from" && type_segment(path) == Some("AttributeValue") {
                    return v;
                }
                let mut inner = self.value_at(args[0], depth + 1);
                inner.span = span(node);
                return inner;
            }
            if last == "to_attribute_value" {
                if let Some(a) = args.first() {
                    let mut inner = self.value_at(*a, depth + 1);
                    inner.span = span(node);
                    return inner;
                }
            }
            if let Some(p) = call_provenance(src, node) {
                v.provenance = p;
                return v;
            }
            // A function of the crate: the link phase puts in what it returns. What its
            // arguments are decides when the function only passes a parameter on.
            v.text = Some(self.pending(path, self.call_kind(node, path)));
            v.provenance = match subtree_provenance(src, node) {
                Some(p) => p,
                None if !args.is_empty() => {
                    let ps: Vec<ValueInfo> =
                        args.iter().map(|a| self.value_at(*a, depth + 1)).collect();
                    combine(ps.iter().map(|p| &p.provenance))
                }
                None => Provenance::Unknown,
            };
            return v;
        }
        match node.kind() {
            "string_literal" | "raw_string_literal" => {
                let s = string_value(src, node).unwrap_or_default();
                v.literal = Some(s.clone());
                v.text = Some(Resolved::literal(s));
                v.provenance = Provenance::Literal;
                return v;
            }
            "integer_literal" | "float_literal" => {
                v.literal = Some(
                    src.of(node)
                        .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '_')
                        .to_string(),
                );
                v.provenance = Provenance::Literal;
                return v;
            }
            "boolean_literal" => {
                v.literal = Some(src.of(node).to_string());
                v.provenance = Provenance::Literal;
                return v;
            }
            "identifier" => return self.identifier_value(node, depth),
            "match_expression" | "if_expression" => return self.branches_value(node, depth),
            // `x as u8`: the value of `x`, wrapped to the type when it is an integer.
            "type_cast_expression" => {
                if let Some(inner) = field(node, "value") {
                    let mut inner = self.value_at(inner, depth + 1);
                    inner.span = span(node);
                    if let Some(ty) = field(node, "type").map(|t| src.of(t).trim()) {
                        self.cast_value(&mut inner, ty);
                    }
                    return inner;
                }
                return v;
            }
            // `-1`: a negative number.
            "unary_expression" => {
                let text = src.of(node);
                let n = text
                    .strip_prefix('-')
                    .filter(|_| {
                        node.named_child(0)
                            .is_some_and(|c| c.kind() == "integer_literal")
                    })
                    .and_then(crate::scanner::index::ints::parse_int);
                if let Some(n) = n {
                    v.literal = Some((-n).to_string());
                    v.provenance = Provenance::Literal;
                }
                return v;
            }
            "scoped_identifier" => {
                // `u32::MAX`: the primitive's bound.
                if let Some(n) = crate::scanner::index::ints::primitive_bound(src.of(node)) {
                    v.literal = Some(n.to_string());
                    v.provenance = Provenance::Constant;
                    return v;
                }
                let r = self.path(node);
                v.text = Some(r);
                v.provenance = Provenance::Constant;
                return v;
            }
            "field_expression" => {
                let mut base = node;
                while base.kind() == "field_expression" {
                    match field(base, "value") {
                        Some(b) => base = peel(b),
                        None => break,
                    }
                }
                if base.kind() == "identifier" {
                    let b = self.identifier_value(base, depth);
                    if matches!(b.provenance, Provenance::Param) {
                        v.provenance = Provenance::Param;
                        // `log.action` with `log: &AuditLog`: the field's type says
                        // more, when the link finds it.
                        let direct =
                            field(node, "value").is_some_and(|b| peel(b).id() == base.id());
                        let ty = declared_type(src, base).and_then(|t| plain_type(&t).map(intern));
                        if let (true, Some(ty), Some(f)) = (direct, ty, field(node, "field")) {
                            let kind = RefKind::FieldType {
                                ty,
                                field: intern(src.of(f)),
                                mapped: false,
                            };
                            v.text = Some(self.pending(src.of(node), kind));
                        }
                        return v;
                    }
                }
                return v;
            }
            "binary_expression" => {
                let op = node.child_by_field_name("operator").map(|o| src.of(o));
                if op == Some("%") {
                    let (modulus, pending) = match field(node, "right") {
                        Some(r) => self.count(r, 0, false, depth),
                        None => (None, None),
                    };
                    v.provenance = Provenance::ShardSuffix { modulus };
                    // A constant divisor: the link phase turns it into the modulus.
                    v.text = pending;
                    return v;
                }
                if op == Some("+") {
                    let text = self.concat(node, depth);
                    v.literal = text.value().map(str::to_string);
                    v.provenance = if v.literal.is_some() {
                        Provenance::Constant
                    } else {
                        Provenance::Unknown
                    };
                    v.text = Some(text);
                    return v;
                }
                return v;
            }
            _ => {}
        }
        if let Some((recv, name, _)) = method_call(src, node) {
            if name == "to_string"
                || name == "as_str"
                || name == "into"
                || name == "to_owned"
                || name == "clone"
            {
                let mut inner = self.value_at(recv, depth + 1);
                inner.span = span(node);
                // `status.to_string()` on a non-string type: few distinct values.
                if name == "to_string" && inner.provenance == Provenance::Param {
                    if let Some(t) = declared_type(src, peel(recv)) {
                        if is_enum_like_type(&t) {
                            inner.provenance = Provenance::EnumLike;
                        }
                    }
                }
                return inner;
            }
            if PASS_THROUGH.contains(&name.as_str()) {
                let mut inner = self.value_at(recv, depth + 1);
                inner.span = span(node);
                // `None` becomes the type's empty value (`""` for a string): a value
                // that may be missing, which an index key must not be.
                if name == "unwrap_or_default" {
                    inner.nullable = true;
                }
                return inner;
            }
            // `.and_then(|v| v.as_str().map(String::from))` on a value of few values:
            // a function of that value alone takes no more.
            if matches!(name.as_str(), "map" | "and_then") {
                let pure = call_args(node)
                    .first()
                    .is_some_and(|f| self.captures_nothing(*f));
                if let Some(mut inner) = pure
                    .then(|| self.mapped(self.value_at(recv, depth + 1)))
                    .flatten()
                {
                    inner.span = span(node);
                    return inner;
                }
            }
            if let Some(p) = call_provenance(src, node) {
                v.provenance = match p {
                    Provenance::ShardSuffix { .. } => {
                        let (modulus, pending) = self.range_count(node, depth);
                        v.text = pending;
                        Provenance::ShardSuffix { modulus }
                    }
                    p => p,
                };
                return v;
            }
            if let Some(kind) = self.method_kind(recv, &name) {
                v.text = Some(self.pending(&name, kind));
                return v;
            }
        }
        if let Some(p) = subtree_provenance(src, node) {
            v.provenance = p;
        }
        v
    }

    /// `value as ty`, `ty` a primitive integer type: a number the value holds is wrapped
    /// to the type; a reference the link resolves (a parameter, a constant) is wrapped
    /// in a [`RefKind::Cast`]; anything else is no number the code certainly sends.
    fn cast_value(&self, v: &mut ValueInfo, ty: &str) {
        use crate::scanner::index::ints::{cast, is_int_type, parse_int};
        if !is_int_type(ty) {
            return;
        }
        if let Some(lit) = v.literal.take() {
            v.literal = parse_int(&lit)
                .and_then(|n| cast(n, ty))
                .map(|n| n.to_string());
            if v.literal.is_none() {
                v.text = None;
            }
            return;
        }
        // Only a reference that is the value itself: a shard suffix's text is its
        // modulus (`(id % SHARDS) as u8`), not what the cast converts.
        let inner = v
            .text
            .as_ref()
            .and_then(|t| self.pending_of(t))
            .filter(|p| matches!(p.kind, RefKind::Param { .. } | RefKind::Path { .. }));
        if inner.is_none() && matches!(v.provenance, Provenance::ShardSuffix { .. }) {
            return;
        }
        v.text = inner.map(|pr| {
            self.pending(
                &pr.text,
                RefKind::Cast {
                    value: Box::new(pr.kind),
                    ty: intern(ty),
                },
            )
        });
    }

    /// The reference a pending value of this context stands for.
    pub fn pending_of(&self, r: &Resolved) -> Option<PendingRef> {
        let Resolved::Unknown { reason } = r else {
            return None;
        };
        let n: usize = reason.strip_prefix(PENDING)?.parse().ok()?;
        let first = self.piece.as_ref().map_or(0, |(first, _)| *first);
        self.refs.borrow().get(n.checked_sub(first)?).cloned()
    }

    /// `match rule.kind { Allow => "allow", Block => "block" }`: one constant on every
    /// branch is that constant; constants that differ are one of few values (an enum's
    /// text); a branch of anything else leaves the value unknown.
    fn branches_value(&self, node: Node<'_>, depth: usize) -> ValueInfo {
        let mut v = ValueInfo::unknown(span(node));
        let mut ends = Vec::new();
        crate::scanner::index::returns::tails(self.src, node, &mut ends, 0);
        // An `if` without `else` ends in itself: `()` on the other path.
        if ends.is_empty() || ends.len() > MAX_BRANCHES || ends.iter().any(|e| e.id() == node.id())
        {
            return v;
        }
        let values: Vec<ValueInfo> = ends.iter().map(|e| self.value_at(*e, depth + 1)).collect();
        let constant =
            |b: &ValueInfo| matches!(b.provenance, Provenance::Literal | Provenance::Constant);
        if !values.iter().all(constant) {
            return v;
        }
        let first = &values[0];
        if first.literal.is_some() && values.iter().all(|b| b.literal == first.literal) {
            let mut one = first.clone();
            one.span = span(node);
            return one;
        }
        v.provenance = Provenance::EnumLike;
        v.ty = first.ty.filter(|t| values.iter().all(|b| b.ty == Some(*t)));
        v
    }

    fn identifier_value(&self, node: Node<'_>, depth: usize) -> ValueInfo {
        let src = self.src;
        let name = src.of(node);
        let mut v = ValueInfo::unknown(span(node));
        match lookup(src, node, name) {
            Some(Binding::Let {
                value: Some(val), ..
            }) => {
                let mut inner = self.value_at(val, depth + 1);
                inner.span = span(node);
                if let Some(t) = &inner.text {
                    if t.value().is_some() || matches!(t, Resolved::Template { .. }) {
                        inner.text = Some(Resolved::Const {
                            name: name.to_string(),
                            value: Box::new(t.clone()),
                        });
                    }
                }
                inner
            }
            Some(Binding::Param { ty, .. }) => {
                v.provenance = param_provenance(ty.map(|t| src.of(t)));
                // What each call of the helper passes, when the link can tell (see
                // `value_param_ref`).
                if let Some(kind) = self.value_param_ref(node, name) {
                    v.text = Some(self.pending(name, kind));
                }
                v
            }
            Some(Binding::LoopVar) | Some(Binding::Pattern) => {
                v.provenance = Provenance::Param;
                v
            }
            Some(Binding::Let { value: None, .. }) => v,
            None => {
                if name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                {
                    let r = self.path(node);
                    v.text = Some(r);
                    v.provenance = Provenance::Constant;
                }
                v
            }
        }
    }
}

/// How many integers lie in `low..high` (or `low..=high`); None for an empty range.
pub fn count_between(low: u64, high: u128, inclusive: bool) -> Option<u64> {
    let n = high
        .checked_add(u128::from(inclusive))?
        .checked_sub(u128::from(low))?;
    u64::try_from(n).ok().filter(|n| *n > 0)
}

/// `a::b::C` → `["a", "b", "C"]`.
fn split_path(text: &str) -> Path {
    let segments: Vec<&str> = text
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    intern_path(&segments)
}

/// An integer literal's value: `15`, `1_000`, `15u64`, `0x0F`.
pub fn int_literal(text: &str) -> Option<u128> {
    let t = text.replace('_', "");
    let (digits, radix) = match t.get(..2) {
        Some("0x") => (&t[2..], 16),
        Some("0o") => (&t[2..], 8),
        Some("0b") => (&t[2..], 2),
        _ => (t.as_str(), 10),
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (num, suffix) = digits.split_at(end);
    let suffix_ok = suffix.is_empty()
        || matches!(
            suffix,
            "u8" | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "isize"
        );
    if num.is_empty() || !suffix_ok {
        return None;
    }
    u128::from_str_radix(num, radix).ok()
}

/// The body of `|| expr` (or the block's tail).
pub fn closure_body(node: Node<'_>) -> Option<Node<'_>> {
    let node = peel(node);
    if node.kind() != "closure_expression" {
        return None;
    }
    let body = field(node, "body")?;
    if body.kind() == "block" {
        return named_children(body)
            .into_iter()
            .rfind(|c| !c.kind().ends_with("comment"));
    }
    Some(body)
}

/// Joins string parts: a literal when all are known, else a template with holes.
fn join_parts(parts: &[Resolved]) -> Resolved {
    if parts.iter().all(|p| p.value().is_some()) {
        return Resolved::literal(parts.iter().filter_map(|p| p.value()).collect::<String>());
    }
    if parts
        .iter()
        .any(|p| matches!(p, Resolved::Unknown { reason } if reason.starts_with(PENDING)))
    {
        // A constant from elsewhere: the link phase cannot splice templates, so say why.
        let known = parts.iter().filter(|p| p.value().is_some()).count();
        if known == 0 && parts.len() == 1 {
            return parts[0].clone();
        }
    }
    let mut t = String::new();
    for p in parts {
        match (p.value(), p.innermost()) {
            (Some(v), _) => t.push_str(v),
            (None, Resolved::Unknown { reason }) if reason.starts_with(PENDING) => {
                t.push('{');
                t.push_str(reason);
                t.push('}');
            }
            (None, Resolved::Template { template }) => t.push_str(template),
            _ => t.push_str("{}"),
        }
    }
    Resolved::Template { template: t }
}

fn attr_type(variant: &str) -> Option<AttributeType> {
    Some(match variant {
        "S" => AttributeType::S,
        "N" => AttributeType::N,
        "B" => AttributeType::B,
        "Bool" => AttributeType::Bool,
        "Null" => AttributeType::Null,
        "M" => AttributeType::M,
        "L" => AttributeType::L,
        "Ss" => AttributeType::SS,
        "Ns" => AttributeType::NS,
        "Bs" => AttributeType::BS,
        _ => return None,
    })
}

/// Provenance of a parameter by its declared type.
fn param_provenance(ty: Option<&str>) -> Provenance {
    match ty {
        Some(t) if is_enum_like_type(t) => Provenance::EnumLike,
        _ => Provenance::Param,
    }
}

/// The associated functions that convert a value to another form of it: a path to one
/// is a function of its argument alone.
const CONVERSIONS: &[&str] = &[
    "from",
    "to_string",
    "to_owned",
    "into",
    "as_str",
    "to_lowercase",
    "to_uppercase",
];

/// The name of a type written as a plain path (`&AuditLog`, `&mut types::Log`): its
/// last segment; `None` for a generic, tuple, slice or `dyn` type.
fn plain_type(t: &str) -> Option<&str> {
    let t = t.trim_start_matches('&').trim_start();
    let t = t.strip_prefix("mut ").unwrap_or(t).trim();
    let plain = !t.is_empty()
        && !t.starts_with("dyn ")
        && !t.starts_with("impl ")
        && t.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':');
    plain.then(|| last_segment(t))
}

/// `bool`, or a type that is not a string, number or id: an enum, most likely.
fn is_enum_like_type(t: &str) -> bool {
    let t = t.trim_start_matches('&').trim_start_matches("mut ").trim();
    if t == "bool" {
        return true;
    }
    let base = last_segment(t.split('<').next().unwrap_or(t));
    let plain = [
        "str",
        "String",
        "Cow",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
        "Uuid",
        "Ulid",
        "Option",
        "Vec",
        "Json",
        "Path",
        "Query",
        "Form",
        "Request",
        "Value",
        "Bytes",
        "DateTime",
        "NaiveDate",
        "Id",
        "UserId",
        "impl",
        "dyn",
        "T",
        "Self",
        "Arc",
        "Box",
        "Rc",
    ];
    !plain.contains(&base)
        && !base.ends_with("Id")
        && !base.ends_with("Request")
        && !base.ends_with("Input")
        && base.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && !base.ends_with("Event")
        && !base.ends_with("Context")
        && !base.ends_with("Params")
        && !base.ends_with("Payload")
        && !base.ends_with("Body")
        && !base.ends_with("Args")
        && false_for_structs(base)
}

/// Struct-like names (`Order`, `User`) are records, not enums; only names that read as
/// a kind, status or state count as enum-like.
fn false_for_structs(base: &str) -> bool {
    [
        "Status", "State", "Kind", "Type", "Role", "Level", "Tier", "Stage", "Phase", "Category",
        "Mode", "Facet", "Priority",
    ]
    .iter()
    .any(|s| base.ends_with(s))
}

/// What an unannotated local copies, when it copies a place: `x` of `let y =
/// x.clone()`, `x.to_owned()` or `let y = x` (`x` a local, `self` or a field path of
/// them), as a task or closure takes what it reads. A copy holds what `x` holds.
pub(super) fn copy_of<'t>(src: Src<'t>, ident: Node<'t>) -> Option<Node<'t>> {
    if ident.kind() != "identifier" {
        return None;
    }
    let Some(Binding::Let {
        value: Some(v),
        ty: None,
        ..
    }) = lookup(src, ident, src.of(ident))
    else {
        return None;
    };
    copied_value(src, v)
}

/// [`copy_of`] for a `let` without a type whose value is `v`, for a caller that has
/// looked the binding up already (a lookup climbs the function: twice was a large
/// part of reading a call's arguments).
pub(super) fn copied_value<'t>(src: Src<'t>, v: Node<'t>) -> Option<Node<'t>> {
    let mut v = peel(v);
    if let Some((recv, name, call)) = method_call(src, v) {
        if !matches!(name.as_str(), "clone" | "to_owned") || !call_args(call).is_empty() {
            return None;
        }
        v = peel(recv);
    }
    matches!(v.kind(), "identifier" | "self" | "field_expression").then_some(v)
}

/// `User::new(..)`, through `?`, `.await`, `.unwrap()`, `.expect(..)` and error mapping:
/// `(type, (function, unwrapped))`, `unwrapped` when one `?`/`unwrap`/`expect` took the
/// value out of a `Result` or `Option`. More than one, or any other call, is not followed.
fn constructed(src: Src<'_>, value: Node<'_>) -> Option<(String, Option<(String, bool)>)> {
    let (ty, f, unwrapped, _) = constructed_call(src, value)?;
    Some((ty, Some((f, unwrapped))))
}

/// [`constructed`]'s type, function and unwrapping, with the call itself.
fn constructed_call<'t>(src: Src<'t>, value: Node<'t>) -> Option<(String, String, bool, Node<'t>)> {
    let mut cur = value;
    let mut unwraps = 0usize;
    for _ in 0..8 {
        match cur.kind() {
            "try_expression" => unwraps += 1,
            "await_expression" | "parenthesized_expression" => {}
            "call_expression" => {
                if let Some((recv, name, _)) = method_call(src, cur) {
                    match name.as_str() {
                        "unwrap" | "expect" => unwraps += 1,
                        "map_err" | "ok_or" | "ok_or_else" | "context" | "with_context" => {}
                        _ => return None,
                    }
                    cur = recv;
                    continue;
                }
                let path = call_path(src, cur)?;
                let ty = type_segment(path)?;
                let f = last_segment(path);
                let upper = ty.chars().next().is_some_and(|c| c.is_ascii_uppercase());
                if !upper || ty == "Self" || unwraps > 1 {
                    return None;
                }
                return Some((ty.to_string(), f.to_string(), unwraps == 1, cur));
            }
            _ => return None,
        }
        cur = named_children(cur)
            .into_iter()
            .find(|c| !c.kind().ends_with("comment"))?;
    }
    None
}

/// The declared type of an identifier (parameter or annotated `let`).
pub fn declared_type(src: Src<'_>, node: Node<'_>) -> Option<String> {
    if node.kind() != "identifier" {
        return None;
    }
    match lookup(src, node, src.of(node)) {
        Some(Binding::Param { ty: Some(t), .. }) | Some(Binding::Let { ty: Some(t), .. }) => {
            Some(src.of(t).to_string())
        }
        _ => None,
    }
}

/// `Hashed`, `GeneratedId` or `ShardSuffix` from what a call is.
fn call_provenance(src: Src<'_>, node: Node<'_>) -> Option<Provenance> {
    let text = match call_path(src, node) {
        Some(p) => p.to_string(),
        None => method_call(src, node).map(|(_, n, _)| n)?,
    };
    let last = last_segment(&text);
    // A function of the crate called by its bare name is judged by its body, which the
    // link follows: `digest_pk(kind)` of a news digest is `format!("DIGEST#{kind}")`.
    // Only a library's own names (`sha256(..)`, `Sha256::digest`, `md5::compute`) say
    // what a call is.
    let own_fn = !text.contains("::") && call_path(src, node).is_some();
    if let Some(h) = HASHERS.iter().find(|h| {
        text.split("::")
            .any(|seg| seg == **h || (!own_fn && seg.starts_with(*h)))
    }) {
        return Some(Provenance::Hashed {
            function: if last == "digest" || last == "finish" || last == "hash" {
                text.clone()
            } else {
                (*h).to_string()
            },
        });
    }
    if GENERATORS.iter().any(|g| text.contains(g)) {
        return Some(Provenance::GeneratedId);
    }
    if matches!(last, "gen_range" | "random_range" | "random" | "gen") {
        let modulus = call_args(node).first().and_then(|a| {
            let t = src.of(*a);
            t.split("..")
                .nth(1)
                .and_then(|n| n.trim_start_matches('=').trim().parse::<u64>().ok())
        });
        return Some(Provenance::ShardSuffix { modulus });
    }
    None
}

/// A hash call or `% N` anywhere inside an expression decides its provenance.
fn subtree_provenance(src: Src<'_>, node: Node<'_>) -> Option<Provenance> {
    let mut found = None;
    descendants(node, &mut |n| {
        if found.is_none() && n.kind() == "call_expression" {
            if let Some(p @ (Provenance::Hashed { .. } | Provenance::GeneratedId)) =
                call_provenance(src, n)
            {
                found = Some(p);
            }
        }
        false
    });
    found
}

/// The provenance of a template from its holes: many-valued parts dominate.
fn combine<'p>(ps: impl Iterator<Item = &'p Provenance>) -> Provenance {
    let ps: Vec<&Provenance> = ps.collect();
    let rank = |p: &Provenance| match p {
        Provenance::Hashed { .. } => 7,
        Provenance::GeneratedId => 6,
        Provenance::Param => 5,
        Provenance::Unknown => 4,
        Provenance::ShardSuffix { .. } => 3,
        Provenance::EnumLike => 2,
        Provenance::Constant => 1,
        Provenance::Literal => 0,
    };
    ps.into_iter()
        .max_by_key(|p| rank(p))
        .cloned()
        .unwrap_or(Provenance::Constant)
}

/// The type of the `impl` block around a node: `impl OrderRepo` → `OrderRepo`.
pub fn impl_type(src: Src<'_>, node: Node<'_>) -> Option<String> {
    ancestors(src, node)
        .find(|a| a.kind() == "impl_item")
        .and_then(|i| field(i, "type"))
        .map(|t| type_name(src.of(t)))
}

/// `Repo<T>` → `Repo`, `&mut crate::a::Config` → `Config`.
/// The type of a local or parameter: declared (`config: &Config`), or, for a `let`
/// without one, what its value says — `Type::new_local()`, an associated function of
/// a named type, read as its constructor, or another local (`let config = config;`).
fn local_type(src: Src<'_>, ident: Node<'_>, depth: usize) -> Option<String> {
    match lookup(src, ident, src.of(ident))? {
        Binding::Param { ty: Some(t), .. } | Binding::Let { ty: Some(t), .. } => {
            Some(type_name(src.of(t)))
        }
        Binding::Let {
            ty: None,
            value: Some(v),
            ..
        } if depth < 4 => {
            let v = peel(v);
            match v.kind() {
                "identifier" => local_type(src, v, depth + 1),
                "call_expression" => {
                    let path = call_path(src, v)?;
                    match type_segment(path)? {
                        "Self" => impl_type(src, v),
                        t if t.starts_with(|c: char| c.is_ascii_uppercase()) => Some(t.to_string()),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

pub fn type_name(t: &str) -> String {
    let mut t = t;
    // Smart pointers and the state extractors of web frameworks hand over the type
    // inside: `State<AppState>` (axum), `web::Data<AppState>` (actix), `Extension<..>`.
    for _ in 0..8 {
        t = t.trim_start_matches('&').trim();
        t = t.strip_prefix("mut ").unwrap_or(t).trim();
        let Some((head, inner)) = t.split_once('<') else {
            break;
        };
        if !matches!(
            last_segment(head.trim()),
            "Arc" | "Box" | "Rc" | "State" | "Data" | "Extension"
        ) {
            break;
        }
        t = inner.strip_suffix('>').unwrap_or(inner);
    }
    let base = t.split('<').next().unwrap_or(t);
    last_segment(base).trim_end_matches('>').to_string()
}

/// The type a struct field's value is followed as: [`type_name`] of what an `Option`
/// holds, since a chain reads through it only after opening it (`.as_ref().unwrap()`).
pub fn field_type_name(t: &str) -> String {
    let t = t.trim();
    let inner = t
        .strip_prefix("Option<")
        .or_else(|| t.strip_prefix("std::option::Option<"))
        .and_then(|rest| rest.strip_suffix('>'));
    type_name(inner.unwrap_or(t))
}

/// `recv.as_ref()`, `recv.unwrap()`, `recv.expect("..")` and the like: the receiver,
/// whose value the call hands through, opened or borrowed.
fn opened<'t>(src: Src<'t>, n: Node<'t>) -> Option<Node<'t>> {
    let n = peel(n);
    let (recv, name, call) = method_call(src, n)?;
    let opens = matches!(
        name.as_str(),
        "as_ref" | "as_deref" | "as_mut" | "unwrap" | "expect" | "clone" | "borrow"
    );
    (opens && call_args(call).len() <= 1).then(|| peel(recv))
}

/// The name of the function around a node.
pub fn enclosing_fn_name<'a>(src: Src<'a>, node: Node<'_>) -> Option<&'a str> {
    ancestors(src, node)
        .find(|a| a.kind() == "function_item")
        .and_then(|f| field(f, "name"))
        .map(|n| src.of(n))
}

fn short(s: &str) -> String {
    let s = crate::scanner::syntax::nodes::fold_whitespace(s);
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(37).collect();
        t.push_str("...");
        t
    } else {
        s
    }
}

/// The first argument of a macro call's text (`write!(&mut s, ..)` -> `s`): the local
/// a `write!`-style macro changes.
fn macro_first_arg(text: &str) -> Option<&str> {
    text.split_once('(').map(|(_, rest)| {
        rest.split(',')
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches("&mut ")
    })
}

/// Whether a node the walk of [`FileCx::apply_pushes`] acts on lies in `from..to` of
/// `block`: each holds a node spelled `name`, so only the nodes around the places the
/// text spells it are looked at, from there up to the block, instead of walking
/// everything in between.
fn changed_in_tree(src: Src<'_>, block: Node<'_>, from: usize, to: usize, name: &str) -> bool {
    let named = |n: Option<Node<'_>>| n.is_some_and(|n| src.of(n) == name);
    let changes = |n: Node<'_>| match n.kind() {
        "compound_assignment_expr" | "assignment_expression" => named(field(n, "left")),
        "macro_invocation" => macro_first_arg(src.of(n)) == Some(name),
        "reference_expression" => {
            src.of(n).starts_with("&mut") && named(named_children(n).last().copied())
        }
        "call_expression" => method_call(src, n).is_some_and(|(recv, m, _)| {
            src.of(recv) == name && CHANGING_METHODS.contains(&m.as_str())
        }),
        _ => false,
    };
    let bytes = src.text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let Some(range) = src.text.get(from..to) else {
        return true;
    };
    range.match_indices(name).any(|(i, _)| {
        let at = from + i;
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        let after = bytes.get(at + name.len());
        if name.is_empty() || before.is_some_and(|b| word(*b)) || after.is_some_and(|b| word(*b)) {
            return false;
        }
        let Some(leaf) = block.descendant_for_byte_range(at, at + name.len()) else {
            return true;
        };
        std::iter::successors(Some(leaf), |n| src.parent(*n))
            .take_while(|n| n.id() != block.id())
            .any(|n| n.start_byte() >= from && n.end_byte() <= to && changes(n))
    })
}

/// Methods through which a `String` is changed in place, as [`FileCx::apply_pushes`]
/// reads them (`push`/`push_str` add to it; the others make it unknown).
const CHANGING_METHODS: &[&str] = &[
    "push_str",
    "push",
    "pop",
    "truncate",
    "clear",
    "insert",
    "insert_str",
    "remove",
    "retain",
    "drain",
    "replace_range",
    "extend",
    "split_off",
];

/// Whether `text[from..to]` may change the local `name`, as the walk of
/// [`FileCx::apply_pushes`] would see it: an assignment, a compound assignment, one of
/// [`CHANGING_METHODS`], `&mut name`, or `name` as a macro's first argument. Only
/// `false` is a promise (no occurrence of `name` can be one of those); anything
/// unclear (a comment next to it, the end of the text) answers `true`.
fn may_change(text: &str, from: usize, to: usize, name: &str) -> bool {
    let Some(range) = text.get(from..to) else {
        return true;
    };
    if name.is_empty() {
        return true;
    }
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut start = 0;
    while let Some(i) = range[start..].find(name) {
        let at = from + start + i;
        let end = at + name.len();
        start += i + name.len();
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        if before.is_some_and(|b| word(*b)) || bytes.get(end).is_some_and(|b| word(*b)) {
            continue;
        }
        // What comes before: `&mut name`, `(name,` (a macro's first argument), a comment.
        let before = text[..at].trim_end();
        if before.ends_with('/')
            || before
                .strip_suffix("mut")
                .is_some_and(|b| !b.bytes().next_back().is_some_and(word))
        {
            return true;
        }
        let opens = before
            .trim_end_matches(|c: char| c.is_whitespace() || c == '&')
            .ends_with('(')
            || before.ends_with('(');
        let after = text[end..].trim_start();
        let mut next = after.bytes();
        let changes = match (next.next(), next.next()) {
            (None, _) => true,
            (Some(b'/'), _) => true,
            (Some(b'='), Some(b'=' | b'>')) => false,
            (Some(b'='), _) => true,
            (Some(b'+' | b'-' | b'*' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>'), _) => {
                after.bytes().take(4).any(|b| b == b'=')
            }
            (Some(b','), _) => opens,
            (Some(b'.'), _) => {
                let method = after[1..].trim_start();
                let len = method.bytes().take_while(|b| word(*b)).count();
                CHANGING_METHODS.contains(&&method[..len])
            }
            _ => false,
        };
        if changes {
            return true;
        }
    }
    false
}
