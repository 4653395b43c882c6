//! The update grammar (DynamoDB Developer Guide, "Update expressions").
//!
//! ```text
//! update     ::= clause+                      -- each of SET/REMOVE/ADD/DELETE at most once
//! clause     ::= SET set_action ( ',' set_action )*
//!              | REMOVE path ( ',' path )*
//!              | ADD path ':value' ( ',' path ':value' )*
//!              | DELETE path ':value' ( ',' path ':value' )*
//! set_action ::= path '=' value
//! value      ::= term ( ( '+' | '-' ) operand )? | '(' value ')'
//! operand    ::= '(' operand ')' | ':value' | path
//!              | if_not_exists '(' path ',' operand ')'
//!              | list_append '(' operand ',' operand ')'
//! ```

use super::ast::{
    PathValueAction, SetAction, SetOperand, SetValue, UpdateClause, UpdateExpr, ValueRef,
};
use super::error::{ErrorCode, ExprError, ExprKind};
use super::lexer::TokenKind;
use super::parser::{check_text, Limits, Parser};
use crate::source::Span;

/// The clause keywords, which cannot name attributes here.
const KEYWORDS: &[&str] = &["SET", "REMOVE", "ADD", "DELETE"];

/// DynamoDB's checking order for semantic errors in an update (lowest first), as
/// observed by dynalite's tests against DynamoDB. Undefined placeholders and
/// overlapping paths come between `SECTION` and `FUNCTION`; they need the request's
/// maps and are checked by [`super::placeholders`].
mod rank {
    pub const RESERVED: u8 = 0;
    pub const UNKNOWN_FUNCTION: u8 = 1;
    pub const SECTION: u8 = 2;
    pub const FUNCTION: u8 = 3;
}

/// Parses an UpdateExpression.
pub(crate) fn parse(src: &str, limits: &Limits) -> Result<UpdateExpr, ExprError> {
    let kind = ExprKind::Update;
    check_text(src, kind, limits)?;
    let mut p = Parser::new(src, kind, limits, KEYWORDS);
    let start = p.peek().span.start;
    let mut clauses = Vec::new();
    let mut seen = [false; 4];
    loop {
        let Some(which) = KEYWORDS.iter().position(|k| p.at_keyword(k)) else {
            return Err(p.syntax_error());
        };
        let kw = p.bump();
        if seen[which] {
            // Wording: dynalite's update parser, whose tests ran against DynamoDB.
            p.defer(
                rank::SECTION,
                ErrorCode::SectionRepeated,
                kw.span,
                format!(
                    "The \"{}\" section can only be used once in an update expression;",
                    KEYWORDS[which]
                ),
            );
        }
        seen[which] = true;
        let clause = match which {
            0 => {
                let actions = comma_list(&mut p, parse_set_action)?;
                UpdateClause::Set {
                    actions,
                    span: Span::new(kw.span.start, p.last_end()),
                }
            }
            1 => {
                let paths = comma_list(&mut p, |p| p.parse_path(rank::RESERVED))?;
                UpdateClause::Remove {
                    paths,
                    span: Span::new(kw.span.start, p.last_end()),
                }
            }
            2 => {
                let actions = comma_list(&mut p, parse_path_value)?;
                UpdateClause::Add {
                    actions,
                    span: Span::new(kw.span.start, p.last_end()),
                }
            }
            _ => {
                let actions = comma_list(&mut p, parse_path_value)?;
                UpdateClause::Delete {
                    actions,
                    span: Span::new(kw.span.start, p.last_end()),
                }
            }
        };
        clauses.push(clause);
        if p.peek().kind == TokenKind::Eof {
            break;
        }
    }
    let span = Span::new(start, p.last_end());
    p.finish(UpdateExpr { clauses, span })
}

fn comma_list<'s, T>(
    p: &mut Parser<'s>,
    mut item: impl FnMut(&mut Parser<'s>) -> Result<T, ExprError>,
) -> Result<Vec<T>, ExprError> {
    let mut out = vec![item(p)?];
    while p.peek().kind == TokenKind::Comma {
        p.bump();
        out.push(item(p)?);
    }
    Ok(out)
}

fn parse_set_action(p: &mut Parser<'_>) -> Result<SetAction, ExprError> {
    let path = p.parse_path(rank::RESERVED)?;
    p.expect(TokenKind::Eq)?;
    let value = parse_value(p)?;
    let span = Span::new(path.span.start, p.last_end());
    Ok(SetAction { path, value, span })
}

fn parse_path_value(p: &mut Parser<'_>) -> Result<PathValueAction, ExprError> {
    let path = p.parse_path(rank::RESERVED)?;
    let value = p.parse_value_ref()?;
    let span = path.span.cover(value.span);
    Ok(PathValueAction { path, value, span })
}

/// A parenthesised `( .. )` at the start of a value may hold an operand or a whole
/// `a + b`; this says which it was.
enum Term {
    Operand(SetOperand),
    Arithmetic(SetValue),
}

fn parse_value(p: &mut Parser<'_>) -> Result<SetValue, ExprError> {
    match parse_term(p)? {
        Term::Arithmetic(value) => Ok(value),
        Term::Operand(first) => match p.peek().kind {
            TokenKind::Plus => {
                p.bump();
                Ok(SetValue::Plus(first, parse_operand(p)?))
            }
            TokenKind::Minus => {
                p.bump();
                Ok(SetValue::Minus(first, parse_operand(p)?))
            }
            _ => Ok(SetValue::Operand(first)),
        },
    }
}

fn parse_term(p: &mut Parser<'_>) -> Result<Term, ExprError> {
    if p.peek().kind != TokenKind::LParen {
        return Ok(Term::Operand(parse_atom(p)?));
    }
    p.nested(|p| {
        p.bump();
        let value = parse_value(p)?;
        p.expect(TokenKind::RParen)?;
        Ok(match value {
            SetValue::Operand(operand) => Term::Operand(operand),
            value => Term::Arithmetic(value),
        })
    })
}

fn parse_operand(p: &mut Parser<'_>) -> Result<SetOperand, ExprError> {
    if p.peek().kind != TokenKind::LParen {
        return parse_atom(p);
    }
    p.nested(|p| {
        p.bump();
        let operand = parse_operand(p)?;
        p.expect(TokenKind::RParen)?;
        Ok(operand)
    })
}

fn parse_atom(p: &mut Parser<'_>) -> Result<SetOperand, ExprError> {
    let tok = p.peek();
    match tok.kind {
        TokenKind::Value => Ok(SetOperand::Value(p.parse_value_ref()?)),
        TokenKind::Ident if p.peek_at(1).kind == TokenKind::LParen && !p.is_keyword(tok) => {
            parse_call(p)
        }
        TokenKind::Ident | TokenKind::Name => Ok(SetOperand::Path(p.parse_path(rank::RESERVED)?)),
        _ => Err(p.syntax_error()),
    }
}

fn placeholder(span: Span) -> SetOperand {
    SetOperand::Value(ValueRef {
        name: ":".to_string(),
        span,
    })
}

fn parse_call(p: &mut Parser<'_>) -> Result<SetOperand, ExprError> {
    let name_tok = p.bump();
    let name = p.text(name_tok);
    p.bump(); // `(`
    let args = p.nested(|p| comma_list(p, parse_operand))?;
    let close = p.expect(TokenKind::RParen)?;
    let span = name_tok.span.cover(close.span);
    if !matches!(name, "if_not_exists" | "list_append") {
        p.defer(
            rank::UNKNOWN_FUNCTION,
            ErrorCode::InvalidFunction,
            span,
            format!("Invalid function name; function: {name}"),
        );
        return Ok(placeholder(span));
    }
    if args.len() != 2 {
        p.defer(
            rank::FUNCTION,
            ErrorCode::OperandCount,
            span,
            format!(
                "Incorrect number of operands for operator or function; operator or function: \
                 {name}, number of operands: {}",
                args.len()
            ),
        );
        return Ok(placeholder(span));
    }
    let mut args = args.into_iter();
    let (Some(first), Some(second)) = (args.next(), args.next()) else {
        return Ok(placeholder(span));
    };
    if name == "list_append" {
        return Ok(SetOperand::ListAppend {
            first: Box::new(first),
            second: Box::new(second),
            span,
        });
    }
    match first {
        SetOperand::Path(path) => Ok(SetOperand::IfNotExists {
            path,
            default: Box::new(second),
            span,
        }),
        _ => {
            p.defer(
                rank::FUNCTION,
                ErrorCode::RequiresPath,
                span,
                "Operator or function requires a document path; operator or function: \
                 if_not_exists"
                    .to_string(),
            );
            Ok(placeholder(span))
        }
    }
}
