//! An [`Operation`] as a DynamoDB request: its expressions with the source arguments
//! they came from, its `ExpressionAttributeNames`/`Values` as the expression checks
//! take them, and where in the source a request-level error belongs.
//!
//! [`symbolic`] turns a bound operation into the engine's [`SymbolicRequest`] (with the
//! table description from the model) so the engine can say what DynamoDB rejects.
//!
//! Unknowns stay unknown: an expression whose text the scanner could not resolve makes
//! the whole request unknown ([`static_exprs`] is `None`), because its placeholders
//! could make any "unused" or "undefined" verdict wrong; a value known only by type, or
//! not at all, is passed as such and the engine says whether its verdict depends on it.

use std::collections::BTreeMap;

use crate::attr::AttributeType;
use crate::engine::symbolic::{SymbolicOp, SymbolicRequest, SymbolicValue};
use crate::engine::{AttributeValue, Number, TableSchema};
use crate::expr::{self, Ast, ErrorCode, ExprError, ExprKind, Limits, Names};
use crate::scanner::{AttrMap, ExprArg, OpKind, Operation, ValueInfo};
use crate::source::Span;

use super::conditions::file_span;
use super::BoundOperation;

/// The engine's view of a bound operation: the table description and the request.
/// `None` when the call is not one request the engine validates (batches, PartiQL),
/// its table or index is not known statically, or an expression's text is not.
pub fn symbolic(bound: &BoundOperation<'_>) -> Option<(TableSchema, SymbolicRequest)> {
    let op = bound.op;
    // Names or values the scanner could not read make a placeholder verdict a guess:
    // the request is unknown when its first expression error is one.
    if !placeholders_known(op) && raw_check(op).is_some_and(|r| placeholder_error(&r)) {
        return None;
    }
    // A parameter the engine's request does not carry (a legacy `KeyConditions` map
    // set through the SDK's setter, an `Expected`...) is part of the request all the
    // same: a verdict on the request without it ("KeyConditions or
    // KeyConditionExpression must be specified") would be about another request.
    if unfollowed_parameter(op).is_some() {
        return None;
    }
    let table = bound.table?;
    let kind = match op.kind {
        OpKind::Query => SymbolicOp::Query,
        OpKind::Scan => SymbolicOp::Scan,
        OpKind::GetItem => SymbolicOp::GetItem,
        OpKind::PutItem => SymbolicOp::PutItem,
        OpKind::UpdateItem => SymbolicOp::UpdateItem,
        OpKind::DeleteItem => SymbolicOp::DeleteItem,
        OpKind::ConditionCheck => SymbolicOp::ConditionCheck,
        _ => return None,
    };
    let schema = TableSchema::from_model(table);
    let mut req = SymbolicRequest::new(kind);
    if let Some(index) = &op.index {
        // An index name we cannot read could be any index: nothing to judge.
        req.index = Some(index.value()?.to_string());
    }
    for e in static_exprs(op)? {
        let slot = match e.kind {
            ExprKind::KeyCondition => &mut req.key_condition,
            ExprKind::Filter => &mut req.filter,
            ExprKind::Condition => &mut req.condition,
            ExprKind::Projection => &mut req.projection,
            ExprKind::Update => &mut req.update,
        };
        *slot = Some(e.text.to_string());
    }
    req.names = op
        .names
        .iter()
        .map(|(k, v)| (k.clone(), v.name.value().map(str::to_string)))
        .collect();
    req.values = op
        .values
        .iter()
        .map(|(k, v)| (k.clone(), symbolic_value(v)))
        .collect();
    let attrs = match kind {
        SymbolicOp::PutItem => op.item.as_ref(),
        SymbolicOp::GetItem
        | SymbolicOp::UpdateItem
        | SymbolicOp::DeleteItem
        | SymbolicOp::ConditionCheck => op.key.as_ref(),
        SymbolicOp::Query | SymbolicOp::Scan => None,
    };
    if !matches!(kind, SymbolicOp::Query | SymbolicOp::Scan) {
        req.item = item(attrs?, &schema)?;
    }
    req.consistent_read = op.consistent_read;
    req.select = op.select.clone();
    req.limit = op
        .limit
        .as_ref()
        .and_then(|l| l.literal.as_deref())
        .and_then(|l| l.parse().ok());
    Some((schema, req))
}

/// The request parameters the scanner records as setters but does not read into the
/// [`Operation`]: the legacy (pre-expression) parameters. `key_conditions` (a rusoto
/// literal's, or aws-sdk's `key_conditions`/`set_key_conditions`) is read as the key
/// condition it means, unknown when its map is not read (`key_conditions.rs`).
const UNFOLLOWED_PARAMETERS: &[&str] = &[
    "query_filter",
    "scan_filter",
    "expected",
    "attribute_updates",
    "attributes_to_get",
    "conditional_operator",
];

/// The first setter the chain calls whose parameter the scanner does not follow: a
/// verdict on the request depends on what it sets, so none is certain.
pub fn unfollowed_parameter(op: &Operation) -> Option<&crate::scanner::SetterCall> {
    op.setters
        .iter()
        .find(|s| UNFOLLOWED_PARAMETERS.iter().any(|p| s.is(p)))
}

/// An item or key map for the engine. Attributes the scanner could not follow are
/// unknown; a key attribute missing from an incomplete map is added as unknown (it may
/// well be set where the scanner could not see). `None` when an attribute's name is
/// not known: the map could then be anything.
fn item(map: &AttrMap, schema: &TableSchema) -> Option<BTreeMap<String, SymbolicValue>> {
    let mut out = BTreeMap::new();
    for a in &map.attributes {
        out.insert(a.name.value()?.to_string(), symbolic_value(&a.value));
    }
    if !map.complete {
        for k in schema.keys.attributes() {
            out.entry(k.name.clone()).or_insert(SymbolicValue::Unknown);
        }
    }
    Some(out)
}

/// What the engine can know of a value: the value itself when the code writes a
/// literal of a known type, else its type, else nothing.
pub fn symbolic_value(v: &ValueInfo) -> SymbolicValue {
    let Some(ty) = v.ty else {
        return SymbolicValue::Unknown;
    };
    let known = v.literal.as_deref().and_then(|l| match ty {
        AttributeType::S => Some(AttributeValue::S(l.to_string())),
        AttributeType::N => Number::parse(l).ok().map(AttributeValue::N),
        AttributeType::Bool => match l {
            "true" => Some(AttributeValue::Bool(true)),
            "false" => Some(AttributeValue::Bool(false)),
            _ => None,
        },
        AttributeType::Null => Some(AttributeValue::Null),
        _ => None,
    });
    match known {
        Some(v) => SymbolicValue::Known(v),
        None => SymbolicValue::Typed(ty),
    }
}

/// One expression of a request: its kind, the source argument and its text.
#[derive(Debug, Clone, Copy)]
pub struct RequestExpr<'a> {
    pub kind: ExprKind,
    pub arg: &'a ExprArg,
    pub text: &'a str,
}

/// The request's expression slots, in parameter order.
pub fn expression_slots(op: &Operation) -> [(ExprKind, &Option<Box<ExprArg>>); 5] {
    [
        (ExprKind::KeyCondition, &op.key_condition),
        (ExprKind::Filter, &op.filter),
        (ExprKind::Condition, &op.condition),
        (ExprKind::Projection, &op.projection),
        (ExprKind::Update, &op.update),
    ]
}

/// The request's expressions, in parameter order; `None` when one of them is not
/// known statically.
pub fn static_exprs(op: &Operation) -> Option<Vec<RequestExpr<'_>>> {
    // A setter the chain calls whose expression the scanner did not keep (an argument
    // built by another crate's types): the request has an expression nobody knows.
    let setter_of = |kind: ExprKind| match kind {
        ExprKind::KeyCondition => "key_condition_expression",
        ExprKind::Filter => "filter_expression",
        ExprKind::Condition => "condition_expression",
        ExprKind::Projection => "projection_expression",
        ExprKind::Update => "update_expression",
    };
    let mut out = Vec::new();
    for (kind, arg) in expression_slots(op) {
        // (A conditional setter may be absent on the path this request stands for.)
        let set_always = op
            .setters
            .iter()
            .any(|s| s.is(setter_of(kind)) && !s.conditional);
        if arg.is_none() && set_always {
            return None;
        }
        if let Some(arg) = arg {
            out.push(RequestExpr {
                kind,
                arg,
                text: arg.text.value()?,
            });
        }
    }
    Some(out)
}

/// The expressions of the request whose text is known, in parameter order (all of
/// them, or some when [`static_exprs`] is `None`).
pub fn known_exprs(op: &Operation) -> Vec<RequestExpr<'_>> {
    expression_slots(op)
        .into_iter()
        .filter_map(|(kind, arg)| {
            let arg = arg.as_deref()?;
            Some(RequestExpr {
                kind,
                arg,
                text: arg.text.value()?,
            })
        })
        .collect()
}

/// A placeholder one of the request's known expressions uses and its maps, read
/// whole, do not define, when another expression is not known statically (which makes
/// [`check_exprs`] `None`): the unknown one can use placeholders but define none, so
/// DynamoDB rejects the request whatever it holds (it may name that one's own error
/// first). Only an expression set on every path counts, and the maps are the union of
/// every path's entries (an `insert` in an `if` included): a placeholder no path
/// defines is undefined on each path that sends the expression.
pub fn undefined_beside_unknown(op: &Operation) -> Option<ExprError> {
    if !placeholders_known(op) || static_exprs(op).is_some() {
        return None;
    }
    let known = known_exprs(op);
    let pairs: Vec<(ExprKind, &str)> = known
        .iter()
        .filter(|e| !e.arg.conditional)
        .map(|e| (e.kind, e.text))
        .collect();
    let value_keys: Vec<&str> = if takes_values(op.kind) {
        op.values.keys().map(String::as_str).collect()
    } else {
        Vec::new()
    };
    expr::first_undefined(&pairs, &names(op), &value_keys, &Limits::DYNAMODB)
}

/// The request's `ExpressionAttributeNames`; a name the scanner could not resolve is
/// provided-but-unknown.
pub fn names(op: &Operation) -> Names {
    let mut names = Names::new();
    for (k, v) in &op.names {
        names.insert(k.clone(), v.name.value().map(str::to_string));
    }
    names
}

/// Whether the API has an `ExpressionAttributeValues` parameter (GetItem and
/// BatchGetItem have none).
pub fn takes_values(kind: OpKind) -> bool {
    !matches!(
        kind,
        OpKind::GetItem | OpKind::BatchGetItem | OpKind::TransactGetItems
    )
}

/// Runs DynamoDB's request-level expression checks (syntax, reserved words, undefined
/// and unused placeholders, overlapping paths) in DynamoDB's order; `None` when the
/// request is not known statically.
pub fn check_exprs(op: &Operation) -> Option<Result<Vec<(ExprKind, Ast)>, ExprError>> {
    let checked = raw_check(op)?;
    if !placeholders_known(op) && placeholder_error(&checked) {
        return None;
    }
    Some(checked)
}

/// An undefined or unused `#name`/`:value`: what maps the scanner could not read make
/// uncertain.
fn placeholder_error(checked: &Result<Vec<(ExprKind, Ast)>, ExprError>) -> bool {
    checked.as_ref().err().is_some_and(|e| {
        matches!(
            e.code,
            ErrorCode::UndefinedName
                | ErrorCode::UndefinedValue
                | ErrorCode::UnusedNames
                | ErrorCode::UnusedValues
        )
    })
}

/// Whether every `#name` and `:value` key of the request is known (see
/// [`Operation::names_complete`]).
fn placeholders_known(op: &Operation) -> bool {
    op.names_complete && op.values_complete
}

/// [`check_exprs`] with the names and values the scanner read, all of them or not.
fn raw_check(op: &Operation) -> Option<Result<Vec<(ExprKind, Ast)>, ExprError>> {
    let exprs = static_exprs(op)?;
    let pairs: Vec<(ExprKind, &str)> = exprs.iter().map(|e| (e.kind, e.text)).collect();
    let names = names(op);
    let value_keys: Vec<&str> = op.values.keys().map(String::as_str).collect();
    let names = (!op.names.is_empty()).then_some(&names);
    let values = (takes_values(op.kind) && !op.values.is_empty()).then_some(value_keys.as_slice());
    Some(expr::check_request(
        &pairs,
        names,
        values,
        &Limits::DYNAMODB,
    ))
}

/// Where an expression error belongs in the source: the offending bytes of the
/// expression literal, or for request-level errors the first placeholder the message
/// names (its `expression_attribute_*` argument), else the call.
pub fn locate(op: &Operation, err: &ExprError) -> Span {
    if let Some(kind) = err.expr {
        if let Some(e) = known_exprs(op).into_iter().find(|e| e.kind == kind) {
            return file_span(e.arg, err.span);
        }
    }
    match err.code {
        ErrorCode::UnusedNames | ErrorCode::UnusedValues => {
            placeholder_in(&err.message, op).unwrap_or(op.method_span)
        }
        ErrorCode::InvalidPlaceholderMap => invalid_key(&err.message, op).unwrap_or(op.method_span),
        _ => op.method_span,
    }
}

/// The pair setter (or else the value) of the key that `... contains invalid key:
/// Syntax error; key: "k"` names.
fn invalid_key(message: &str, op: &Operation) -> Option<Span> {
    let key = message.split_once("; key: \"")?.1.strip_suffix('"')?;
    if let Some(s) = op.setters.iter().find(|s| s.key.as_deref() == Some(key)) {
        return Some(s.span);
    }
    op.names
        .get(key)
        .map(|n| n.span)
        .or_else(|| op.values.get(key).map(|v| v.span))
}

/// The span of the first `#name`/`:value` of the request that `message` mentions as
/// a whole word.
fn placeholder_in(message: &str, op: &Operation) -> Option<Span> {
    let mentions = |p: &str| {
        message.match_indices(p).any(|(i, _)| {
            let after = message[i + p.len()..].chars().next();
            !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    op.names
        .iter()
        .find(|(k, _)| mentions(k))
        .map(|(_, v)| v.span)
        .or_else(|| {
            op.values
                .iter()
                .find(|(k, _)| mentions(k))
                .map(|(_, v)| v.span)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{NameArg, Resolved, ValueInfo};
    use std::path::Path;

    fn op(filter: &str) -> Operation {
        let mut op = Operation::new(OpKind::Scan, Path::new("a.rs").into(), Span::new(0, 5));
        op.filter = Some(Box::new(ExprArg {
            text: Resolved::literal(filter),
            span: Span::new(50, 52 + filter.len()),
            literal_start: Some(51),
            conditional: false,
            paths: Box::default(),
        }));
        op
    }

    fn value(op: &mut Operation, k: &str, at: usize) {
        op.values
            .insert(k.to_string(), ValueInfo::unknown(Span::new(at, at + 3)));
    }

    #[test]
    fn reserved_word_points_at_the_word_in_the_literal() {
        let mut o = op("amount > :n AND Status = :s");
        value(&mut o, ":n", 10);
        value(&mut o, ":s", 20);
        let err = check_exprs(&o).unwrap().unwrap_err();
        assert_eq!(err.code, ErrorCode::ReservedKeyword);
        assert_eq!(locate(&o, &err), Span::new(51 + 16, 51 + 22));
    }

    #[test]
    fn unused_value_points_at_its_argument() {
        let mut o = op("a = :a");
        value(&mut o, ":a", 10);
        value(&mut o, ":ab", 30);
        let err = check_exprs(&o).unwrap().unwrap_err();
        assert_eq!(err.code, ErrorCode::UnusedValues, "{err:?}");
        assert_eq!(locate(&o, &err), Span::new(30, 33));
    }

    #[test]
    fn unknown_text_or_names_stay_unknown() {
        let mut o = op("#a = :a");
        o.filter.as_mut().unwrap().text = Resolved::Template {
            template: "{} = :a".into(),
        };
        assert!(check_exprs(&o).is_none());

        let mut o = op("#a = :a");
        value(&mut o, ":a", 10);
        o.names.insert(
            "#a".into(),
            NameArg {
                name: Resolved::unknown("computed"),
                span: Span::default(),
                conditional: false,
            },
        );
        assert!(check_exprs(&o).unwrap().is_ok());
    }
}
