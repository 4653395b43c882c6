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
/// `&self.config.orders_table.clone()`, and of a getter `self.db.orders_table()`;
/// `None` for other calls and literals.
pub fn holder_name(text: &str) -> Option<&str> {
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
    // A method called on something with no arguments reads what it is named after.
    if let Some(getter) = t.strip_suffix("()").filter(|g| g.contains('.')) {
        t = getter;
    }
    let last = t.rsplit(['.', ':']).next()?;
    let is_name = !last.is_empty()
        && last.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !last.starts_with(|c: char| c.is_ascii_digit());
    is_name.then_some(last)
}

/// A table matches when any name the reference is known by is its name or in its refs;
/// else, for a table whose name a deployment builds (`{Stage}-orders`, imported from a
/// template), when the code builds the same shape (`format!("{}-orders", stage)`) or
/// writes one instance of it (`"prod-orders"`) — and no other table's does; else, for a
/// name the code builds around a table's name (`format!("{}{}", prefix, TABLE_USERS)`),
/// the one table of that name.
pub fn find_table<'a>(model: &'a Model, r: &Resolved) -> Option<&'a Table> {
    let names = r.names();
    if let Some(t) = model
        .tables
        .iter()
        .find(|t| names.iter().any(|n| t.is_named_by(n)))
    {
        return Some(t);
    }
    let fits = |t: &&Table| -> bool {
        let Some(template) = t.name_template() else {
            return false;
        };
        match r.innermost() {
            Resolved::Template { template: code } => skeleton(code)
                .is_some_and(|s| s == skeleton(&template.to_string()).unwrap_or_default()),
            Resolved::Literal { value } => {
                !template.literal_parts_empty() && template.matches(value)
            }
            _ => false,
        }
    };
    let mut matching = model.tables.iter().filter(fits);
    match (matching.next(), matching.next()) {
        (Some(t), None) => return Some(t),
        // Two built names fit: which one is meant is not known.
        (Some(_), Some(_)) => return None,
        _ => {}
    }
    let Resolved::Template { template: code } = r.innermost() else {
        return None;
    };
    let core = affixed_name(code)?;
    let mut named = model.tables.iter().filter(|t| t.name == core);
    match (named.next(), named.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    }
}

/// The table name inside a name built with a deployment's prefix or suffix:
/// `{}tsa_users` (`format!("{}{}", self.table_prefix, TABLE_USERS)`) and
/// `{stage}-orders` are the tables the model names `tsa_users` and `orders`, whatever
/// the deployment puts around them. `None` unless the holes are only at the ends and
/// one piece of literal text sits between them (`{}-orders-{}-x` names no one table).
pub(crate) fn affixed_name(template: &str) -> Option<&str> {
    let mut rest = template;
    let mut holes = 0;
    while rest.starts_with('{') {
        rest = &rest[rest.find('}')? + 1..];
        holes += 1;
    }
    while rest.ends_with('}') {
        rest = &rest[..rest.rfind('{')?];
        holes += 1;
    }
    let core = rest.trim_matches(['-', '_', '.']);
    (holes > 0 && !core.is_empty() && !core.contains(['{', '}'])).then_some(core)
}

/// A name template with every `{hole}` made one marker: `{}-orders` and
/// `{Stage}-orders` have the same skeleton. `None` when the template has no literal
/// text, which any name would fit.
pub(crate) fn skeleton(template: &str) -> Option<String> {
    let mut out = String::new();
    let mut literal = false;
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        literal |= open > 0;
        let close = rest[open..].find('}')? + open;
        out.push('\u{0}');
        rest = &rest[close + 1..];
    }
    literal |= !rest.is_empty();
    out.push_str(rest);
    literal.then_some(out)
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
        assert_eq!(holder_name("self.db.orders_table()"), Some("orders_table"));
        assert_eq!(holder_name("orders_table()"), None);
        assert_eq!(holder_name("self.db.table_for(kind)"), None);
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
        // A getter of that name reads it too.
        let by_getter = op(unknown(), "self.client.orders_table()");
        assert_eq!(
            bind(&m, &by_getter).table.map(|t| t.name.as_str()),
            Some("Orders")
        );
        // Another field name, or a call, stays unbound and says why.
        for text in [
            "&self.config.users_table",
            "table_name()",
            "tables.of(kind)",
        ] {
            let o = op(unknown(), text);
            let b = bind(&m, &o);
            assert!(b.table.is_none());
            assert!(b.unbound.unwrap().contains("not known statically"));
        }
        // A known value that names no table is not rescued by its holder's name.
        let literal = op(Resolved::literal("Users"), "orders_table");
        assert!(bind(&m, &literal).table.is_none());
    }

    #[test]
    fn built_names_bind_to_the_same_shape_and_to_instances() {
        let m = crate::model::load_str(
            std::path::Path::new("m.toml"),
            r#"
[[table]]
name = "{Stage}-orders"
partition-key = "PK"
[table.attributes]
PK = "S"

[[table]]
name = "{Stage}-users"
partition-key = "id"
[table.attributes]
id = "S"
"#,
        )
        .unwrap();
        let name = |r: Resolved| find_table(&m, &r).map(|t| t.name.clone());
        let template = |t: &str| Resolved::Template {
            template: t.to_string(),
        };
        assert_eq!(
            name(template("{}-orders")).as_deref(),
            Some("{Stage}-orders")
        );
        assert_eq!(
            name(Resolved::literal("prod-users")).as_deref(),
            Some("{Stage}-users")
        );
        // No literal text to go by, another shape, or a name that is not an instance.
        assert_eq!(name(template("{}")), None);
        assert_eq!(name(template("orders-{}")), None);
        assert_eq!(name(Resolved::literal("-orders")), None);
        assert_eq!(name(Resolved::literal("orders")), None);
        // Two built names of one shape: which is meant is unknown.
        let two = crate::model::load_str(
            std::path::Path::new("m.toml"),
            "[[table]]\nname = \"{a}-x\"\npartition-key = \"k\"\n[table.attributes]\nk = \"S\"\n\
             [[table]]\nname = \"{b}-x\"\npartition-key = \"k\"\n[table.attributes]\nk = \"S\"\n",
        )
        .unwrap();
        assert!(find_table(&two, &template("{}-x")).is_none());
    }

    #[test]
    fn a_deployment_prefix_or_suffix_around_a_table_name_binds_to_it() {
        let m = crate::model::load_str(
            std::path::Path::new("m.toml"),
            "[[table]]\nname = \"tsa_users\"\nrefs = [\"TABLE_USERS\"]\npartition-key = \"id\"\n\
             [table.attributes]\nid = \"S\"\n\
             [[table]]\nname = \"orders\"\npartition-key = \"k\"\n[table.attributes]\nk = \"S\"\n",
        )
        .unwrap();
        let name = |t: &str| {
            find_table(
                &m,
                &Resolved::Template {
                    template: t.to_string(),
                },
            )
            .map(|t| t.name.clone())
        };
        // `format!("{}{}", self.table_prefix, TABLE_USERS)`, a stage before or after.
        assert_eq!(name("{}tsa_users").as_deref(), Some("tsa_users"));
        assert_eq!(name("{}-orders").as_deref(), Some("orders"));
        assert_eq!(name("orders.{}").as_deref(), Some("orders"));
        assert_eq!(name("{}{}orders_{}").as_deref(), Some("orders"));
        // A hole inside the name, extra text, or no hole at all names no table.
        assert_eq!(name("tsa_{}_users"), None);
        assert_eq!(name("{}-orders-archive"), None);
        assert_eq!(name("{}"), None);
        assert_eq!(name("{}-{}"), None);
    }
}
