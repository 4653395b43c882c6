//! Builder-chain folding: from the client method that starts a request (`.query()`),
//! through every setter, across `let` bindings and rebinding in branches, to the
//! terminal (`.send()`, `.into_paginator()`), into one [`Operation`].
//!
//! A builder a function returns, or receives as a parameter, is kept as a
//! [`Template`] that the link phase splices into its callers.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::scanner::index::context::{argument_variable, around, enclosing_loop};
use crate::scanner::index::items;
use crate::scanner::ir::{
    AttrArg, AttrMap, ColdReason, ExprArg, LoopInfo, NameArg, OpKind, Operation, Resolved,
    SetterCall, ValueInfo,
};
// Kinds by id from a table: `Node::kind` costs a `strlen` and a UTF-8 check per call,
// and these climbs and walks ask it of millions of nodes in a large file.
use crate::scanner::index::resolve::FileCx;
use crate::scanner::sdk::{op_for_input_type, op_for_method, setter, typed_for, Setter, Typed};
use crate::scanner::syntax::nodes::{
    ancestors, call_args, call_path, descendants, descendants_after, field, fold_whitespace,
    kind_id, last_segment, method_call, method_name, named_children, peel, span,
    string_content_start, string_value, type_segment, Src,
};
use crate::scanner::syntax::parse::kind as node_kind;
use crate::scanner::syntax::scope::{lookup, Binding};
use crate::source::{FilePath, Span};

/// How a folded builder leaves the function it was built in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Escape {
    /// Sent (or dropped) here: a finished operation.
    None,
    /// Returned from the named function: callers continue the chain.
    Returned { function: String },
    /// Passed as argument `index` to a call of `function` (a helper that adds setters
    /// or sends it).
    Passed { function: String, index: usize },
    /// A transaction's item built on its own (`index/loose.rs`): a request of its own
    /// unless one of its file's requests carries it, which the link decides once the
    /// whole file's requests are in (an item indexed alone sees only itself).
    Item,
}

/// A builder that a function builds and returns, or receives and continues.
#[derive(Debug, Clone)]
pub struct Template {
    /// The short name of the function (call sites are matched by name).
    pub function: String,
    /// For a received builder: which parameter it is.
    pub param: Option<usize>,
    pub op: Operation,
    /// Whether the function sends the builder itself.
    pub sent: bool,
}

/// The result of folding one file.
#[derive(Debug, Default)]
pub struct Folded {
    pub ops: Vec<(Operation, Escape)>,
    pub templates: Vec<Template>,
    /// Chains that continue a builder a helper returns: `base(&c).limit(5).send()`
    /// (the link phase splices the helper's builder in).
    pub helper_calls: Vec<HelperCall>,
    /// With [`HelperChains::NamesOnly`]: the names of those helpers, each once, in
    /// the order the file first names them, instead of `helper_calls`.
    pub helper_names: Vec<String>,
}

/// A chain that continues the builder a helper returns
/// (`self.create_query(table, ..).send()`), with the helper's name and what this call
/// passes it: the helper's parameters in the builder are what this call passes, not
/// what every call of the helper passes.
#[derive(Debug, Clone)]
pub struct HelperCall {
    pub op: Operation,
    pub escape: Escape,
    pub helper: String,
    /// Each argument of the call to the helper, when dynalint can follow it.
    pub args: Box<[Option<Resolved>]>,
    /// The text of each argument dynalint cannot follow (`ctx.refresh_table()`), as a
    /// table argument's text is kept: what a helper's `.table_name(table)` is bound
    /// by for this call, as the chain would be with the argument in place. Empty when
    /// every argument is followed.
    pub texts: Box<[Option<Box<str>>]>,
    /// Each argument as an attribute value (`AttributeValue::S("user".into())`, a
    /// local bound to one): what a helper's `.item("pk", pk)` holds for this call.
    pub values: Box<[ValueInfo]>,
    /// Each argument as an item or key map (`Some(item)`): what a helper's
    /// `.set_item(item)` holds for this call.
    pub maps: Box<[AttrMap]>,
    /// Each argument that is a local string appended to on some paths only
    /// (`key_condition.push_str(..)` in an `if`): what a helper's
    /// `.key_condition_expression(kc)` holds on each path of this call. Empty when
    /// no argument is built so.
    pub paths: Box<[Option<PathStrings>]>,
    /// Each argument's length as a list literal (`Some(vec![a, b])`): what a
    /// helper's `.set_parameters(params)` holds for this call. Empty when no
    /// argument is one.
    pub lists: Box<[Option<usize>]>,
    /// The transaction items each argument builds (`vec![TransactWriteItem::builder()
    /// ..build()]`), by argument: what a helper's `transact_items(items)` adds for this
    /// call (`ParamParts::items`). Empty when no argument builds one.
    pub items: Box<[(usize, Operation)]>,
    /// `self.scan()`: a method of the crate's own type named like the API, which may
    /// return the builder the chain continues. When no helper of that name returns
    /// one, the chain is the request it starts (`op.kind`, as a client call's).
    pub fallback: bool,
    /// For a chain in a loop that sets no `exclusive_start_key` itself: the loop
    /// that repeats it, and whether a loop around it pages, should the helper's
    /// builder set one (`scan_page(&c, table, last_key.clone()).send()` in a loop
    /// that feeds `last_evaluated_key` back), as for a chain that sets it here.
    pub if_helper_pages: Option<(Option<LoopInfo>, bool)>,
}

/// A string argument built per path: its name as the caller's expression argument
/// would have it (`key_condition`), and its text on each path.
#[derive(Debug, Clone)]
pub struct PathStrings {
    pub text: Resolved,
    pub paths: Box<[String]>,
}

/// Each of a call's arguments that is a local string appended to on some paths only,
/// with its texts per path; empty when none is.
pub fn passed_paths(cx: &FileCx<'_>, args: &[Node<'_>]) -> Box<[Option<PathStrings>]> {
    let paths: Vec<Option<PathStrings>> = args
        .iter()
        .map(|a| {
            // Only a local appended to on some paths has texts per path, and most
            // arguments are none: naming each one (`expr_of`) for nothing was a pass
            // over every read call's arguments.
            if cx.path_strings(*a).is_empty() {
                return None;
            }
            let e = expr_of(cx, *a, false);
            (!e.paths.is_empty()).then_some(PathStrings {
                text: e.text,
                paths: e.paths,
            })
        })
        .collect();
    if paths.iter().all(Option::is_none) {
        Box::default()
    } else {
        paths.into_boxed_slice()
    }
}

/// What [`fold_file`] makes of a chain that continues a helper's builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelperChains {
    /// Folded into an operation (`Folded::helper_calls`), for the link to splice.
    Fold,
    /// Only the helper's name (`Folded::helper_names`): a lean index keeps no more,
    /// and reads the file again should the helper return a builder. Every value handed
    /// to a function (`S(id.into())`) looks like such a chain, so folding them all
    /// only to drop them was a large part of a big file's fold.
    NamesOnly,
}

/// Folds every request built in the tree. `declarations` are the tree's calls and
/// struct literals, and `fns` its functions, in file order, as the caller sorted its
/// nodes by kind (this asked every node its kind again, twice); `calls` are the call
/// nodes among `declarations`, in the same order, each with its [`method_name`]
/// (found once by the caller, whose calls' keys start from it too).
pub fn fold_file<'t>(
    cx: &FileCx<'t>,
    path: &FilePath,
    declarations: &[Node<'_>],
    calls: &[(Node<'_>, Option<&'t str>)],
    fns: &[Node<'_>],
    helpers: HelperChains,
) -> Folded {
    let src = cx.src;
    let mut out = Folded::default();
    let mut named: HashSet<&str> = HashSet::new();
    // Whether the file names a transaction item type (`batch::names_items`), once.
    let mut names_items: Option<bool> = None;
    // Kinds compared by id: `Node::kind` costs a `strlen` and a UTF-8 check, and this
    // loop sees every call of the file.
    let call_k = kind_id("call_expression");
    // Sized for the calls named like a request's first method, most of which start
    // one: operations are large, and a list grown by doubling copied them.
    out.ops.reserve(
        calls
            .iter()
            .filter(|(_, m)| m.is_some_and(|m| op_for_method(m).is_some()))
            .count(),
    );
    let mut calls = calls.iter();
    for n in declarations.iter().copied() {
        // Not a call: a struct literal.
        if n.kind_id() != call_k {
            if rusoto_kind(cx, n).is_none() {
                continue;
            }
            if let Some(op) = fold_rusoto(cx, path, n) {
                out.ops.push((op, Escape::None));
            }
            continue;
        }
        // The method's name, looked up once: every test below starts from it. Given
        // in the nodes' order; looked up here should the lists ever part.
        let method = match calls.next() {
            Some((c, m)) if c.id() == n.id() => *m,
            _ => method_name(src, n),
        };
        let root = root_kind(cx, n, method);
        // `Put::builder()`: a transaction's item, whether or not a request of the file
        // sends it (the link decides).
        if root.is_none() && method.is_none() {
            if let Some(Typed::Leaf(k)) = typed_root(cx, n) {
                out.ops
                    .extend(crate::scanner::index::loose::loose_item(cx, path, n, k));
                continue;
            }
        }
        // `let mut q = QueryInput::default();` and assignments: a rusoto request.
        if root.is_none() && method.is_none() {
            if let Some(op) = fold_rusoto_assigned(cx, path, n) {
                out.ops.push((op, Escape::None));
                continue;
            }
        }
        // `self.scan()`: the crate's own method named like the API (a table wrapper's
        // `fn scan(&self) -> ScanFluentBuilder`) or, when no such helper returns a
        // builder, the request a client-like `self` starts: the link decides.
        let own_method = match (root, method) {
            (Some(_), Some(m)) if on_self(cx, n) => Some(m),
            _ => None,
        };
        // A method already named as a helper's: whatever `helper_name` says of this
        // call, it adds nothing (the name is kept once), so it is not asked. Every
        // `S(id.into())` of a generated file is such a call.
        if root.is_none()
            && helpers == HelperChains::NamesOnly
            && method.is_some_and(|m| named.contains(m))
        {
            continue;
        }
        let helper = match (root, own_method) {
            (Some(_), Some(m)) => match helpers {
                // Folded as the request it starts; the file is read again should a
                // helper of this name return a builder.
                HelperChains::NamesOnly => {
                    if named.insert(m) {
                        out.helper_names.push(m.to_string());
                    }
                    None
                }
                HelperChains::Fold => Some(m.to_string()),
            },
            (Some(_), None) => None,
            (None, _) => match helper_name(cx, n, method) {
                Some(h) if helpers == HelperChains::NamesOnly => {
                    // Each name once: every `S(id.into())` of a generated file names
                    // `into`.
                    if named.insert(h) {
                        out.helper_names.push(h.to_string());
                    }
                    continue;
                }
                Some(h) => Some(h.to_string()),
                None => continue,
            },
        };
        let kind = root.unwrap_or(OpKind::Query);
        let mut op = Operation::new(kind, path.clone(), span(n));
        op.method_span = method_span(n);
        if root.is_some() {
            crate::scanner::index::expr_crate::fill(cx, n, &mut op);
        }
        let mut st = State::default();
        let top = climb_apply(cx, n, &mut op, &mut st, false);
        let escape = follow_consumer(cx, top, &mut op, &mut st, 0);
        // Seen whole, every method known: what the chain does not set, the request
        // does not have (see [`whole`]).
        op.complete_builder = whole(&st, &escape);
        finish(cx, n, &mut op, &st);
        match helper {
            // Neither a request of DynamoDB's nor a chain on one's builder.
            Some(_) if own_method.is_some() && is_other_client(&op, &st, &escape) => {}
            // Returned on to callers: the builder of a helper of its own, as a client
            // call's would be.
            Some(_) if own_method.is_some() && matches!(escape, Escape::Returned { .. }) => {
                out.ops.push((op, escape));
            }
            Some(helper) => {
                let nodes = call_args(n);
                let args: Box<[Option<Resolved>]> = nodes
                    .iter()
                    .map(|a| crate::scanner::index::args::followable(cx, *a))
                    .collect();
                let texts = if args.iter().all(Option::is_some) {
                    Box::default()
                } else {
                    nodes
                        .iter()
                        .zip(&args)
                        .map(|(a, r)| {
                            r.is_none()
                                .then(|| fold_whitespace(src.of(holder(cx, *a))).into())
                        })
                        .collect()
                };
                // What the call passes: a parameter of this function it hands on is
                // the helper's value at this function's calls (`FileCx::passing`).
                let (values, maps) = cx.passing(|| {
                    let values = nodes.iter().map(|a| cx.value(*a)).collect();
                    let maps = nodes
                        .iter()
                        .map(|a| items::attr_map(cx, *a, false))
                        .collect();
                    (values, maps)
                });
                let paths = passed_paths(cx, &nodes);
                let lists = list_lens(cx, &nodes);
                // One search of the file's text, at its first such chain.
                let any_items = *names_items
                    .get_or_insert_with(|| crate::scanner::index::batch::names_items(src.text));
                let mut items = match any_items {
                    true => crate::scanner::index::batch::items_passed(cx, path, &nodes),
                    false => Vec::new(),
                };
                // Made where this chain is: its function, its loop.
                for (_, c) in &mut items {
                    c.context = op.context.clone();
                    c.fingerprint_text = fold_whitespace(src.span_text(c.span));
                }
                // Asked only of a chain in a loop: a climb to its function.
                let if_helper_pages = (op.context.in_loop.is_some() && !op.exclusive_start_key)
                    .then(|| {
                        let paging = around(cx, n, true, st.segment_var.as_deref());
                        (paging.in_loop, paging.paged)
                    });
                out.helper_calls.push(HelperCall {
                    op,
                    escape,
                    helper,
                    args,
                    texts,
                    values,
                    maps,
                    paths,
                    lists,
                    items: items.into_boxed_slice(),
                    fallback: own_method.is_some(),
                    if_helper_pages,
                });
            }
            None if is_other_client(&op, &st, &escape) => {}
            // The request is where its input is built (`QueryInput::builder()`).
            None if forwards_input(cx, n, &op) => {}
            None => out.ops.push((op, escape)),
        }
    }
    // Builders received as parameters: `fn f(q: QueryFluentBuilder) -> .. { q.limit(1) }`.
    for f in fns.iter().copied() {
        let params = field(f, "parameters")
            .map(named_children)
            .unwrap_or_default();
        let mut index = 0usize;
        for p in params {
            if node_kind(p) == "self_parameter" {
                continue;
            }
            if node_kind(p) != "parameter" {
                continue;
            }
            let ty = field(p, "type").map(|t| src.of(t)).unwrap_or("");
            let pat = field(p, "pattern");
            if let (Some(kind), Some(pat)) = (builder_type_kind(ty), pat) {
                let name = src.of(pat).trim_start_matches("mut ").trim().to_string();
                let mut op = Operation::new(kind, path.clone(), span(p));
                op.method_span = span(p);
                let mut st = State::default();
                if let Some(body) = field(f, "body") {
                    // Handed on (`run(q)`): the request is not all here.
                    st.lost |= follow_uses(cx, body, p.end_byte(), &name, &mut op, &mut st, 0)
                        != Escape::None;
                }
                op.complete_builder = st.sent && !st.foreign && !st.lost;
                finish(cx, p, &mut op, &st);
                out.templates.push(Template {
                    function: field(f, "name")
                        .map(|n| src.of(n).to_string())
                        .unwrap_or_default(),
                    param: Some(index),
                    op,
                    sent: st.sent,
                });
            }
            index += 1;
        }
    }
    out
}

/// A client wrapper's method that sends a request input made elsewhere
/// (`fn query(&self, input: QueryInput) { self.client.query().set_table_name(input.table_name)..`):
/// its table is a field of a parameter typed as the SDK's input of the same operation.
/// It is no request of its own: the requests are where those inputs are built, each
/// with its own table and keys, and one of unknown table here would stand for all of
/// them.
fn forwards_input(cx: &FileCx<'_>, root: Node<'_>, op: &Operation) -> bool {
    let Some(text) = op.table_text.as_deref() else {
        return false;
    };
    let Some((holder, rest)) = text.trim_start_matches('&').split_once('.') else {
        return false;
    };
    if !rest.starts_with("table_name") {
        return false;
    }
    let Some(Binding::Param { ty: Some(ty) }) = lookup(cx.src, root, holder) else {
        return false;
    };
    let ty = cx
        .src
        .of(ty)
        .trim_start_matches('&')
        .trim_start_matches("mut ")
        .trim();
    op_for_input_type(last_segment(ty)) == Some(op.kind)
}

/// `x.query()` / `x.scan()` of another client: Timestream's
/// `query().query_string(..).send()`, redis' `con.scan().await`, an iterator's
/// `scan`. Only a chain that sets nothing DynamoDB-specific can be one; it is another
/// client's when it calls a method no DynamoDB builder has, or is neither sent nor
/// handed on.
fn is_other_client(op: &Operation, st: &State, escape: &Escape) -> bool {
    let dynamodb_specific = op.setters.iter().any(|s| {
        setter(&s.method).is_some_and(|(k, _)| {
            !matches!(
                k,
                Setter::Limit
                    | Setter::Select
                    | Setter::Segment
                    | Setter::Ignored
                    | Setter::Terminal
                    | Setter::Paginator
                    | Setter::Wrapped
            )
        })
    });
    !dynamodb_specific
        && (st.foreign || (!st.sent && !op.paginated && matches!(escape, Escape::None)))
}

/// Setters distinctive enough that a call they follow returns a DynamoDB builder (the
/// byte pre-filter's second look uses them too).
pub(in crate::scanner) const HELPER_SETTERS: &[&str] = &[
    "table_name",
    "index_name",
    "key_condition_expression",
    "filter_expression",
    "expression_attribute_names",
    "expression_attribute_values",
    "projection_expression",
    "condition_expression",
    "update_expression",
    "into_paginator",
    "scan_index_forward",
    "consistent_read",
    "exclusive_start_key",
    "set_exclusive_start_key",
    "send",
    "limit",
    "item",
    "key",
];

/// `base(&client)` or `self.base()` followed by a builder setter, or handed to another
/// function (`collect_all(self.base())`, `let q = self.base(); collect_all(q)`): a
/// helper that returns a builder (decided at link time, when every helper is known).
fn helper_name<'t>(cx: &FileCx<'t>, n: Node<'_>, method: Option<&'t str>) -> Option<&'t str> {
    let src = cx.src;
    // What follows first: it rules out most calls without naming them.
    let mut up = src.parent(n)?;
    while matches!(node_kind(up), "try_expression" | "await_expression") {
        up = src.parent(up)?;
    }
    let chained = node_kind(up) == "field_expression"
        && field(up, "field").is_some_and(|f| HELPER_SETTERS.contains(&src.of(f)));
    if !chained && !handed_on(cx, n) && !returned_as_builder(cx, n) {
        return None;
    }
    match method {
        Some(m) if setter(m).is_some() || op_for_method(m).is_some() => None,
        Some(m) => Some(m),
        None => Some(last_segment(call_path(src, n)?)),
    }
}

/// Whether call `n` is what its function returns, as it is, and the function says it
/// returns a request's builder (`fn create_query(..) -> QueryFluentBuilder {
/// query_in(&self.client, table, ..) }`): a helper's builder returned on, which the
/// function's callers continue.
fn returned_as_builder(cx: &FileCx<'_>, n: Node<'_>) -> bool {
    let src = cx.src;
    let Some(p) = src.parent(n) else {
        return false;
    };
    let body = match node_kind(p) {
        "block" if named_children(p).last().is_some_and(|l| l.id() == n.id()) => Some(p),
        "return_expression" => {
            let mut up = src.parent(p);
            // `return f(..);`, a statement of the function's own body.
            if up.is_some_and(|u| node_kind(u) == "expression_statement") {
                up = up.and_then(|u| src.parent(u));
            }
            up.filter(|b| node_kind(*b) == "block")
        }
        _ => None,
    };
    body.and_then(|b| src.parent(b))
        .filter(|f| node_kind(*f) == "function_item")
        .and_then(|f| field(f, "return_type"))
        .is_some_and(|t| builder_type_kind(src.of(t)).is_some())
}

/// Blocks longer than this are not searched for a later use of a `let` (generated
/// code): following every binding through a huge body would cost a walk each.
const MAX_HANDED_BLOCK: usize = 16 * 1024;

/// Whether the value of call `n` is handed to another function as it is: an argument
/// of a call (not a setter's, nor `Some`/`Ok`), or bound by `let` to a name that is
/// later such an argument or continued with a builder setter (`let mut q =
/// base(&c); if open { q = q.filter_expression(..) } q.send()`: the caller's setters
/// are part of the request the helper's builder starts).
fn handed_on(cx: &FileCx<'_>, n: Node<'_>) -> bool {
    let src = cx.src;
    let Some(p) = src.parent(n) else {
        return false;
    };
    match node_kind(p) {
        "arguments" => receives(cx, p),
        "let_declaration" if field(p, "value").is_some_and(|v| v.id() == n.id()) => {
            let Some(name) = field(p, "pattern")
                .map(|pat| src.of(pat).trim_start_matches("mut ").trim())
                .filter(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'))
            else {
                return false;
            };
            let Some(block) = src
                .parent(p)
                .filter(|b| b.byte_range().len() <= MAX_HANDED_BLOCK)
            else {
                return false;
            };
            // The identifiers named `name` after the `let`: found from where the text
            // spells the name, not by walking the rest of the block for each `let`.
            let ident = kind_id("identifier");
            let (from, to) = (p.end_byte(), block.end_byte());
            word_occurrences(src.text, from, to, name).any(|at| {
                block
                    .descendant_for_byte_range(at, at + name.len())
                    .is_some_and(|u| {
                        u.kind_id() == ident
                            && u.start_byte() == at
                            && src.of(u) == name
                            && src.parent(u).is_some_and(|a| match node_kind(a) {
                                "arguments" => receives(cx, a),
                                "field_expression" => continued_by_setter(cx, a, u),
                                _ => false,
                            })
                    })
            })
        }
        _ => false,
    }
}

/// Whether `access` (`u.name`) calls a request's setter or sends it on `u`:
/// `q.limit(5)`, `q = q.set_expression_attribute_values(..)`, `q.send()`. (Not a
/// transaction item's wrapper, a paginator's setting, nor `build`: other builders'
/// names too.)
fn continued_by_setter(cx: &FileCx<'_>, access: Node<'_>, u: Node<'_>) -> bool {
    let request_setter = |m: &str| {
        !matches!(m, "build" | "customize")
            && setter(m).is_some_and(|(s, _)| !matches!(s, Setter::Wrapped | Setter::Paginator))
    };
    field(access, "value").is_some_and(|v| v.id() == u.id())
        && field(access, "field").is_some_and(|f| request_setter(cx.src.of(f)))
        && cx.src.parent(access).is_some_and(|c| {
            node_kind(c) == "call_expression"
                && field(c, "function").is_some_and(|f| f.id() == access.id())
        })
}

/// Whether the call owning `args` can be a crate function receiving a builder.
fn receives(cx: &FileCx<'_>, args: Node<'_>) -> bool {
    let Some(call) = cx
        .src
        .parent(args)
        .filter(|c| node_kind(*c) == "call_expression")
    else {
        return false;
    };
    match method_name(cx.src, call) {
        Some(m) => setter(m).is_none() && op_for_method(m).is_none(),
        None => call_path(cx.src, call).is_some_and(|p| {
            !matches!(
                last_segment(p),
                "Some" | "Ok" | "Err" | "Box::pin" | "pin" | "new"
            )
        }),
    }
}

/// `XFluentBuilder` parameter types → the operation kind.
fn builder_type_kind(ty: &str) -> Option<OpKind> {
    let base = last_segment(ty.trim_start_matches('&').trim_start_matches("mut ").trim());
    let op = base.strip_suffix("FluentBuilder")?;
    let snake: String = op
        .chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let mut v = Vec::new();
            if c.is_ascii_uppercase() && i > 0 {
                v.push('_');
            }
            v.push(c.to_ascii_lowercase());
            v
        })
        .collect();
    op_for_method(&snake)
}

/// Whether call `n` is a method called on `self` itself (`self.scan()`, not
/// `self.client.scan()`).
fn on_self(cx: &FileCx<'_>, n: Node<'_>) -> bool {
    field(n, "function")
        .filter(|f| node_kind(*f) == "field_expression")
        .and_then(|f| field(f, "value"))
        .is_some_and(|v| node_kind(v) == "self" || cx.src.of(v) == "self")
}

/// What starts a request here: `x.query()` with no arguments, or `QueryInput::builder()`.
fn root_kind(cx: &FileCx<'_>, n: Node<'_>, method: Option<&str>) -> Option<OpKind> {
    let src = cx.src;
    if let Some(name) = method {
        // The name first: most calls are not SDK methods, and counting arguments
        // allocates.
        if op_for_method(name).is_some() && call_args(n).is_empty() {
            // `expr.to_query_fluent_builder(client.query())`: the outer call is the root.
            if crate::scanner::index::expr_crate::is_wrapped(cx, n) {
                return None;
            }
            // A fluent builder is sent, not awaited: `repo.scan().await` is a method of
            // the crate's own repository named like the API.
            if src
                .parent(n)
                .is_some_and(|p| node_kind(p) == "await_expression")
            {
                return None;
            }
            return op_for_method(name);
        }
        return crate::scanner::index::expr_crate::root_kind_named(cx, n, name);
    }
    let path = call_path(src, n)?;
    if last_segment(path) != "builder" {
        return None;
    }
    op_for_input_type(type_segment(path)?)
}

fn rusoto_kind(cx: &FileCx<'_>, n: Node<'_>) -> Option<OpKind> {
    let name = field(n, "name").map(|t| cx.src.of(t))?;
    op_for_input_type(last_segment(name))
}

/// The span of `.query()` (from the method name to the closing paren).
fn method_span(call: Node<'_>) -> Span {
    let name = field(call, "function")
        .filter(|f| node_kind(*f) == "field_expression")
        .and_then(|f| field(f, "field"));
    match name {
        Some(n) => Span::new(n.start_byte(), call.end_byte()),
        None => span(call),
    }
}

#[derive(Default)]
struct State {
    sent: bool,
    /// Whether every `send()` of the chain is read only for its first item.
    first_item: Option<bool>,
    /// `exclusive_start_key` is set inside a loop that pages (see `LoopShape`).
    paged: bool,
    /// A method no DynamoDB builder has, called before the request was sent.
    foreign: bool,
    end: usize,
    extra_spans: Vec<Span>,
    /// The chain calls `build()`.
    built: bool,
    /// A method no DynamoDB builder has, called before `build()`.
    foreign_before_build: bool,
    /// The variable `.segment(..)` is given: a loop over it sends a parallel Scan's
    /// segments.
    segment_var: Option<String>,
    /// The builder, unsent, went where it is not followed (a macro's tokens, a
    /// closure's result, `&mut q`, a field, a second helper) or its variable was
    /// bound again to another value: the chain may not be the whole request.
    lost: bool,
    /// The builder is the tail of its function's body, which has no `return`: the
    /// function returns this builder and no other value.
    sole_return: bool,
}

/// Whether the fold saw the whole request, every method known: sent (here, or by the
/// one chain of the one function it is returned from or passed to, which the link
/// checks), never out of sight on the way, and handed on at most once. A request
/// seen whole that never sets a required parameter is one DynamoDB rejects.
fn whole(st: &State, escape: &Escape) -> bool {
    if st.foreign || st.lost {
        return false;
    }
    match escape {
        Escape::None => st.sent,
        Escape::Returned { .. } => !st.sent && st.sole_return,
        Escape::Passed { .. } => !st.sent,
        Escape::Item => false,
    }
}

/// Climbs from a builder expression through its method calls, applying each setter.
/// Returns the topmost node of the chain.
fn climb_apply<'t>(
    cx: &FileCx<'t>,
    start: Node<'t>,
    op: &mut Operation,
    st: &mut State,
    conditional: bool,
) -> Node<'t> {
    let src = cx.src;
    let mut cur = start;
    let mut terminated = false;
    let mut sent_here = false;
    st.end = st.end.max(start.end_byte());
    while let Some(p) = src.parent(cur) {
        match node_kind(p) {
            "field_expression" if field(p, "value").is_some_and(|v| v.id() == cur.id()) => {
                let Some(call) = src.parent(p).filter(|c| {
                    node_kind(*c) == "call_expression"
                        && field(*c, "function").is_some_and(|f| f.id() == p.id())
                }) else {
                    break;
                };
                let name = field(p, "field").map(|f| src.of(f)).unwrap_or("");
                if !terminated {
                    match setter(name) {
                        Some((Setter::Terminal, _)) => {
                            if name == "into_paginator" {
                                op.paginated = true;
                            }
                            sent_here |= name == "send";
                            st.built |= name == "build";
                            if name != "customize" && name != "build" {
                                terminated = true;
                                st.sent = true;
                            }
                        }
                        Some((s, set)) => {
                            if s == Setter::ExclusiveStartKey {
                                st.paged |= enclosing_loop(src, call, true).1;
                            }
                            // Collected once for both: a walk and an allocation each.
                            let args = call_args(call);
                            if s == Setter::Segment {
                                st.segment_var =
                                    args.first().and_then(|a| argument_variable(src, *a));
                            }
                            record_setter(cx, op, name, set, p, call, &args, conditional);
                            apply(cx, op, s, set, call, args, conditional);
                            if name == "set_parameters" {
                                let arg = call_args(call).first().copied();
                                op.parameter_list = arg.and_then(|a| list_len(cx, a));
                                if op.parameter_list.is_none() {
                                    if let Some(r) = arg.and_then(|a| param_list(cx, a)) {
                                        let parts = op.from_params.get_or_insert_with(Box::default);
                                        parts.parameter_list = Some(r);
                                    }
                                }
                            }
                        }
                        None => {
                            st.foreign = true;
                            st.foreign_before_build |= !st.built;
                        }
                    }
                    if setter(name).is_some() {
                        st.end = st.end.max(call.end_byte());
                    }
                } else if setter(name).is_some_and(|(s, _)| s == Setter::Paginator)
                    || name == "send"
                {
                    st.end = st.end.max(call.end_byte());
                }
                cur = call;
            }
            "await_expression" | "try_expression" | "parenthesized_expression" => cur = p,
            _ => break,
        }
    }
    if sent_here && matches!(op.kind, OpKind::Query | OpKind::Scan) {
        // Every place that sends the request must read only the first item.
        let first = crate::scanner::index::first_item::reads_first_item(cx, cur);
        st.first_item = Some(st.first_item.unwrap_or(true) && first);
    }
    cur
}

/// What a table argument reads, for its text: through a local bound once to it
/// (`let table = self.event_table.to_owned(); .. .table_name(&table)`, as a task or
/// closure copies what it reads), the expression the local holds, so that an unknown
/// value still binds by the field it is read from (`facts::bind::holder_name`).
pub(super) fn holder<'t>(cx: &FileCx<'t>, arg: Node<'t>) -> Node<'t> {
    let mut at = arg;
    for _ in 0..4 {
        let p = peel(at);
        if node_kind(p) != "identifier" {
            break;
        }
        match crate::scanner::syntax::scope::lookup(cx.src, p, cx.src.of(p)) {
            // Not a `let mut`: a later assignment may hold something else.
            Some(crate::scanner::syntax::scope::Binding::Let {
                decl,
                value: Some(v),
                ..
            }) if field(decl, "pattern").is_some_and(|pat| node_kind(pat) == "identifier")
                && !named_children(decl)
                    .iter()
                    .any(|c| node_kind(*c) == "mutable_specifier") =>
            {
                at = v
            }
            _ => break,
        }
    }
    at
}

/// The length of a list literal an argument is (`Some(vec![a, b])`, `vec![a, b]`), as
/// `set_parameters` or a call passing its list takes it.
pub(crate) fn list_len(cx: &FileCx<'_>, arg: Node<'_>) -> Option<usize> {
    let arg = peel(arg);
    let list = unwrap_some(cx, arg).map_or(arg, peel);
    (node_kind(list) == "array_expression" && field(list, "length").is_none()).then(|| {
        named_children(list)
            .iter()
            .filter(|c| !node_kind(**c).ends_with("comment"))
            .count()
    })
}

/// Each of `args`' lengths as a list literal ([`list_len`]); empty when none is one.
pub(crate) fn list_lens(cx: &FileCx<'_>, args: &[Node<'_>]) -> Box<[Option<usize>]> {
    let lens: Vec<Option<usize>> = args.iter().map(|a| list_len(cx, *a)).collect();
    if lens.iter().all(Option::is_none) {
        Box::default()
    } else {
        lens.into_boxed_slice()
    }
}

/// The reference to the parameter a list argument is (`params` or `Some(params)` of
/// `set_parameters`), when the function holds the request (`FileCx::value_param_ref`).
fn param_list(cx: &FileCx<'_>, arg: Node<'_>) -> Option<Resolved> {
    let src = cx.src;
    let mut p = peel(arg);
    if call_path(src, p) == Some("Some") {
        p = peel(*call_args(p).first()?);
    }
    if node_kind(p) != "identifier" {
        return None;
    }
    let name = src.of(p);
    if !matches!(lookup(src, p, name), Some(Binding::Param { .. })) {
        return None;
    }
    Some(cx.pending(name, cx.value_param_ref(p, name)?))
}

/// How many `let` rebindings and branch tails a builder is followed through.
const MAX_FOLLOW_DEPTH: usize = 16;

/// What happens to the chain's value: bound with `let`, returned, passed on. An
/// unsent builder that goes nowhere followed is [`State::lost`].
fn follow_consumer(
    cx: &FileCx<'_>,
    top: Node<'_>,
    op: &mut Operation,
    st: &mut State,
    depth: usize,
) -> Escape {
    let (escape, followed) = consume(cx, top, op, st, depth);
    if !followed && !st.sent {
        st.lost = true;
    }
    escape
}

/// [`follow_consumer`]'s walk, with whether it followed the value to its end: a
/// `send()`, a `let` whose uses were followed, a function's return, a helper's
/// parameter.
fn consume(
    cx: &FileCx<'_>,
    top: Node<'_>,
    op: &mut Operation,
    st: &mut State,
    depth: usize,
) -> (Escape, bool) {
    let src = cx.src;
    if depth > MAX_FOLLOW_DEPTH {
        return (Escape::None, false);
    }
    let mut top = top;
    // Whether the value reached a function's end through a branch or a block: the
    // function may return something else on another path.
    let mut branched = false;
    // The tail of a branch: `let q = if c { a } else { b };` continues as the `if`.
    loop {
        let Some(p) = src.parent(top) else {
            return (Escape::None, false);
        };
        let tail_of_block = node_kind(p) == "block"
            && named_children(p)
                .into_iter()
                .rfind(|c| !node_kind(*c).ends_with("comment"))
                .is_some_and(|l| l.id() == top.id());
        if tail_of_block {
            match src.parent(p) {
                Some(g)
                    if matches!(
                        node_kind(g),
                        "if_expression"
                            | "else_clause"
                            | "match_arm"
                            | "block"
                            | "unsafe_block"
                            | "async_block"
                    ) =>
                {
                    branched = true;
                    top = if node_kind(g) == "else_clause" {
                        src.parent(g).unwrap_or(g)
                    } else {
                        g
                    };
                    continue;
                }
                Some(g) if node_kind(g) == "function_item" => {
                    let name = field(g, "name")
                        .map(|n| src.of(n))
                        .unwrap_or("")
                        .to_string();
                    if st.sent {
                        return (Escape::None, true);
                    }
                    st.sole_return = !branched && !has_return(src, g);
                    return (Escape::Returned { function: name }, true);
                }
                // A closure's result, or a block's value the walk does not know.
                _ => return (Escape::None, false),
            }
        }
        if matches!(node_kind(p), "match_arm" | "if_expression")
            && field(p, "condition").map(|c| c.id()) != Some(top.id())
        {
            branched = true;
            top = p;
            continue;
        }
        if node_kind(p) == "match_expression" || node_kind(p) == "match_block" {
            branched = true;
            top = p;
            continue;
        }
        break;
    }
    let Some(p) = src.parent(top) else {
        return (Escape::None, false);
    };
    match node_kind(p) {
        "let_declaration" if field(p, "value").is_some_and(|v| v.id() == top.id()) => {
            if st.sent {
                // `let out = q.send().await?`: the response, not the builder.
                return (Escape::None, true);
            }
            let Some(pat) = field(p, "pattern") else {
                return (Escape::None, false);
            };
            let name = src.of(pat).trim_start_matches("mut ").trim().to_string();
            if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return (Escape::None, false);
            }
            let Some(block) = src.parent(p) else {
                return (Escape::None, false);
            };
            (
                follow_uses(cx, block, p.end_byte(), &name, op, st, depth + 1),
                true,
            )
        }
        // `self.q = client.query()`: kept where the walk does not follow.
        "assignment_expression" if field(p, "right").is_some_and(|v| v.id() == top.id()) => {
            (Escape::None, false)
        }
        "return_expression" => {
            if st.sent {
                return (Escape::None, true);
            }
            let name = ancestors(src, p)
                .find(|a| node_kind(*a) == "function_item" || node_kind(*a) == "closure_expression")
                .filter(|a| node_kind(*a) == "function_item")
                .and_then(|f| field(f, "name"))
                .map(|n| src.of(n).to_string());
            match name {
                Some(function) => (Escape::Returned { function }, true),
                None => (Escape::None, false),
            }
        }
        "arguments" if !st.sent => {
            let Some(call) = src.parent(p) else {
                return (Escape::None, false);
            };
            let index = named_children(p)
                .iter()
                .position(|c| c.id() == top.id())
                .unwrap_or(0);
            match call_path(src, call) {
                Some(path)
                    if !matches!(last_segment(path), "Ok" | "Some" | "Box::pin" | "spawn") =>
                {
                    let function = last_segment(path).to_string();
                    (Escape::Passed { function, index }, true)
                }
                _ => match method_call(src, call) {
                    // `self.run(q)`: a method of the same crate, matched by name.
                    Some((_, name, _)) if setter(&name).is_none() => (
                        Escape::Passed {
                            function: name,
                            index,
                        },
                        true,
                    ),
                    _ => (Escape::None, false),
                },
            }
        }
        // The response, once sent (`q.send().await?;`, `match q.send().await {..}`).
        _ => (Escape::None, st.sent),
    }
}

/// Whether a function has a `return` of its own (not a closure's or an inner
/// function's): a value it may return besides its body's tail.
fn has_return(src: Src<'_>, function: Node<'_>) -> bool {
    field(function, "body")
        .is_some_and(|body| !crate::scanner::index::returns::own_returns(src, body).is_empty())
}

/// Follows a variable holding a builder through the rest of its block.
fn follow_uses(
    cx: &FileCx<'_>,
    block: Node<'_>,
    after: usize,
    name: &str,
    op: &mut Operation,
    st: &mut State,
    depth: usize,
) -> Escape {
    let src = cx.src;
    if depth > MAX_FOLLOW_DEPTH {
        return Escape::None;
    }
    let ident = kind_id("identifier");
    let uses = descendants_after(block, after, &mut |n| {
        n.kind_id() == ident && src.of(n) == name
    });
    let mut escape = Escape::None;
    for u in uses {
        let Some(parent) = src.parent(u) else {
            continue;
        };
        // The target of `q = ..`, a new `let q`, or a field name: not a read. Given
        // anything but a chain on the builder itself (`q = q.limit(5)`), later uses
        // may read another value.
        let target = match node_kind(parent) {
            "assignment_expression" => ("left", "right"),
            "let_declaration" => ("pattern", "value"),
            _ => ("", ""),
        };
        if !target.0.is_empty() && field(parent, target.0).is_some_and(|l| l.id() == u.id()) {
            if !st.sent && !field(parent, target.1).is_some_and(|v| chain_on(cx, v, name)) {
                st.lost = true;
            }
            continue;
        }
        let conditional = in_branch(src, u, block);
        let top = climb_apply(cx, u, op, st, conditional);
        let Some(tp) = src.parent(top) else { continue };
        match node_kind(tp) {
            "let_declaration" if field(tp, "value").is_some_and(|v| v.id() == top.id()) => {
                let Some(pat) = field(tp, "pattern") else {
                    continue;
                };
                let new = src.of(pat).trim_start_matches("mut ").trim().to_string();
                let Some(b) = src.parent(tp) else { continue };
                if top.id() != u.id() || new != name {
                    let e = follow_uses(cx, b, tp.end_byte(), &new, op, st, depth + 1);
                    escape = one_escape(st, escape, e);
                }
                if new == name {
                    // Shadowed: later uses are the new binding's, already followed.
                    return escape;
                }
            }
            // `q = q.limit(5)` keeps it; `self.q = q` puts it out of sight.
            "assignment_expression" => {
                let kept = field(tp, "left")
                    .is_some_and(|l| node_kind(l) == "identifier" && src.of(l) == name);
                st.lost |= !kept && !st.sent;
            }
            _ if top.id() == u.id() => {
                // Used bare: returned, passed on, or cloned into something.
                let e = follow_consumer(cx, top, op, st, depth + 1);
                escape = one_escape(st, escape, e);
            }
            _ => {
                if !st.sent {
                    let e = follow_consumer(cx, top, op, st, depth + 1);
                    escape = one_escape(st, escape, e);
                }
            }
        }
    }
    escape
}

/// The escape of a builder seen leaving twice (passed to one helper on one path and
/// another on the other): the last, as before, and the builder is
/// [`State::lost`], since one of them is not followed.
fn one_escape(st: &mut State, was: Escape, now: Escape) -> Escape {
    match (&was, now) {
        (_, Escape::None) => was,
        (Escape::None, now) => now,
        (_, now) => {
            st.lost = true;
            now
        }
    }
}

/// Whether `value` is a chain on the variable `name` (`q.limit(5)`, `q.limit(5).clone()`
/// through `?`, `.await` and parentheses): a rebinding that keeps the builder.
fn chain_on(cx: &FileCx<'_>, value: Node<'_>, name: &str) -> bool {
    let mut at = value;
    loop {
        match node_kind(at) {
            "identifier" => return cx.src.of(at) == name,
            "call_expression" => match field(at, "function") {
                Some(f) if node_kind(f) == "field_expression" => match field(f, "value") {
                    Some(v) => at = v,
                    None => return false,
                },
                _ => return false,
            },
            "await_expression" | "try_expression" | "parenthesized_expression" => {
                match named_children(at).into_iter().next() {
                    Some(c) => at = c,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

/// Whether `node` sits in an `if`/`match` branch (or a loop) below `block`.
fn in_branch(src: Src<'_>, node: Node<'_>, block: Node<'_>) -> bool {
    for a in ancestors(src, node) {
        if a.id() == block.id() {
            return false;
        }
        if branches(node_kind(a)) {
            return true;
        }
    }
    false
}

/// Whether code under a node of this kind runs on some paths only: a branch of an
/// `if` or `match`, a loop's body (perhaps never), a closure (perhaps never called).
pub(super) fn branches(kind: &str) -> bool {
    matches!(
        kind,
        "if_expression"
            | "match_arm"
            | "else_clause"
            | "while_expression"
            | "for_expression"
            | "loop_expression"
            | "closure_expression"
    )
}

/// Applies one setter to the operation.
fn apply<'t>(
    cx: &FileCx<'t>,
    op: &mut Operation,
    s: Setter,
    set: bool,
    call: Node<'t>,
    mut args: Vec<Node<'t>>,
    conditional: bool,
) {
    let src = cx.src;
    // `set_x(opt)` with an `Option` the code computes: on some runs nothing is set.
    let mut maybe_unset = conditional;
    if set {
        // `set_x(Some(v))` is `x(v)`; `set_x(None)` clears nothing we track.
        let Some(a) = args.first().map(|a| peel(*a)) else {
            return;
        };
        if src.of(a) == "None" {
            return;
        }
        match unwrap_some(cx, a) {
            Some(inner) => args = vec![inner],
            None => maybe_unset = true,
        }
    }
    let call_span = span(call);
    let first = args.first().copied();
    match s {
        Setter::Table => {
            if let Some(a) = first {
                op.table = Some(cx.name(a));
                op.table_span = Some(span(a));
                op.table_text = Some(fold_whitespace(src.of(holder(cx, a))));
            }
        }
        Setter::Index => {
            if let Some(a) = first {
                op.index = Some(cx.name(a));
                op.index_span = Some(span(a));
            }
        }
        Setter::KeyCondition => {
            op.key_condition = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new)
        }
        Setter::Filter => op.filter = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new),
        Setter::Condition => {
            op.condition = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new)
        }
        Setter::Projection => {
            op.projection = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new)
        }
        Setter::Update => op.update = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new),
        Setter::Statement => {
            op.statement = first.map(|a| expr_arg(cx, a, conditional)).map(Box::new)
        }
        Setter::Names => {
            let (entries, complete) = pairs(cx, &args, set);
            op.names_complete &= complete;
            for (k, v, c) in entries {
                match cx.string(k).value() {
                    Some(key) => {
                        // A name handed in (`fn query_in(c, sk: &str)`): what the
                        // calls pass, each caller's own when they differ.
                        op.names.insert(
                            key.to_string(),
                            NameArg {
                                name: cx.name(v),
                                span: span(v),
                                conditional: conditional || c,
                            },
                        );
                    }
                    None => op.names_complete = false,
                }
            }
        }
        Setter::Values => {
            let (entries, complete) = pairs(cx, &args, set);
            op.values_complete &= complete;
            for (k, v, _) in entries {
                match cx.string(k).value() {
                    Some(key) => {
                        op.values.insert(key.to_string(), cx.value(v));
                    }
                    None => op.values_complete = false,
                }
            }
        }
        Setter::Item | Setter::Key | Setter::Keys => {
            let map = if set && s == Setter::Keys {
                // `set_keys` takes the whole list, `keys` adds one map.
                first.map(|a| items::key_list_map(cx, a, conditional))
            } else if set || s == Setter::Keys {
                first.map(|a| items::attr_map(cx, a, conditional))
            } else {
                match (args.first(), args.get(1)) {
                    (Some(k), Some(v)) => Some(AttrMap {
                        // Room for a second: a table's key is most often two pair
                        // setters, and growing the first one's list was a reallocation
                        // per request.
                        attributes: {
                            let mut one = Vec::with_capacity(2);
                            one.push(AttrArg {
                                name: cx.string(*k),
                                value: cx.value(*v),
                                span: call_span,
                                conditional,
                            });
                            one
                        },
                        complete: true,
                        from_type: None,
                        serde_at: None,
                    }),
                    _ => None,
                }
            };
            if let Some(map) = map {
                let slot = if s == Setter::Item {
                    &mut op.item
                } else {
                    &mut op.key
                };
                merge_map(slot, map);
            }
        }
        Setter::ConsistentRead => op.consistent_read = first.and_then(|a| bool_lit(cx, a)),
        Setter::ScanIndexForward => op.scan_index_forward = first.and_then(|a| bool_lit(cx, a)),
        Setter::Limit => op.limit = first.map(|a| Box::new(limit_value(cx, a, maybe_unset))),
        Setter::Select => {
            let choices = first.map(|a| select_choices(cx, a)).unwrap_or_default();
            op.select = None;
            op.select_choices = Vec::new();
            match choices.as_slice() {
                [one] => op.select = Some(one.clone()),
                [_, _, ..] => op.select_choices = choices,
                [] => {}
            }
        }
        Setter::ExclusiveStartKey => op.exclusive_start_key = true,
        Setter::TotalSegments => op.total_segments = first.map(|a| Box::new(cx.value(a))),
        Setter::Segment | Setter::Ignored | Setter::Terminal | Setter::Paginator => {}
        Setter::KeyConditions => match (set, args.as_slice()) {
            (false, [k, v]) => crate::scanner::index::key_conditions::apply_entries(
                cx,
                op,
                &[(*k, *v, conditional)],
                true,
                method_span(call),
            ),
            (true, [map]) => crate::scanner::index::key_conditions::apply(cx, op, *map),
            _ => {}
        },
        Setter::RequestItems => {
            crate::scanner::index::batch::request_items(cx, op, &args, set, conditional)
        }
        Setter::TransactItems => {
            crate::scanner::index::batch::transact_items(cx, op, &args, set, conditional)
        }
        Setter::Wrapped => crate::scanner::index::batch::wrapped(cx, op, call, &args),
    }
}

/// Remembers where a setter call is, so rules can point at it or remove it.
#[allow(clippy::too_many_arguments)]
fn record_setter(
    cx: &FileCx<'_>,
    op: &mut Operation,
    name: &str,
    set: bool,
    field_expr: Node<'_>,
    call: Node<'_>,
    args: &[Node<'_>],
    conditional: bool,
) {
    // Only pair setters (`k, v`) carry a key; whole-map forms name several.
    let key = match (set, args) {
        (false, [k, _]) => cx.string(*k).value().map(str::to_string),
        _ => None,
    };
    let receiver_end = field(field_expr, "value").map_or(field_expr.start_byte(), |v| v.end_byte());
    let dot = dot_start(field_expr).unwrap_or(receiver_end);
    let lead = cx.src.span_text(Span::new(receiver_end, dot));
    op.setters.push(SetterCall {
        method: name.to_string(),
        key,
        span: method_span(call),
        removal_span: Span::new(receiver_end, call.end_byte()),
        conditional,
        lead: if lead.trim().is_empty() {
            lead.to_string()
        } else {
            String::new()
        },
    });
}

/// Where the `.` of a field expression starts.
fn dot_start(field_expr: Node<'_>) -> Option<usize> {
    // By index, not with a cursor (created, and freed, for every setter of every
    // chain): a field expression has three children, and a comment or two more at most.
    (0..field_expr.child_count())
        .filter_map(|i| field_expr.child(i))
        .find(|c| node_kind(*c) == ".")
        .map(|c| c.start_byte())
}

/// `Some(x)` → x.
fn unwrap_some<'t>(cx: &FileCx<'t>, a: Node<'t>) -> Option<Node<'t>> {
    let path = call_path(cx.src, a)?;
    if path != "Some" {
        return None;
    }
    call_args(a).first().copied()
}

/// The (key, value) pairs of a map setter: two arguments, or a whole map; and whether
/// they are all of them.
type Pairs<'t> = (Vec<(Node<'t>, Node<'t>, bool)>, bool);

fn pairs<'t>(cx: &FileCx<'t>, args: &[Node<'t>], set: bool) -> Pairs<'t> {
    if !set && args.len() == 2 {
        return (vec![(args[0], args[1], false)], true);
    }
    match args.first() {
        Some(m) => items::entries(cx, *m, 0),
        None => (Vec::new(), true),
    }
}

fn merge_map(slot: &mut Option<AttrMap>, map: AttrMap) {
    match slot {
        Some(existing) => {
            existing.complete &= map.complete;
            if existing.from_type.is_none() {
                existing.from_type = map.from_type;
                existing.serde_at = map.serde_at.map(|at| at + existing.attributes.len());
            }
            existing.attributes.extend(map.attributes);
        }
        None => *slot = Some(map),
    }
}

/// An expression argument, keeping where a literal's text starts.
pub fn expr_arg(cx: &FileCx<'_>, a: Node<'_>, conditional: bool) -> ExprArg {
    let e = expr_of(cx, a, conditional);
    // A parameter of a function that sends the request: each call's texts per path
    // are read with its values (`ArgSite::paths`).
    let p = peel(a);
    if e.text.value().is_none() && node_kind(p) == "identifier" {
        cx.value_param_ref(p, cx.src.of(p));
    }
    e
}

/// An expression argument as [`expr_arg`] reads it, as the argument of any call.
fn expr_of(cx: &FileCx<'_>, a: Node<'_>, conditional: bool) -> ExprArg {
    let mut p = peel(a);
    // `"..".to_string()`, `"..".into()`, `String::from("..")`: still the literal's text.
    if let Some((recv, m, _)) = method_call(cx.src, p) {
        if matches!(m.as_str(), "to_string" | "into" | "to_owned") {
            p = peel(recv);
        }
    } else if call_path(cx.src, p).is_some_and(|c| c.ends_with("String::from")) {
        if let Some(inner) = call_args(p).first() {
            p = peel(*inner);
        }
    }
    let literal_start = if string_value(cx.src, p).is_some() && node_kind(p) == "string_literal" {
        string_content_start(cx.src, p)
    } else {
        None
    };
    // An expression handed in is followed to what the calls pass, like a name.
    let text = cx.name(a);
    let paths = match text.value() {
        Some(_) => Box::default(),
        None => cx.path_strings(a),
    };
    // A copy of a string built per path (`let kc = key_condition.to_owned()`) is named
    // as what it copies, whose paths it has.
    let text = match crate::scanner::index::resolve::copy_of(cx.src, peel(a)) {
        Some(c) if !paths.is_empty() && node_kind(c) == "identifier" => cx.name(c),
        _ => text,
    };
    ExprArg {
        text,
        span: span(a),
        literal_start,
        conditional,
        paths,
    }
}

fn bool_lit(cx: &FileCx<'_>, a: Node<'_>) -> Option<bool> {
    match cx.src.of(peel(a)) {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// What DynamoDB's `Select` can be.
const SELECT_VALUES: [&str; 4] = [
    "ALL_ATTRIBUTES",
    "ALL_PROJECTED_ATTRIBUTES",
    "SPECIFIC_ATTRIBUTES",
    "COUNT",
];

/// The `Select` values an argument gives, as DynamoDB spells them, without repeats:
/// one for `Select::Count` (by any path to the enum), `Select::from("COUNT")` or a
/// string; one per branch of an `if` or `match` (`if count { Select::Count } else {
/// Select::AllAttributes }`). Empty when a value, or a branch's, is not one of these:
/// the value is then unknown, never the argument's text.
fn select_choices(cx: &FileCx<'_>, a: Node<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![(a, 0usize)];
    while let Some((n, depth)) = todo.pop() {
        let n = peel(n);
        if matches!(n.kind(), "if_expression" | "match_expression") {
            let Some(branches) = branch_values(n).filter(|_| depth < 8) else {
                return Vec::new();
            };
            todo.extend(branches.into_iter().rev().map(|b| (b, depth + 1)));
            continue;
        }
        let Some(v) = select_value(cx, n) else {
            return Vec::new();
        };
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// One `Select` value: `Select::AllAttributes`, `types::Select::Count`,
/// `Select::from("COUNT")`, `"COUNT"`.
fn select_value(cx: &FileCx<'_>, n: Node<'_>) -> Option<String> {
    let src = cx.src;
    let v = match n.kind() {
        "scoped_identifier" => {
            let text = src.of(n);
            let mut segs = text.rsplit("::").map(str::trim);
            let variant = segs.next()?;
            (segs.next()? == "Select").then(|| select_name(variant))?
        }
        "call_expression" if call_path(src, n).is_some_and(|p| p.ends_with("Select::from")) => {
            cx.string(*call_args(n).first()?).value()?.to_string()
        }
        // `set_select(Some(Select::Count))`.
        "call_expression" if call_path(src, n).is_some_and(|p| p == "Some") => {
            return match call_args(n).as_slice() {
                [one] => select_value(cx, peel(*one)),
                _ => None,
            };
        }
        _ => cx.string(n).value()?.to_string(),
    };
    SELECT_VALUES.contains(&v.as_str()).then_some(v)
}

/// The value of each branch of an `if` (with its `else`) or a `match`: the tail
/// expression of each block. `None` when a branch has none (it returns, or the `if`
/// has no `else`).
fn branch_values<'t>(n: Node<'t>) -> Option<Vec<Node<'t>>> {
    let tail = |b: Node<'t>| -> Option<Node<'t>> {
        let b = peel(b);
        if b.kind() != "block" {
            return Some(b);
        }
        let last = named_children(b).into_iter().last()?;
        (!matches!(
            last.kind(),
            "expression_statement" | "let_declaration" | "line_comment" | "block_comment"
        ))
        .then_some(last)
    };
    let mut out = Vec::new();
    match n.kind() {
        "if_expression" => {
            out.push(tail(field(n, "consequence")?)?);
            let alt = field(n, "alternative")?;
            let inner = named_children(alt).into_iter().next()?;
            match inner.kind() {
                "if_expression" => out.push(inner),
                _ => out.push(tail(inner)?),
            }
        }
        "match_expression" => {
            let body = field(n, "body")?;
            for arm in named_children(body)
                .into_iter()
                .filter(|c| c.kind() == "match_arm")
            {
                out.push(tail(field(arm, "value")?)?);
            }
            if out.is_empty() {
                return None;
            }
        }
        _ => return None,
    }
    Some(out)
}

/// `Select::AllProjectedAttributes` → `ALL_PROJECTED_ATTRIBUTES`.
fn select_name(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// Context, span and fingerprint, once the chain is folded.
fn finish(cx: &FileCx<'_>, root: Node<'_>, op: &mut Operation, st: &State) {
    let src = cx.src;
    op.span = Span::new(op.span.start, st.end.max(op.span.end));
    let around = around(cx, root, op.exclusive_start_key, st.segment_var.as_deref());
    op.context.function = around.function;
    op.context.in_loop = around.in_loop;
    op.context.whole_function = around.only_statement == Some(op.span.start);
    let paged = around.paged;
    if around.test {
        op.context.cold = Some(ColdReason::Test);
    }
    // A loop that feeds `last_evaluated_key` back as `exclusive_start_key` reads every
    // page: around the whole chain, or only around the setter (`req =
    // req.set_exclusive_start_key(..)` in a loop that sends `req`).
    if paged || st.paged {
        op.paginated = true;
    }
    op.first_item_only = st.first_item == Some(true);
    op.fingerprint_text = fold_whitespace(src.span_text(op.span));
    for c in &mut op.children {
        c.context = op.context.clone();
        c.fingerprint_text = fold_whitespace(src.span_text(c.span));
    }
    let _ = &st.extra_spans;
}

/// A rusoto `QueryInput { table_name: .., ..Default::default() }` literal.
fn fold_rusoto(cx: &FileCx<'_>, path: &FilePath, n: Node<'_>) -> Option<Operation> {
    let src = cx.src;
    let kind = rusoto_kind(cx, n)?;
    let body = field(n, "body")?;
    let mut fields = Vec::new();
    for f in named_children(body) {
        let (fname, value) = match node_kind(f) {
            "field_initializer" => (field(f, "field").map(|x| src.of(x)), field(f, "value")),
            "shorthand_field_initializer" => {
                let id = named_children(f)
                    .into_iter()
                    .find(|c| node_kind(*c) == "identifier");
                (id.map(|x| src.of(x)), id)
            }
            _ => (None, None),
        };
        if let (Some(fname), Some(value)) = (fname, value) {
            fields.push((fname, value));
        }
    }
    let name_span = field(n, "name").map(span);
    Some(rusoto_op(
        cx,
        path,
        n,
        kind,
        name_span,
        &fields,
        (false, n.end_byte()),
    ))
}

/// A rusoto request built by assignment, the other way its docs show:
/// `let mut q = QueryInput::default();`, then `q.table_name = ..;` statements after it
/// in the same block. Only when every field is set by a statement of that block: a
/// field set inside an `if` or a loop, or a request handed on as `&mut q`, is set on
/// some paths only, and a request judged without it could be judged wrong (a value
/// without its expression). `exclusive_start_key` set anywhere after it pages.
fn fold_rusoto_assigned(cx: &FileCx<'_>, path: &FilePath, n: Node<'_>) -> Option<Operation> {
    let src = cx.src;
    let p = call_path(src, n)?;
    if last_segment(p) != "default" || !call_args(n).is_empty() {
        return None;
    }
    let kind = op_for_input_type(type_segment(p)?)?;
    let decl = src
        .parent(n)
        .filter(|l| node_kind(*l) == "let_declaration")?;
    let name = field(decl, "pattern")
        .filter(|p| node_kind(*p) == "identifier")
        .map(|p| src.of(p))?;
    let block = src.parent(decl)?;
    let mut fields = Vec::new();
    let mut paged = false;
    let mut end = n.end_byte();
    let assigned = |a: Node<'_>| -> Option<&str> {
        let left = field(a, "left").filter(|l| node_kind(*l) == "field_expression")?;
        let owner = field(left, "value")?;
        (src.of(owner) == name).then(|| field(left, "field").map(|f| src.of(f)))?
    };
    for stmt in named_children(block)
        .into_iter()
        .filter(|s| s.start_byte() > decl.end_byte())
    {
        let direct = Some(stmt)
            .filter(|s| node_kind(*s) == "expression_statement")
            .and_then(|s| s.named_child(0))
            .filter(|a| node_kind(*a) == "assignment_expression");
        if let Some((a, fname)) = direct.and_then(|a| Some((a, assigned(a)?))) {
            if let Some(value) = field(a, "right") {
                fields.push((fname, value));
                end = stmt.end_byte();
            }
            continue;
        }
        // Shadowed: what follows is another request.
        if node_kind(stmt) == "let_declaration"
            && field(stmt, "pattern").is_some_and(|p| src.of(p) == name)
        {
            break;
        }
        let found = descendants(stmt, &mut |d| {
            matches!(
                node_kind(d),
                "assignment_expression" | "reference_expression"
            )
        });
        for d in found {
            match node_kind(d) {
                "assignment_expression" => match assigned(d) {
                    Some("exclusive_start_key") => paged = true,
                    Some(_) => return None,
                    None => {}
                },
                "reference_expression"
                    if src.of(d).starts_with("&mut")
                        && d.named_child(d.named_child_count().saturating_sub(1))
                            .is_some_and(|v| src.of(v) == name) =>
                {
                    return None;
                }
                _ => {}
            }
        }
    }
    Some(rusoto_op(cx, path, n, kind, None, &fields, (paged, end)))
}

/// The request a rusoto input's fields make, from `(field, value)` pairs: a struct
/// literal's or the assignments that fill one. `paged`: a loop sets its
/// `exclusive_start_key`; `end`: where its last field is set.
fn rusoto_op<'t>(
    cx: &FileCx<'t>,
    path: &FilePath,
    n: Node<'t>,
    kind: OpKind,
    name_span: Option<Span>,
    fields: &[(&str, Node<'t>)],
    (paged, end): (bool, usize),
) -> Operation {
    let src = cx.src;
    let mut op = Operation::new(kind, path.clone(), span(n));
    op.method_span = name_span.unwrap_or(op.span);
    let mut key_conditions = None;
    for &(fname, value) in fields {
        // rusoto fields are `Option<..>` except the required ones: strip `Some(..)`.
        let some = unwrap_some(cx, peel(value));
        let maybe_unset = some.is_none();
        let value = some.unwrap_or(value);
        if src.of(peel(value)) == "None" {
            continue;
        }
        if fname == "key_conditions" {
            key_conditions = Some(value);
        }
        if let Some((s, _)) = setter(fname) {
            let as_set = matches!(
                s,
                Setter::Names
                    | Setter::Values
                    | Setter::Item
                    | Setter::Key
                    | Setter::ExclusiveStartKey
            );
            match s {
                Setter::Item | Setter::Key => {
                    let map = items::attr_map(cx, value, false);
                    let slot = if s == Setter::Item {
                        &mut op.item
                    } else {
                        &mut op.key
                    };
                    merge_map(slot, map);
                }
                Setter::Names => {
                    let (entries, complete) = items::entries(cx, value, 0);
                    op.names_complete &= complete;
                    for (k, v, c) in entries {
                        match cx.string(k).value() {
                            Some(key) => {
                                op.names.insert(
                                    key.to_string(),
                                    NameArg {
                                        name: cx.string(v),
                                        span: span(v),
                                        conditional: c,
                                    },
                                );
                            }
                            None => op.names_complete = false,
                        }
                    }
                }
                Setter::Values => {
                    let (entries, complete) = items::entries(cx, value, 0);
                    op.values_complete &= complete;
                    for (k, v, _) in entries {
                        match cx.string(k).value() {
                            Some(key) => {
                                op.values.insert(key.to_string(), cx.value(v));
                            }
                            None => op.values_complete = false,
                        }
                    }
                }
                _ => {
                    let _ = as_set;
                    apply_value(cx, &mut op, s, value);
                    // `limit: opt` (an `Option` the code computes, not `Some(..)`).
                    if let (Setter::Limit, true, Some(limit)) = (s, maybe_unset, &mut op.limit) {
                        limit.nullable = true;
                    }
                }
            }
        }
    }
    if let Some(map) = key_conditions {
        crate::scanner::index::key_conditions::apply(cx, &mut op, map);
    }
    // dynomite's `client.scan_pages(ScanInput { .. })` / `query_pages` stream every
    // page of the read.
    let pager = src
        .parent(n)
        .filter(|a| node_kind(*a) == "arguments")
        .and_then(|a| src.parent(a))
        .and_then(|call| method_name(src, call));
    if matches!(pager, Some("scan_pages" | "query_pages")) {
        op.paginated = true;
    }
    let st = State {
        sent: true,
        paged,
        end,
        ..State::default()
    };
    finish(cx, n, &mut op, &st);
    op
}

/// The value of a `limit`: absent on some runs when it is set only on some paths or
/// from an `Option` the code computes (`set_limit(opts.limit)`), where a read with no
/// limit is a read of a whole page.
fn limit_value(cx: &FileCx<'_>, a: Node<'_>, maybe_unset: bool) -> ValueInfo {
    let mut v = cx.value(a);
    v.nullable |= maybe_unset;
    v
}

/// A single-value setter from a struct field (rusoto) or a typed builder.
fn apply_value(cx: &FileCx<'_>, op: &mut Operation, s: Setter, value: Node<'_>) {
    match s {
        Setter::Table => {
            op.table = Some(cx.name(value));
            op.table_span = Some(span(value));
            op.table_text = Some(fold_whitespace(cx.src.of(value)));
        }
        Setter::Index => {
            op.index = Some(cx.name(value));
            op.index_span = Some(span(value));
        }
        Setter::KeyCondition => op.key_condition = Some(Box::new(expr_arg(cx, value, false))),
        Setter::Filter => op.filter = Some(Box::new(expr_arg(cx, value, false))),
        Setter::Condition => op.condition = Some(Box::new(expr_arg(cx, value, false))),
        Setter::Projection => op.projection = Some(Box::new(expr_arg(cx, value, false))),
        Setter::Update => op.update = Some(Box::new(expr_arg(cx, value, false))),
        Setter::Statement => op.statement = Some(Box::new(expr_arg(cx, value, false))),
        Setter::ConsistentRead => op.consistent_read = bool_lit(cx, value),
        Setter::ScanIndexForward => op.scan_index_forward = bool_lit(cx, value),
        Setter::Limit => op.limit = Some(Box::new(cx.value(value))),
        Setter::Select => op.select = cx.string(value).value().map(str::to_string),
        Setter::ExclusiveStartKey => op.exclusive_start_key = true,
        Setter::TotalSegments => op.total_segments = Some(Box::new(cx.value(value))),
        _ => {}
    }
}

/// Folds a typed builder (`Put::builder()...build()`) or a rusoto struct (`Put { .. }`)
/// into an operation of `kind`, without context (the parent sets it).
pub fn fold_typed(cx: &FileCx<'_>, path: &FilePath, root: Node<'_>, kind: OpKind) -> Operation {
    let mut op = Operation::new(kind, path.clone(), span(root));
    op.method_span = span(root);
    crate::scanner::index::expr_crate::fill(cx, root, &mut op);
    let mut st = State::default();
    if node_kind(root) == "struct_expression" {
        if let Some(body) = field(root, "body") {
            for f in named_children(body) {
                if node_kind(f) != "field_initializer" {
                    continue;
                }
                let (Some(fname), Some(value)) =
                    (field(f, "field").map(|x| cx.src.of(x)), field(f, "value"))
                else {
                    continue;
                };
                let value = unwrap_some(cx, peel(value)).unwrap_or(value);
                match setter(fname) {
                    Some((s @ (Setter::Item | Setter::Key), _)) => {
                        let map = items::attr_map(cx, value, false);
                        let slot = if s == Setter::Item {
                            &mut op.item
                        } else {
                            &mut op.key
                        };
                        merge_map(slot, map);
                    }
                    Some((Setter::Wrapped, _)) => {
                        crate::scanner::index::batch::wrapped_value(cx, &mut op, fname, value)
                    }
                    Some((s, _)) => apply_value(cx, &mut op, s, value),
                    None => {}
                }
            }
        }
        op.span = span(root);
        return op;
    }
    let top = climb_apply(cx, root, &mut op, &mut st, false);
    op.complete_builder = st.built && !st.foreign_before_build;
    op.span = Span::new(
        root.start_byte(),
        st.end
            .max(top.end_byte())
            .min(top.end_byte().max(root.end_byte())),
    );
    op
}

/// The typed builder a `X::builder()` call or an `X { .. }` literal starts.
pub fn typed_root(cx: &FileCx<'_>, n: Node<'_>) -> Option<Typed> {
    let src = cx.src;
    match node_kind(n) {
        "call_expression" => {
            // `expr.to_put_builder()` of the dynamodb-expression crate.
            if let Some(t) = crate::scanner::index::expr_crate::typed_kind(cx, n) {
                return Some(t);
            }
            let path = call_path(src, n)?;
            if last_segment(path) != "builder" {
                return None;
            }
            typed_for(type_segment(path)?)
        }
        "struct_expression" => typed_for(last_segment(field(n, "name").map(|t| src.of(t))?)),
        _ => None,
    }
}

/// Where `name` stands as a whole word in `text[from..to]`: every identifier node
/// whose text is `name` in that range starts at one of them.
fn word_occurrences<'a>(
    text: &'a str,
    from: usize,
    to: usize,
    name: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    let range = text.get(from..to).unwrap_or("");
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    range
        .match_indices(name)
        .map(move |(i, _)| from + i)
        .filter(move |at| {
            let before = at.checked_sub(1).and_then(|i| bytes.get(i));
            let after = bytes.get(*at + name.len());
            !name.is_empty()
                && !before.is_some_and(|b| word(*b))
                && !after.is_some_and(|b| word(*b))
        })
}
