//! Builders for rule unit tests: a model from TOML text and Operations written as IR,
//! so a rule's logic is tested on exactly the shapes the scanner hands it.

use std::path::Path;
use std::sync::Arc;

use crate::analysis::run_rules;
use crate::attr::AttributeType;
use crate::model::{load_str, Model};
use crate::report::Diagnostic;
use crate::scanner::{
    AttrArg, AttrMap, ExprArg, LoopInfo, NameArg, OpKind, Operation, Provenance, Resolved,
    ValueInfo,
};
use crate::source::Span;

use super::RuleSelection;

/// Loads a model, panicking with its problems.
pub fn model(toml: &str) -> Model {
    load_str(Path::new("dynalint.toml"), toml).unwrap_or_else(|p| panic!("bad model: {p:?}"))
}

/// Runs one rule over the model and operations.
pub fn run(model: &Model, rule: &str, ops: &[Operation]) -> Vec<Diagnostic> {
    let selection = RuleSelection {
        only: Some(vec![rule.to_string()]),
    };
    run_rules(model, ops, &selection)
}

/// An operation on a table named by a literal.
pub fn op(kind: OpKind, table: &str) -> Operation {
    let mut o = Operation::new(kind, Arc::from(Path::new("src/app.rs")), Span::new(0, 10));
    o.table = Some(Resolved::literal(table));
    o
}

/// A value with a provenance, at `at`.
pub fn val(provenance: Provenance, at: usize) -> ValueInfo {
    ValueInfo {
        provenance,
        ty: Some(AttributeType::S),
        ..ValueInfo::unknown(Span::new(at, at + 1))
    }
}

/// A literal string value at `at`.
pub fn lit(text: &str, at: usize) -> ValueInfo {
    ValueInfo {
        literal: Some(text.to_string()),
        text: Some(Resolved::literal(text)),
        ..val(Provenance::Literal, at)
    }
}

/// A `format!` template value made of `parts`.
pub fn template(text: &str, parts: Vec<ValueInfo>, at: usize) -> ValueInfo {
    ValueInfo {
        text: Some(Resolved::Template {
            template: text.to_string(),
        }),
        parts,
        ..val(Provenance::Unknown, at)
    }
}

/// A complete item or key map.
pub fn map(attrs: Vec<(&str, ValueInfo)>) -> AttrMap {
    AttrMap {
        attributes: attrs
            .into_iter()
            .map(|(name, value)| AttrArg {
                name: Resolved::literal(name),
                span: value.span,
                value,
                conditional: false,
            })
            .collect(),
        complete: true,
        from_type: None,
    }
}

/// An expression argument with literal text.
pub fn expr(text: &str) -> ExprArg {
    ExprArg {
        text: Resolved::literal(text),
        span: Span::new(0, 1),
        literal_start: None,
        conditional: false,
    }
}

/// Adds `#name` → attribute.
pub fn name(o: &mut Operation, placeholder: &str, attr: &str) {
    o.names.insert(
        placeholder.to_string(),
        NameArg {
            name: Resolved::literal(attr),
            span: Span::new(0, 1),
            conditional: false,
        },
    );
}

/// Puts the operation in a `for` loop.
pub fn in_for_loop(o: &mut Operation) {
    o.context.in_loop = Some(LoopInfo {
        kind: "for".into(),
        span: Span::new(0, 3),
    });
}

/// The (rule, span start) of each diagnostic, for compact assertions.
pub fn starts(d: &[Diagnostic]) -> Vec<usize> {
    d.iter().map(|d| d.location.span.start).collect()
}
