//! The projection grammar: `path ( ',' path )*` (DynamoDB Developer Guide, "Projection
//! expressions").

use super::ast::Projection;
use super::error::{ExprError, ExprKind};
use super::lexer::TokenKind;
use super::parser::{check_text, Limits, Parser};
use crate::source::Span;

/// Parses a ProjectionExpression. Every word is an attribute name here, so a reserved
/// word (`name`, `status`) is reported as such rather than as a syntax error.
pub(crate) fn parse(src: &str, limits: &Limits) -> Result<Projection, ExprError> {
    let kind = ExprKind::Projection;
    check_text(src, kind, limits)?;
    let mut p = Parser::new(src, kind, limits, &[]);
    let start = p.peek().span.start;
    let mut paths = vec![p.parse_path(0)?];
    while p.peek().kind == TokenKind::Comma {
        p.bump();
        paths.push(p.parse_path(0)?);
    }
    let span = Span::new(start, p.last_end());
    p.finish(Projection { paths, span })
}
