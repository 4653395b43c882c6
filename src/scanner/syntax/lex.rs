//! A small Rust tokenizer over bytes: fast enough to run on every file, robust to any
//! input (unterminated strings and comments run to the end, invalid UTF-8 is bytes).
//!
//! Two users: the lexical index of files the pre-filter rules out (functions, calls,
//! entry points — see `graph.rs`), and [`shadow_text`], which rewrites expression-like
//! macros so tree-sitter parses their arguments as expressions.

/// What a token is; punctuation keeps its byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    Ident,
    Str,
    Char,
    Num,
    Lifetime,
    Punct(u8),
}

/// One token: its kind and byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

impl Token {
    /// The token's bytes.
    pub fn text<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }

    pub fn is_punct(&self, c: u8) -> bool {
        self.kind == Tok::Punct(c)
    }

    pub fn is_ident(&self, src: &[u8], name: &str) -> bool {
        self.kind == Tok::Ident && self.text(src) == name.as_bytes()
    }
}

fn is_ident_continue(b: u8) -> bool {
    CLASS[b as usize] & IDENT != 0
}

/// A byte's classes, one table lookup each in place of a chain of comparisons: the
/// tokenizer visits every byte of every file of a tree.
const IDENT: u8 = 1;
const SPACE: u8 = 2;
/// A number's bytes: an identifier's but those of non-ASCII characters.
const NUM: u8 = 4;
const CLASS: [u8; 256] = {
    let mut c = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let x = b as u8;
        if x == b'_' || x.is_ascii_alphanumeric() || x >= 0x80 {
            c[b] |= IDENT;
        }
        if x == b'_' || x.is_ascii_alphanumeric() {
            c[b] |= NUM;
        }
        if x.is_ascii_whitespace() {
            c[b] |= SPACE;
        }
        b += 1;
    }
    c
};

/// The end of the run of bytes of class `class` from `i`.
fn run_end(src: &[u8], i: usize, class: u8) -> usize {
    src.get(i..)
        .and_then(|rest| rest.iter().position(|&b| CLASS[b as usize] & class == 0))
        .map_or(src.len(), |k| i + k)
}

/// What a byte starts: the tokenizer's one dispatch per token.
#[derive(Clone, Copy)]
enum Start {
    Punct,
    Space,
    Ident,
    /// `r`, `b`, `c`: an identifier, or a raw, byte or C string.
    Prefix,
    Digit,
    Slash,
    Quote,
    Apostrophe,
}

const STARTS: [Start; 256] = {
    let mut s = [Start::Punct; 256];
    let mut b = 0usize;
    while b < 256 {
        let x = b as u8;
        s[b] = if x.is_ascii_whitespace() {
            Start::Space
        } else if x.is_ascii_digit() {
            Start::Digit
        } else if x == b'r' || x == b'b' || x == b'c' {
            Start::Prefix
        } else if x == b'_' || x.is_ascii_alphabetic() || x >= 0x80 {
            Start::Ident
        } else if x == b'/' {
            Start::Slash
        } else if x == b'"' {
            Start::Quote
        } else if x == b'\'' {
            Start::Apostrophe
        } else {
            Start::Punct
        };
        b += 1;
    }
    s
};

/// Splits `src` into tokens, skipping whitespace and comments. Never fails.
pub fn tokenize(src: &[u8]) -> Vec<Token> {
    // A token per two bytes at most in practice: generated chains (the 40,000-call
    // file) have one per 2.6, and a list sized for hand-written code's one per five
    // grew, copying itself, on one core. Capacity never written to costs a large file
    // no pages.
    let mut out = Vec::with_capacity(src.len() / 2);
    let n = src.len();
    let mut i = 0usize;
    while i < n {
        let b = src[i];
        let start = i;
        match STARTS[b as usize] {
            Start::Space => {
                // A run at once: a quarter of the 1x real tree's bytes are whitespace,
                // mostly indentation.
                i = run_end(src, i + 1, SPACE);
            }
            Start::Slash if src.get(i + 1) == Some(&b'/') => {
                // To the end of the line, found by memchr: a quarter of a tree's bytes
                // are line comments (docs), which this loop stepped through one by one.
                i = src
                    .get(i..)
                    .and_then(|rest| memchr::memchr(b'\n', rest))
                    .map_or(n, |k| i + k);
            }
            Start::Slash if src.get(i + 1) == Some(&b'*') => i = skip_block_comment(src, i),
            // Raw strings and byte/C strings: r"..", r#".."#, br"..", b"..", c"..".
            Start::Prefix => match prefixed_string(src, i) {
                Some(end) => {
                    out.push(tok(Tok::Str, start, end));
                    i = end;
                }
                None => {
                    i = run_end(src, i + 1, IDENT);
                    out.push(tok(Tok::Ident, start, i));
                }
            },
            Start::Quote => {
                i = skip_string(src, i + 1);
                out.push(tok(Tok::Str, start, i));
            }
            Start::Apostrophe => {
                let (kind, end) = char_or_lifetime(src, i);
                out.push(tok(kind, start, end));
                i = end;
            }
            Start::Digit => {
                i = run_end(src, i + 1, NUM);
                // A fraction, but not a range (`0..N`) or a method (`1.max(..)`).
                if i + 1 < n && src[i] == b'.' && src[i + 1].is_ascii_digit() {
                    i = run_end(src, i + 1, NUM);
                }
                out.push(tok(Tok::Num, start, i));
            }
            Start::Ident => {
                i = run_end(src, i + 1, IDENT);
                out.push(tok(Tok::Ident, start, i));
            }
            Start::Slash | Start::Punct => {
                out.push(tok(Tok::Punct(b), start, i + 1));
                i += 1;
            }
        }
    }
    out
}

fn tok(kind: Tok, start: usize, end: usize) -> Token {
    Token {
        kind,
        start: start as u32,
        end: end as u32,
    }
}

fn skip_block_comment(src: &[u8], mut i: usize) -> usize {
    let n = src.len();
    let mut depth = 0usize;
    while i < n {
        if src[i] == b'/' && i + 1 < n && src[i + 1] == b'*' {
            depth += 1;
            i += 2;
        } else if src[i] == b'*' && i + 1 < n && src[i + 1] == b'/' {
            depth = depth.saturating_sub(1);
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    n
}

/// From just after an opening quote to just after the closing one.
fn skip_string(src: &[u8], mut i: usize) -> usize {
    // Only a backslash or a quote matters: memchr finds the next of either.
    while let Some(k) = src
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'\\', b'"', rest))
    {
        if src[i + k] == b'"' {
            return i + k + 1;
        }
        i += k + 2;
    }
    src.len()
}

/// `r"..."`, `r#"..."#`, `b"..."`, `br#".."#`, `c"..."`: the end, or None when `i`
/// starts an identifier instead.
fn prefixed_string(src: &[u8], i: usize) -> Option<usize> {
    let n = src.len();
    let mut j = i;
    if src[j] == b'b' || src[j] == b'c' {
        j += 1;
    }
    let raw = j < n && src[j] == b'r';
    if raw {
        j += 1;
    }
    if j == i {
        return None;
    }
    if !raw {
        return (j < n && src[j] == b'"').then(|| skip_string(src, j + 1));
    }
    let mut hashes = 0usize;
    while j < n && src[j] == b'#' {
        hashes += 1;
        j += 1;
    }
    if j >= n || src[j] != b'"' {
        return None;
    }
    j += 1;
    while j < n {
        if src[j] == b'"' {
            let mut k = j + 1;
            let mut h = 0;
            while h < hashes && k < n && src[k] == b'#' {
                h += 1;
                k += 1;
            }
            if h == hashes {
                return Some(k);
            }
        }
        j += 1;
    }
    Some(n)
}

fn char_or_lifetime(src: &[u8], i: usize) -> (Tok, usize) {
    let n = src.len();
    let j = i + 1;
    if j >= n {
        return (Tok::Punct(b'\''), n);
    }
    if src[j] == b'\\' {
        // An escaped char: '\n', '\'', '\u{1F600}'.
        let mut k = j + 2;
        while k < n && src[k] != b'\'' && k - j < 12 {
            k += 1;
        }
        return (Tok::Char, (k + 1).min(n));
    }
    // One UTF-8 char, then a quote: a char literal.
    let width = match src[j] {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        _ => 2,
    };
    if j + width < n && src[j + width] == b'\'' {
        return (Tok::Char, j + width + 1);
    }
    let mut k = j;
    while k < n && is_ident_continue(src[k]) {
        k += 1;
    }
    if k == j {
        return (Tok::Punct(b'\''), j);
    }
    (Tok::Lifetime, k)
}

/// Macros whose arguments are expressions: rewritten into a call `name (..)`.
const CALL_MACROS: &[&str] = &[
    "format",
    "format_args",
    "concat",
    "env",
    "option_env",
    "join",
    "try_join",
    "print",
    "println",
    "eprint",
    "eprintln",
    "write",
    "writeln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "dbg",
    "panic",
    "anyhow",
    "bail",
    "Ok",
];

/// Macros that build a map from `k => v` pairs: rewritten into a flat array.
pub const MAP_MACROS: &[&str] = &[
    "hashmap",
    "hash_map",
    "btreemap",
    "convert_args",
    "indexmap",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rewrite {
    Keep,
    /// Close with this byte.
    Close(u8),
    /// A map macro: close with `]` and turn `=>` at its top level into `, `.
    Map,
    /// `lazy_static! { .. }`: blank the braces, drop `ref`.
    LazyStatic,
}

/// A copy of `src`, the same length, in which expression-like macros are rewritten so
/// tree-sitter parses their insides: `vec![a, b]` → `    [a, b]`, `format!("{}", x)` →
/// `format ("{}", x)`, `hashmap!{k => v}` → `        [k , v]`, `lazy_static! { static
/// ref X: T = e; }` → `static X: T = e;`. Only ASCII bytes are replaced by ASCII bytes,
/// so every byte offset and char boundary is that of `src`.
pub fn shadow_text(src: &[u8], tokens: &[Token]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut stack: Vec<Rewrite> = Vec::new();
    let blank = |out: &mut Vec<u8>, t: &Token| {
        for b in out
            .get_mut(t.start as usize..t.end as usize)
            .into_iter()
            .flatten()
        {
            *b = b' ';
        }
    };
    let set = |out: &mut Vec<u8>, t: &Token, c: u8| {
        if let Some(b) = out.get_mut(t.start as usize) {
            *b = c;
        }
    };
    let mut i = 0usize;
    while i < tokens.len() {
        let t = tokens[i];
        match t.kind {
            Tok::Ident => {
                let bang = tokens.get(i + 1).is_some_and(|b| b.is_punct(b'!'));
                let open = tokens.get(i + 2).filter(|o| {
                    matches!(
                        o.kind,
                        Tok::Punct(b'(') | Tok::Punct(b'[') | Tok::Punct(b'{')
                    )
                });
                let after_macro_rules = i > 0 && tokens[i - 1].is_punct(b'!');
                if let (true, Some(open), false) = (bang, open, after_macro_rules) {
                    let name = t.text(src);
                    let rewrite = if name == b"vec" {
                        blank_path(&mut out, tokens, i, src);
                        blank(&mut out, &tokens[i + 1]);
                        set(&mut out, open, b'[');
                        Some(Rewrite::Close(b']'))
                    } else if MAP_MACROS.iter().any(|m| m.as_bytes() == name) {
                        blank_path(&mut out, tokens, i, src);
                        blank(&mut out, &tokens[i + 1]);
                        set(&mut out, open, b'[');
                        Some(Rewrite::Map)
                    } else if name == b"lazy_static" && open.is_punct(b'{') {
                        blank_path(&mut out, tokens, i, src);
                        blank(&mut out, &tokens[i + 1]);
                        blank(&mut out, open);
                        Some(Rewrite::LazyStatic)
                    } else if CALL_MACROS.iter().any(|m| m.as_bytes() == name) {
                        blank(&mut out, &tokens[i + 1]);
                        set(&mut out, open, b'(');
                        Some(Rewrite::Close(b')'))
                    } else {
                        None
                    };
                    if let Some(r) = rewrite {
                        stack.push(r);
                        i += 3;
                        continue;
                    }
                }
                if t.is_ident(src, "ref") && stack.last() == Some(&Rewrite::LazyStatic) {
                    blank(&mut out, &t);
                }
            }
            Tok::Punct(b'(') | Tok::Punct(b'[') | Tok::Punct(b'{') => stack.push(Rewrite::Keep),
            Tok::Punct(b')') | Tok::Punct(b']') | Tok::Punct(b'}') => match stack.pop() {
                Some(Rewrite::Close(c)) => set(&mut out, &t, c),
                Some(Rewrite::Map) => set(&mut out, &t, b']'),
                Some(Rewrite::LazyStatic) => blank(&mut out, &t),
                _ => {}
            },
            Tok::Punct(b'=') => {
                let arrow = tokens.get(i + 1).is_some_and(|g| {
                    g.is_punct(b'>') && g.start == t.end && stack.last() == Some(&Rewrite::Map)
                });
                if arrow {
                    set(&mut out, &t, b',');
                    set(&mut out, &tokens[i + 1], b' ');
                    i += 2;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Blanks a `maplit::` path before a macro name so the rewrite stays an expression.
fn blank_path(out: &mut [u8], tokens: &[Token], name_at: usize, src: &[u8]) {
    let mut j = name_at;
    loop {
        // `ident` `:` `:` before position j.
        if j < 3 {
            break;
        }
        let (a, b, c) = (tokens[j - 3], tokens[j - 2], tokens[j - 1]);
        if a.kind == Tok::Ident && b.is_punct(b':') && c.is_punct(b':') {
            for t in [a, b, c] {
                for x in out
                    .get_mut(t.start as usize..t.end as usize)
                    .into_iter()
                    .flatten()
                {
                    *x = b' ';
                }
            }
            j -= 3;
        } else {
            break;
        }
    }
    let _ = src;
    if let Some(t) = tokens.get(name_at) {
        for x in out
            .get_mut(t.start as usize..t.end as usize)
            .into_iter()
            .flatten()
        {
            *x = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    fn shadow(s: &str) -> String {
        let toks = tokenize(s.as_bytes());
        String::from_utf8_lossy(&shadow_text(s.as_bytes(), &toks)).into_owned()
    }

    #[test]
    fn tokens_skip_comments_and_strings() {
        let src = br##"a /* b /* c */ d */ "x\"y" r#"q"z"# 'c' 'life // e
f"##;
        let toks = tokenize(src);
        let kinds: Vec<_> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            vec![
                Tok::Ident,
                Tok::Str,
                Tok::Str,
                Tok::Char,
                Tok::Lifetime,
                Tok::Ident
            ]
        );
    }

    /// The tokenizer as it was before byte classes and memchr: one byte a step.
    fn tokenize_bytewise(src: &[u8]) -> Vec<Token> {
        let ident_start = |b: u8| b == b'_' || b.is_ascii_alphabetic() || b >= 0x80;
        let ident_continue = |b: u8| b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80;
        let skip_string = |mut i: usize| {
            while i < src.len() {
                match src[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1,
                    _ => i += 1,
                }
            }
            src.len()
        };
        let mut out = Vec::new();
        let n = src.len();
        let mut i = 0usize;
        while i < n {
            let b = src[i];
            let start = i;
            if b.is_ascii_whitespace() {
                i += 1;
            } else if b == b'/' && i + 1 < n && src[i + 1] == b'/' {
                while i < n && src[i] != b'\n' {
                    i += 1;
                }
            } else if b == b'/' && i + 1 < n && src[i + 1] == b'*' {
                i = skip_block_comment(src, i);
            } else if let Some(end) = matches!(b, b'r' | b'b' | b'c')
                .then(|| prefixed_string(src, i))
                .flatten()
            {
                out.push(tok(Tok::Str, start, end));
                i = end;
            } else if b == b'"' {
                i = skip_string(i + 1);
                out.push(tok(Tok::Str, start, i));
            } else if b == b'\'' {
                let (kind, end) = char_or_lifetime(src, i);
                out.push(tok(kind, start, end));
                i = end;
            } else if ident_start(b) {
                while i < n && ident_continue(src[i]) {
                    i += 1;
                }
                out.push(tok(Tok::Ident, start, i));
            } else if b.is_ascii_digit() {
                while i < n && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                    i += 1;
                }
                if i + 1 < n && src[i] == b'.' && src[i + 1].is_ascii_digit() {
                    i += 1;
                    while i < n && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                        i += 1;
                    }
                }
                out.push(tok(Tok::Num, start, i));
            } else {
                out.push(tok(Tok::Punct(b), start, i + 1));
                i += 1;
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Byte classes and memchr skip what the byte-a-step tokenizer skipped, and
        /// cut the same tokens, on any bytes: Rust-like text with strings, comments,
        /// numbers, non-ASCII and invalid UTF-8.
        #[test]
        fn tokens_are_those_of_a_byte_a_step(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(vec![
                        "fn", "r#\"", "\"#", "r\"", "b\"", "br#\"", "c\"", "\"", "\\", "\\\"",
                        "'", "'a", "'\\n'", "'é'", "//", "/*", "*/", "\n", " ", "\t", "\r",
                        "\x0b", "\x0c", "1.5", "0..2", "1.max", "x_1", "é", "(", ")", "{", "}",
                        ".", "::", "#", "1e3", "_", "0x_ff", "\u{a0}",
                    ]).prop_map(|s| s.as_bytes().to_vec()),
                    proptest::collection::vec(proptest::num::u8::ANY, 0..4),
                ],
                0..40,
            )
        ) {
            let src: Vec<u8> = parts.concat();
            proptest::prop_assert_eq!(tokenize(&src), tokenize_bytewise(&src));
        }
    }

    #[test]
    fn macros_become_expressions() {
        assert_eq!(shadow("vec![a, b]"), "    [a, b]");
        assert_eq!(shadow("format!(\"{}\", x)"), "format (\"{}\", x)");
        assert_eq!(
            shadow("maplit::hashmap!{k => v}"),
            "                [k ,  v]"
        );
        assert_eq!(
            shadow("lazy_static! { static ref X: T = e; }"),
            "               static     X: T = e;  "
        );
        assert_eq!(shadow("tokio::join!(a, b)"), "tokio::join (a, b)");
        // Unbalanced input never panics.
        let _ = shadow("vec![ ) ] } format!(");
        let _ = shadow("'");
        let _ = shadow("r#\"abc");
    }
}
