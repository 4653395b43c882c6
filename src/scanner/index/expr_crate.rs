//! Requests built with the `dynamodb-expression` crate:
//! `Expression::builder().with_filter(..).build()` then `.scan(&client)`,
//! `.to_query_input_builder()` (sent with `send_with`), or
//! `.to_query_fluent_builder(client.query())`.
//!
//! The operation keeps its kind and table like any other. Its expressions are written
//! by the crate, not the code. Each slot the builder fills (`with_key_condition` →
//! key condition, `with_filter`, `with_condition`, `with_projection`, `with_update`)
//! is rendered when its argument is built in view from the crate's common calls —
//! `Path::new_name("x")` / `"x".parse::<Path>()` (with `.key()`), compared with
//! `equal`, `not_equal`, `less_than(_or_equal)`, `greater_than(_or_equal)`,
//! `between`, `begins_with`, `contains`, `attribute_exists`,
//! `attribute_not_exists`, combined with `and`/`or`/`not`, and projections of names —
//! as an equivalent expression with placeholders of our own (`#n0 = :v0`, the names
//! and values recorded beside it, as the crate does); so is a single update action
//! (`set`, `math().add`/`sub`, `if_not_exists().set`, `remove`). Anything else
//! (combined updates, list appends, `Ref` values, sizes, `in_`) leaves the slot's text
//! unknown ("built by dynamodb_expression"), so rules never check placeholders in text
//! they cannot see.
//! When the `Expression` is not visible (a parameter, a field), only the slot the
//! request must have is recorded, unknown: the key condition of a Query, the update of
//! an UpdateItem.
//!
//! The typed builders of transactions and batches (`to_put_builder()`,
//! `to_update_builder()`, `to_delete_builder()`, `to_condition_check_builder()`,
//! `to_get_builder()`, `to_keys_and_attributes_builder()`) are leaves like
//! `Put::builder()`. Not covered: expressions assembled across functions beyond a
//! `let`.

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::resolve::FileCx;
use crate::scanner::ir::{ExprArg, NameArg, OpKind, Operation, Resolved, ValueInfo};
use crate::scanner::sdk::{op_for_method, Typed};
use crate::scanner::syntax::nodes::{
    call_args, call_path, last_segment, method_call, method_name, named_children, peel, span,
    string_value, type_segment,
};
use crate::scanner::syntax::scope::{lookup, Binding};

/// The reason recorded for expressions the crate writes.
pub const BUILT_BY: &str = "built by dynamodb_expression";

/// An expression slot of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    KeyCondition,
    Filter,
    Condition,
    Projection,
    Update,
}

/// The slots an `Expression` sets on a request of `kind` (what the crate's
/// `to_*_input_builder` methods copy over).
fn slots_of(kind: OpKind) -> &'static [Slot] {
    match kind {
        OpKind::Query => &[Slot::KeyCondition, Slot::Filter, Slot::Projection],
        OpKind::Scan => &[Slot::Filter, Slot::Projection],
        OpKind::GetItem => &[Slot::Projection],
        OpKind::PutItem | OpKind::DeleteItem | OpKind::ConditionCheck => &[Slot::Condition],
        OpKind::UpdateItem => &[Slot::Update, Slot::Condition],
        _ => &[],
    }
}

/// The slot a builder method fills.
fn slot_of(method: &str) -> Option<Slot> {
    Some(match method {
        "with_key_condition" => Slot::KeyCondition,
        "with_filter" => Slot::Filter,
        "with_condition" => Slot::Condition,
        "with_projection" => Slot::Projection,
        "with_update" => Slot::Update,
        _ => return None,
    })
}

/// What is known of the `Expression` a request is built from.
enum Source<'t> {
    /// The builder chain is in view: each slot with its argument.
    Visible(Vec<(Slot, Node<'t>)>),
    /// An `Expression` from elsewhere.
    Opaque,
}

/// `to_query_input_builder` (no argument) / `to_query_fluent_builder(b)` → Query.
fn to_method_kind(name: &str) -> Option<OpKind> {
    let rest = name.strip_prefix("to_")?;
    let op = rest
        .strip_suffix("_input_builder")
        .or_else(|| rest.strip_suffix("_fluent_builder"))?;
    op_for_method(op).filter(|k| !slots_of(*k).is_empty())
}

/// `expr.to_put_builder()` and friends: the typed builder they start.
pub fn typed_kind(cx: &FileCx<'_>, call: Node<'_>) -> Option<Typed> {
    let (_, name, _) = method_call(cx.src, call)?;
    if !call_args(call).is_empty() {
        return None;
    }
    Some(match name.as_str() {
        "to_put_builder" => Typed::Leaf(OpKind::PutItem),
        "to_update_builder" => Typed::Leaf(OpKind::UpdateItem),
        "to_delete_builder" => Typed::Leaf(OpKind::DeleteItem),
        "to_condition_check_builder" => Typed::Leaf(OpKind::ConditionCheck),
        "to_get_builder" => Typed::Leaf(OpKind::GetItem),
        "to_keys_and_attributes_builder" => Typed::KeysAndAttributes,
        _ => return None,
    })
}

/// Whether a call starts a request through the crate, and which: `expr.query(&client)`
/// (the receiver must be an `Expression`), `expr.to_query_input_builder()`, or
/// `expr.to_query_fluent_builder(client.query())`.
pub fn root_kind(cx: &FileCx<'_>, call: Node<'_>) -> Option<OpKind> {
    root_kind_named(cx, call, method_name(cx.src, call)?)
}

/// [`root_kind`] of a method call whose name the caller has (`plain`).
pub fn root_kind_named(cx: &FileCx<'_>, call: Node<'_>, plain: &str) -> Option<OpKind> {
    // Most calls are neither: decided on the name, before anything is allocated.
    if to_method_kind(plain).is_none() && op_for_method(plain).is_none() {
        return None;
    }
    let (recv, name, _) = method_call(cx.src, call)?;
    // Arguments are counted (an allocation) only for the methods that matter: this
    // runs for every method call of every file parsed for calls.
    if let Some(kind) = to_method_kind(&name) {
        let fluent = name.ends_with("_fluent_builder");
        return (call_args(call).len() == usize::from(fluent)).then_some(kind);
    }
    let kind = op_for_method(&name)?;
    (call_args(call).len() == 1 && !slots_of(kind).is_empty() && source(cx, recv, 0).is_some())
        .then_some(kind)
}

/// `client.query()` handed to `expr.to_query_fluent_builder(..)`: the outer call is the
/// request's root, so this one is not a root of its own.
pub fn is_wrapped(cx: &FileCx<'_>, call: Node<'_>) -> bool {
    let src = cx.src;
    let Some(args) = src.parent(call).filter(|a| a.kind() == "arguments") else {
        return false;
    };
    let Some(outer) = src.parent(args) else {
        return false;
    };
    method_call(src, outer)
        .is_some_and(|(_, m, _)| m.ends_with("_fluent_builder") && to_method_kind(&m).is_some())
}

/// Records the expressions of a request rooted at `call` (see [`root_kind`]).
pub fn fill(cx: &FileCx<'_>, call: Node<'_>, op: &mut Operation) {
    let Some((recv, name, _)) = method_call(cx.src, call) else {
        return;
    };
    // `client.query()` is the SDK's own root; only the crate's methods are filled.
    let typed = typed_kind(cx, call).is_some();
    let ours = to_method_kind(&name).is_some() || call_args(call).len() == 1;
    if !typed && (!ours || root_kind(cx, call).is_none()) {
        return;
    }
    let wanted = slots_of(op.kind);
    let mut r = Render {
        cx,
        names: Vec::new(),
        values: Vec::new(),
    };
    let set = |op: &mut Operation, slot: Slot, at: Node<'_>, text: Option<String>| {
        let arg = ExprArg {
            text: match text {
                Some(t) => Resolved::Const {
                    name: "dynamodb_expression".to_string(),
                    value: Box::new(Resolved::literal(t)),
                },
                None => Resolved::unknown(BUILT_BY),
            },
            span: span(at),
            literal_start: None,
            conditional: false,
            paths: Box::default(),
        };
        let target = match slot {
            Slot::KeyCondition => &mut op.key_condition,
            Slot::Filter => &mut op.filter,
            Slot::Condition => &mut op.condition,
            Slot::Projection => &mut op.projection,
            Slot::Update => &mut op.update,
        };
        *target = Some(Box::new(arg));
    };
    match source(cx, recv, 0).unwrap_or(Source::Opaque) {
        Source::Visible(slots) => {
            for (slot, arg) in slots {
                if wanted.contains(&slot) {
                    let text = r.slot(slot, arg);
                    set(op, slot, arg, text);
                }
            }
            for (k, name, at) in r.names {
                op.names.insert(
                    k,
                    NameArg {
                        name: Resolved::literal(name),
                        span: at,
                        conditional: false,
                    },
                );
            }
            for (k, v) in r.values {
                op.values.insert(k, v);
            }
        }
        Source::Opaque => {
            // Only what the request cannot go without: guessing a filter would be wrong.
            let required = match op.kind {
                OpKind::Query => Some(Slot::KeyCondition),
                OpKind::UpdateItem => Some(Slot::Update),
                _ => None,
            };
            if let Some(slot) = required {
                set(op, slot, recv, None);
            }
        }
    }
}

/// Follows an `Expression` value back to its builder chain: `Expression::builder()
/// .with_..(..).build()`, through one `let`, or a parameter typed `Expression`.
fn source<'t>(cx: &FileCx<'t>, node: Node<'t>, depth: usize) -> Option<Source<'t>> {
    let src = cx.src;
    let node = peel(node);
    if depth > 4 {
        return None;
    }
    match node.kind() {
        "identifier" => match lookup(src, node, src.of(node))? {
            Binding::Let {
                value: Some(v), ty, ..
            } => source(cx, v, depth + 1).or_else(|| {
                ty.filter(|t| last_segment(src.of(*t)) == "Expression")
                    .map(|_| Source::Opaque)
            }),
            Binding::Let { ty: Some(t), .. } | Binding::Param { ty: Some(t) } => {
                let t = src.of(t).trim_start_matches('&').trim();
                (last_segment(t) == "Expression").then_some(Source::Opaque)
            }
            _ => None,
        },
        "call_expression" => {
            let (recv, name, _) = method_call(src, node)?;
            if name != "build" && name != "clone" {
                return None;
            }
            if name == "clone" {
                return source(cx, recv, depth + 1);
            }
            // Down the builder chain to `Expression::builder()`.
            let mut slots = Vec::new();
            let mut cur = peel(recv);
            for _ in 0..64 {
                if let Some(path) = call_path(src, cur) {
                    let starts =
                        last_segment(path) == "builder" && type_segment(path) == Some("Expression");
                    return starts.then(|| {
                        slots.reverse();
                        Source::Visible(slots)
                    });
                }
                let (inner, m, call) = method_call(src, cur)?;
                if let Some(slot) = slot_of(&m) {
                    if let Some(a) = call_args(call).first() {
                        slots.push((slot, *a));
                    }
                }
                cur = peel(inner);
            }
            None
        }
        _ => None,
    }
}

/// Renders the crate's expression values as expression text, collecting the names
/// and values its placeholders stand for.
struct Render<'c, 't> {
    cx: &'c FileCx<'t>,
    names: Vec<(String, String, crate::source::Span)>,
    values: Vec<(String, ValueInfo)>,
}

impl<'t> Render<'_, 't> {
    /// The text of one slot, or None when any part is not one dynalint reads (then
    /// nothing of it is recorded).
    fn slot(&mut self, slot: Slot, arg: Node<'t>) -> Option<String> {
        let (names, values) = (self.names.len(), self.values.len());
        let text = match slot {
            // A key condition is `pk = :v AND <sort key condition>`, without parentheses.
            Slot::KeyCondition => self.condition(arg, 0, true),
            Slot::Filter | Slot::Condition => self.condition(arg, 0, false),
            Slot::Projection => self.projection(arg),
            Slot::Update => self.update(arg, 0),
        };
        if text.is_none() {
            self.names.truncate(names);
            self.values.truncate(values);
        }
        text
    }

    /// Follows a `let` to its value.
    fn through_let(&self, node: Node<'t>) -> Node<'t> {
        let src = self.cx.src;
        let node = peel(node);
        if node.kind() == "identifier" {
            if let Some(Binding::Let { value: Some(v), .. }) = lookup(src, node, src.of(node)) {
                return peel(v);
            }
        }
        node
    }

    fn condition(&mut self, node: Node<'t>, depth: usize, key: bool) -> Option<String> {
        if depth > 16 {
            return None;
        }
        let node = self.through_let(node);
        let (recv, m, call) = method_call(self.cx.src, node)?;
        let args = call_args(call);
        let cmp = match m.as_str() {
            "equal" => Some("="),
            "not_equal" => Some("<>"),
            "less_than" => Some("<"),
            "less_than_or_equal" => Some("<="),
            "greater_than" => Some(">"),
            "greater_than_or_equal" => Some(">="),
            _ => None,
        };
        if let Some(op) = cmp {
            let left = self.path(recv, 0)?;
            let right = self.operand(*args.first()?)?;
            return Some(format!("{left} {op} {right}"));
        }
        match (m.as_str(), args.as_slice()) {
            ("and" | "or", [right]) => {
                let l = self.condition(recv, depth + 1, key)?;
                let r = self.condition(*right, depth + 1, key)?;
                if key {
                    Some(format!("{l} {} {r}", m.to_uppercase()))
                } else {
                    Some(format!("({l}) {} ({r})", m.to_uppercase()))
                }
            }
            ("not", []) => Some(format!("NOT ({})", self.condition(recv, depth + 1, key)?)),
            ("between", [lo, hi]) => {
                let p = self.path(recv, 0)?;
                let lo = self.operand(*lo)?;
                let hi = self.operand(*hi)?;
                Some(format!("{p} BETWEEN {lo} AND {hi}"))
            }
            ("begins_with" | "contains", [v]) => {
                let p = self.path(recv, 0)?;
                Some(format!("{m}({p}, {})", self.operand(*v)?))
            }
            ("attribute_exists" | "attribute_not_exists", []) => {
                Some(format!("{m}({})", self.path(recv, 0)?))
            }
            _ => None,
        }
    }

    /// One update action: `path.set(v)`, `path.math().add(n)` / `.sub(n)`,
    /// `path.if_not_exists().set(v)`, `path.remove()`, possibly inside
    /// `Update::from(..)` / `Update::new_set(..)` / `.into()`. Combined updates are not
    /// rendered.
    fn update(&mut self, node: Node<'t>, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let src = self.cx.src;
        let node = self.through_let(node);
        if let Some(path) = call_path(src, node) {
            let wraps = type_segment(path) == Some("Update")
                && matches!(
                    last_segment(path),
                    "from" | "new_set" | "new_remove" | "new_set_remove"
                );
            return match (wraps, call_args(node).first()) {
                (true, Some(a)) => self.update(*a, depth + 1),
                _ => None,
            };
        }
        let (recv, m, call) = method_call(src, node)?;
        let args = call_args(call);
        let inner = method_call(src, peel(recv));
        match (m.as_str(), args.as_slice(), inner) {
            ("into", [], _) => self.update(recv, depth + 1),
            ("remove", [], _) => Some(format!("REMOVE {}", self.path(recv, 0)?)),
            ("add" | "sub", [n], Some((p, im, _))) if im == "math" => {
                let name = self.path(p, 0)?;
                let mut v = self.cx.value(*n);
                v.ty = Some(AttributeType::N);
                let v = self.value(v);
                let op = if m == "add" { "+" } else { "-" };
                Some(format!("SET {name} = {name} {op} {v}"))
            }
            ("set", [v], Some((p, im, _))) if im == "if_not_exists" => {
                let name = self.path(p, 0)?;
                let v = self.operand(*v)?;
                Some(format!("SET {name} = if_not_exists({name}, {v})"))
            }
            ("set", [v], _) => {
                let name = self.path(recv, 0)?;
                Some(format!("SET {name} = {}", self.operand(*v)?))
            }
            _ => None,
        }
    }

    /// `Path::new_name("x")`, `"x".parse::<Path>()`, `Key::from(..)`, `.key()`: the
    /// placeholder of the attribute name.
    fn path(&mut self, node: Node<'t>, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let src = self.cx.src;
        let node = self.through_let(node);
        if let Some((recv, m, _)) = method_call(src, node) {
            return match m.as_str() {
                "key" | "clone" | "into" => self.path(recv, depth + 1),
                "parse" => {
                    let name = string_value(src, peel(recv))?;
                    // A dotted or indexed path is more than one name: not rendered.
                    let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_');
                    plain.then(|| self.name(name, span(recv)))
                }
                "unwrap" | "expect" => self.path(recv, depth + 1),
                _ => None,
            };
        }
        let path = call_path(src, node)?;
        let ty = type_segment(path)?;
        let ctor = matches!(ty, "Path" | "Key" | "Name")
            && matches!(last_segment(path), "new_name" | "from" | "new");
        if !ctor {
            return None;
        }
        let arg = *call_args(node).first()?;
        match string_value(src, peel(arg)) {
            Some(name) => Some(self.name(name, span(arg))),
            None => self.path(arg, depth + 1),
        }
    }

    fn name(&mut self, name: String, at: crate::source::Span) -> String {
        if let Some((k, _, _)) = self.names.iter().find(|(_, n, _)| *n == name) {
            return k.clone();
        }
        let k = format!("#n{}", self.names.len());
        self.names.push((k.clone(), name, at));
        k
    }

    /// A value operand: `Num::new(x)` (a number), a string, or another attribute.
    fn operand(&mut self, node: Node<'t>) -> Option<String> {
        let src = self.cx.src;
        let peeled = peel(node);
        if let Some(path) = call_path(src, peeled) {
            match (type_segment(path), last_segment(path)) {
                (Some("Num"), "new") => {
                    let mut v = self.cx.value(*call_args(peeled).first()?);
                    v.ty = Some(AttributeType::N);
                    v.span = span(node);
                    return Some(self.value(v));
                }
                (Some("Path" | "Key" | "Name"), _) => return self.path(node, 0),
                // `Ref::new("x")` names a value set elsewhere; sizes and sets: not read.
                (Some("Ref" | "Size" | "Set" | "StringSet" | "NumSet" | "BinarySet"), _) => {
                    return None
                }
                _ => {}
            }
        }
        if method_call(src, peeled).is_some_and(|(_, m, _)| m == "parse") {
            return self.path(node, 0);
        }
        let mut v = self.cx.value(node);
        // The crate makes a string of text (`&str`, `String`) and a BOOL of a `bool`;
        // a number needs `Num::new`, handled above.
        if peeled.kind() == "boolean_literal" {
            v.ty = Some(AttributeType::Bool);
        } else if string_value(src, peeled).is_some() || v.text.is_some() || is_text(src, peeled) {
            v.ty = Some(AttributeType::S);
        }
        Some(self.value(v))
    }

    fn value(&mut self, v: ValueInfo) -> String {
        let k = format!(":v{}", self.values.len());
        self.values.push((k.clone(), v));
        k
    }

    /// `with_projection(["a", "b"])` (or a `vec!`/slice of names or paths).
    fn projection(&mut self, node: Node<'t>) -> Option<String> {
        let node = self.through_let(node);
        if node.kind() != "array_expression" {
            return None;
        }
        let mut parts = Vec::new();
        for e in named_children(node) {
            if e.kind().ends_with("comment") {
                continue;
            }
            let part = match string_value(self.cx.src, peel(e)) {
                Some(name) if name.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    self.name(name, span(e))
                }
                Some(_) => return None,
                None => self.path(e, 0)?,
            };
            parts.push(part);
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// A local or parameter declared as text (`&str`, `String`, `Cow<str>`).
fn is_text(src: crate::scanner::syntax::nodes::Src<'_>, node: Node<'_>) -> bool {
    crate::scanner::index::resolve::declared_type(src, node).is_some_and(|t| {
        let t = t.trim_start_matches('&').trim();
        let t = t.strip_prefix("mut ").unwrap_or(t);
        matches!(
            crate::scanner::index::resolve::type_name(t).as_str(),
            "str" | "String" | "Cow"
        )
    })
}
