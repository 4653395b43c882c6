//! An [`Operation`] as a DynamoDB request: its expressions with the source arguments
//! they came from, its `ExpressionAttributeNames`/`Values` as the expression checks
//! take them, and where in the source a request-level error belongs.
//!
//! Unknowns stay unknown: an expression whose text the scanner could not resolve makes
//! the whole request unknown ([`static_exprs`] is `None`), because its placeholders
//! could make any "unused" or "undefined" verdict wrong.

use crate::expr::{self, Ast, ErrorCode, ExprError, ExprKind, Limits, Names};
use crate::scanner::{ExprArg, OpKind, Operation};
use crate::source::Span;

use super::conditions::file_span;

/// One expression of a request: its kind, the source argument and its text.
#[derive(Debug, Clone, Copy)]
pub struct RequestExpr<'a> {
    pub kind: ExprKind,
    pub arg: &'a ExprArg,
    pub text: &'a str,
}

/// The request's expressions, in parameter order; `None` when one of them is not
/// known statically.
pub fn static_exprs(op: &Operation) -> Option<Vec<RequestExpr<'_>>> {
    let slots = [
        (ExprKind::KeyCondition, &op.key_condition),
        (ExprKind::Filter, &op.filter),
        (ExprKind::Condition, &op.condition),
        (ExprKind::Projection, &op.projection),
        (ExprKind::Update, &op.update),
    ];
    let mut out = Vec::new();
    for (kind, arg) in slots {
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
        if let Some(e) = static_exprs(op)
            .unwrap_or_default()
            .into_iter()
            .find(|e| e.kind == kind)
        {
            return file_span(e.arg, err.span);
        }
    }
    match err.code {
        ErrorCode::UnusedNames | ErrorCode::UnusedValues => {
            placeholder_in(&err.message, op).unwrap_or(op.method_span)
        }
        _ => op.method_span,
    }
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
        op.filter = Some(ExprArg {
            text: Resolved::literal(filter),
            span: Span::new(50, 52 + filter.len()),
            literal_start: Some(51),
            conditional: false,
        });
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
