//! An operation's condition expressions as rules read them: parsed from the static
//! text the scanner found, split into the top-level `AND` terms an index key could
//! serve (with `#names` resolved), and with spans mapped from the expression string
//! into the source file.

use indexmap::IndexMap;

use crate::expr::{self, Comparator, Condition, ExprError, ExprKind, Function, Operand, Path};
use crate::expr::{PathElement, ValueRef};
use crate::scanner::{ExprArg, NameArg};
use crate::source::Span;

/// What a key-servable term does to its attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermOp {
    /// `a = :v`.
    Eq,
    /// `a < :v`, `a >= :v`, ...: the comparator with the attribute on the left.
    Range(Comparator),
    /// `a BETWEEN :lo AND :hi`.
    Between,
    /// `begins_with(a, :prefix)`.
    BeginsWith,
}

impl TermOp {
    /// True for `=`: the only operator a partition key accepts.
    pub fn is_eq(self) -> bool {
        self == TermOp::Eq
    }

    /// How the term reads in a message: `=`, `<`, `BETWEEN`, `begins_with`.
    pub fn label(self) -> &'static str {
        match self {
            TermOp::Eq => "=",
            TermOp::Range(c) => c.as_str(),
            TermOp::Between => "BETWEEN",
            TermOp::BeginsWith => "begins_with",
        }
    }
}

/// One top-level `AND` term of a condition that compares a top-level attribute with
/// value placeholders: the shape a key condition could take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The attribute, with its `#name` resolved.
    pub attr: String,
    pub op: TermOp,
    /// The `:value` placeholders on the other side, in order.
    pub values: Vec<String>,
    /// The term's byte range in the expression string.
    pub span: Span,
    /// The attribute path's byte range in the expression string.
    pub attr_span: Span,
}

/// The top-level `AND` terms of a condition, and whether anything else is in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    pub terms: Vec<Term>,
    /// True when some top-level term is not key-servable (`OR`, `NOT`, `<>`, `IN`,
    /// `contains`, `size()`, a nested path or an unresolved `#name`).
    pub has_other: bool,
}

/// Parses an expression argument when its text is known statically; `None` otherwise
/// (a `format!` template, a value from elsewhere).
pub fn parse_condition_arg(arg: &ExprArg, kind: ExprKind) -> Option<Result<Condition, ExprError>> {
    let text = arg.text.value()?;
    Some(expr::parse_condition(text, kind))
}

/// Maps a byte range of the expression string to the file: exact when the argument is
/// a string literal, else the whole argument.
pub fn file_span(arg: &ExprArg, span: Span) -> Span {
    match arg.literal_start {
        Some(start) if literal_is_verbatim(arg) => Span::new(start + span.start, start + span.end),
        _ => arg.span,
    }
}

/// A literal maps byte for byte only when its content is exactly the resolved text:
/// `"..."` with no escapes inside (one quote each side) or a raw `r#"..."#` (the
/// closing run one shorter than the opening `r#"`).
fn literal_is_verbatim(arg: &ExprArg) -> bool {
    let (Some(start), Some(text)) = (arg.literal_start, arg.text.value()) else {
        return false;
    };
    let Some(lead) = start.checked_sub(arg.span.start) else {
        return false;
    };
    let Some(trail) = arg.span.end.checked_sub(start + text.len()) else {
        return false;
    };
    (lead == 1 && trail == 1) || (lead >= 2 && trail == lead - 1)
}

/// Splits `cond` into its top-level `AND` terms, resolving `#names` through `names`.
pub fn and_terms(cond: &Condition, names: &IndexMap<String, NameArg>) -> Terms {
    let mut out = Terms::default();
    collect(cond, names, &mut out);
    out
}

fn collect(cond: &Condition, names: &IndexMap<String, NameArg>, out: &mut Terms) {
    match cond {
        Condition::And { left, right, .. } => {
            collect(left, names, out);
            collect(right, names, out);
        }
        other => match term(other, names) {
            Some(t) => out.terms.push(t),
            None => out.has_other = true,
        },
    }
}

fn term(cond: &Condition, names: &IndexMap<String, NameArg>) -> Option<Term> {
    let (path, op, values): (&Path, TermOp, Vec<&ValueRef>) = match cond {
        Condition::Compare {
            left, op, right, ..
        } => match (left, right) {
            (Operand::Path(p), Operand::Value(v)) => (p, compare_op(*op)?, vec![v]),
            (Operand::Value(v), Operand::Path(p)) => (p, compare_op(op.flipped())?, vec![v]),
            _ => return None,
        },
        Condition::Between {
            operand: Operand::Path(p),
            low: Operand::Value(lo),
            high: Operand::Value(hi),
            ..
        } => (p, TermOp::Between, vec![lo, hi]),
        Condition::Function {
            function: Function::BeginsWith(Operand::Path(p), Operand::Value(v)),
            ..
        } => (p, TermOp::BeginsWith, vec![v]),
        _ => return None,
    };
    Some(Term {
        attr: top_level_name(path, names)?,
        op,
        values: values.into_iter().map(|v| v.name.clone()).collect(),
        span: cond.span(),
        attr_span: path.span,
    })
}

fn compare_op(c: Comparator) -> Option<TermOp> {
    match c {
        Comparator::Eq => Some(TermOp::Eq),
        Comparator::Ne => None,
        other => Some(TermOp::Range(other)),
    }
}

/// The attribute a single-element path names, resolving a `#name`; `None` for nested
/// paths (never a key) and names the scanner could not resolve.
pub fn top_level_name(path: &Path, names: &IndexMap<String, NameArg>) -> Option<String> {
    if !path.is_top_level() {
        return None;
    }
    match path.elements.first()? {
        PathElement::Attr(a) => Some(a.clone()),
        PathElement::Name(n) => names.get(n)?.name.value().map(str::to_string),
        PathElement::Index(_) => None,
    }
}

/// The top-level attribute a path starts from (`a` of `a.b[0]`), resolving a `#name`;
/// `None` when its `#name` is not resolved.
pub fn root_name(path: &Path, names: &IndexMap<String, NameArg>) -> Option<String> {
    match path.elements.first()? {
        PathElement::Attr(a) => Some(a.clone()),
        PathElement::Name(n) => names.get(n)?.name.value().map(str::to_string),
        PathElement::Index(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::Resolved;

    fn names(pairs: &[(&str, &str)]) -> IndexMap<String, NameArg> {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    NameArg {
                        name: Resolved::literal(*v),
                        span: Span::default(),
                        conditional: false,
                    },
                )
            })
            .collect()
    }

    fn terms(src: &str, n: &[(&str, &str)]) -> Terms {
        let cond = expr::parse_condition(src, ExprKind::Filter).unwrap();
        and_terms(&cond, &names(n))
    }

    #[test]
    fn splits_top_level_and_and_resolves_names() {
        let t = terms(
            "#s = :s AND OrderDate BETWEEN :a AND :b AND begins_with(sk, :p)",
            &[("#s", "Status")],
        );
        assert!(!t.has_other);
        let got: Vec<(&str, TermOp, usize)> = t
            .terms
            .iter()
            .map(|t| (t.attr.as_str(), t.op, t.values.len()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Status", TermOp::Eq, 1),
                ("OrderDate", TermOp::Between, 2),
                ("sk", TermOp::BeginsWith, 1)
            ]
        );
        assert_eq!(t.terms[0].span, Span::new(0, 7));
    }

    #[test]
    fn flips_value_on_the_left_and_skips_what_no_key_serves() {
        let t = terms(":d < created AND price <> :p", &[]);
        assert_eq!(t.terms.len(), 1);
        assert_eq!(t.terms[0].op, TermOp::Range(Comparator::Gt));
        assert!(t.has_other);
        for src in [
            "a = :a OR b = :b",
            "NOT a = :a",
            "contains(title, :t)",
            "a.b = :v",
            "#unknown = :v",
            "a IN (:x, :y)",
            "size(a) > :n",
        ] {
            let t = terms(src, &[]);
            assert!(t.terms.is_empty() && t.has_other, "{src}");
        }
    }

    #[test]
    fn maps_spans_into_the_file_only_for_verbatim_literals() {
        let arg = ExprArg {
            text: Resolved::literal("a = :v"),
            span: Span::new(10, 18),
            literal_start: Some(11),
            conditional: false,
            paths: Box::default(),
        };
        assert_eq!(file_span(&arg, Span::new(4, 6)), Span::new(15, 17));
        let templ = ExprArg {
            literal_start: None,
            ..arg.clone()
        };
        assert_eq!(file_span(&templ, Span::new(4, 6)), Span::new(10, 18));
        // A literal with an escape inside is longer than its text: no byte mapping.
        let escaped = ExprArg {
            span: Span::new(10, 19),
            ..arg.clone()
        };
        assert_eq!(file_span(&escaped, Span::new(4, 6)), Span::new(10, 19));
        // r#"a = :v"#
        let raw = ExprArg {
            span: Span::new(10, 21),
            literal_start: Some(13),
            ..arg
        };
        assert_eq!(file_span(&raw, Span::new(4, 6)), Span::new(17, 19));
    }
}
