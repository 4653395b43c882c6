//! What an ORM schema of the same project says is unique: a SeaORM entity
//! (`#[sea_orm(table_name = "sessions")] struct Model { #[sea_orm(unique)] token_hash:
//! String, .. }`) declares that no two rows share a `token_hash`. A project that keeps
//! the same records in DynamoDB beside a SQL store (storage adapters behind one
//! repository trait) states there the invariant its DynamoDB code relies on: a GSI
//! keyed by such an attribute holds one item per value.
//!
//! Read from the tokens, like the types a file declares (`types.rs`), so an entity
//! file the byte pre-filter rules out (it names no SDK marker) counts too. Only what
//! the schema states counts: an entity whose column names are renamed (`rename_all`)
//! or a field whose attribute does not read adds nothing.

use crate::scanner::ir::UniqueColumn;
use crate::scanner::syntax::lex::{Tok, Token};

/// The columns SeaORM entities in this file declare unique (`#[sea_orm(unique)]`, or
/// the entity's only `primary_key`), by the entity's `table_name`.
pub fn unique_columns(src: &[u8], toks: &[Token]) -> Vec<UniqueColumn> {
    let mut out = Vec::new();
    // Most files name no ORM: one byte search spares the token walk.
    if memchr::memmem::find(src, b"sea_orm").is_none() {
        return out;
    }
    let mut i = 0usize;
    while i < toks.len() {
        let Some((args, end)) = sea_orm_attribute(src, toks, i) else {
            i += 1;
            continue;
        };
        let Some(table) = string_arg(src, &args, "table_name") else {
            i = end;
            continue;
        };
        // The struct the attribute is on: past any other attributes and `pub`.
        let mut renamed = flag(src, &args, "rename_all");
        let mut j = end;
        loop {
            if let Some((more, k)) = sea_orm_attribute(src, toks, j) {
                renamed |= flag(src, &more, "rename_all");
                j = k;
            } else if let Some(k) = attribute_end(toks, j) {
                j = k;
            } else if toks.get(j).is_some_and(|t| t.is_ident(src, "pub")) {
                j += 1;
                if toks.get(j).is_some_and(|t| t.is_punct(b'(')) {
                    j = skip_balanced(toks, j, b'(', b')').unwrap_or(toks.len());
                }
            } else {
                break;
            }
        }
        let is_struct = toks.get(j).is_some_and(|t| t.is_ident(src, "struct"));
        let body = j + 2;
        if !is_struct || renamed || !toks.get(body).is_some_and(|t| t.is_punct(b'{')) {
            i = end;
            continue;
        }
        let fields = entity_fields(src, toks, body);
        let keys = fields.iter().filter(|f| f.primary_key).count();
        for f in fields {
            if f.unique || (f.primary_key && keys == 1) {
                out.push(UniqueColumn {
                    table: table.clone(),
                    column: f.column,
                });
            }
        }
        i = body;
    }
    out
}

/// One field of an entity: its column's name and what its attributes mark.
struct EntityField {
    column: String,
    unique: bool,
    primary_key: bool,
}

/// The fields of the struct whose `{` is token `at`.
fn entity_fields(src: &[u8], toks: &[Token], at: usize) -> Vec<EntityField> {
    let mut out = Vec::new();
    let Some(close) = skip_balanced(toks, at, b'{', b'}') else {
        return out;
    };
    let mut j = at + 1;
    // The `sea_orm` attributes seen since the last field.
    let mut attrs: Vec<Vec<Arg>> = Vec::new();
    while j + 1 < close {
        if let Some((args, k)) = sea_orm_attribute(src, toks, j) {
            attrs.push(args);
            j = k;
            continue;
        }
        if let Some(k) = attribute_end(toks, j) {
            j = k;
            continue;
        }
        let t = toks[j];
        if t.is_ident(src, "pub") {
            j += 1;
            if toks.get(j).is_some_and(|t| t.is_punct(b'(')) {
                j = skip_balanced(toks, j, b'(', b')').unwrap_or(close);
            }
            continue;
        }
        let colon = toks.get(j + 1).is_some_and(|c| c.is_punct(b':'))
            && !toks.get(j + 2).is_some_and(|c| c.is_punct(b':'));
        if t.kind != Tok::Ident || !colon {
            // Not a field's start: the struct does not read as the walk expects.
            return Vec::new();
        }
        let name = String::from_utf8_lossy(t.text(src)).into_owned();
        let column = attrs
            .iter()
            .find_map(|a| string_arg(src, a, "column_name"))
            .unwrap_or_else(|| name.trim_start_matches("r#").to_string());
        out.push(EntityField {
            column,
            unique: attrs.iter().any(|a| flag(src, a, "unique")),
            primary_key: attrs.iter().any(|a| flag(src, a, "primary_key")),
        });
        attrs.clear();
        // Past the field's type, to the `,` at this depth (or the struct's end).
        j = next_field(toks, j + 2, close);
    }
    out
}

/// The token after the `,` that ends the field type starting at `from`, or `close`.
fn next_field(toks: &[Token], from: usize, close: usize) -> usize {
    let mut depth = 0i32;
    let mut k = from;
    while k < close {
        let t = toks[k];
        match t.kind {
            Tok::Punct(b'<' | b'(' | b'[') => depth += 1,
            Tok::Punct(b'>') if !toks[k - 1].is_punct(b'-') => depth -= 1,
            Tok::Punct(b')' | b']') => depth -= 1,
            Tok::Punct(b',') if depth <= 0 => return k + 1,
            _ => {}
        }
        k += 1;
    }
    close
}

/// One comma-separated argument of an attribute: its tokens.
type Arg = Vec<Token>;

/// `#[sea_orm(..)]` starting at token `at`: its arguments and the token after its `]`.
fn sea_orm_attribute(src: &[u8], toks: &[Token], at: usize) -> Option<(Vec<Arg>, usize)> {
    let end = attribute_end(toks, at)?;
    if !toks.get(at + 2)?.is_ident(src, "sea_orm") || !toks.get(at + 3)?.is_punct(b'(') {
        return None;
    }
    let close = skip_balanced(toks, at + 3, b'(', b')')?;
    let mut args = Vec::new();
    let mut arg = Vec::new();
    let mut depth = 0i32;
    for t in &toks[at + 4..close - 1] {
        match t.kind {
            Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
            Tok::Punct(b')' | b']' | b'}') => depth -= 1,
            Tok::Punct(b',') if depth == 0 => {
                args.push(std::mem::take(&mut arg));
                continue;
            }
            _ => {}
        }
        arg.push(*t);
    }
    args.push(arg);
    Some((args, end))
}

/// The token after the `]` of the attribute `#[..]` starting at token `at`.
fn attribute_end(toks: &[Token], at: usize) -> Option<usize> {
    if !toks.get(at)?.is_punct(b'#') || !toks.get(at + 1)?.is_punct(b'[') {
        return None;
    }
    skip_balanced(toks, at + 1, b'[', b']')
}

/// Whether an argument is the bare word `name` (`unique`), or `name = ..`.
fn flag(src: &[u8], args: &[Arg], name: &str) -> bool {
    args.iter()
        .any(|a| a.first().is_some_and(|t| t.is_ident(src, name)))
}

/// The string of `name = "value"` among the arguments.
fn string_arg(src: &[u8], args: &[Arg], name: &str) -> Option<String> {
    args.iter().find_map(|a| match a.as_slice() {
        [n, eq, value] if n.is_ident(src, name) && eq.is_punct(b'=') && value.kind == Tok::Str => {
            let text = std::str::from_utf8(value.text(src)).ok()?;
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            (!inner.is_empty() && !inner.contains('\\')).then(|| inner.to_string())
        }
        _ => None,
    })
}

/// The index just past the bracket that closes the one at `at`.
fn skip_balanced(toks: &[Token], at: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(at) {
        if t.is_punct(open) {
            depth += 1;
        } else if t.is_punct(close) {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(k + 1);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;

    fn unique(code: &str) -> Vec<(String, String)> {
        unique_columns(code.as_bytes(), &tokenize(code.as_bytes()))
            .into_iter()
            .map(|u| (u.table, u.column))
            .collect()
    }

    fn pair(t: &str, c: &str) -> (String, String) {
        (t.to_string(), c.to_string())
    }

    #[test]
    fn an_entitys_unique_columns_and_its_only_primary_key() {
        let code = r#"
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "impersonation_sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub admin_id: Uuid,
    pub original_session_id: Uuid,
    #[sea_orm(unique)]
    pub impersonation_session_id: Uuid,
    #[sea_orm(column_type = "Text", nullable)]
    pub reason: Option<String>,
    pub started_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::user::Entity",
        from = "Column::AdminId",
        to = "super::user::Column::Id"
    )]
    Admin,
}
"#;
        assert_eq!(
            unique(code),
            vec![
                pair("impersonation_sessions", "id"),
                pair("impersonation_sessions", "impersonation_session_id"),
            ]
        );
    }

    #[test]
    fn a_composite_primary_key_and_renamed_columns() {
        // Two primary keys: neither alone names a row. `column_name` is the column.
        let members = r#"
#[derive(Clone, Debug, DeriveEntityModel)]
#[sea_orm(table_name = "organization_members")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub organization_id: Uuid,
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: Uuid,
    #[sea_orm(unique, column_name = "invite_code")]
    pub code: String,
    pub role: HashMap<String, Vec<(u8, String)>>,
}
"#;
        assert_eq!(
            unique(members),
            vec![pair("organization_members", "invite_code")]
        );
        // Names the schema maps by a rule dynalint does not apply: nothing.
        let renamed = r#"
#[derive(DeriveEntityModel)]
#[sea_orm(table_name = "users", rename_all = "camelCase")]
pub struct Model {
    #[sea_orm(unique)]
    pub email_address: String,
}
"#;
        assert!(unique(renamed).is_empty());
    }

    #[test]
    fn no_entity_no_columns() {
        // A serde struct, and an attribute that is not on a struct.
        let code = r#"
#[derive(Serialize)]
pub struct User { #[serde(rename = "unique")] pub id: String }
#[sea_orm(table_name = "nothing")]
fn not_an_entity() {}
"#;
        assert!(unique(code).is_empty());
    }
}
