//! What a PartiQL `ExecuteStatement` reads, as far as rules need it: whether it is a
//! `SELECT`, the table (and index) it names after `FROM`, and the attributes its
//! `WHERE` fixes with `=` or `IN` (which decides whether DynamoDB runs it as a key
//! lookup or as a scan). A small tokenizer, not a PartiQL parser: anything it cannot
//! read is [`Statement::Unknown`], and rules then stay quiet.

/// One PartiQL statement, read for its access pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// `SELECT .. FROM "Table"."Index" WHERE ..`.
    Select(Select),
    /// `INSERT`, `UPDATE`, `DELETE`: a write.
    Write,
    /// Text that is not static, or not read here.
    Unknown,
}

/// The parts of a `SELECT` that say which key it reads by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Select {
    /// The table named after `FROM`.
    pub table: String,
    /// The index, for `FROM "Table"."Index"`.
    pub index: Option<String>,
    /// Attributes the `WHERE` clause compares with `=` or `IN` (`PK = ?`, `PK IN [..]`).
    pub fixed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A bare word: a keyword or an unquoted name.
    Word(String),
    /// A `"quoted"` name.
    Quoted(String),
    /// A `'string'` or a number: a value.
    Value,
    /// Any other character (`=`, `.`, `[`, `?`, ...).
    Punct(char),
}

/// Reads a statement's text.
pub fn read(text: &str) -> Statement {
    let Some(tokens) = tokenize(text) else {
        return Statement::Unknown;
    };
    let keyword = |t: &Token, k: &str| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case(k));
    match tokens.first() {
        Some(t) if keyword(t, "SELECT") => {}
        Some(t) if ["INSERT", "UPDATE", "DELETE"].iter().any(|k| keyword(t, k)) => {
            return Statement::Write
        }
        _ => return Statement::Unknown,
    }
    let Some(from) = tokens.iter().position(|t| keyword(t, "FROM")) else {
        return Statement::Unknown;
    };
    let name = |t: Option<&Token>| match t {
        Some(Token::Word(w) | Token::Quoted(w)) => Some(w.clone()),
        _ => None,
    };
    let Some(table) = name(tokens.get(from + 1)) else {
        return Statement::Unknown;
    };
    let index = match tokens.get(from + 2) {
        Some(Token::Punct('.')) => match name(tokens.get(from + 3)) {
            Some(i) => Some(i),
            None => return Statement::Unknown,
        },
        _ => None,
    };
    let mut fixed = Vec::new();
    if let Some(at) = tokens.iter().position(|t| keyword(t, "WHERE")) {
        let clause = &tokens[at + 1..];
        for (i, t) in clause.iter().enumerate() {
            let Some(attr) = name(Some(t)) else { continue };
            if matches!(t, Token::Word(w) if is_operator_word(w)) {
                continue;
            }
            let next = clause.get(i + 1);
            let before = i.checked_sub(1).and_then(|j| clause.get(j));
            let compared = matches!(next, Some(Token::Punct('=')))
                || next.is_some_and(|n| keyword(n, "IN"))
                || (matches!(before, Some(Token::Punct('=')))
                    && !matches!(next, Some(Token::Punct('.') | Token::Punct('['))));
            if compared && !fixed.contains(&attr) {
                fixed.push(attr);
            }
        }
    }
    Statement::Select(Select {
        table,
        index,
        fixed,
    })
}

/// The table a statement reads or writes, when its text names one.
pub fn table(text: &str) -> Option<String> {
    match read(text) {
        Statement::Select(s) => Some(s.table),
        Statement::Write => write_table(text),
        Statement::Unknown => None,
    }
}

/// The table an `INSERT INTO "T"`, `UPDATE "T"` or `DELETE FROM "T"` writes.
pub fn write_table(text: &str) -> Option<String> {
    let tokens = tokenize(text)?;
    let word = |t: &Token, k: &str| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case(k));
    let at = match tokens.first()? {
        t if word(t, "UPDATE") => 1,
        t if word(t, "INSERT") && tokens.get(1).is_some_and(|t| word(t, "INTO")) => 2,
        t if word(t, "DELETE") && tokens.get(1).is_some_and(|t| word(t, "FROM")) => 2,
        _ => return None,
    };
    match tokens.get(at)? {
        Token::Word(w) | Token::Quoted(w) => Some(w.clone()),
        _ => None,
    }
}

/// Words of the `WHERE` grammar that are never attribute names.
fn is_operator_word(w: &str) -> bool {
    [
        "AND", "OR", "NOT", "IN", "IS", "BETWEEN", "MISSING", "NULL", "TRUE", "FALSE",
    ]
    .iter()
    .any(|k| w.eq_ignore_ascii_case(k))
}

/// Splits a statement into tokens; `None` on an unterminated quote.
fn tokenize(text: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' | '\'' => {
                let mut body = String::new();
                let mut closed = false;
                while let Some((_, d)) = chars.next() {
                    if d == c {
                        // A doubled quote is an escaped quote inside the name or string.
                        if chars.peek().is_some_and(|(_, e)| *e == c) {
                            chars.next();
                            body.push(c);
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    body.push(d);
                }
                if !closed {
                    return None;
                }
                out.push(if c == '"' {
                    Token::Quoted(body)
                } else {
                    Token::Value
                });
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some((j, d)) = chars.peek().copied() {
                    if d.is_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                let word = &text[i..end];
                out.push(if c.is_ascii_digit() {
                    Token::Value
                } else {
                    Token::Word(word.to_string())
                });
            }
            c => out.push(Token::Punct(c)),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn select(text: &str) -> Select {
        match read(text) {
            Statement::Select(s) => s,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn reads_table_index_and_the_attributes_the_where_fixes() {
        let cases: [(&str, &str, Option<&str>, &[&str]); 6] = [
            (
                "SELECT * FROM \"Orders\" WHERE PK = ?",
                "Orders",
                None,
                &["PK"],
            ),
            (
                "select OrderID, Total from \"LegacyOrders\".\"ByOrderID\" where \"OrderID\" = ?",
                "LegacyOrders",
                Some("ByOrderID"),
                &["OrderID"],
            ),
            (
                "SELECT * FROM Orders WHERE Id IN [?, ?] AND Total > 10",
                "Orders",
                None,
                &["Id"],
            ),
            ("SELECT * FROM Orders WHERE ? = Id", "Orders", None, &["Id"]),
            ("SELECT * FROM \"Orders\"", "Orders", None, &[]),
            (
                "SELECT * FROM Orders WHERE Total > 10 AND Status IS NOT MISSING",
                "Orders",
                None,
                &[],
            ),
        ];
        for (text, table, index, fixed) in cases {
            let s = select(text);
            assert_eq!(s.table, table, "{text}");
            assert_eq!(s.index.as_deref(), index, "{text}");
            assert_eq!(s.fixed, fixed, "{text}");
        }
    }

    #[test]
    fn writes_and_unreadable_text() {
        assert_eq!(
            read("UPDATE \"Orders\" SET Total = 3 WHERE Id = ?"),
            Statement::Write
        );
        assert_eq!(read("INSERT INTO Orders VALUE {'Id': ?}"), Statement::Write);
        assert_eq!(read("SELECT * FROM \"Orders"), Statement::Unknown);
        assert_eq!(read("EXISTS(SELECT * FROM Orders)"), Statement::Unknown);
        assert_eq!(read(""), Statement::Unknown);
    }
}
