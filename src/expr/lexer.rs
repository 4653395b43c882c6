//! The tokens shared by all four expression languages.
//!
//! One pass, no backtracking, no recursion: safe on any input. A character the
//! languages do not use becomes an [`TokenKind::Unknown`] token of its own, so the
//! parser reports it as DynamoDB does (`Syntax error; token: "_", near: "SET _123"`).

use crate::source::Span;

/// What a token is; its text is the expression's bytes in its span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// `[A-Za-z][A-Za-z0-9_]*`: an attribute name, a keyword or a function name.
    Ident,
    /// `#[A-Za-z0-9_]+`.
    Name,
    /// `:[A-Za-z0-9_]+`.
    Value,
    /// `[0-9]+`: a list index.
    Number,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    /// Any other character (one char, whole UTF-8 sequence).
    Unknown,
    /// End of input (empty span at the end).
    Eof,
}

/// A token and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Splits `src` into tokens, always ending with one [`TokenKind::Eof`].
pub fn tokenize(src: &str) -> Vec<Token> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        let start = i;
        let word_end = |from: usize| {
            let mut j = from;
            while j < bytes.len() && is_word_byte(bytes[j]) {
                j += 1;
            }
            j
        };
        let (kind, end) = match b {
            b'a'..=b'z' | b'A'..=b'Z' => (TokenKind::Ident, word_end(i + 1)),
            b'0'..=b'9' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                (TokenKind::Number, j)
            }
            b'#' | b':' => {
                let j = word_end(i + 1);
                if j == i + 1 {
                    (TokenKind::Unknown, i + 1)
                } else if b == b'#' {
                    (TokenKind::Name, j)
                } else {
                    (TokenKind::Value, j)
                }
            }
            b'(' => (TokenKind::LParen, i + 1),
            b')' => (TokenKind::RParen, i + 1),
            b'[' => (TokenKind::LBracket, i + 1),
            b']' => (TokenKind::RBracket, i + 1),
            b',' => (TokenKind::Comma, i + 1),
            b'.' => (TokenKind::Dot, i + 1),
            b'+' => (TokenKind::Plus, i + 1),
            b'-' => (TokenKind::Minus, i + 1),
            b'=' => (TokenKind::Eq, i + 1),
            b'<' => match bytes.get(i + 1) {
                Some(b'>') => (TokenKind::Ne, i + 2),
                Some(b'=') => (TokenKind::Le, i + 2),
                _ => (TokenKind::Lt, i + 1),
            },
            b'>' => match bytes.get(i + 1) {
                Some(b'=') => (TokenKind::Ge, i + 2),
                _ => (TokenKind::Gt, i + 1),
            },
            _ => {
                // One whole character, so spans always fall on char boundaries.
                let len = src[i..].chars().next().map_or(1, char::len_utf8);
                (TokenKind::Unknown, i + len)
            }
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, end),
        });
        i = end;
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(src.len(), src.len()),
    });
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        tokenize(src)
            .into_iter()
            .map(|t| (t.kind, &src[t.span.range()]))
            .collect()
    }

    #[test]
    fn tokens_table() {
        let cases: &[(&str, &[(TokenKind, &str)])] = &[
            ("", &[(Eof, "")]),
            (
                "a.b[10]",
                &[
                    (Ident, "a"),
                    (Dot, "."),
                    (Ident, "b"),
                    (LBracket, "["),
                    (Number, "10"),
                    (RBracket, "]"),
                    (Eof, ""),
                ],
            ),
            (
                "#n <> :v_1",
                &[(Name, "#n"), (Ne, "<>"), (Value, ":v_1"), (Eof, "")],
            ),
            (
                "<=>=<>< >",
                &[
                    (Le, "<="),
                    (Ge, ">="),
                    (Ne, "<>"),
                    (Lt, "<"),
                    (Gt, ">"),
                    (Eof, ""),
                ],
            ),
            (
                "SET _123",
                &[(Ident, "SET"), (Unknown, "_"), (Number, "123"), (Eof, "")],
            ),
            ("# :", &[(Unknown, "#"), (Unknown, ":"), (Eof, "")]),
            ("é!", &[(Unknown, "é"), (Unknown, "!"), (Eof, "")]),
            (
                "hy-phen+1",
                &[
                    (Ident, "hy"),
                    (Minus, "-"),
                    (Ident, "phen"),
                    (Plus, "+"),
                    (Number, "1"),
                    (Eof, ""),
                ],
            ),
            (
                "f(a,\tb)\n",
                &[
                    (Ident, "f"),
                    (LParen, "("),
                    (Ident, "a"),
                    (Comma, ","),
                    (Ident, "b"),
                    (RParen, ")"),
                    (Eof, ""),
                ],
            ),
        ];
        for (src, expected) in cases {
            assert_eq!(kinds(src), expected.to_vec(), "{src:?}");
        }
    }
}
