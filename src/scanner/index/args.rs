//! The arguments the crate's calls pass, for parameters that name things: a table
//! name handed to a constructor (`DynamoDBStore::new(client, table_name)` with
//! `table_name` from `env::var`) or to a function (`put_in(&client, "Orders")`). The
//! link phase resolves a parameter ([`RefKind::Param`]) to what every call passes, when
//! they agree.

use std::borrow::Cow;
use std::collections::HashSet;

use tree_sitter::Node;

use crate::scanner::index::fold::{passed_paths, PathStrings};
use crate::scanner::index::resolve::{FileCx, RefKind, PENDING};
use crate::scanner::ir::{AttrMap, Resolved, ValueInfo};
use crate::scanner::syntax::names::{intern, Name};
use crate::scanner::syntax::nodes::{
    call_arg_count, call_args, call_path, field, last_segment, method_name, no_args, peel, span,
    type_segment,
};
use crate::source::Span;

/// One call of a function by name, with what it passes. Every file's sites live until
/// the link, and the same callee and type names recur across a tree: they are
/// interned.
#[derive(Debug, Clone)]
pub struct ArgSite {
    /// The function's name (the path's last segment, or the method's name).
    pub callee: Name,
    /// The type the path names (`Store` of `Store::new(..)`, the impl type for
    /// `Self::new(..)`); `None` for a plain function or a method call.
    pub ty: Option<Name>,
    /// `x.f(..)`: a method call, whose receiver's type is not known here.
    pub method: bool,
    /// Each argument's value, when it is a value dynalint can follow.
    pub args: Box<[Option<Resolved>]>,
    /// In test code: a test names its own table, not the one the service uses.
    pub test: bool,
    /// The called name: which loop, if any, repeats the call (a request linked once
    /// per caller is repeated only by a loop around its own caller's call).
    pub at: Span,
    /// A method call's receiver's type, when the code shows it (`self` in an `impl`,
    /// `Repo::new(..)`, a local bound to one): the call is certainly of that type's
    /// method, and of no other type's.
    pub receiver: Option<Name>,
    /// Each argument as an attribute value or a number (`u32::MAX`, `AttributeValue::S(
    /// "user".into())`), for a helper that sends the request with it
    /// (`Linker::param_bindings`); empty when none says anything.
    pub values: Box<[ValueInfo]>,
    /// Each argument as an item or key map (`Some(item)`); empty when none is one.
    pub maps: Box<[AttrMap]>,
    /// Each argument's length as a list literal (`Some(vec![a, b])`), for a helper
    /// that sends `set_parameters` with it; empty when none is one (and when the
    /// values were not read).
    pub lists: Box<[Option<usize>]>,
    /// Each argument that is a local string appended to on some paths only
    /// (`key_condition.push_str(..)` in a `match` arm), with its texts per path: what
    /// a helper's `.key_condition_expression(kc)` holds on each path of this call.
    /// Read with the values; empty when no argument is built so.
    pub paths: Box<[Option<PathStrings>]>,
}

/// What a call site is matched on ([`calls`]), without its arguments' values: a file
/// indexed lean keeps only these ([`site_keys`]), and the link indexes it again, with
/// the values, only when some parameter reference may be answered by one of them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SiteKey {
    pub callee: Name,
    pub ty: Option<Name>,
    pub method: bool,
    pub arity: usize,
}

/// Calls with more arguments than this are not recorded (builders of generated code).
const MAX_ARGS: usize = 8;

/// A call's key and its arguments, for a call [`arg_sites`] would look at.
fn site<'t>(cx: &FileCx<'t>, n: Node<'t>) -> Option<(SiteKey, Vec<Node<'t>>)> {
    // Most calls pass nothing (`send()`, `x.into()`): skipped before collecting.
    if no_args(n) {
        return None;
    }
    let args = call_args(n);
    let (callee, ty, method) = key_text(cx, n, args.len(), method_name(cx.src, n))?;
    let key = SiteKey {
        callee: intern(callee),
        ty: ty.map(|t| intern(&t)),
        method,
        arity: args.len(),
    };
    Some((key, args))
}

/// A site's key as the text spells it (callee, type, whether a method), for a call
/// passing `arity` arguments whose method is `method` (its [`method_name`]): `None`
/// for a call [`arg_sites`] does not look at.
fn key_text<'t>(
    cx: &FileCx<'t>,
    n: Node<'t>,
    arity: usize,
    method: Option<&'t str>,
) -> Option<(&'t str, Option<Cow<'t, str>>, bool)> {
    let src = cx.src;
    if arity == 0 || arity > MAX_ARGS {
        return None;
    }
    let (callee, ty, method) = match method {
        Some(m) => (m, None, true),
        None => {
            let path = call_path(src, n)?;
            let ty = type_segment(path).map(|t| match t {
                "Self" => cx.impl_type(n).map_or(Cow::Borrowed(t), Cow::Owned),
                t => Cow::Borrowed(t),
            });
            (last_segment(path), ty, false)
        }
    };
    if matches!(callee, "Some" | "Ok" | "Err" | "format" | "vec") {
        return None;
    }
    Some((callee, ty, method))
}

/// A [`SiteKey`] as the text spells it: callee, type, method, arity.
type KeyText<'t> = (&'t str, Option<Cow<'t, str>>, bool, usize);

/// The keys of every call of `calls` (each with its [`method_name`], found once for
/// the fold and this) that [`arg_sites`] would look at (a superset of those it
/// records: whether an argument can be followed is not asked), sorted and without
/// repeats.
pub fn site_keys<'t>(cx: &FileCx<'t>, calls: &[(Node<'t>, Option<&'t str>)]) -> Vec<SiteKey> {
    // Keys by their text first, interned once each: a file's calls repeat a few keys
    // (a generated file, the same setters 40,000 times), and neither the arguments nor
    // the interned names of each call are needed to tell them apart.
    let mut seen: HashSet<KeyText<'_>, foldhash::fast::RandomState> = HashSet::default();
    for &(n, method) in calls {
        // No arguments (`send()`, `x.into()`): no key (`key_text`), and counted
        // without a second look for the argument list.
        let arity = call_arg_count(n);
        if let Some((callee, ty, method)) = key_text(cx, n, arity, method) {
            seen.insert((callee, ty, method, arity));
        }
    }
    let mut out: Vec<SiteKey> = seen
        .into_iter()
        .map(|(callee, ty, method, arity)| SiteKey {
            callee: intern(callee),
            ty: ty.map(|t| intern(&t)),
            method,
            arity,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Every call in `nodes` that passes a value dynalint can follow, each argument read
/// as a name and (see [`ValuesOf`]) as a value and a map. With `unread`, the keys of
/// the calls (but a DynamoDB setter's, and a call in test code's: the link reads no
/// request's value at a test's call, `Linker::bindings_at`) whose values were not
/// read.
pub fn arg_sites(
    cx: &FileCx<'_>,
    nodes: &[Node<'_>],
    test_file: bool,
    values_of: ValuesOf<'_>,
    mut unread: Option<&mut Vec<SiteKey>>,
) -> Vec<ArgSite> {
    let mut out = Vec::new();
    let call_k = crate::scanner::syntax::nodes::kind_id("call_expression");
    for n in nodes.iter().copied().filter(|n| n.kind_id() == call_k) {
        let Some((key, args)) = site(cx, n) else {
            continue;
        };
        let followed: Box<[Option<Resolved>]> = args.iter().map(|a| followable(cx, *a)).collect();
        // A DynamoDB setter's arguments are the request's own: no helper's parameter.
        let setter = key.method
            && (crate::scanner::sdk::setter(&key.callee).is_some()
                || crate::scanner::sdk::op_for_method(&key.callee).is_some());
        let helpers = values_of.helpers();
        let same = values_of.same();
        let may_read = !setter
            && (matches!(values_of, ValuesOf::Every)
                || helpers.iter().any(|k| may_call(&key, k, same)));
        let receiver = if key.method && (may_read || followed.iter().any(Option::is_some)) {
            receiver_type(cx, n)
        } else {
            None
        };
        // Values are read only at a call that certainly calls its function (a
        // function's or a path's call, or a method's on a receiver whose type the code
        // shows, `Linker::bindings_at`).
        let read = may_read
            && match (key.method, &receiver, values_of) {
                (false, _, _) => true,
                (true, None, _) => false,
                (true, Some(_), ValuesOf::Every) => true,
                (true, Some(r), _) => helpers.iter().any(|k| {
                    may_call(&key, k, same)
                        && matches!(k, RefKind::Param { self_ty: Some(t), .. } if t == r)
                }),
            };
        let (values, maps, lists, paths) = if read {
            let (values, maps) = passed_values(cx, &args);
            (
                values,
                maps,
                crate::scanner::index::fold::list_lens(cx, &args),
                passed_paths(cx, &args),
            )
        } else {
            if let Some(u) = unread.as_deref_mut().filter(|_| !setter) {
                if !test_file && !cx.is_test_code(n) {
                    u.push(key.clone());
                }
            }
            (
                Box::default(),
                Box::default(),
                Box::default(),
                Box::default(),
            )
        };
        if followed.iter().any(Option::is_some)
            || !values.is_empty()
            || !maps.is_empty()
            || !lists.is_empty()
            || !paths.is_empty()
        {
            let SiteKey {
                callee, ty, method, ..
            } = key;
            out.push(ArgSite {
                callee,
                ty,
                method,
                args: followed,
                test: test_file || cx.is_test_code(n),
                at: callee_span(n),
                receiver,
                values,
                maps,
                lists,
                paths,
            });
        }
    }
    out
}

/// Which calls [`arg_sites`] reads the arguments of as values and maps too, for a
/// helper that sends its request with them (`Linker::param_bindings`): reading them
/// (locals followed to their `let`s, maps to their inserts) at every call of a file
/// was most of what indexing a file for its calls' arguments cost.
#[derive(Clone, Copy)]
pub enum ValuesOf<'r> {
    /// Every call's: the file is read for what the link asked of its calls.
    Every,
    /// Only the calls that may call a function whose parameters these references
    /// are (the file's own helpers); the other calls' keys are kept
    /// (`FileIndex::value_keys`), and the file is read again should the link ask the
    /// values one of them passes.
    CallsOf(&'r [RefKind]),
    /// [`ValuesOf::CallsOf`] of the functions the link asked the values of a
    /// parameter of: a call of one by its name and arity, whatever type its path
    /// names (an alias of the function's, the link tells), for a file read again for
    /// the link's questions.
    NamedAs(&'r [RefKind]),
}

impl<'r> ValuesOf<'r> {
    /// The functions (their parameters) whose calls' values are read; none for
    /// [`ValuesOf::Every`], which reads every call's.
    pub fn helpers(self) -> &'r [RefKind] {
        match self {
            ValuesOf::Every => &[],
            ValuesOf::CallsOf(r) | ValuesOf::NamedAs(r) => r,
        }
    }

    /// How a call's type is matched with a function's (see [`may_call`]).
    pub fn same(self) -> SameType<'static> {
        fn spelled(a: &str, b: &str) -> bool {
            a == b
        }
        fn any(_: &str, _: &str) -> bool {
            true
        }
        match self {
            ValuesOf::NamedAs(_) => &any,
            _ => &spelled,
        }
    }
}

/// What a call's arguments are as values and as maps (see [`ArgSite::values`]), each
/// list empty when no argument says anything as one.
fn passed_values(cx: &FileCx<'_>, args: &[Node<'_>]) -> (Box<[ValueInfo]>, Box<[AttrMap]>) {
    // The caller's own parameter is one too: the link reads it at the caller's own
    // calls (`Linker::bindings_at`, a level up).
    cx.passing(|| passed_values_here(cx, args))
}

fn passed_values_here(cx: &FileCx<'_>, args: &[Node<'_>]) -> (Box<[ValueInfo]>, Box<[AttrMap]>) {
    let values: Vec<ValueInfo> = args.iter().map(|a| cx.value(*a)).collect();
    let said = |v: &ValueInfo| v.literal.is_some() || v.ty.is_some() || v.text.is_some();
    // Only an argument that is no value can be a map: `Some(item)`, `item`, `&item`.
    let maps: Vec<AttrMap> = args
        .iter()
        .zip(&values)
        .map(|(a, v)| {
            let p = peel(*a);
            let shaped = matches!(
                p.kind(),
                "identifier" | "call_expression" | "macro_invocation"
            );
            // A literal or an attribute value is no map; anything else may be one.
            if v.literal.is_some() || v.ty.is_some() || !shaped {
                AttrMap::default()
            } else {
                crate::scanner::index::items::attr_map(cx, *a, false)
            }
        })
        .collect();
    let values = if values.iter().any(said) {
        values.into_boxed_slice()
    } else {
        Box::default()
    };
    let maps = if maps
        .iter()
        .any(|m| !m.attributes.is_empty() || m.from_type.is_some())
    {
        maps.into_boxed_slice()
    } else {
        Box::default()
    };
    (values, maps)
}

/// The type of a method call's receiver when the code shows it: `self` in an `impl`,
/// `Repo::new(..)` (`Self::new(..)`), a `Repo { .. }` literal, or a local bound to one.
fn receiver_type(cx: &FileCx<'_>, call: Node<'_>) -> Option<Name> {
    use crate::scanner::syntax::scope::{lookup, Binding};
    let src = cx.src;
    let f = field(call, "function")?;
    let f = match f.kind() {
        "generic_function" => field(f, "function")?,
        _ => f,
    };
    let mut recv = peel(field(f, "value")?);
    for _ in 0..2 {
        match recv.kind() {
            "self" => return cx.impl_type(call).map(|t| intern(&t)),
            "identifier" => match lookup(src, recv, src.of(recv)) {
                Some(Binding::Let { value: Some(v), .. }) => recv = peel(v),
                _ => return None,
            },
            "struct_expression" => {
                let name = field(recv, "name").map(|t| src.of(t))?;
                return own_type(cx, call, last_segment(name));
            }
            "call_expression" => {
                let path = call_path(src, recv)?;
                if last_segment(path) != "new" {
                    return None;
                }
                return own_type(cx, call, type_segment(path)?);
            }
            _ => return None,
        }
    }
    None
}

/// `Self` as the impl's type, another type as named.
fn own_type(cx: &FileCx<'_>, at: Node<'_>, ty: &str) -> Option<Name> {
    match ty {
        "Self" => cx.impl_type(at).map(|t| intern(&t)),
        t => Some(intern(t)),
    }
}

/// The span of the name a call calls: `f` of `f(..)`, `a::f(..)`, `x.f(..)` and
/// `f::<T>(..)`.
fn callee_span(call: Node<'_>) -> Span {
    let mut f = field(call, "function").unwrap_or(call);
    for _ in 0..4 {
        let inner = match f.kind() {
            "field_expression" => field(f, "field"),
            "scoped_identifier" => field(f, "name"),
            "generic_function" => field(f, "function"),
            _ => None,
        };
        match inner {
            Some(i) => f = i,
            None => break,
        }
    }
    span(f)
}

/// An argument's value, when it may name something: a literal, a constant, an env var,
/// a template, or a reference the link phase follows.
pub(in crate::scanner) fn followable(cx: &FileCx<'_>, arg: Node<'_>) -> Option<Resolved> {
    let a = peel(arg);
    let worth = matches!(
        a.kind(),
        "string_literal"
            | "raw_string_literal"
            | "identifier"
            | "field_expression"
            | "scoped_identifier"
            | "call_expression"
            | "macro_invocation"
    );
    if !worth || field(a, "arguments").is_some_and(|x| x.named_child_count() > MAX_ARGS) {
        return None;
    }
    let r = cx.name(arg);
    match r.innermost() {
        Resolved::Unknown { reason } if !reason.starts_with(PENDING) => None,
        _ => Some(r),
    }
}

/// Whether a site can be a call of the function a [`RefKind::Param`] names; a call in
/// test code only when `tests` says so. `same` tells whether the type a call names is
/// the function's (a type alias names the type it stands for: `type DefaultStore<T> =
/// DynamoStore<T, P, D>`).
pub fn calls(site: &ArgSite, kind: &RefKind, tests: bool, same: SameType<'_>) -> bool {
    if site.test && !tests {
        return false;
    }
    key_calls(
        &site.callee,
        site.ty.as_ref(),
        site.method,
        site.args.len(),
        kind,
        same,
    )
}

/// Whether two type names name one type (the same name, or an alias and its type).
pub type SameType<'s> = &'s dyn Fn(&str, &str) -> bool;

/// [`calls`], test code aside, for a site known by its [`SiteKey`] only.
pub fn may_call(key: &SiteKey, kind: &RefKind, same: SameType<'_>) -> bool {
    key_calls(
        &key.callee,
        key.ty.as_ref(),
        key.method,
        key.arity,
        kind,
        same,
    )
}

fn key_calls(
    callee: &str,
    ty: Option<&Name>,
    method: bool,
    args: usize,
    kind: &RefKind,
    same: SameType<'_>,
) -> bool {
    let RefKind::Param {
        function,
        self_ty,
        arity,
        ..
    } = kind
    else {
        return false;
    };
    // `create_table(&client, &table, &key)` is not `create_table(client, name, pk, sk)`
    // of another module.
    if callee != &**function || args != *arity {
        return false;
    }
    match (ty, self_ty) {
        // `Store::new(..)` is `new` of `Store`, not of another impl.
        (Some(t), Some(s)) => same(t, s),
        (Some(_), None) => true,
        // `x.f(..)`: a method, by name; `f(..)`: a free function.
        (None, Some(_)) => method,
        (None, None) => !method,
    }
}
