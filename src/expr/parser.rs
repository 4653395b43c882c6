//! The recursive-descent machinery shared by the four grammars: the token cursor,
//! DynamoDB's syntax-error wording, document paths, the depth guard and the queue of
//! semantic errors.
//!
//! Syntax errors stop the parse at once. Semantic errors (a reserved word, an unknown
//! function, ...) are queued and the parse goes on, because DynamoDB reports a syntax
//! error anywhere in the expression before any of them; among queued errors the one
//! with the lowest rank (then the leftmost) wins, mirroring DynamoDB's checking order.

use super::ast::{Path, PathElement, ValueRef};
use super::error::{ErrorCode, ExprError, ExprKind};
use super::lexer::{tokenize, Token, TokenKind};
use super::reserved::is_reserved;
use crate::source::Span;

/// Size and nesting limits applied before and during parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted expression in bytes; `None` for no limit. DynamoDB's is 4 KB.
    pub max_bytes: Option<usize>,
    /// Deepest nesting of parentheses, `NOT`s and function calls. Keeps the recursive
    /// parser's stack bounded whatever the input.
    pub max_depth: usize,
    /// Most `AND`/`OR` operators in one expression. Each adds a level to the tree, so
    /// this bounds the stack of everything that walks it (printing, checks, drop).
    pub max_logical_operators: usize,
}

impl Limits {
    /// DynamoDB's 4 KB expression limit, and a depth no real expression reaches.
    ///
    /// The operator bound is above what fits in 4 KB, so it never rejects an
    /// expression DynamoDB accepts (DynamoDB's own limit is 300 operators). The depth
    /// bound is far beyond hand-written or builder-made expressions and keeps the
    /// parser under ~700 KB of stack even in debug builds (about 10 KB per level).
    pub const DYNAMODB: Limits = Limits {
        max_bytes: Some(4096),
        max_depth: 64,
        max_logical_operators: 1000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DYNAMODB
    }
}

/// Checks the empty-expression and size rules every expression shares.
pub(crate) fn check_text(src: &str, kind: ExprKind, limits: &Limits) -> Result<(), ExprError> {
    if src.is_empty() {
        // Wording: conformance case keycond_str/err_empty_expression.
        return Err(ExprError::in_expr(
            kind,
            ErrorCode::Empty,
            Span::default(),
            "The expression can not be empty;",
        ));
    }
    if let Some(max) = limits.max_bytes {
        if src.len() > max {
            // Underline what lies past the limit, from a char boundary.
            let mut from = max;
            while !src.is_char_boundary(from) {
                from -= 1;
            }
            return Err(ExprError::in_expr(
                kind,
                ErrorCode::TooLarge,
                Span::new(from, src.len()),
                format_args!(
                    "Expression size has exceeded the maximum allowed size; expression size: {}",
                    src.len()
                ),
            ));
        }
    }
    Ok(())
}

/// A queued semantic error and its rank in DynamoDB's checking order.
struct Deferred {
    rank: u8,
    error: ExprError,
}

/// A token cursor over one expression.
pub(crate) struct Parser<'s> {
    pub src: &'s str,
    tokens: Vec<Token>,
    pos: usize,
    pub kind: ExprKind,
    depth: usize,
    max_depth: usize,
    logical_operators: usize,
    max_logical_operators: usize,
    deferred: Vec<Deferred>,
    /// Words that are grammar keywords here and so cannot name an attribute.
    keywords: &'static [&'static str],
}

impl<'s> Parser<'s> {
    /// A parser over `src`; `keywords` are the words this grammar reserves for itself.
    pub fn new(
        src: &'s str,
        kind: ExprKind,
        limits: &Limits,
        keywords: &'static [&'static str],
    ) -> Self {
        Self {
            src,
            tokens: tokenize(src),
            pos: 0,
            kind,
            depth: 0,
            max_depth: limits.max_depth,
            logical_operators: 0,
            max_logical_operators: limits.max_logical_operators,
            deferred: Vec::new(),
            keywords,
        }
    }

    /// The current token (the final `Eof` once the input is used up).
    pub fn peek(&self) -> Token {
        self.peek_at(0)
    }

    /// The token `n` places ahead.
    pub fn peek_at(&self, n: usize) -> Token {
        let last = self.tokens.len().saturating_sub(1);
        self.tokens
            .get((self.pos + n).min(last))
            .copied()
            .unwrap_or(Token {
                kind: TokenKind::Eof,
                span: Span::new(self.src.len(), self.src.len()),
            })
    }

    /// Consumes and returns the current token (never moves past `Eof`).
    pub fn bump(&mut self) -> Token {
        let tok = self.peek();
        if tok.kind != TokenKind::Eof {
            self.pos += 1;
        }
        tok
    }

    /// The source text of `tok`.
    pub fn text(&self, tok: Token) -> &'s str {
        self.src.get(tok.span.range()).unwrap_or("")
    }

    /// True when the current token is the keyword `kw` (any letter case).
    pub fn at_keyword(&self, kw: &str) -> bool {
        let tok = self.peek();
        tok.kind == TokenKind::Ident && self.text(tok).eq_ignore_ascii_case(kw)
    }

    /// True when `tok` is one of this grammar's keywords.
    pub fn is_keyword(&self, tok: Token) -> bool {
        tok.kind == TokenKind::Ident
            && self
                .keywords
                .iter()
                .any(|k| self.text(tok).eq_ignore_ascii_case(k))
    }

    /// Consumes a token of `kind` or fails with a syntax error on the current one.
    pub fn expect(&mut self, kind: TokenKind) -> Result<Token, ExprError> {
        if self.peek().kind == kind {
            Ok(self.bump())
        } else {
            Err(self.syntax_error())
        }
    }

    /// Consumes the keyword `kw` or fails with a syntax error.
    pub fn expect_keyword(&mut self, kw: &str) -> Result<Token, ExprError> {
        if self.at_keyword(kw) {
            Ok(self.bump())
        } else {
            Err(self.syntax_error())
        }
    }

    /// Fails unless the whole input has been consumed.
    pub fn expect_end(&self) -> Result<(), ExprError> {
        if self.peek().kind == TokenKind::Eof {
            Ok(())
        } else {
            Err(self.syntax_error())
        }
    }

    /// DynamoDB's syntax error on the current token.
    pub fn syntax_error(&self) -> ExprError {
        syntax_error_at(self.src, &self.tokens, self.pos, self.kind)
    }

    /// Runs `f` one nesting level deeper, failing once the depth limit is passed.
    pub fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ExprError>,
    ) -> Result<T, ExprError> {
        if self.depth >= self.max_depth {
            let tok = self.peek();
            return Err(ExprError::in_expr(
                self.kind,
                ErrorCode::TooDeep,
                tok.span,
                format_args!(
                    "The expression is nested too deeply; maximum nesting depth: {}",
                    self.max_depth
                ),
            ));
        }
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        out
    }

    /// Counts one `AND`/`OR`, failing once there are too many.
    pub fn count_logical_operator(&mut self) -> Result<(), ExprError> {
        self.logical_operators += 1;
        if self.logical_operators > self.max_logical_operators {
            return Err(ExprError::in_expr(
                self.kind,
                ErrorCode::TooComplex,
                self.peek().span,
                format_args!(
                    "The expression has too many AND/OR operators; maximum: {}",
                    self.max_logical_operators
                ),
            ));
        }
        Ok(())
    }

    /// Queues a semantic error with its rank (lower is reported first).
    pub fn defer(&mut self, rank: u8, code: ErrorCode, span: Span, detail: String) {
        let error = ExprError::in_expr(self.kind, code, span, detail);
        self.deferred.push(Deferred { rank, error });
    }

    /// Drops the queued errors of one kind.
    pub fn forgive(&mut self, code: ErrorCode) {
        self.deferred.retain(|d| d.error.code != code);
    }

    /// The queued error DynamoDB would report, if any.
    pub fn take_deferred(&mut self) -> Option<ExprError> {
        let best = self
            .deferred
            .iter()
            .enumerate()
            .min_by_key(|(i, d)| (d.rank, d.error.span.start, *i))
            .map(|(i, _)| i)?;
        Some(self.deferred.swap_remove(best).error)
    }

    /// Finishes a parse: the first queued error, or the value.
    pub fn finish<T>(mut self, value: T) -> Result<T, ExprError> {
        self.expect_end()?;
        match self.take_deferred() {
            Some(err) => Err(err),
            None => Ok(value),
        }
    }

    /// `:name`.
    pub fn parse_value_ref(&mut self) -> Result<ValueRef, ExprError> {
        let tok = self.expect(TokenKind::Value)?;
        Ok(ValueRef {
            name: self.text(tok).to_string(),
            span: tok.span,
        })
    }

    /// One name element of a path: an attribute name or a `#name`.
    fn parse_path_name(&mut self, reserved_rank: u8) -> Result<PathElement, ExprError> {
        let tok = self.peek();
        match tok.kind {
            TokenKind::Ident if !self.is_keyword(tok) => {
                self.bump();
                let word = self.text(tok);
                if is_reserved(word) {
                    // Wording: conformance case reserved/err_reserved_in_update.
                    self.defer(
                        reserved_rank,
                        ErrorCode::ReservedKeyword,
                        tok.span,
                        format!("Attribute name is a reserved keyword; reserved keyword: {word}"),
                    );
                }
                Ok(PathElement::Attr(word.to_string()))
            }
            TokenKind::Name => {
                self.bump();
                Ok(PathElement::Name(self.text(tok).to_string()))
            }
            _ => Err(self.syntax_error()),
        }
    }

    /// A document path: `name ( '.' name | '[' digits ']' )*`. Iterative, so a path of
    /// any length costs no stack.
    pub fn parse_path(&mut self, reserved_rank: u8) -> Result<Path, ExprError> {
        let start = self.peek().span.start;
        let mut elements = vec![self.parse_path_name(reserved_rank)?];
        let mut end = self.last_end();
        loop {
            match self.peek().kind {
                TokenKind::Dot => {
                    self.bump();
                    elements.push(self.parse_path_name(reserved_rank)?);
                }
                TokenKind::LBracket => {
                    self.bump();
                    let tok = self.peek();
                    if tok.kind != TokenKind::Number {
                        return Err(self.syntax_error());
                    }
                    let Ok(index) = self.text(tok).parse::<u32>() else {
                        return Err(self.syntax_error());
                    };
                    self.bump();
                    self.expect(TokenKind::RBracket)?;
                    elements.push(PathElement::Index(index));
                }
                _ => break,
            }
            end = self.last_end();
        }
        Ok(Path {
            elements,
            span: Span::new(start, end),
        })
    }

    /// The end of the last consumed token.
    pub fn last_end(&self) -> usize {
        match self.pos.checked_sub(1) {
            Some(i) => self.tokens[i].span.end,
            None => 0,
        }
    }
}

/// `Syntax error; token: "<tok>", near: "<context>"`, as DynamoDB words it.
///
/// The token is the offending token's text (`<EOF>` at the end). The context runs from
/// the start of the token before it to the end of the token after it, as written
/// (whitespace kept); at the end of input it is just the last token. Real messages this
/// reproduces: `token: "<EOF>", near: ","` (ProjectionExpression `a,`), `token: "_",
/// near: "SET _123"`, `token: ")", near: "()"` (`attribute_type()`), `token: "a", near:
/// "[a]"` (`l[a]`), `token: "<EOF>", near: "foo"` (ConditionExpression `foo`).
pub(crate) fn syntax_error_at(src: &str, tokens: &[Token], at: usize, kind: ExprKind) -> ExprError {
    let last = tokens.len().saturating_sub(1);
    let at = at.min(last);
    let tok = tokens.get(at).copied().unwrap_or(Token {
        kind: TokenKind::Eof,
        span: Span::new(src.len(), src.len()),
    });
    let prev = at.checked_sub(1).and_then(|i| tokens.get(i)).copied();
    let (token_text, start, end) = if tok.kind == TokenKind::Eof {
        let (s, e) = prev.map_or((tok.span.start, tok.span.start), |p| {
            (p.span.start, p.span.end)
        });
        ("<EOF>", s, e)
    } else {
        let next = tokens
            .get(at + 1)
            .filter(|t| t.kind != TokenKind::Eof)
            .copied();
        let s = prev.map_or(tok.span.start, |p| p.span.start);
        let e = next.map_or(tok.span.end, |n| n.span.end);
        (src.get(tok.span.range()).unwrap_or(""), s, e)
    };
    let near = src.get(start..end).unwrap_or("");
    ExprError::in_expr(
        kind,
        ErrorCode::Syntax,
        tok.span,
        format_args!("Syntax error; token: \"{token_text}\", near: \"{near}\""),
    )
}
