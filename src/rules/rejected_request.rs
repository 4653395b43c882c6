//! `rejected-request`: prose in `rules/rejected-request.md`.
//!
//! The engine validates each call as DynamoDB would ([`crate::engine::symbolic`]), with
//! unknown values explored; only verdicts that hold whatever the unknowns are become
//! findings. The expression checks of [`crate::expr`] then say where in the source the
//! error is, so the editor underlines the offending token.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::{json, Value};

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Edit, Fix};
use crate::engine::symbolic::{same_verdict_form, validate, SymbolicRequest, Verdict};
use crate::engine::{Engine, TableSchema};
use crate::expr::key_condition::{check_key_condition, KeyAttribute, KeySchema};
use crate::expr::{parse_key_condition, ErrorCode, ExprError};
use crate::facts::conditions::file_span;
use crate::facts::index_key_check::bad_index_key_writes;
use crate::facts::paths::witness_paths;
use crate::facts::request::{
    check_exprs, locate, static_exprs, symbolic, undefined_beside_unknown,
};
use crate::facts::BoundOperation;
use crate::scanner::{ExprArg, OpKind, Operation};
use crate::source::{Location, Span};

crate::declare_rule! {
    pub RejectedRequest,
    id: "rejected-request",
    category: Correctness,
    summary: "DynamoDB rejects this request with a ValidationException",
}

impl Rule for RejectedRequest {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn fixable(&self) -> bool {
        true
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        if matches!(
            op.kind,
            OpKind::BatchGetItem
                | OpKind::BatchWriteItem
                | OpKind::TransactGetItems
                | OpKind::TransactWriteItems
        ) {
            batch_size(cx, op);
            return;
        }
        if no_table_name(cx, bound) {
            return;
        }
        // One of the tables a field of the receiver may hold: the request may never
        // reach it, so only what is rejected whatever the table is certain (the same
        // finding for each instance, said once).
        if op.possible_table {
            // Request parameters first, as `unbound_exprs` judges them.
            if limit_below_one(op).is_some() || !possible_path_verdict(cx, bound) {
                unbound_exprs(cx, bound);
            }
            return;
        }
        if op.kind == OpKind::ExecuteStatement {
            partiql_parameters(cx, op);
            return;
        }
        if expression_path_verdict(cx, bound) {
            return;
        }
        let Some((schema, req)) = symbolic(bound) else {
            unbound_exprs(cx, bound);
            return;
        };
        // DynamoDB answers with its first error; the engine's first verdict is that
        // one. Verdicts that depend on a value the code does not show are not findings.
        let verdict = first_verdict(&schema, &req);
        if verdict.as_ref().is_none_or(|v| !v.decided) && select_choice_verdict(cx, bound) {
            return;
        }
        let conditional = has_conditional_parts(op);
        if let Some(verdict) = verdict.filter(|v| v.decided) {
            let located = expr_error(op, &schema, req.index.as_deref())
                .filter(|e| e.message == verdict.message);
            // With parts set on some paths only, the IR holds the union of the paths:
            // a placeholder verdict on the union may hold on none of them. Those are
            // judged per path below.
            if !(conditional && located.as_ref().is_some_and(is_placeholder_error)) {
                report(cx, bound, &schema, &verdict, located.as_ref());
                return;
            }
        }
        if conditional {
            path_verdict(cx, bound, &schema);
        }
    }
}

/// How many request shapes [`first_verdict`] remembers before it starts afresh: a
/// language server's process checks many versions of a project.
const MAX_REMEMBERED: usize = 4096;

/// DynamoDB's first verdict on a request, remembered by the request's symbolic content
/// (its table's schema and the request, compared whole with `==`, once the values
/// that cannot change the verdict are made one: `same_verdict_form`): a generated file or
/// a large crate sends the same request from many places (40,000 identical
/// `get_item`s in one file), and the engine runs each request once per sample of its
/// unknown values. The verdict is a function of that content alone, so a remembered
/// one is the one `validate` gives. Entries are found by [`shape_hash`] and kept only
/// when the whole schema and request (so made) are equal: two requests that share a
/// hash but not that form never share a verdict. (The key was once both as `Debug` text: formatting it cost more
/// than the engine's answer on the 40,000-call file.)
fn first_verdict(schema: &TableSchema, req: &SymbolicRequest) -> Option<Verdict> {
    static SEEN: OnceLock<Mutex<Remembered>> = OnceLock::new();
    remembered_verdict(SEEN.get_or_init(Default::default), schema, req)
}

/// How many different requests of one shape (one [`shape_hash`]) are remembered: the
/// hash leaves values out, so 20,000 `get_item`s that differ only in a literal key
/// share it, and a list searched whole for each of them made the rule quadratic in
/// them (141 s for 20,000). Sixteen holds a generated file's cycle of ten sort keys
/// whole: with eight, the random slot missed two lookups in five of the 40,000-call
/// file, and the engine's answers were most of its rules' time.
const MAX_PER_SHAPE: usize = 16;

/// Remembered verdicts by [`shape_hash`].
type Remembered = HashMap<u64, Shape>;

/// The requests of one shape remembered, each with its schema and verdict, and how
/// many of its lookups the engine answered.
#[derive(Default)]
struct Shape {
    requests: Vec<(TableSchema, SymbolicRequest, Option<Verdict>)>,
    misses: u64,
}

impl Shape {
    /// Where a new request goes once the list is full: a slot picked at random (from
    /// the count of misses), not the oldest. Evicting the oldest missed every time
    /// when a file cycles through more requests than are kept (ten sort keys over and
    /// over: every one of 40,000 calls ran the engine); a random slot keeps most.
    fn slot(&self) -> usize {
        // splitmix64's finaliser: neighbouring counts, unrelated slots.
        let mut x = self
            .misses
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 29;
        (x % MAX_PER_SHAPE as u64) as usize
    }
}

/// [`first_verdict`] with the memo given.
fn remembered_verdict(
    seen: &Mutex<Remembered>,
    schema: &TableSchema,
    req: &SymbolicRequest,
) -> Option<Verdict> {
    // Requests that differ only in values that cannot change the verdict (a literal
    // key string) are remembered as one: 40,000 different sort keys each missed.
    let form = same_verdict_form(schema, req);
    let req = form.as_ref().unwrap_or(req);
    let hash = shape_hash(schema, req);
    let known = seen.lock().ok().and_then(|m| {
        m.get(&hash)?
            .requests
            .iter()
            .find(|(s, r, _)| s == schema && r == req)
            .map(|(_, _, v)| v.clone())
    });
    if let Some(known) = known {
        return known;
    }
    let verdict = validate(schema, req).into_iter().next();
    // A lock poisoned by a panic elsewhere only loses the memo, never the verdict.
    if let Ok(mut m) = seen.lock() {
        if m.len() >= MAX_REMEMBERED {
            m.clear();
        }
        let same = m.entry(hash).or_default();
        // Two threads may have answered the same request at once: kept once.
        if !same
            .requests
            .iter()
            .any(|(s, r, _)| s == schema && r == req)
        {
            let entry = (schema.clone(), req.clone(), verdict.clone());
            if same.requests.len() < MAX_PER_SHAPE {
                same.requests.push(entry);
            } else {
                let slot = same.slot();
                if let Some(old) = same.requests.get_mut(slot) {
                    *old = entry;
                }
            }
        }
        same.misses += 1;
    }
    verdict
}

/// A hash of what most tells requests apart (table, operation, expressions, the names
/// of the item's attributes), only to find a remembered verdict's bucket: equal
/// requests hash alike, and [`first_verdict`] compares the rest.
fn shape_hash(schema: &TableSchema, req: &SymbolicRequest) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    schema.name.hash(&mut h);
    std::mem::discriminant(&req.op).hash(&mut h);
    req.index.hash(&mut h);
    req.key_condition.hash(&mut h);
    req.filter.hash(&mut h);
    req.condition.hash(&mut h);
    req.projection.hash(&mut h);
    req.update.hash(&mut h);
    req.item.keys().for_each(|k| k.hash(&mut h));
    req.values.keys().for_each(|k| k.hash(&mut h));
    h.finish()
}

/// A request, or an item of a transaction, whose builder is seen whole (from
/// `client.delete_item()` to its `send()`, from `X::builder()` to its `build()`) and
/// never sets `table_name`: every such request fails. Reports it and says whether it
/// did.
fn no_table_name(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) -> bool {
    let op = bound.op;
    let Some(parent) = bound.parent else {
        if op.table.is_some() || !op.complete_builder || op.kind == OpKind::ExecuteStatement {
            return false;
        }
        let method = op.kind.sdk_method();
        cx.report(
            op.file.clone(),
            op.method_span,
            format!("`{method}` sets no table name: ValidationException \"{NO_TABLE_NAME}\""),
        )
        .note("`TableName` is required: the chain is the whole request, from the client's method to `send()`, and never sets it")
        .help("add `.table_name(..)` to the chain");
        return true;
    };
    // Batch items take their table from the `request_items` map key.
    let in_transaction = matches!(
        parent,
        OpKind::TransactWriteItems | OpKind::TransactGetItems
    );
    if !in_transaction || op.table.is_some() || !op.complete_builder {
        return false;
    }
    let item = item_name(parent, op.kind);
    cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "the `{item}` of `{}` sets no table name: the request always fails",
            parent.sdk_method()
        ),
    )
    .note(format!(
        "`table_name` is required on every transaction item: the SDK's `{item}::builder().build()` returns a `BuildError` without it, and DynamoDB rejects an item without `TableName` with a ValidationException"
    ))
    .help(format!("add `.table_name(..)` to the `{item}` builder"));
    true
}

/// DynamoDB's answer to a request without `TableName`.
const NO_TABLE_NAME: &str = "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null";

/// A request whose table (or index) the model does not bind: the expression checks
/// that do not depend on the table (syntax, reserved words, undefined or unused
/// placeholders, a placeholder key without its `#`/`:`) still decide a rejection.
fn unbound_exprs(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
    let op = bound.op;
    // Request parameters are validated before expressions: a `Limit` below 1 is the
    // first error, whatever the table.
    if let Some((limit, message)) = limit_below_one(op) {
        cx.report(
            op.file.clone(),
            limit.span,
            format!(
                "`{}` is rejected whatever its table: ValidationException \"{message}\"",
                op.kind.sdk_method()
            ),
        )
        .help("pass a page size of at least 1, or leave `limit` unset to read whole pages");
        return;
    }
    // With parts set on some paths only, the IR holds the union of the paths: only a
    // placeholder that no path defines, in an expression every path sets, is certain.
    let conditional = has_conditional_parts(op);
    // With an expression the scanner could not read, only a placeholder another one
    // uses and the maps lack is certain.
    let (e, beside) = match check_exprs(op) {
        Some(Err(e)) if !conditional => (e, None),
        Some(_) => return,
        None => match (undefined_beside_unknown(op), unread_expression(op)) {
            (Some(e), Some(unread)) => (e, Some(unread)),
            _ => return,
        },
    };
    let what = match bound.parent {
        Some(parent) => format!(
            "the `{}` of `{}`",
            item_name(parent, op.kind),
            parent.sdk_method()
        ),
        None => format!("`{}`", op.kind.sdk_method()),
    };
    let headline = match beside {
        None => format!(
            "{what} is rejected whatever its table: ValidationException \"{}\"",
            e.message
        ),
        Some(_) => format!(
            "{what} is rejected whatever its other expressions hold: ValidationException \"{}\"",
            e.message
        ),
    };
    let d = cx.report(op.file.clone(), locate(op, &e), headline);
    if let Some(unread) = beside {
        d.note(format!(
            "the request's {unread} is not known statically; an expression can use `#name`s and `:value`s but only `expression_attribute_names`/`_values` define them, so this one stays undefined (DynamoDB may report that expression's own error first)"
        ));
    }
    if let Some(help) = expr_help(op, &e) {
        d.help(help);
    }
    if let Some(fix) = reserved_word_fix(op, &e).or_else(|| unused_placeholder_fix(op, &e)) {
        d.fix(fix);
    }
}

/// The first expression of the request whose text is not known, by its parameter
/// name (`KeyConditionExpression`).
fn unread_expression(op: &Operation) -> Option<&'static str> {
    crate::facts::request::expression_slots(op)
        .into_iter()
        .find(|(_, arg)| arg.as_deref().is_some_and(|a| a.text.value().is_none()))
        .map(|(kind, _)| kind.parameter())
}

/// A Query's or Scan's `Limit` the code certainly sends below 1 (`u32::MAX as i32` is
/// -1), with DynamoDB's message (the engine's, for a table it knows: a Query words it
/// without the value).
fn limit_below_one(op: &Operation) -> Option<(&crate::scanner::ValueInfo, String)> {
    let limit = op.limit.as_deref().filter(|l| !l.nullable)?;
    let n: i64 = limit.literal.as_deref()?.parse().ok()?;
    let message = match op.kind {
        _ if n >= 1 => return None,
        OpKind::Query => "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1".to_string(),
        OpKind::Scan => format!("1 validation error detected: Value '{n}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"),
        _ => return None,
    };
    Some((limit, message))
}

/// DynamoDB's message when a statement's `?` and the request's `Parameters` differ
/// in number (the engine's PartiQL answers the same).
const PARAMETER_COUNT: &str = "Number of parameters in request and statement don't match.";

/// A PartiQL statement whose `?` count the code fixes, sent with a number of
/// parameters the code fixes, that differ.
fn partiql_parameters(cx: &mut RuleContext<'_>, op: &Operation) {
    let Some(statement) = &op.statement else {
        return;
    };
    let Some(marks) = parameter_marks(&statement.text) else {
        return;
    };
    let calls: Vec<_> = op.setters.iter().filter(|s| s.is("parameters")).collect();
    if calls.is_empty() || calls.iter().any(|c| c.conditional) {
        return;
    }
    let lists = calls
        .iter()
        .filter(|c| c.method == "set_parameters")
        .count();
    let given = match lists {
        0 => calls.len(),
        1 if calls.len() == 1 => match op.parameter_list {
            Some(n) => n,
            None => return,
        },
        _ => return,
    };
    if given == marks {
        return;
    }
    let d = cx.report(
        op.file.clone(),
        statement.span,
        format!("`execute_statement` is rejected: ValidationException \"{PARAMETER_COUNT}\""),
    );
    if let Some(last) = calls.last() {
        d.label(
            op.file.clone(),
            last.span,
            format!(
                "{given} parameter{} given",
                if given == 1 { "" } else { "s" }
            ),
        );
    }
    d.help(format!(
        "the statement has {marks} `?`: give one parameter per `?`, in order"
    ));
}

/// The `?` of a PartiQL statement outside string literals and quoted names; `None`
/// when a `format!` hole outside double quotes could add some.
fn parameter_marks(text: &crate::scanner::Resolved) -> Option<usize> {
    let (text, template) = match text.innermost() {
        crate::scanner::Resolved::Literal { value } => (value.as_str(), false),
        crate::scanner::Resolved::Template { template } => (template.as_str(), true),
        _ => return None,
    };
    let (mut single, mut double, mut marks) = (false, false, 0usize);
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '?' if !single && !double => marks += 1,
            '{' if template && !double && bytes.get(i + 1) == Some(&b'}') => return None,
            _ => {}
        }
    }
    Some(marks)
}

/// An undefined or unused `#name`/`:value`.
fn is_placeholder_error(e: &ExprError) -> bool {
    matches!(
        e.code,
        ErrorCode::UndefinedName
            | ErrorCode::UndefinedValue
            | ErrorCode::UnusedNames
            | ErrorCode::UnusedValues
    )
}

/// `` `query` on index `ByStatus` of `Orders` ``, or for an item of a batch or a
/// transaction `` the `Put` of `transact_write_items` on `Orders` ``.
fn target(bound: &BoundOperation<'_>, schema: &TableSchema) -> String {
    let op = bound.op;
    if let Some(parent) = bound.parent {
        return format!(
            "the `{}` of `{}` on `{}`",
            item_name(parent, op.kind),
            parent.sdk_method(),
            schema.name
        );
    }
    match op.index.as_ref().and_then(|i| i.value()) {
        Some(i) => format!(
            "`{}` on index `{i}` of `{}`",
            op.kind.sdk_method(),
            schema.name
        ),
        None => format!("`{}` on `{}`", op.kind.sdk_method(), schema.name),
    }
}

/// The SDK's name of a request inside a batch or transaction.
fn item_name(parent: OpKind, kind: OpKind) -> &'static str {
    match (parent, kind) {
        (OpKind::BatchWriteItem, OpKind::DeleteItem) => "DeleteRequest",
        (OpKind::BatchWriteItem, _) => "PutRequest",
        (OpKind::BatchGetItem, _) => "KeysAndAttributes",
        (_, OpKind::PutItem) => "Put",
        (_, OpKind::UpdateItem) => "Update",
        (_, OpKind::DeleteItem) => "Delete",
        (_, OpKind::GetItem) => "Get",
        (_, _) => "ConditionCheck",
    }
}

/// Reports a verdict that holds on every path through the code.
fn report(
    cx: &mut RuleContext<'_>,
    bound: &BoundOperation<'_>,
    schema: &TableSchema,
    verdict: &Verdict,
    located: Option<&ExprError>,
) {
    let op = bound.op;
    // NULL or `""` in a secondary index key: `missing-sparse-attribute` reports that
    // write (with this same message), so the cause is reported once.
    let sparse = bound.table.is_some_and(|t| {
        bad_index_key_writes(t, op)
            .iter()
            .any(|w| w.message == verdict.message)
    });
    if sparse {
        return;
    }
    // A table declared nowhere has the key its calls use and no index anyone stated:
    // that it lacks the index a call names is what inference does not know, not what
    // DynamoDB will answer.
    let guessed = bound
        .table
        .is_some_and(|t| t.origin.kind == crate::model::OriginKind::Usage);
    if guessed && verdict.message.contains(NO_SUCH_INDEX) {
        return;
    }
    let consistent_read = verdict.message.contains(CONSISTENT_READ_ON_GSI);
    let setter = op.setter("consistent_read").filter(|_| consistent_read);
    let span = match (located, setter) {
        (Some(e), _) => locate(op, e),
        (None, Some(s)) => s.span,
        (None, None) => fallback_span(op, verdict),
    };
    let d = cx.report(
        op.file.clone(),
        span,
        format!(
            "{} is rejected: {} \"{}\"",
            target(bound, schema),
            verdict.error.name(),
            verdict.message
        ),
    );
    if let (Some(_), Some(at), Some(index)) = (setter, op.index_span, &op.index) {
        d.label(
            op.file.clone(),
            at,
            format!(
                "`{}` is a global secondary index",
                index.value().map_or_else(|| index.label(), str::to_string)
            ),
        );
    }
    if let Some(help) = help(op, verdict, located, schema) {
        d.help(help);
    }
    let fix = match located {
        Some(e) => reserved_word_fix(op, e).or_else(|| unused_placeholder_fix(op, e)),
        None if consistent_read => consistent_read_fix(op),
        None => None,
    };
    if let Some(fix) = fix {
        d.fix(fix);
    }
}

/// DynamoDB's answer to a read of an index the table does not have.
const NO_SUCH_INDEX: &str = "does not have the specified index";

/// DynamoDB's message for `ConsistentRead` on a GSI.
const CONSISTENT_READ_ON_GSI: &str =
    "Consistent reads are not supported on global secondary indexes";

/// Removes `.consistent_read(true)` when the chain calls it on every path with the
/// literal `true` (a computed flag may be false at run time: the rejection would not
/// be certain, and removing it would change what the code means).
fn consistent_read_fix(op: &Operation) -> Option<Fix> {
    let s = op.setter("consistent_read")?;
    if op.consistent_read != Some(true) || s.conditional {
        return None;
    }
    Some(Fix {
        title: "remove `consistent_read(true)`: reads of a GSI are eventually consistent".into(),
        edits: vec![Edit {
            location: Location::new(op.file.clone(), s.removal_span),
            replacement: String::new(),
        }],
    })
}

/// Removes the setter calls of unused placeholders, when each one is set by its own
/// pair setter (`.expression_attribute_values(":v", ..)`) on every path: with a whole
/// map, or a call on a branch, removing it is not a mechanical edit.
fn unused_placeholder_fix(op: &Operation, e: &ExprError) -> Option<Fix> {
    let method = match e.code {
        ErrorCode::UnusedNames => "expression_attribute_names",
        ErrorCode::UnusedValues => "expression_attribute_values",
        _ => return None,
    };
    // `... unused in expressions: keys: {:a, :b}`
    let keys = e.message.split_once("keys: {")?.1.strip_suffix('}')?;
    let keys: Vec<&str> = keys.split(", ").collect();
    let mut edits = Vec::new();
    for key in &keys {
        let calls: Vec<_> = op
            .setters
            .iter()
            .filter(|s| s.method.ends_with(method) && s.key.as_deref() == Some(*key))
            .collect();
        let [call] = calls.as_slice() else {
            return None;
        };
        if call.conditional || call.method != method {
            return None;
        }
        edits.push(Edit {
            location: Location::new(op.file.clone(), call.removal_span),
            replacement: String::new(),
        });
    }
    let list = keys
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(Fix {
        title: format!("remove the unused {list}"),
        edits,
    })
}

/// Judges placeholder verdicts per path (see [`crate::facts::paths`]): reports the
/// first witness whose every path DynamoDB rejects with the same placeholder error.
fn path_verdict(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>, schema: &TableSchema) {
    let op = bound.op;
    let Some(witnesses) = witness_paths(op) else {
        return;
    };
    for w in &witnesses {
        let Some((verdict, error)) = same_verdict(bound, &w.requests) else {
            continue;
        };
        if w.setters.is_empty() {
            continue;
        }
        let calls = w
            .setters
            .iter()
            .map(|s| format!("`.{}(..)`", s.method))
            .collect::<Vec<_>>()
            .join(", ");
        let when = match w.present {
            true => format!("on the paths that call {calls}"),
            false => format!("on the paths that skip {calls}"),
        };
        let d = cx.report(
            op.file.clone(),
            locate(op, &error),
            format!(
                "{} is rejected {when}: {} \"{}\"",
                target(bound, schema),
                verdict.error.name(),
                verdict.message
            ),
        );
        for s in &w.setters {
            let what = match w.present {
                true => "called on some paths only",
                false => "skipped on some paths",
            };
            d.label(op.file.clone(), s.span, what);
        }
        d.help(match error.code {
            ErrorCode::UnusedNames | ErrorCode::UnusedValues => {
                "set each placeholder in the same branch as the expression that uses it: \
                 DynamoDB rejects a request that defines one its expressions do not use"
            }
            _ => {
                "define each placeholder on every path that sets an expression using it, \
                 in the same branch as the expression"
            }
        });
        d.note(
            "dynalint assumes every `if`, `match` arm and loop around a setter call can \
             both run and be skipped",
        );
        return;
    }
}

/// DynamoDB's decided verdict on `one`, a variant of `bound`'s request the code can
/// send (one branch's `select`, one path's expression), bound as `bound` is.
fn decided_alone(bound: &BoundOperation<'_>, one: &Operation) -> Option<(TableSchema, Verdict)> {
    let b = BoundOperation {
        op: one,
        table: bound.table,
        index: bound.index,
        unbound: None,
        parent: bound.parent,
    };
    let (schema, req) = symbolic(&b)?;
    let verdict = first_verdict(&schema, &req).filter(|v| v.decided)?;
    Some((schema, verdict))
}

/// A `select` whose argument is an `if`/`match` giving different values: each value
/// is a request the code can send, judged alone. Reports the first one DynamoDB
/// rejects (true when it did).
fn select_choice_verdict(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) -> bool {
    let op = bound.op;
    for choice in &op.select_choices {
        let mut one = op.clone();
        one.select = Some(choice.clone());
        one.select_choices = Vec::new();
        let Some((schema, verdict)) = decided_alone(bound, &one) else {
            continue;
        };
        let setter = op.setter("select");
        let span = setter.map_or(op.method_span, |s| s.span);
        let d = cx.report(
            op.file.clone(),
            span,
            format!(
                "{} is rejected when `select` is `{choice}`: {} \"{}\"",
                target(bound, &schema),
                verdict.error.name(),
                verdict.message
            ),
        );
        if let Some(help) = help(&one, &verdict, None, &schema) {
            d.help(help);
        }
        d.note(
            "the argument of `select` gives one value per branch; dynalint assumes each \
             branch can run",
        );
        return true;
    }
    false
}

/// An expression the code builds on several paths (`push_str` in an `if` or a `match`
/// arm): each path's text is a request the code can send, judged alone. Only when one
/// expression is built so, and every `#name` is set on every path (a name set in a
/// branch belongs to that branch's text, which this does not pair); the values are
/// taken to be the ones each text uses. Reports the first path DynamoDB rejects (true
/// when it did).
fn expression_path_verdict(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) -> bool {
    let Some((arg, paths)) = path_requests(bound.op) else {
        return false;
    };
    for (text, one) in &paths {
        let Some((schema, verdict)) = decided_alone(bound, one) else {
            continue;
        };
        let d = cx.report(
            bound.op.file.clone(),
            arg.span,
            format!(
                "{} is rejected on the path that builds `{}` as \"{text}\": {} \"{}\"",
                target(bound, &schema),
                arg.text.label(),
                verdict.error.name(),
                verdict.message
            ),
        );
        if let Some(help) = help(one, &verdict, None, &schema) {
            d.help(help);
        }
        d.note(paths_note(arg));
        return true;
    }
    false
}

/// [`expression_path_verdict`] for a request only some instance may send
/// (`Operation::possible_table`): each path judged only by what DynamoDB rejects
/// whatever the table (the text's syntax, a function name, a reserved word), the same
/// finding for each instance. Reports the first such path (true when it did).
fn possible_path_verdict(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) -> bool {
    let op = bound.op;
    let Some((arg, paths)) = path_requests(op) else {
        return false;
    };
    for (text, one) in &paths {
        let Some(Err(e)) = check_exprs(one) else {
            continue;
        };
        let d = cx.report(
            op.file.clone(),
            arg.span,
            format!(
                "`{}` is rejected whatever its table on the path that builds `{}` as \"{text}\": ValidationException \"{}\"",
                op.kind.sdk_method(),
                arg.text.label(),
                e.message
            ),
        );
        if let Some(help) = expr_help(one, &e) {
            d.help(help);
        }
        d.note(paths_note(arg));
        return true;
    }
    false
}

/// `op`'s one expression built on several paths, and each path's text with the
/// request it makes, in order, up to the first path that cannot be judged alone (the
/// paths after it are not judged either).
fn path_requests(op: &Operation) -> Option<(&ExprArg, Vec<(&str, Operation)>)> {
    let (slot, arg) = path_built(op)?;
    let paths = arg
        .paths
        .iter()
        .map_while(|text| Some((text.as_ref(), on_path(op, slot, text, arg.span)?)))
        .collect();
    Some((arg, paths))
}

/// The one expression of `op` built on several paths, with its slot (key condition,
/// filter, condition, projection, update), when every `#name` is set on every path
/// (see [`expression_path_verdict`]).
fn path_built(op: &Operation) -> Option<(usize, &ExprArg)> {
    let slots = [
        &op.key_condition,
        &op.filter,
        &op.condition,
        &op.projection,
        &op.update,
    ];
    let mut built = slots
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.as_deref().filter(|e| !e.paths.is_empty()).map(|e| (i, e)));
    let found = built.next()?;
    let names_on_some_paths = op.names.values().any(|n| n.conditional)
        || op
            .setters
            .iter()
            .any(|s| s.conditional && s.method.ends_with("expression_attribute_names"));
    (built.next().is_none() && !names_on_some_paths).then_some(found)
}

/// `op` as one path sends it: the expression in `slot` is `text`. Which values a path
/// defines is not known (a map filled in the branches that append, a loop): taken to
/// be exactly the ones its text uses, so only what holds whatever they are (a `#name`
/// no text uses, the key's shape) is judged.
fn on_path(op: &Operation, slot: usize, text: &str, at: Span) -> Option<Operation> {
    let mut one = op.clone();
    let expr = [
        &mut one.key_condition,
        &mut one.filter,
        &mut one.condition,
        &mut one.projection,
        &mut one.update,
    ]
    .into_iter()
    .nth(slot)
    .and_then(|e| e.as_mut())?;
    expr.text = crate::scanner::Resolved::literal(text);
    expr.paths = Box::default();
    one.values = value_placeholders(text)
        .map(|v| (v.to_string(), crate::scanner::ValueInfo::unknown(at)))
        .collect();
    one.values_complete = true;
    Some(one)
}

/// The note of a finding on one path of an expression built on several.
fn paths_note(arg: &ExprArg) -> String {
    format!(
        "`{}` is appended to in `if`s or `match` arms, {} paths in all; dynalint assumes \
         each can run",
        arg.text.label(),
        arg.paths.len()
    )
}

/// The `:value` placeholders an expression's text uses.
fn value_placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices(':').filter_map(move |(i, _)| {
        let rest = &text[i + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (len > 0).then(|| &text[i..i + 1 + len])
    })
}

/// The placeholder verdict DynamoDB gives every one of `requests`, when it is the
/// same decided one for all.
fn same_verdict(
    bound: &BoundOperation<'_>,
    requests: &[Operation],
) -> Option<(Verdict, ExprError)> {
    let mut found: Option<(Verdict, ExprError)> = None;
    for r in requests {
        let b = BoundOperation {
            op: r,
            table: bound.table,
            index: bound.index,
            unbound: None,
            parent: bound.parent,
        };
        let (schema, req) = symbolic(&b)?;
        let v = first_verdict(&schema, &req)?;
        if !v.decided {
            return None;
        }
        let e = expr_error(r, &schema, req.index.as_deref())
            .filter(|e| e.message == v.message && is_placeholder_error(e))?;
        match &found {
            Some((f, _)) if f.message != v.message => return None,
            Some(_) => {}
            None => found = Some((v, e)),
        }
    }
    found
}

/// Whether an expression, a `#name` or a `:value` is set only on some paths through
/// the code.
fn has_conditional_parts(op: &Operation) -> bool {
    let placeholder_setter = |m: &str| {
        m.ends_with("expression_attribute_names") || m.ends_with("expression_attribute_values")
    };
    if op
        .setters
        .iter()
        .any(|s| s.conditional && placeholder_setter(&s.method))
    {
        return true;
    }
    [
        &op.key_condition,
        &op.filter,
        &op.condition,
        &op.projection,
        &op.update,
    ]
    .into_iter()
    .flatten()
    .any(|e| e.conditional)
        || op.names.values().any(|n| n.conditional)
}

/// The first error `crate::expr` finds in the request (with its position), including
/// the key condition's shape against the queried key schema.
fn expr_error(op: &Operation, schema: &TableSchema, index: Option<&str>) -> Option<ExprError> {
    if let Err(e) = check_exprs(op)? {
        return Some(e);
    }
    if op.kind != OpKind::Query {
        return None;
    }
    let text = op.key_condition.as_ref()?.text.value()?;
    let keys = match index {
        Some(i) => &schema.index(i)?.keys,
        None => &schema.keys,
    };
    let key = |k: &crate::engine::KeyAttribute| KeyAttribute {
        name: k.name.clone(),
        ty: Some(k.ty),
    };
    let ks = KeySchema {
        partition_key: key(&keys.hash),
        sort_key: keys.range.as_ref().map(key),
    };
    let cond = parse_key_condition(text).ok()?;
    check_key_condition(&cond, &ks, &crate::facts::request::names(op)).err()
}

/// Whether `message` names `word` as a whole word: the key `id` is not named by
/// "The provided key element does not match the schema".
fn names_word(message: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    !word.is_empty()
        && message.match_indices(word).any(|(i, _)| {
            !message[..i].chars().next_back().is_some_and(part)
                && !message[i + word.len()..].chars().next().is_some_and(part)
        })
}

/// Where a verdict without an expression position belongs: the index name, the
/// key attribute it names, or the call.
fn fallback_span(op: &Operation, v: &Verdict) -> Span {
    let m = v.message.as_str();
    // A key attribute missing from a put's item: the item.
    if missing_key(m).is_some() {
        // The whole map's setter; pair setters (`.item("a", ..)`) each hold one entry.
        if let Some(s) = op.setter("item").filter(|s| s.method == "set_item") {
            return s.span;
        }
        return op.method_span;
    }
    if m.contains("index") {
        if let Some(s) = op.index_span {
            return s;
        }
    }
    // `Filter Expression can only contain non-primary key attributes: Primary key
    // attribute: X`: X in the filter.
    if let Some(attr) = m
        .split_once("Primary key attribute: ")
        .map(|(_, r)| r.trim())
    {
        if let Some(at) = op.filter.as_ref().and_then(|f| word_in(f, attr)) {
            return at;
        }
    }
    // `Cannot update attribute X. This attribute is part of the key`: X in the update.
    if let Some(attr) = m
        .split_once("Cannot update attribute ")
        .and_then(|(_, r)| r.split(['.', ' ']).next())
    {
        if let Some(at) = op.update.as_ref().and_then(|u| word_in(u, attr)) {
            return at;
        }
    }
    let key_attr = op
        .key
        .iter()
        .chain(op.item.iter())
        .flat_map(|k| k.attributes.iter())
        .find(|a| a.name.value().is_some_and(|n| names_word(m, n)));
    // The value, not the attribute's setter call: a pair setter's span reaches back
    // to the start of the chain.
    if let Some(a) = key_attr {
        return a.value.span;
    }
    if m.contains("KeyConditionExpression") || m.starts_with("Query condition") {
        if let Some(k) = &op.key_condition {
            return k.span;
        }
    }
    op.method_span
}

/// The first whole-word occurrence of `word` in an expression argument, in the file.
fn word_in(arg: &ExprArg, word: &str) -> Option<Span> {
    let text = arg.text.value()?;
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let (i, _) = text.match_indices(word).find(|(i, _)| {
        !text[..*i].ends_with(is_word) && !text[i + word.len()..].starts_with(is_word)
    })?;
    Some(file_span(arg, Span::new(i, i + word.len())))
}

/// What to do, per kind of rejection.
fn help(
    op: &Operation,
    v: &Verdict,
    e: Option<&ExprError>,
    schema: &TableSchema,
) -> Option<String> {
    if let Some(e) = e {
        if let Some(h) = expr_help(op, e) {
            return Some(h);
        }
        if !matches!(e.code, ErrorCode::KeyCondition | ErrorCode::OperandType) {
            return None;
        }
        let keys = match &op.index {
            Some(i) => schema.index(i.value()?).map(|i| &i.keys),
            None => Some(&schema.keys),
        }?;
        return Some(match &keys.range {
            Some(sk) => format!(
                "the key condition must be `{} = :value`, optionally `AND` one condition on `{}` (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`{})",
                keys.hash.name,
                sk.name,
                if sk.ty == crate::attr::AttributeType::N { "" } else { ", `begins_with`" }
            ),
            None => format!("the key condition must be `{} = :value` alone", keys.hash.name),
        });
    }
    let m = v.message.as_str();
    if let Some(key) = missing_key(m) {
        let keys: Vec<String> = schema
            .keys
            .attributes()
            .map(|k| format!("`{}`", k.name))
            .collect();
        let keys = keys.join(" + ");
        return Some(match op.item.as_ref().and_then(|i| i.from_type.as_deref()) {
            Some(ty) => format!(
                "the item is `{ty}` as serde writes it, and no field of `{ty}` is written as `{key}`: add one (or `#[serde(rename = \"{key}\")]` on the field that holds it); the key of `{}` is {keys}",
                schema.name
            ),
            None => format!(
                "add `{key}` to the item: every item of `{}` carries its whole key, {keys}",
                schema.name
            ),
        });
    }
    if m.contains("Consistent reads are not supported on global secondary indexes") {
        return Some("drop `consistent_read(true)`: a GSI is eventually consistent only; read the table or a local index when the read must be strongly consistent".into());
    }
    if m.contains(NO_SUCH_INDEX) {
        let names: Vec<String> = schema
            .indexes
            .iter()
            .map(|i| format!("`{}`", i.name))
            .collect();
        return Some(if names.is_empty() {
            format!("`{}` has no secondary index in the model", schema.name)
        } else {
            format!("the indexes of `{}` are {}", schema.name, names.join(", "))
        });
    }
    if let Some(attr) = m
        .split_once("Primary key attribute: ")
        .map(|(_, r)| r.trim())
    {
        return Some(format!(
            "move the condition on `{attr}` into the key condition expression: a Query selects its key range there, and the filter may only name other attributes"
        ));
    }
    if m.contains("part of the key") {
        return Some("key attributes cannot be updated: delete the item and put it with the new key (in one `transact_write_items` to keep it atomic)".into());
    }
    if m.contains("empty string") || m.contains("empty binary") {
        return Some("give the key attribute a non-empty value, or leave an index key attribute out of the item so the index skips it (a sparse index)".into());
    }
    None
}

/// What to do about an expression error that does not depend on the table.
fn expr_help(op: &Operation, e: &ExprError) -> Option<String> {
    Some(match e.code {
        ErrorCode::ReservedKeyword => {
            let word = offending_text(op, e)?;
            format!(
                "use a name placeholder: `{}` in the expression and `.expression_attribute_names(\"{}\", \"{word}\")`",
                placeholder_for(op, word),
                placeholder_for(op, word)
            )
        }
        ErrorCode::UndefinedName | ErrorCode::UndefinedValue => {
            "define the placeholder with `.expression_attribute_names(..)`/`.expression_attribute_values(..)`, or fix its spelling".to_string()
        }
        ErrorCode::UnusedNames | ErrorCode::UnusedValues => {
            "remove the unused placeholder, or use it in an expression: DynamoDB rejects extra entries".to_string()
        }
        ErrorCode::InvalidPlaceholderMap => {
            let key = bad_placeholder_key(&e.message)?;
            let (map, sigil) = if e.message.starts_with("ExpressionAttributeNames") {
                ("ExpressionAttributeNames", '#')
            } else {
                ("ExpressionAttributeValues", ':')
            };
            format!(
                "write the key as `{sigil}{key}`: every key of {map} starts with `{sigil}`, as the expression spells it"
            )
        }
        ErrorCode::InvalidFunction => {
            let f = UPDATE_ONLY_FUNCTIONS
                .iter()
                .find(|f| e.message.ends_with(&format!("function: {f}")))?;
            let instead = match *f {
                "if_not_exists" => "`attribute_not_exists(path)`",
                _ => "`attribute_exists(path)`, `contains(path, :v)` or `size(path)`",
            };
            format!(
                "`{f}` exists only in an UpdateExpression (`SET a = {f}(..)`); a condition or filter tests with {instead}"
            )
        }
        _ => return None,
    })
}

/// `sk` of `... Missing the key sk in the item`.
fn missing_key(message: &str) -> Option<&str> {
    message
        .split_once("Missing the key ")?
        .1
        .strip_suffix(" in the item")
}

/// Functions only an UpdateExpression's `SET` takes.
const UPDATE_ONLY_FUNCTIONS: &[&str] = &["if_not_exists", "list_append"];

/// `e` of `ExpressionAttributeValues contains invalid key: Syntax error; key: "e"`.
fn bad_placeholder_key(message: &str) -> Option<&str> {
    message
        .split_once("; key: \"")?
        .1
        .strip_suffix('"')
        .filter(|k| !k.is_empty())
}

/// The text an expression error points at, when the argument is a literal.
fn offending_text<'a>(op: &'a Operation, e: &ExprError) -> Option<&'a str> {
    let kind = e.expr?;
    let expr = static_exprs(op)?.into_iter().find(|x| x.kind == kind)?;
    expr.text.get(e.span.range())
}

/// A `#name` for `word` that the request does not use for anything else.
fn placeholder_for(op: &Operation, word: &str) -> String {
    let base: String = word
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<String>()
        .to_lowercase();
    let base = if base.is_empty() {
        "n".to_string()
    } else {
        base
    };
    let mut candidate = format!("#{base}");
    let mut i = 1;
    while op
        .names
        .get(&candidate)
        .is_some_and(|n| n.name.value() != Some(word))
    {
        candidate = format!("#{base}{i}");
        i += 1;
    }
    candidate
}

/// Reserved word → `#word` in the literal, plus the names entry after the SDK method
/// call (builders take their setters in any order). Only for verbatim literals, where
/// the byte mapping is exact.
fn reserved_word_fix(op: &Operation, e: &ExprError) -> Option<Fix> {
    if e.code != ErrorCode::ReservedKeyword {
        return None;
    }
    let kind = e.expr?;
    let expr = static_exprs(op)?.into_iter().find(|x| x.kind == kind)?;
    let span = file_span(expr.arg, e.span);
    if span == expr.arg.span {
        return None;
    }
    let word = expr.text.get(e.span.range())?;
    let placeholder = placeholder_for(op, word);
    let mut edits = vec![Edit {
        location: Location::new(op.file.clone(), span),
        replacement: placeholder.clone(),
    }];
    if !op.names.contains_key(&placeholder) {
        // Right after the setter that holds the expression, in the chain's layout (one
        // call per line stays one call per line); else after the operation's method.
        let holder = op
            .setters
            .iter()
            .find(|s| s.span.start <= expr.arg.span.start && expr.arg.span.end <= s.span.end);
        let (at, lead) = match holder {
            Some(s) => (s.span.end, s.lead.as_str()),
            None => (op.method_span.end, ""),
        };
        edits.push(Edit {
            location: Location::new(op.file.clone(), Span::new(at, at)),
            replacement: format!(
                "{lead}.expression_attribute_names(\"{placeholder}\", \"{word}\")"
            ),
        });
    }
    Some(Fix {
        title: format!("use `{placeholder}` for the reserved word `{word}`"),
        edits,
    })
}

/// DynamoDB echoes the whole offending list in a length violation (`Value '[...]' at
/// 'transactItems'`); in a finding, a long echo is shortened to `…`.
fn elide_echo(message: &str) -> String {
    const LONGEST: usize = 60;
    let Some((head, rest)) = message.split_once("Value '") else {
        return message.to_string();
    };
    let Some(end) = rest.rfind("' at '") else {
        return message.to_string();
    };
    if end <= LONGEST {
        return message.to_string();
    }
    format!("{head}Value '…{}", &rest[end..])
}

/// Most requests DynamoDB takes in one call of a batch or transaction API.
fn limit_of(kind: OpKind) -> usize {
    match kind {
        OpKind::BatchWriteItem => 25,
        _ => 100,
    }
}

/// Beyond this, a chunk size is not replayed (the request body would be huge); no
/// real code sends a million requests per call.
const MAX_REPLAYED: usize = 1_000_000;

/// Over-limit batches and transactions, as far as the code lists their requests, or
/// sends one `chunks(n)` element per call: the engine's own validation of a request
/// of that size gives DynamoDB's message.
fn batch_size(cx: &mut RuleContext<'_>, op: &Operation) {
    let chunk = op.batch_size.as_ref().and_then(|v| {
        let n = v.literal.as_deref()?.parse::<usize>().ok()?;
        Some((v, n))
    });
    // The requests of one call: as listed, or the chunk's one request, n times.
    let requests: Vec<&Operation> = match chunk {
        Some((_, n)) if n <= MAX_REPLAYED => match op.children.first() {
            Some(c) => vec![c; n],
            None => return,
        },
        Some(_) => return,
        None => op.children.iter().collect(),
    };
    let n = requests.len();
    if n <= limit_of(op.kind) {
        return;
    }
    let Some(body) = batch_body(op.kind, &requests) else {
        return;
    };
    let Err(mut err) = Engine::new().handle(op.kind.api_name(), &body) else {
        return;
    };
    err.message = elide_echo(&err.message);
    let limit = limit_of(op.kind);
    let what = match op.kind {
        OpKind::BatchGetItem => "keys",
        OpKind::BatchWriteItem => "requests",
        _ => "actions",
    };
    let method = op.kind.sdk_method();
    match chunk {
        Some((size, _)) => {
            let d = cx.report(
                op.file.clone(),
                size.span,
                format!(
                    "`{method}` with chunks of {n} {what} is rejected whenever a chunk is full: {} \"{}\"",
                    err.kind.name(),
                    err.message
                ),
            );
            d.label(
                op.file.clone(),
                op.method_span,
                format!("each call sends one chunk: up to {n} {what}"),
            );
            d.help(format!(
                "chunk by {limit} at most: `{method}` takes up to {limit} {what} per call"
            ));
        }
        None => {
            cx.report(
                op.file.clone(),
                op.method_span,
                format!(
                    "`{method}` with {n} {what} is rejected: {} \"{}\"",
                    err.kind.name(),
                    err.message
                ),
            )
            .help(format!(
                "send at most {limit} {what} per call: split the list with `.chunks({limit})`"
            ));
        }
    }
}

/// A request body of the given requests, as the engine takes it; `None` when a table
/// name DynamoDB's message would quote is not known.
fn batch_body(kind: OpKind, requests: &[&Operation]) -> Option<Value> {
    let table = |c: &Operation| c.table.as_ref().and_then(|t| t.value()).map(str::to_string);
    Some(match kind {
        OpKind::BatchGetItem => {
            let mut items = serde_json::Map::new();
            for c in requests {
                let e = items
                    .entry(table(c)?)
                    .or_insert_with(|| json!({"Keys": []}));
                if let Some(keys) = e["Keys"].as_array_mut() {
                    keys.push(json!({}));
                }
            }
            json!({ "RequestItems": items })
        }
        OpKind::BatchWriteItem => {
            let mut items = serde_json::Map::new();
            for c in requests {
                let req = match c.kind {
                    OpKind::DeleteItem => json!({"DeleteRequest": {"Key": {}}}),
                    _ => json!({"PutRequest": {"Item": {}}}),
                };
                // DynamoDB's message for too many writes does not name the table.
                let name = table(c).unwrap_or_else(|| "Table".to_string());
                if let Some(list) = items
                    .entry(name)
                    .or_insert_with(|| json!([]))
                    .as_array_mut()
                {
                    list.push(req);
                }
            }
            json!({ "RequestItems": items })
        }
        _ => json!({ "TransactItems": vec![json!({}); requests.len()] }),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{model, run, Op};
    use crate::scanner::OpKind::{self, Query, Scan};

    /// A table keyed by a string `pk` alone, for the memo's tests.
    fn pk_table(name: &str) -> crate::engine::TableSchema {
        use crate::attr::AttributeType;
        use crate::engine::schema::{KeyAttribute, KeySchema};
        crate::engine::TableSchema {
            name: name.to_string(),
            keys: KeySchema {
                hash: KeyAttribute::new("pk", AttributeType::S),
                range: None,
            },
            indexes: Vec::new(),
        }
    }

    /// The memo's verdict for `r` is the engine's, remembered or not.
    fn assert_engine_verdict(
        seen: &std::sync::Mutex<super::Remembered>,
        schema: &crate::engine::TableSchema,
        r: &crate::engine::symbolic::SymbolicRequest,
    ) {
        assert_eq!(
            super::remembered_verdict(seen, schema, r),
            crate::engine::symbolic::validate(schema, r)
                .into_iter()
                .next()
        );
    }

    /// How many lookups the memo missed, over every shape.
    fn misses(seen: &std::sync::Mutex<super::Remembered>) -> Result<u64, String> {
        seen.lock()
            .map(|m| m.values().map(|s| s.misses).sum::<u64>())
            .map_err(|e| e.to_string())
    }

    /// A table keyed by a number `pk` alone: its keys' values are never made one
    /// (`same_verdict_form`), so the memo's own bounds are what its tests see.
    fn n_table(name: &str) -> crate::engine::TableSchema {
        let mut t = pk_table(name);
        t.keys.hash.ty = crate::attr::AttributeType::N;
        t
    }

    /// A GetItem of `n_table`'s item `pk`.
    fn get_n(pk: i64) -> crate::engine::symbolic::SymbolicRequest {
        use crate::engine::symbolic::{SymbolicOp, SymbolicRequest, SymbolicValue};
        let mut r = SymbolicRequest::new(SymbolicOp::GetItem);
        r.item.insert(
            "pk".to_string(),
            SymbolicValue::Known(crate::engine::AttributeValue::N(
                crate::engine::Number::from_i64(pk),
            )),
        );
        r
    }

    /// A GetItem of `pk_table`'s item `pk`.
    fn get_pk(pk: &str) -> crate::engine::symbolic::SymbolicRequest {
        use crate::engine::symbolic::{SymbolicOp, SymbolicRequest, SymbolicValue};
        let mut r = SymbolicRequest::new(SymbolicOp::GetItem);
        r.item.insert(
            "pk".to_string(),
            SymbolicValue::Known(crate::engine::AttributeValue::S(pk.to_string())),
        );
        r
    }

    /// Requests the memo files under one hash (it reads the item's attribute names,
    /// not their values) keep their own verdicts: an empty key is rejected, a filled
    /// one is not, in either order.
    #[test]
    fn remembered_verdicts_are_per_request_not_per_hash() {
        use crate::engine::symbolic::validate;
        let schema = pk_table("MemoHashTable");
        let (empty, filled) = (get_pk(""), get_pk("a"));
        assert_eq!(
            super::shape_hash(&schema, &empty),
            super::shape_hash(&schema, &filled)
        );
        for _ in 0..2 {
            assert!(super::first_verdict(&schema, &empty).is_some());
            assert!(super::first_verdict(&schema, &filled).is_none());
        }
        // Remembered or not, the verdict is the engine's.
        assert_eq!(
            super::first_verdict(&schema, &empty),
            validate(&schema, &empty).into_iter().next()
        );
        // Many requests of one shape (keys that differ only in value): each gets the
        // engine's verdict, and the memo keeps a bounded number of them, so looking
        // one up never searches them all.
        let seen = std::sync::Mutex::new(super::Remembered::default());
        for i in 0..100 {
            let pk = if i % 10 == 0 {
                String::new()
            } else {
                format!("k{i}")
            };
            let r = get_pk(&pk);
            assert_eq!(
                super::remembered_verdict(&seen, &schema, &r),
                validate(&schema, &r).into_iter().next()
            );
        }
        let longest = seen
            .lock()
            .map(|m| m.values().map(|s| s.requests.len()).max());
        assert!(matches!(longest, Ok(Some(n)) if n <= super::MAX_PER_SHAPE));
    }

    /// Requests of one shape that come round in a cycle longer than the memo keeps
    /// (ten sort keys over and over, as a generated file sends them) are still mostly
    /// remembered: evicting the oldest missed every one.
    #[test]
    fn a_cycle_longer_than_the_memo_is_mostly_remembered() {
        let schema = n_table("MemoCycleTable");
        let seen = std::sync::Mutex::new(super::Remembered::default());
        let cycle = super::MAX_PER_SHAPE + 2;
        let rounds = 50;
        for _ in 0..rounds {
            for i in 0..cycle {
                assert_engine_verdict(&seen, &schema, &get_n(i as i64));
            }
        }
        let misses = misses(&seen);
        let lookups = (cycle * rounds) as u64;
        assert!(
            matches!(misses, Ok(n) if n < lookups / 2),
            "{misses:?} of {lookups}"
        );
    }

    /// A generated file's cycle of ten sort keys (the 40,000-call file's) fits the
    /// memo whole: after the first round, the engine is not asked again.
    #[test]
    fn a_cycle_of_ten_is_remembered_whole() {
        let schema = n_table("MemoTenTable");
        let seen = std::sync::Mutex::new(super::Remembered::default());
        for _ in 0..20 {
            for i in 0..10 {
                assert_engine_verdict(&seen, &schema, &get_n(i));
            }
        }
        let misses = misses(&seen);
        assert!(matches!(misses, Ok(10)), "{misses:?}");
    }

    /// Requests that differ only in a literal key string (the 40,000 different sort
    /// keys of a data migration) share one verdict: the engine is asked once. Those
    /// whose value can change the verdict (empty, longer than a key may be, of another
    /// type than the key's) are asked on their own, and every verdict is the engine's.
    #[test]
    fn key_strings_that_cannot_change_the_verdict_share_one() {
        let schema = pk_table("MemoShareTable");
        let seen = std::sync::Mutex::new(super::Remembered::default());
        for i in 0..100 {
            assert_engine_verdict(&seen, &schema, &get_pk(&format!("v{i}")));
        }
        assert!(matches!(misses(&seen), Ok(1)), "{:?}", misses(&seen));
        let mut wrong_type = get_pk("v");
        wrong_type.item.insert(
            "pk".to_string(),
            crate::engine::symbolic::SymbolicValue::Known(crate::engine::AttributeValue::N(
                crate::engine::Number::from_i64(7),
            )),
        );
        let own = [get_pk(""), get_pk(&"k".repeat(2049)), wrong_type];
        for r in &own {
            assert_engine_verdict(&seen, &schema, r);
        }
        assert!(matches!(misses(&seen), Ok(4)), "{:?}", misses(&seen));
        for r in &own {
            assert!(super::first_verdict(&schema, r).is_some(), "{r:?}");
        }
        assert!(super::first_verdict(&schema, &get_pk("any")).is_none());
    }

    const ORDERS: &str = r#"
[[table]]
name = "Orders"
partition-key = "CustomerId"
sort-key = "OrderDate"

[table.attributes]
CustomerId = "S"
OrderDate = "S"
Status = "S"
Seq = "N"

[[table.index]]
name = "ByStatus"
partition-key = "Status"
sort-key = "Seq"
projection = "KEYS_ONLY"
"#;

    /// A query with `:c`/`:d` defined when the key condition uses them.
    fn q(key: &str) -> Op {
        let mut op = Op::new(Query, "Orders").key(key);
        for v in [":c", ":d"] {
            if key.contains(v) {
                op = op.value(v, None);
            }
        }
        op
    }

    /// (case, operation, expected message fragment; empty = accepted)
    fn cases() -> Vec<(&'static str, Op, &'static str)> {
        vec![
            ("a valid query", q("CustomerId = :c AND OrderDate > :d"), ""),
            (
                "reserved word in a filter",
                q("CustomerId = :c").filter("Status = :d").value(":d", None),
                "`query` on `Orders` is rejected: ValidationException \"Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: Status\"",
            ),
            (
                "missing partition key",
                q("OrderDate = :d"),
                "Query condition missed key schema element: CustomerId",
            ),
            (
                "begins_with on a number sort key",
                Op::new(Query, "Orders")
                    .index("ByStatus")
                    .key("#s = :s AND begins_with(Seq, :p)")
                    .name("#s", "Status")
                    .value(":s", None)
                    .value(":p", None),
                "begins_with, operand type: N",
            ),
            (
                "unknown index",
                q("CustomerId = :c").index("ByNothing"),
                "The table does not have the specified index: ByNothing",
            ),
            (
                "undefined value",
                Op::new(Scan, "Orders").filter("OrderDate > :since"),
                "An expression attribute value used in expression is not defined; attribute value: :since",
            ),
            (
                "unused value",
                Op::new(Scan, "Orders").filter("OrderDate > :d").value(":d", None).value(":x", None),
                "unused in expressions",
            ),
            (
                "a table the model does not know, a well-formed filter",
                Op::new(Scan, "Nope").filter("a > :zz").value(":zz", None),
                "",
            ),
            (
                "a table the model does not know: placeholders do not depend on it",
                Op::new(Scan, "Nope").filter("a > :zz"),
                "`scan` is rejected whatever its table: ValidationException \"Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :zz\"",
            ),
            (
                "a filter on the queried sort key",
                q("CustomerId = :c").filter("OrderDate > :d").value(":d", None),
                "Filter Expression can only contain non-primary key attributes: Primary key attribute: OrderDate",
            ),
            (
                "all attributes from a KEYS_ONLY index",
                {
                    let mut op = Op::new(Query, "Orders")
                        .index("ByStatus")
                        .key("#s = :s")
                        .name("#s", "Status")
                        .value(":s", None);
                    op.0.select = Some("ALL_ATTRIBUTES".into());
                    op
                },
                "ALL_ATTRIBUTES",
            ),
            (
                "a key attribute in an update",
                {
                    let mut op = Op::new(OpKind::UpdateItem, "Orders").value(":d", None);
                    op.0.update = Some(Box::new(crate::scanner::ExprArg {
                        text: crate::scanner::Resolved::literal("SET OrderDate = :d"),
                        span: crate::source::Span::new(100, 120),
                        literal_start: Some(101),
                        conditional: false,
                        paths: Box::default(),
                    }));
                    op.0.key = Some(crate::scanner::AttrMap {
                        attributes: vec![],
                        complete: false,
                        from_type: None,
                        serde_at: None,
                    });
                    op
                },
                "part of the key",
            ),
        ]
    }

    #[test]
    fn reports_decided_rejections_with_dynamodbs_words() {
        let m = model(ORDERS);
        for (case, op, want) in cases() {
            let got = run("rejected-request", &m, &[op]);
            if want.is_empty() {
                assert!(got.is_empty(), "{case}: {got:#?}");
                continue;
            }
            assert_eq!(got.len(), 1, "{case}: {got:#?}");
            assert!(got[0].message.contains(want), "{case}: {}", got[0].message);
        }
    }

    /// A request checked again (its verdict remembered by then) gets what it got the
    /// first time.
    #[test]
    fn a_request_checked_again_gets_the_same_verdict() {
        let m = model(ORDERS);
        for (case, op, _) in cases() {
            let messages = |op: &Op| -> Vec<String> {
                run("rejected-request", &m, std::slice::from_ref(op))
                    .into_iter()
                    .map(|d| d.message)
                    .collect()
            };
            assert_eq!(messages(&op), messages(&op), "{case}");
        }
    }

    #[test]
    fn a_key_attribute_in_an_update_points_at_it() {
        let m = model(ORDERS);
        let (_, op, _) = cases()
            .into_iter()
            .find(|c| c.0 == "a key attribute in an update")
            .unwrap();
        let got = run("rejected-request", &m, &[op]);
        // `SET OrderDate = :d`: `OrderDate` at byte 4 of the literal starting at 101.
        assert_eq!(
            got[0].location.span,
            crate::source::Span::new(105, 114),
            "{got:#?}"
        );
    }

    #[test]
    fn placeholder_verdicts_on_conditional_expressions_are_not_findings() {
        let m = model(ORDERS);
        // A filter set in one branch (`if let Some(d) = since { .. }`) and a value `:x`
        // used by another branch: the IR holds the union of the paths.
        let mut op = q("CustomerId = :c")
            .filter("Seq > :d")
            .value(":d", None)
            .value(":x", None);
        op.0.filter.as_mut().unwrap().conditional = true;
        assert!(run("rejected-request", &m, &[op]).is_empty());
    }

    #[test]
    fn consistent_read_on_a_gsi() {
        let m = model(ORDERS);
        let mut op = Op::new(Query, "Orders")
            .index("ByStatus")
            .key("#s = :s")
            .name("#s", "Status")
            .value(":s", None);
        op.0.consistent_read = Some(true);
        let got = run("rejected-request", &m, &[op]);
        assert!(
            got[0]
                .message
                .contains("Consistent reads are not supported on global secondary indexes"),
            "{got:#?}"
        );
        assert!(got[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("consistent_read(true)"));
    }

    #[test]
    fn reserved_word_fix_rewrites_the_literal_and_adds_the_name() {
        let m = model(ORDERS);
        let got = run(
            "rejected-request",
            &m,
            &[q("CustomerId = :c").filter("Status = :d").value(":d", None)],
        );
        let d = &got[0];
        // The filter literal's content starts at byte 201.
        assert_eq!(d.location.span, crate::source::Span::new(201, 207));
        let fix = d.fix.as_ref().expect("a fix");
        let edits: Vec<(usize, usize, &str)> = fix
            .edits
            .iter()
            .map(|e| {
                (
                    e.location.span.start,
                    e.location.span.end,
                    e.replacement.as_str(),
                )
            })
            .collect();
        assert_eq!(
            edits,
            vec![
                (201, 207, "#status"),
                (6, 6, ".expression_attribute_names(\"#status\", \"Status\")")
            ]
        );
    }

    /// Applies a fix's edits to `text`, as `check --fix` does.
    fn apply(text: &str, fix: &crate::diagnostic::Fix) -> String {
        let path = fix.edits[0].location.file.clone();
        let file = crate::source::SourceFile::new(path.to_path_buf(), text.to_string());
        let mut d = crate::diagnostic::Diagnostic::new(
            "rejected-request",
            crate::diagnostic::Category::Correctness,
            crate::diagnostic::Severity::Error,
            path,
            crate::source::Span::new(0, 0),
            "",
        );
        d.fix = Some(fix.clone());
        let fixed = crate::fix::apply(&[file], &[d]);
        assert_eq!(fixed.len(), 1, "the fix applies");
        fixed[0].text.clone()
    }

    #[test]
    fn the_reserved_word_fix_yields_code_dynamodb_accepts() {
        let m = model(ORDERS);
        let code = r#"
async fn shipped(client: &Client, customer: &str) -> Result<(), Error> {
    let out = client
        .query()
        .table_name("Orders")
        .key_condition_expression("CustomerId = :c")
        .filter_expression("attribute_exists(Seq) AND Status = :s")
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
        .expression_attribute_values(":s", AttributeValue::S("SHIPPED".into()))
        .send()
        .await?;
    Ok(())
}
"#;
        let selection = crate::rules::RuleSelection {
            only: Some(vec!["rejected-request".to_string()]),
            ..Default::default()
        };
        let file = crate::source::SourceFile::new("src/orders.rs", code);
        let before = crate::rules::test_support::analyze(&m, &[file], &selection);
        assert_eq!(before.len(), 1, "{before:#?}");
        let fixed = apply(code, before[0].fix.as_ref().expect("a fix"));
        // The names setter goes right after the filter, on its own line like the rest.
        assert!(
            fixed.contains(
                "(Seq) AND #status = :s\")\n        .expression_attribute_names(\"#status\", \"Status\")"
            ),
            "{fixed}"
        );
        assert!(fixed.contains("AND #status = :s"), "{fixed}");
        let file = crate::source::SourceFile::new("src/orders.rs", fixed.clone());
        let after = crate::rules::test_support::analyze(&m, &[file], &selection);
        assert!(after.is_empty(), "{fixed}\n{after:#?}");
    }

    #[test]
    fn value_dependent_verdicts_are_not_findings() {
        let m = model(ORDERS);
        // `:c` could be an empty string or another type: DynamoDB may or may not reject.
        let got = run("rejected-request", &m, &[q("CustomerId = :c")]);
        assert!(got.is_empty(), "{got:#?}");
        // An empty literal is certain.
        let mut op = q("CustomerId = :c");
        let v = op.0.values.get_mut(":c").unwrap();
        v.ty = Some(crate::attr::AttributeType::S);
        v.literal = Some(String::new());
        let got = run("rejected-request", &m, &[op]);
        assert_eq!(got.len(), 1, "{got:#?}");
    }

    #[test]
    fn over_limit_batches() {
        let m = model(ORDERS);
        let mut batch = Op::new(OpKind::BatchWriteItem, "Orders");
        for _ in 0..26 {
            batch.0.children.push(Op::new(OpKind::PutItem, "Orders").0);
        }
        let got = run("rejected-request", &m, &[batch]);
        assert!(
            got.iter().any(|d| d
                .message
                .contains("Member must have length less than or equal to 25")),
            "{got:#?}"
        );
        let mut ok = Op::new(OpKind::BatchWriteItem, "Orders");
        ok.0.children.push(Op::new(OpKind::PutItem, "Orders").0);
        assert!(run("rejected-request", &m, &[ok])
            .iter()
            .all(|d| !d.message.contains("requests is rejected")));
    }

    /// The rule's findings on `code` (one file, only this rule).
    fn check(m: &crate::model::Model, code: &str) -> Vec<crate::diagnostic::Diagnostic> {
        let selection = crate::rules::RuleSelection {
            only: Some(vec!["rejected-request".to_string()]),
            ..Default::default()
        };
        let file = crate::source::SourceFile::new("src/orders.rs", code);
        crate::rules::test_support::analyze(m, &[file], &selection)
    }

    /// Applies the finding's fix and checks the result is clean.
    fn fixed_is_clean(
        m: &crate::model::Model,
        code: &str,
        d: &crate::diagnostic::Diagnostic,
    ) -> String {
        let fixed = apply(code, d.fix.as_ref().expect("a fix"));
        let after = check(m, &fixed);
        assert!(after.is_empty(), "{fixed}\n{after:#?}");
        fixed
    }

    #[test]
    fn the_unused_placeholder_fix_removes_its_setter() {
        let m = model(ORDERS);
        let code = r##"
async fn recent(client: &Client, customer: &str) -> Result<(), Error> {
    let out = client
        .query()
        .table_name("Orders")
        .key_condition_expression("CustomerId = :c")
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
        .expression_attribute_values(":limit", AttributeValue::N("10".into()))
        .expression_attribute_names("#unused", "Seq")
        .send()
        .await?;
    Ok(())
}
"##;
        let got = check(&m, code);
        assert_eq!(got.len(), 1, "{got:#?}");
        // Names are checked first: `#unused` is removed, then `:limit`.
        assert!(got[0].message.contains("ExpressionAttributeNames unused"));
        let once = apply(code, got[0].fix.as_ref().expect("a fix"));
        let got = check(&m, &once);
        assert_eq!(got.len(), 1, "{once}\n{got:#?}");
        let fixed = fixed_is_clean(&m, &once, &got[0]);
        assert!(fixed.contains(
            ".expression_attribute_values(\":c\", AttributeValue::S(customer.to_string()))\n        .send()"
        ), "{fixed}");
    }

    #[test]
    fn no_removal_fix_for_a_whole_map_or_a_branch() {
        let m = model(ORDERS);
        let code = r##"
async fn recent(client: &Client, customer: &str, strict: bool) -> Result<(), Error> {
    let values = HashMap::from([
        (":c".to_string(), AttributeValue::S(customer.to_string())),
        (":x".to_string(), AttributeValue::S("x".into())),
    ]);
    let out = client
        .query()
        .table_name("Orders")
        .key_condition_expression("CustomerId = :c")
        .set_expression_attribute_values(Some(values))
        .send()
        .await?;
    Ok(())
}
"##;
        let got = check(&m, code);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(got[0].message.contains("keys: {:x}"), "{got:#?}");
        assert!(got[0].fix.is_none());
    }

    #[test]
    fn consistent_read_on_a_gsi_points_at_the_setter_and_removes_it() {
        let m = model(ORDERS);
        let code = r##"
async fn by_status(client: &Client) -> Result<(), Error> {
    let out = client
        .query()
        .table_name("Orders")
        .index_name("ByStatus")
        .key_condition_expression("#s = :s")
        .consistent_read(true)
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":s", AttributeValue::S("OPEN".into()))
        .send()
        .await?;
    Ok(())
}
"##;
        let got = check(&m, code);
        assert_eq!(got.len(), 1, "{got:#?}");
        let d = &got[0];
        assert_eq!(&code[d.location.span.range()], "consistent_read(true)");
        assert_eq!(
            &code[d.labels[0].location.span.range()],
            "\"ByStatus\"",
            "{d:#?}"
        );
        let fixed = fixed_is_clean(&m, code, d);
        assert!(!fixed.contains("consistent_read"), "{fixed}");
        // A computed flag: no fix (the engine does not know it is true anyway).
        let computed = code.replace("consistent_read(true)", "consistent_read(strong)");
        assert!(check(&m, &computed).iter().all(|d| d.fix.is_none()));
    }

    /// A filter built by another crate's types (`dynamodb-expression`): the scanner
    /// keeps its names and values but not its text, so nothing is judged, whether the
    /// table is known or not.
    #[test]
    fn an_expression_the_scanner_could_not_read_makes_the_request_unknown() {
        let m = model(ORDERS);
        for table in ["\"Orders\"", "std::env::var(\"T\")?"] {
            let code = format!(
                r##"
async fn adults(client: &Client) -> Result<(), Error> {{
    client
        .scan()
        .table_name({table})
        .filter_expression("#age".parse::<Path>()?.greater_than_or_equal(Ref::new("min")))
        .expression_attribute_names("#age", "age")
        .expression_attribute_values(":min", AttributeValue::N("18".into()))
        .send()
        .await?;
    Ok(())
}}
"##
            );
            let d = check(&m, &code);
            assert!(d.is_empty(), "{table}: {d:#?}");
        }
    }

    /// A query whose filter is set only when `since` is given; `defs` are the setter
    /// calls of the placeholders, placed by the caller.
    fn optional_filter(before: &str, inside: &str) -> String {
        format!(
            r##"
async fn recent(client: &Client, customer: &str, since: Option<i64>) -> Result<(), Error> {{
    let mut q = client
        .query()
        .table_name("Orders")
        .key_condition_expression("CustomerId = :c")
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string())){before};
    if let Some(since) = since {{
        q = q{inside};
    }}
    let out = q.send().await?;
    Ok(())
}}
"##
        )
    }

    const FILTER: &str = "\n            .filter_expression(\"Seq > :since\")";
    const VALUE: &str =
        "\n            .expression_attribute_values(\":since\", AttributeValue::N(since.to_string()))";

    #[test]
    fn a_placeholder_defined_always_but_used_on_one_path_is_unused_on_the_other() {
        let m = model(ORDERS);
        let code = optional_filter(VALUE, FILTER);
        let got = check(&m, &code);
        assert_eq!(got.len(), 1, "{got:#?}");
        let d = &got[0];
        assert!(
            d.message.contains(
                "is rejected on the paths that skip `.filter_expression(..)`: ValidationException \"Value provided in ExpressionAttributeValues unused in expressions: keys: {:since}\""
            ),
            "{}",
            d.message
        );
        assert_eq!(
            &code[d.location.span.range()],
            "AttributeValue::N(since.to_string())"
        );
        assert_eq!(
            &code[d.labels[0].location.span.range()],
            "filter_expression(\"Seq > :since\")"
        );
        assert!(d.fix.is_none());
    }

    #[test]
    fn a_placeholder_defined_on_one_path_but_used_always_is_undefined_on_the_other() {
        let m = model(ORDERS);
        let code = optional_filter(FILTER, VALUE);
        let got = check(&m, &code);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(
            got[0]
                .message
                .contains("on the paths that skip `.expression_attribute_values(..)`")
                && got[0].message.contains("attribute value: :since"),
            "{}",
            got[0].message
        );
    }

    #[test]
    fn placeholders_set_with_their_expression_are_fine() {
        let m = model(ORDERS);
        // Chained in the same branch: they run together.
        let both = format!("{FILTER}{VALUE}");
        assert!(check(&m, &optional_filter("", &both)).is_empty());
        // In two statements of the branch: not known to run together, not reported.
        let split = optional_filter("", FILTER).replace(
            "        q = q\n            .filter_expression(\"Seq > :since\");",
            &format!("        q = q{FILTER};\n        q = q{VALUE};"),
        );
        assert!(
            split.contains("q = q\n            .expression_attribute_values"),
            "{split}"
        );
        assert!(check(&m, &split).is_empty(), "{split}");
        // A filter on both branches: each path has one; the IR has no single text.
        let branches = optional_filter(VALUE, FILTER).replace(
            "    }\n    let out",
            "    } else {\n        q = q.filter_expression(\"Seq > :since\");\n    }\n    let out",
        );
        assert!(check(&m, &branches).is_empty(), "{branches}");
    }

    #[test]
    fn an_empty_index_key_is_reported_once_by_missing_sparse_attribute() {
        let m = model(ORDERS);
        let selection = crate::rules::RuleSelection {
            only: Some(vec![
                "rejected-request".to_string(),
                "missing-sparse-attribute".to_string(),
            ]),
            ..Default::default()
        };
        for (write, owner) in [
            // `Status` keys the GSI `ByStatus`: an empty one is the sparse rule's.
            (
                r#".put_item().table_name("Orders").item("CustomerId", AttributeValue::S(c.into())).item("OrderDate", AttributeValue::S(d.into())).item("Status", AttributeValue::S("".into()))"#,
                "missing-sparse-attribute",
            ),
            (
                r##".update_item().table_name("Orders").key("CustomerId", AttributeValue::S(c.into())).key("OrderDate", AttributeValue::S(d.into())).update_expression("SET #s = :s").expression_attribute_names("#s", "Status").expression_attribute_values(":s", AttributeValue::S("".into()))"##,
                "missing-sparse-attribute",
            ),
            // A table key is required: this rule's.
            (
                r#".put_item().table_name("Orders").item("CustomerId", AttributeValue::S(c.into())).item("OrderDate", AttributeValue::S("".into()))"#,
                "rejected-request",
            ),
        ] {
            let code = format!(
                "async fn save(client: &Client, c: &str, d: &str) -> Result<(), Error> {{\n    client{write}.send().await?;\n    Ok(())\n}}\n"
            );
            let file = crate::source::SourceFile::new("src/orders.rs", code.clone());
            let got = crate::rules::test_support::analyze(&m, &[file], &selection);
            let rules: Vec<&str> = got.iter().map(|d| d.rule).collect();
            assert_eq!(rules, vec![owner], "{code}\n{got:#?}");
            assert_eq!(got[0].severity, crate::diagnostic::Severity::Error);
        }
    }

    #[test]
    fn a_key_attribute_is_named_by_the_message_only_as_a_whole_word() {
        let key_mismatch = "The provided key element does not match the schema";
        assert!(!super::names_word(key_mismatch, "id"));
        assert!(!super::names_word(key_mismatch, "element_id"));
        let mismatch = "One or more parameter values were invalid: Type mismatch for key id expected: S actual: N";
        assert!(super::names_word(mismatch, "id"));
        assert!(super::names_word(mismatch, "S"));
        assert!(!super::names_word(mismatch, ""));
    }
}
