//! Unit-test helpers for rules: operations built by hand (as the scanner would emit
//! them) and one call that runs a single rule over them against a TOML model.

use std::path::Path;
use std::sync::Arc;

use crate::analysis::{self, run_rules, Input};
use crate::attr::AttributeType;
use crate::diagnostic::Diagnostic;
use crate::model::Model;
use crate::scanner::{
    AttrArg, AttrMap, ExprArg, LoopInfo, NameArg, OpKind, Operation, Provenance, Resolved,
    ValueInfo,
};
use crate::source::{SourceFile, Span};

use super::RuleSelection;

/// Scans `files` and analyses them as `check` does (every rule the selection keeps,
/// allow comments applied): a rule's findings on real code.
pub fn analyze(model: &Model, files: &[SourceFile], selection: &RuleSelection) -> Vec<Diagnostic> {
    let scanned = crate::scanner::scan(files, &crate::scanner::ScanSettings::from_model(model));
    analysis::analyze(Input::new(model, files, selection), scanned, None).diagnostics
}

/// Builds an [`Operation`] the way the scanner fills one in.
pub struct Op(pub Operation);

impl Op {
    pub fn new(kind: OpKind, table: &str) -> Self {
        let mut op = Operation::new(kind, Path::new("src/lib.rs").into(), Span::new(0, 10));
        op.method_span = Span::new(0, 6);
        op.table = Some(Resolved::literal(table));
        Self(op)
    }

    pub fn index(mut self, name: &str) -> Self {
        self.0.index = Some(Resolved::literal(name));
        self
    }

    fn arg(text: &str, at: usize) -> ExprArg {
        ExprArg {
            text: Resolved::literal(text),
            span: Span::new(at, at + text.len() + 2),
            literal_start: Some(at + 1),
            conditional: false,
            paths: Box::default(),
        }
    }

    pub fn key(mut self, text: &str) -> Self {
        self.0.key_condition = Some(Box::new(Self::arg(text, 100)));
        self
    }

    /// The filter's literal starts at byte 201 of the file.
    pub fn filter(mut self, text: &str) -> Self {
        self.0.filter = Some(Box::new(Self::arg(text, 200)));
        self
    }

    pub fn name(mut self, placeholder: &str, attr: &str) -> Self {
        self.0.names.insert(
            placeholder.to_string(),
            NameArg {
                name: Resolved::literal(attr),
                span: Span::default(),
                conditional: false,
            },
        );
        self
    }

    /// A `:value`; `literal` when the code writes it inline.
    pub fn value(mut self, placeholder: &str, literal: Option<&str>) -> Self {
        let mut v = ValueInfo::unknown(Span::default());
        v.literal = literal.map(str::to_string);
        self.0.values.insert(placeholder.to_string(), v);
        self
    }

    pub fn limit(mut self, n: &str) -> Self {
        let mut v = ValueInfo::unknown(Span::new(300, 300 + n.len()));
        v.literal = Some(n.to_string());
        self.0.limit = Some(Box::new(v));
        self
    }

    pub fn paginated(mut self) -> Self {
        self.0.paginated = true;
        self
    }
}

/// Loads a model from TOML text (panics on a bad model: tests only).
pub use crate::test_models::load as model;

/// Runs only rule `id` over `ops`.
pub fn run(id: &str, model: &Model, ops: &[Op]) -> Vec<Diagnostic> {
    let ops: Vec<Operation> = ops.iter().map(|o| o.0.clone()).collect();
    let selection = RuleSelection {
        only: Some(vec![id.to_string()]),
        ..Default::default()
    };
    run_rules(model, &ops, &selection)
}

/// Runs only rule `id` over operations built as plain IR.
pub fn run_ops(model: &Model, id: &str, ops: &[Operation]) -> Vec<Diagnostic> {
    let selection = RuleSelection {
        only: Some(vec![id.to_string()]),
        ..Default::default()
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
        serde_at: None,
    }
}

/// An expression argument with literal text.
pub fn expr(text: &str) -> ExprArg {
    ExprArg {
        text: Resolved::literal(text),
        span: Span::new(0, 1),
        literal_start: None,
        conditional: false,
        paths: Box::default(),
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
        caller: None,
        elements: None,
    });
}

/// The (rule, span start) of each diagnostic, for compact assertions.
pub fn starts(d: &[Diagnostic]) -> Vec<usize> {
    d.iter().map(|d| d.location.span.start).collect()
}
