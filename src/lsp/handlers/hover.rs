//! `textDocument/hover`: a rule's doc page on a rule id inside an allow comment; the
//! target, key schema, projection and cost of a DynamoDB call.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Range};
use serde_json::Value;

use crate::analysis::suppress::parse_allows;
use crate::facts::bind;
use crate::lsp::session::{HandlerResult, Session};
use crate::lsp::{convert, describe};
use crate::rules;
use crate::scanner::Operation;
use crate::source::{SourceFile, Span};

/// Answers a hover, or `null` when there is nothing to say at that position.
pub fn handle(s: &mut Session, p: HoverParams) -> HandlerResult {
    let at = p.text_document_position_params;
    let (path, config) = s.locate(&at.text_document.uri)?;
    if super::is_config(&path) {
        return Ok(Value::Null);
    }
    // Allow comments need no analysis: answer from the editor's text.
    if let Some(doc) = s.docs.get(&path) {
        let offset = convert::offset(&doc.file, at.position);
        if let Some(h) = rule_hover(&doc.file, offset) {
            return Ok(serde_json::to_value(h).unwrap_or(Value::Null));
        }
    }
    // The last finished analysis (the message loop held this request while the
    // project had changes no analysis had started on).
    let Some((snap, Some(model))) = s.view(&config) else {
        return Ok(Value::Null);
    };
    let Some(file) = snap.file(&path) else {
        return Ok(Value::Null);
    };
    let offset = convert::offset(file, at.position);
    if !s.docs.contains_key(&path) {
        if let Some(h) = rule_hover(file, offset) {
            return Ok(serde_json::to_value(h).unwrap_or(Value::Null));
        }
    }
    let Some(op) = operation_at(&snap.analysis.operations, file, offset) else {
        return Ok(Value::Null);
    };
    let text = describe::operation(model, &bind(model, op));
    Ok(
        serde_json::to_value(markdown(text, convert::range(file, op.method_span)))
            .unwrap_or(Value::Null),
    )
}

fn markdown(value: String, range: Range) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    }
}

/// The doc page of the rule id under `offset` in a `dynalint: allow(..)` comment.
fn rule_hover(file: &SourceFile, offset: usize) -> Option<Hover> {
    let (id, span) = parse_allows(file)
        .into_iter()
        .flat_map(|a| a.rules)
        .find(|(_, span)| span.start <= offset && offset <= span.end)?;
    let text = match rules::find(&id) {
        Some(rule) => rule.meta().doc.to_string(),
        None if id == rules::UNUSED_ALLOW => format!(
            "# {id}\n\nReported by dynalint itself when an `allow(..)` comment suppresses \
             nothing. Allowing it keeps a deliberate, currently unused allow quiet."
        ),
        None => {
            let close = rules::REGISTRY
                .iter()
                .map(|r| r.meta().id)
                .filter(|known| strsim::jaro_winkler(known, &id) > 0.8)
                .map(|known| format!("`{known}`"))
                .collect::<Vec<_>>();
            let hint = if close.is_empty() {
                String::new()
            } else {
                format!(" Did you mean {}?", close.join(" or "))
            };
            format!("`{id}` is not a dynalint rule.{hint}")
        }
    };
    Some(markdown(text, convert::range(file, span)))
}

/// The innermost call (a batch's child before the batch) whose span holds `offset`.
fn operation_at<'a>(
    ops: &'a [Operation],
    file: &SourceFile,
    offset: usize,
) -> Option<&'a Operation> {
    let mut best: Option<&Operation> = None;
    let mut stack: Vec<&Operation> = ops.iter().collect();
    while let Some(op) = stack.pop() {
        stack.extend(op.children.iter());
        if op.file != file.path || !contains(op.span, offset) {
            continue;
        }
        if best.is_none_or(|b| op.span.end - op.span.start < b.span.end - b.span.start) {
            best = Some(op);
        }
    }
    best
}

fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}
