//! Requests built with the `dynamodb-expression` crate:
//! `Expression::builder().with_filter(..).build()` then `.scan(&client)`,
//! `.to_query_input_builder()` (sent with `send_with`), or
//! `.to_query_fluent_builder(client.query())`.
//!
//! The operation keeps its kind and table like any other. Its expressions are written
//! by the crate, not the code: each slot the builder fills (`with_key_condition` →
//! key condition, `with_filter`, `with_condition`, `with_projection`, `with_update`)
//! is recorded with its text unknown ("built by dynamodb_expression"), so rules never
//! check placeholders in text they cannot see. When the `Expression` is not visible
//! (a parameter, a field), only the slot the request must have is recorded: the key
//! condition of a Query, the update of an UpdateItem.
//!
//! Not covered: the typed transaction builders (`to_put_builder()` and friends), and
//! expressions assembled across functions beyond one `let`.

use tree_sitter::Node;

use super::ir::{ExprArg, OpKind, Operation, Resolved};
use super::resolve::FileCx;
use super::scope::{lookup, Binding};
use super::sdk::op_for_method;
use super::syntax::{call_args, call_path, last_segment, method_call, peel, span, type_segment};

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
        OpKind::PutItem | OpKind::DeleteItem => &[Slot::Condition],
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

/// Whether a call starts a request through the crate, and which: `expr.query(&client)`
/// (the receiver must be an `Expression`), `expr.to_query_input_builder()`, or
/// `expr.to_query_fluent_builder(client.query())`.
pub fn root_kind(cx: &FileCx<'_>, call: Node<'_>) -> Option<OpKind> {
    let (recv, name, _) = method_call(cx.src, call)?;
    let nargs = call_args(call).len();
    if let Some(kind) = to_method_kind(&name) {
        let fluent = name.ends_with("_fluent_builder");
        return (nargs == usize::from(fluent)).then_some(kind);
    }
    let kind = op_for_method(&name)?;
    (nargs == 1 && !slots_of(kind).is_empty() && source(cx, recv, 0).is_some()).then_some(kind)
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
    let ours = to_method_kind(&name).is_some() || call_args(call).len() == 1;
    if !ours || root_kind(cx, call).is_none() {
        return;
    }
    let wanted = slots_of(op.kind);
    let set = |op: &mut Operation, slot: Slot, at: Node<'_>| {
        let arg = ExprArg {
            text: Resolved::unknown(BUILT_BY),
            span: span(at),
            literal_start: None,
            conditional: false,
        };
        let target = match slot {
            Slot::KeyCondition => &mut op.key_condition,
            Slot::Filter => &mut op.filter,
            Slot::Condition => &mut op.condition,
            Slot::Projection => &mut op.projection,
            Slot::Update => &mut op.update,
        };
        *target = Some(arg);
    };
    match source(cx, recv, 0).unwrap_or(Source::Opaque) {
        Source::Visible(slots) => {
            for (slot, arg) in slots {
                if wanted.contains(&slot) {
                    set(op, slot, arg);
                }
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
                set(op, slot, recv);
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
