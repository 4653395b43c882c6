//! Operation → table and index of the model. Never guesses a table: an unresolved or
//! unmatched name binds to nothing, and says why.

use crate::model::{Index, Model, Table};
use crate::scanner::{Operation, Resolved};

/// An operation with the table and index of the model it targets.
#[derive(Debug, Clone)]
pub struct BoundOperation<'a> {
    pub op: &'a Operation,
    pub table: Option<&'a Table>,
    pub index: Option<&'a Index>,
    /// Why `table` is `None` (or the index did not bind), for messages.
    pub unbound: Option<String>,
    /// The batch or transaction this request is an item of (`TransactWriteItems` for
    /// its `Put`), so messages name the item, not a call the code does not make.
    pub parent: Option<crate::scanner::OpKind>,
}

/// Finds the model table an operation names, by literal name, const name or env var.
pub fn bind<'a>(model: &'a Model, op: &'a Operation) -> BoundOperation<'a> {
    let mut b = BoundOperation {
        op,
        table: None,
        index: None,
        unbound: None,
        parent: None,
    };
    let Some(table_ref) = &op.table else {
        b.unbound = Some("the call sets no table name".into());
        return b;
    };
    b.table = find_table(model, table_ref).or_else(|| {
        // An unknown value read from a field or variable (`&self.config.orders_table`,
        // filled by a config loader): its name may be listed in `refs`.
        matches!(table_ref.innermost(), Resolved::Unknown { .. })
            .then(|| holder_name(op.table_text.as_deref()?))
            .flatten()
            .and_then(|name| {
                model
                    .tables
                    .iter()
                    .find(|t| t.refs.iter().any(|r| r == name))
            })
    });
    let Some(table) = b.table else {
        b.unbound = Some(match table_ref.innermost() {
            Resolved::Unknown { reason } => {
                format!("the table name is not known statically: {reason}")
            }
            _ => format!(
                "no `[[table]]` in the model is named {} or lists it in `refs`",
                table_ref.label()
            ),
        });
        return b;
    };
    if let Some(index_ref) = &op.index {
        match index_ref.value() {
            Some(name) => b.index = table.index(name),
            None => b.unbound = Some("the index name is not known statically".into()),
        }
    }
    b
}

/// The name of the field or variable an expression reads: `orders_table` of
/// `&self.config.orders_table.clone()`; `None` for calls and literals.
fn holder_name(text: &str) -> Option<&str> {
    let mut t = text.trim().trim_start_matches('&').trim();
    t = t.strip_prefix("mut ").unwrap_or(t).trim_end_matches('?');
    for suffix in [
        ".clone()",
        ".as_str()",
        ".to_string()",
        ".as_ref()",
        ".to_owned()",
    ] {
        if let Some(rest) = t.strip_suffix(suffix) {
            t = rest;
        }
    }
    let last = t.rsplit(['.', ':']).next()?;
    let is_name = !last.is_empty()
        && last.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !last.starts_with(|c: char| c.is_ascii_digit());
    is_name.then_some(last)
}

/// A table matches when any name the reference is known by is its name or in its refs;
/// failing that, a name the code builds (`format!("{}-orders", stage)`) or a literal
/// (`"prod-orders"`) matches a table whose name is a template (`{Stage}-orders`, from
/// `!Sub "${Stage}-orders"`) — when exactly one table's does.
pub fn find_table<'a>(model: &'a Model, r: &Resolved) -> Option<&'a Table> {
    let names = r.names();
    if let Some(t) = model
        .tables
        .iter()
        .find(|t| names.iter().any(|n| t.is_named_by(n)))
    {
        return Some(t);
    }
    let fits = |t: &Table| match r.innermost() {
        Resolved::Template { template } => {
            let code = shape(template);
            code.contains(HOLE) && code == shape(&t.name)
        }
        Resolved::Literal { value } => t.name_template().is_some_and(|tpl| tpl.matches(value)),
        _ => false,
    };
    let mut found = model.tables.iter().filter(|t| fits(t));
    match (found.next(), found.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    }
}

/// What stands for a hole in [`shape`].
const HOLE: char = '\u{1}';

/// A name with every hole (`{}`, `{stage}`, `${Stage}`) made one [`HOLE`], so a
/// template the code builds and one a template file declares compare by their
/// literal parts.
fn shape(name: &str) -> String {
    let mut out = String::new();
    let mut rest = name;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let lit = rest[..open].strip_suffix('$').unwrap_or(&rest[..open]);
        out.push_str(lit);
        if !out.ends_with(HOLE) || !lit.is_empty() {
            out.push(HOLE);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::OpKind;
    use crate::source::Span;

    const MODEL: &str = r#"
[[table]]
name = "Orders"
refs = ["ORDERS_TABLE", "orders_table"]
partition-key = "PK"
[table.attributes]
PK = "S"
"#;

    fn op(table: Resolved, text: &str) -> Operation {
        let mut o = Operation::new(
            OpKind::Scan,
            std::path::PathBuf::from("a.rs").into(),
            Span::new(0, 1),
        );
        o.table = Some(table);
        o.table_text = Some(text.to_string());
        o
    }

    #[test]
    fn built_names_bind_to_a_table_named_by_a_template() {
        let model = |names: &[&str]| {
            let text: String = names
                .iter()
                .map(|n| format!("[[table]]\nname = \"{n}\"\npartition-key = \"PK\"\n[table.attributes]\nPK = \"S\"\n"))
                .collect();
            crate::model::load_str(std::path::Path::new("m.toml"), &text).unwrap()
        };
        let m = model(&["{Stage}-orders", "{Stage}-users"]);
        let tpl = |t: &str| Resolved::Template {
            template: t.to_string(),
        };
        let bound = |r: &Resolved| find_table(&m, r).map(|t| t.name.clone());
        assert_eq!(bound(&tpl("{}-orders")).as_deref(), Some("{Stage}-orders"));
        assert_eq!(
            bound(&tpl("{stage}-users")).as_deref(),
            Some("{Stage}-users")
        );
        assert_eq!(
            bound(&Resolved::literal("prod-users")).as_deref(),
            Some("{Stage}-users")
        );
        assert_eq!(bound(&tpl("{}_orders")), None, "the literal parts differ");
        assert_eq!(bound(&tpl("orders-{}")), None);
        // Two templates a literal fits: no guess.
        let m2 = model(&["{A}-orders", "prod-{B}"]);
        assert!(find_table(&m2, &Resolved::literal("prod-orders")).is_none());
        assert_eq!(shape("${Stage}-orders"), shape("{}-orders"));
        assert_eq!(shape("{a}{b}-x"), shape("{}-x"));
    }

    #[test]
    fn holder_names() {
        assert_eq!(
            holder_name("&self.config.orders_table"),
            Some("orders_table")
        );
        assert_eq!(
            holder_name("state.orders_table.clone()"),
            Some("orders_table")
        );
        assert_eq!(holder_name("config::ORDERS"), Some("ORDERS"));
        assert_eq!(holder_name("table"), Some("table"));
        assert_eq!(holder_name("table_for(kind)"), None);
        assert_eq!(holder_name("\"Orders\""), None);
        assert_eq!(holder_name("tables.0"), None);
    }

    #[test]
    fn unknown_values_bind_by_the_field_they_are_read_from() {
        let m = crate::model::load_str(std::path::Path::new("m.toml"), MODEL).unwrap();
        let unknown = || Resolved::unknown("not followed");
        let by_field = op(unknown(), "&self.config.orders_table");
        assert_eq!(
            bind(&m, &by_field).table.map(|t| t.name.as_str()),
            Some("Orders")
        );
        // Another field name, or a call, stays unbound and says why.
        for text in ["&self.config.users_table", "table_name()"] {
            let o = op(unknown(), text);
            let b = bind(&m, &o);
            assert!(b.table.is_none());
            assert!(b.unbound.unwrap().contains("not known statically"));
        }
        // A known value that names no table is not rescued by its holder's name.
        let literal = op(Resolved::literal("Users"), "orders_table");
        assert!(bind(&m, &literal).table.is_none());
    }
}
