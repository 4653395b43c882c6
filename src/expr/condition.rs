//! The condition grammar: ConditionExpression, FilterExpression and
//! KeyConditionExpression.
//!
//! ```text
//! condition ::= or
//! or        ::= and ( OR and )*                 -- parsed by one loop with `and`
//! and       ::= unary ( AND unary )*
//! unary     ::= NOT unary | '(' or ')' rest? | primary rest?
//! rest      ::= comparator operand | BETWEEN operand AND operand
//!             | IN '(' operand ( ',' operand )* ')'
//! operand   ::= '(' operand ')' | ':value' | path | size '(' operand ')'
//! primary   ::= operand | function '(' operand ( ',' operand )* ')'
//! ```
//! Precedence, highest first: comparisons/BETWEEN/IN/functions, parentheses, NOT, AND,
//! OR (DynamoDB Developer Guide, "Comparison operator and function reference").
//! `(` at the start of a condition may open either a nested condition or a
//! parenthesised operand (`(a) = :v`); the parser reads the group first and decides by
//! what it contained, so it never backtracks.

use super::ast::{Comparator, Condition, Function, Operand, Path, PathElement, ValueRef};
use super::error::{ErrorCode, ExprError, ExprKind};
use super::lexer::TokenKind;
use super::parser::{check_text, Limits, Parser};
use crate::source::Span;

/// Words that are grammar, not attribute names, in this language.
const KEYWORDS: &[&str] = &["AND", "OR", "NOT", "BETWEEN", "IN"];

/// DynamoDB's checking order for semantic errors in a condition (lowest first), as
/// observed by dynalite's tests against DynamoDB.
mod rank {
    pub const PARENS: u8 = 0;
    pub const UNKNOWN_FUNCTION: u8 = 1;
    pub const MISUSED_FUNCTION: u8 = 2;
    pub const RESERVED: u8 = 3;
    pub const OPERAND_COUNT: u8 = 4;
    pub const DISTINCT: u8 = 5;
    pub const REQUIRES_PATH: u8 = 6;
}

/// Parses a condition-grammar expression; `kind` names it in error messages.
pub(crate) fn parse(src: &str, kind: ExprKind, limits: &Limits) -> Result<Condition, ExprError> {
    parse_forgiving(src, kind, limits, &[])
}

/// [`parse`], reading past the semantic errors of the kinds `forgiven`: the tree the
/// expression states, for callers that want what it means rather than its verdict.
pub(crate) fn parse_forgiving(
    src: &str,
    kind: ExprKind,
    limits: &Limits,
    forgiven: &[ErrorCode],
) -> Result<Condition, ExprError> {
    check_text(src, kind, limits)?;
    let mut p = Parser::new(src, kind, limits, KEYWORDS);
    let item = parse_or(&mut p)?;
    p.expect_end()?;
    let cond = into_condition(&mut p, item)?;
    for &code in forgiven {
        p.forgive(code);
    }
    p.finish(cond)
}

/// What a (possibly parenthesised) piece of a condition turned out to be.
enum Item {
    Cond {
        cond: Condition,
        group: bool,
    },
    /// An operand not (yet) compared to anything: legal only inside `( .. )` followed
    /// by a comparator, or as the left side of one.
    Operand {
        operand: Operand,
        group: bool,
    },
}

/// A primary: an operand, a boolean function call, or a call already reported as
/// invalid (usable as either, so one error is not followed by a second).
enum Primary {
    Operand(Operand),
    Bool(Function, Span),
    Invalid(Span),
}

fn placeholder_operand(span: Span) -> Operand {
    Operand::Value(ValueRef {
        name: ":".to_string(),
        span,
    })
}

fn placeholder_condition(span: Span) -> Condition {
    Condition::Function {
        function: Function::AttributeExists(Path {
            elements: vec![PathElement::Attr(String::new())],
            span,
        }),
        span,
    }
}

/// An item used where a condition is required.
fn into_condition(p: &mut Parser<'_>, item: Item) -> Result<Condition, ExprError> {
    match item {
        Item::Cond { cond, .. } => Ok(cond),
        Item::Operand {
            operand: Operand::Size { span, .. },
            ..
        } => {
            // `size(a)` alone is a value, not a condition.
            p.defer(
                rank::MISUSED_FUNCTION,
                ErrorCode::FunctionMisuse,
                span,
                "The function is not allowed to be used this way in an expression; function: size"
                    .to_string(),
            );
            Ok(placeholder_condition(span))
        }
        Item::Operand { .. } => Err(p.syntax_error()),
    }
}

/// `or` and `and` in one loop (AND binds tighter, both associate left), so a
/// parenthesised group costs one frame here rather than one per precedence level.
fn parse_or(p: &mut Parser<'_>) -> Result<Item, ExprError> {
    let first = parse_unary(p)?;
    if !p.at_keyword("AND") && !p.at_keyword("OR") {
        return Ok(first);
    }
    // `ors` holds the OR-chain so far; `term` the AND-chain being built.
    let mut ors: Option<Condition> = None;
    let mut term = into_condition(p, first)?;
    loop {
        let is_and = p.at_keyword("AND");
        if !is_and && !p.at_keyword("OR") {
            break;
        }
        p.count_logical_operator()?;
        p.bump();
        let right = parse_unary(p)?;
        let right = into_condition(p, right)?;
        if is_and {
            let span = term.span().cover(right.span());
            term = Condition::And {
                left: Box::new(term),
                right: Box::new(right),
                span,
            };
        } else {
            let done = std::mem::replace(&mut term, right);
            ors = Some(match ors {
                None => done,
                Some(left) => or(left, done),
            });
        }
    }
    let cond = match ors {
        None => term,
        Some(left) => or(left, term),
    };
    Ok(Item::Cond { cond, group: false })
}

fn or(left: Condition, right: Condition) -> Condition {
    let span = left.span().cover(right.span());
    Condition::Or {
        left: Box::new(left),
        right: Box::new(right),
        span,
    }
}

fn redundant_parens(p: &mut Parser<'_>, span: Span) {
    // Wording: dynalite's condition parser, whose tests ran against DynamoDB.
    p.defer(
        rank::PARENS,
        ErrorCode::RedundantParentheses,
        span,
        "The expression has redundant parentheses;".to_string(),
    );
}

fn parse_unary(p: &mut Parser<'_>) -> Result<Item, ExprError> {
    // The branches live in their own functions so the frame that recursion stacks up
    // stays small (debug builds keep every local of a function in its frame).
    p.nested(|p| {
        if p.at_keyword("NOT") {
            parse_not(p)
        } else if p.peek().kind == TokenKind::LParen {
            parse_group(p)
        } else {
            parse_simple(p)
        }
    })
}

#[inline(never)]
fn parse_not(p: &mut Parser<'_>) -> Result<Item, ExprError> {
    let not = p.bump();
    let inner = parse_unary(p)?;
    let inner = into_condition(p, inner)?;
    let span = not.span.cover(inner.span());
    Ok(Item::Cond {
        cond: Condition::Not {
            inner: Box::new(inner),
            span,
        },
        group: false,
    })
}

#[inline(never)]
fn parse_group(p: &mut Parser<'_>) -> Result<Item, ExprError> {
    let open = p.bump();
    let inner = parse_or(p)?;
    let close = p.expect(TokenKind::RParen)?;
    let span = open.span.cover(close.span);
    match inner {
        Item::Cond { cond, group } => {
            if group {
                redundant_parens(p, span);
            }
            Ok(Item::Cond { cond, group: true })
        }
        Item::Operand { operand, group } => {
            if group {
                redundant_parens(p, span);
            }
            parse_rest(p, operand, true)
        }
    }
}

#[inline(never)]
fn parse_simple(p: &mut Parser<'_>) -> Result<Item, ExprError> {
    match parse_primary(p)? {
        Primary::Operand(operand) => parse_rest(p, operand, false),
        Primary::Bool(function, span) => {
            if at_condition_operator(p) {
                misused(p, function.name(), span);
                parse_rest(p, placeholder_operand(span), false)
            } else {
                Ok(Item::Cond {
                    cond: Condition::Function { function, span },
                    group: false,
                })
            }
        }
        Primary::Invalid(span) => {
            if at_condition_operator(p) {
                parse_rest(p, placeholder_operand(span), false)
            } else {
                Ok(Item::Cond {
                    cond: placeholder_condition(span),
                    group: false,
                })
            }
        }
    }
}

fn comparator(kind: TokenKind) -> Option<Comparator> {
    Some(match kind {
        TokenKind::Eq => Comparator::Eq,
        TokenKind::Ne => Comparator::Ne,
        TokenKind::Lt => Comparator::Lt,
        TokenKind::Le => Comparator::Le,
        TokenKind::Gt => Comparator::Gt,
        TokenKind::Ge => Comparator::Ge,
        _ => return None,
    })
}

fn at_condition_operator(p: &Parser<'_>) -> bool {
    comparator(p.peek().kind).is_some() || p.at_keyword("BETWEEN") || p.at_keyword("IN")
}

/// What may follow an operand: a comparison, `BETWEEN` or `IN`; or nothing, leaving a
/// bare operand for the caller to judge.
fn parse_rest(p: &mut Parser<'_>, left: Operand, group: bool) -> Result<Item, ExprError> {
    if let Some(op) = comparator(p.peek().kind) {
        p.bump();
        let right = parse_operand(p)?;
        check_distinct(p, op.as_str(), &left, &right);
        let span = left.span().cover(right.span());
        return Ok(Item::Cond {
            cond: Condition::Compare {
                left,
                op,
                right,
                span,
            },
            group: false,
        });
    }
    if p.at_keyword("BETWEEN") {
        p.bump();
        let low = parse_operand(p)?;
        p.expect_keyword("AND")?;
        let high = parse_operand(p)?;
        let span = left.span().cover(high.span());
        return Ok(Item::Cond {
            cond: Condition::Between {
                operand: left,
                low,
                high,
                span,
            },
            group: false,
        });
    }
    if p.at_keyword("IN") {
        p.bump();
        p.expect(TokenKind::LParen)?;
        let list = p.nested(|p| {
            let mut list = vec![parse_operand(p)?];
            while p.peek().kind == TokenKind::Comma {
                p.bump();
                list.push(parse_operand(p)?);
            }
            Ok(list)
        })?;
        let close = p.expect(TokenKind::RParen)?;
        let span = left.span().cover(close.span);
        return Ok(Item::Cond {
            cond: Condition::In {
                operand: left,
                list,
                span,
            },
            group: false,
        });
    }
    Ok(Item::Operand {
        operand: left,
        group,
    })
}

fn misused(p: &mut Parser<'_>, name: &str, span: Span) {
    p.defer(
        rank::MISUSED_FUNCTION,
        ErrorCode::FunctionMisuse,
        span,
        format!(
            "The function is not allowed to be used this way in an expression; function: {name}"
        ),
    );
}

/// An operand in value position: right of a comparator, in `BETWEEN`/`IN`, or a
/// function argument.
fn parse_operand(p: &mut Parser<'_>) -> Result<Operand, ExprError> {
    parse_operand_grouped(p).map(|(operand, _)| operand)
}

fn parse_operand_grouped(p: &mut Parser<'_>) -> Result<(Operand, bool), ExprError> {
    p.nested(|p| {
        if p.peek().kind == TokenKind::LParen {
            let open = p.bump();
            let (operand, group) = parse_operand_grouped(p)?;
            let close = p.expect(TokenKind::RParen)?;
            if group {
                redundant_parens(p, open.span.cover(close.span));
            }
            return Ok((operand, true));
        }
        let operand = match parse_primary(p)? {
            Primary::Operand(operand) => operand,
            Primary::Bool(function, span) => {
                misused(p, function.name(), span);
                placeholder_operand(span)
            }
            Primary::Invalid(span) => placeholder_operand(span),
        };
        Ok((operand, false))
    })
}

fn parse_primary(p: &mut Parser<'_>) -> Result<Primary, ExprError> {
    let tok = p.peek();
    match tok.kind {
        TokenKind::Value => Ok(Primary::Operand(Operand::Value(p.parse_value_ref()?))),
        TokenKind::Ident if p.peek_at(1).kind == TokenKind::LParen && !p.is_keyword(tok) => {
            parse_call(p)
        }
        TokenKind::Ident | TokenKind::Name => Ok(Primary::Operand(Operand::Path(
            p.parse_path(rank::RESERVED)?,
        ))),
        _ => Err(p.syntax_error()),
    }
}

fn parse_call(p: &mut Parser<'_>) -> Result<Primary, ExprError> {
    let name_tok = p.bump();
    let name = p.text(name_tok);
    p.bump(); // `(`
    let args = p.nested(|p| {
        let mut args = vec![parse_operand(p)?];
        while p.peek().kind == TokenKind::Comma {
            p.bump();
            args.push(parse_operand(p)?);
        }
        Ok(args)
    })?;
    let close = p.expect(TokenKind::RParen)?;
    let span = name_tok.span.cover(close.span);
    Ok(build_function(p, name, args, span))
}

/// `[a, b, [0]]`: a path as DynamoDB prints it in messages.
pub(crate) fn path_for_message(path: &Path) -> String {
    let parts: Vec<String> = path
        .elements
        .iter()
        .map(|e| match e {
            PathElement::Attr(s) | PathElement::Name(s) => s.clone(),
            PathElement::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn check_distinct(p: &mut Parser<'_>, operator: &str, first: &Operand, second: &Operand) {
    if let (Operand::Path(a), Operand::Path(b)) = (first, second) {
        if a.elements == b.elements {
            p.defer(
                rank::DISTINCT,
                ErrorCode::DistinctOperands,
                b.span,
                format!(
                    "The first operand must be distinct from the remaining operands for this \
                     operator or function; operator: {operator}, first operand: {}",
                    path_for_message(a)
                ),
            );
        }
    }
}

fn build_function(p: &mut Parser<'_>, name: &str, mut args: Vec<Operand>, span: Span) -> Primary {
    let arity = match name {
        "attribute_exists" | "attribute_not_exists" | "size" => 1,
        "attribute_type" | "begins_with" | "contains" => 2,
        _ => {
            p.defer(
                rank::UNKNOWN_FUNCTION,
                ErrorCode::InvalidFunction,
                span,
                format!("Invalid function name; function: {name}"),
            );
            return Primary::Invalid(span);
        }
    };
    if args.len() != arity {
        p.defer(
            rank::OPERAND_COUNT,
            ErrorCode::OperandCount,
            span,
            format!(
                "Incorrect number of operands for operator or function; operator or function: \
                 {name}, number of operands: {}",
                args.len()
            ),
        );
        return Primary::Invalid(span);
    }
    let second = if arity == 2 { args.pop() } else { None };
    let Some(first) = args.pop() else {
        return Primary::Invalid(span);
    };
    match (name, second) {
        ("size", _) => Primary::Operand(Operand::Size {
            arg: Box::new(first),
            span,
        }),
        ("attribute_exists" | "attribute_not_exists", _) => match first {
            Operand::Path(path) => {
                let function = if name == "attribute_exists" {
                    Function::AttributeExists(path)
                } else {
                    Function::AttributeNotExists(path)
                };
                Primary::Bool(function, span)
            }
            _ => {
                p.defer(
                    rank::REQUIRES_PATH,
                    ErrorCode::RequiresPath,
                    span,
                    format!(
                        "Operator or function requires a document path; operator or function: \
                         {name}"
                    ),
                );
                Primary::Invalid(span)
            }
        },
        (_, Some(second)) => {
            check_distinct(p, name, &first, &second);
            let function = match name {
                "attribute_type" => Function::AttributeType(first, second),
                "begins_with" => Function::BeginsWith(first, second),
                _ => Function::Contains(first, second),
            };
            Primary::Bool(function, span)
        }
        (_, None) => Primary::Invalid(span),
    }
}
