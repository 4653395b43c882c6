//! `create_table` / `update_table` declarations found by the scanner → model tables.
//!
//! A table is named the way the code names it: a literal is its name, a `format!`
//! template stays a template (`{}_orders`), an env var is a `{VAR}` placeholder with
//! the var in `refs`, and the consts and statics that hold the name become `refs` too,
//! so the calls that use them bind. A name dynalint cannot follow that is read from a
//! field (`&self.names.journal`, set by several constructors) is the table that field
//! holds, `{journal}` with the field in `refs`, as a `dynalint.toml` would bind it.
//! What cannot be known (a name computed at run time in a local or handed in as a
//! parameter, a key schema built in a loop) is a note at the call, never a guess.

use indexmap::IndexMap;

use crate::model::{
    Attribute, BillingMode, Index, IndexKind, OriginKind, Projection, Table, TableOrigin,
    Throughput,
};
use crate::scanner::create_table::{DeclKind, KeyDecl, KeyRole, ProjectionDecl, TableDecl};
use crate::scanner::Resolved;
use crate::source::{FilePath, SourceFile, Span};

/// A table from the code, with the call it came from.
#[derive(Debug, Clone)]
pub struct CodeTable {
    pub table: Table,
    pub file: FilePath,
    pub line: usize,
}

/// Something about a declaration dynalint could not use, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeNote {
    pub file: FilePath,
    pub line: usize,
    pub span: Span,
    pub message: String,
}

/// What the code declares: tables from `create_table`, then `update_table`'s
/// additions (GSIs created later) applied to them or, by name, to `others` (tables
/// from templates). Notes say what was left out.
pub fn tables(
    decls: &[TableDecl],
    files: &[SourceFile],
    others: &mut [Table],
) -> (Vec<CodeTable>, Vec<CodeNote>) {
    let line = |d: &TableDecl| {
        files
            .iter()
            .find(|f| f.path == d.file)
            .map(|f| f.line_col(d.span.start).line)
            .unwrap_or(0)
    };
    let mut out: Vec<CodeTable> = Vec::new();
    let mut notes = Vec::new();
    let mut note = |d: &TableDecl, message: String| {
        notes.push(CodeNote {
            file: d.file.clone(),
            line: line(d),
            span: d.span,
            message,
        })
    };
    for d in decls.iter().filter(|d| d.kind == DeclKind::Create) {
        for u in &d.unread {
            note(d, format!("`create_table`: {u}"));
        }
        let Some((name, refs)) = decl_naming(d) else {
            note(d, format!("`create_table` is skipped: {}", why_unnamed(d)));
            continue;
        };
        let (pk, sk) = match keys(&d.key_schema) {
            Ok(k) => k,
            Err(why) => {
                note(d, format!("`create_table` of `{name}` is skipped: {why}"));
                continue;
            }
        };
        let origin = TableOrigin {
            kind: OriginKind::RustCode,
            path: d.file.clone(),
            line: line(d),
            id: None,
        };
        let mut t = blank(name, refs, pk, sk, d.span, origin);
        t.billing_mode = d.billing_mode.as_deref().and_then(BillingMode::parse);
        t.provisioned = d.throughput.as_ref().map(throughput);
        add_attributes(&mut t, d);
        for i in &d.indexes {
            match index(&t, i, d.span) {
                Ok(i) => t.indexes.push(i),
                Err(why) => note(d, why),
            }
        }
        out.push(CodeTable {
            table: t,
            file: d.file.clone(),
            line: line(d),
        });
    }
    for d in decls.iter().filter(|d| d.kind == DeclKind::Update) {
        if d.indexes.is_empty() {
            continue;
        }
        let Some((name, refs)) = decl_naming(d) else {
            note(d, format!("`update_table` is skipped: {}", why_unnamed(d)));
            continue;
        };
        let named = |t: &Table| t.name == name || refs.iter().any(|r| t.is_named_by(r));
        let target = match out.iter_mut().find(|c| named(&c.table)) {
            Some(c) => Some(&mut c.table),
            None => others.iter_mut().find(|t| named(t)),
        };
        let Some(t) = target else {
            note(
                d,
                format!("`update_table` adds an index to `{name}`, which nothing declares"),
            );
            continue;
        };
        add_attributes(t, d);
        for i in &d.indexes {
            if t.index_named(&i.name).is_some() {
                continue;
            }
            match index(t, i, d.span) {
                Ok(i) => t.indexes.push(i),
                Err(why) => note(d, why),
            }
        }
    }
    (out, notes)
}

trait IndexNamed {
    fn index_named(&self, name: &Resolved) -> Option<&Index>;
}

impl IndexNamed for Table {
    fn index_named(&self, name: &Resolved) -> Option<&Index> {
        name.value().and_then(|n| self.index(n))
    }
}

fn why_unnamed(d: &TableDecl) -> String {
    match d.table.as_ref().map(Resolved::innermost) {
        None => "it sets no `table_name`".to_string(),
        Some(Resolved::Unknown { reason }) => {
            format!("its table name is not known statically: {reason}")
        }
        Some(other) => format!(
            "its table name {} is not one dynalint can use",
            other.label()
        ),
    }
}

/// The name and refs of the table a declaration makes: as its name resolves, else,
/// for a name dynalint cannot follow (set by several constructors, read from a
/// config), by the field or crate-wide const that holds it (`&self.names.journal`:
/// `{journal}`, ref `journal`), which the other calls read it from too. A parameter
/// or a local holds whatever each call passes: no table of its own.
fn decl_naming(d: &TableDecl) -> Option<(String, Vec<String>)> {
    let table = d.table.as_ref()?;
    if let Some(found) = naming(table) {
        return Some(found);
    }
    let held = super::usage::shared_holder(d.table_text.as_deref()?)?;
    Some((format!("{{{held}}}"), vec![held.to_string()]))
}

/// The table's name and the refs the code knows it by.
fn naming(r: &Resolved) -> Option<(String, Vec<String>)> {
    let mut refs = Vec::new();
    let mut cur = r;
    loop {
        match cur {
            Resolved::Const { name, value } => {
                if is_global_name(name) {
                    refs.push(name.clone());
                    if let Some(last) = name.rsplit("::").next().filter(|l| l != name) {
                        refs.push(last.to_string());
                    }
                }
                cur = value;
            }
            Resolved::Literal { value } => return Some((value.clone(), refs)),
            Resolved::Template { template } => return Some((numbered(template), refs)),
            Resolved::Env { var } => {
                refs.push(var.clone());
                return Some((format!("{{{var}}}"), refs));
            }
            Resolved::Unknown { .. } => return None,
        }
    }
}

/// `{}_events` → `{1}_events`: a `format!` hole gets a name, so the table's name is a
/// template the model can read (`Table::name_template`) and built names bind to it.
pub(super) fn numbered(template: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    let mut rest = template;
    while let Some(i) = rest.find("{}") {
        n += 1;
        out.push_str(&rest[..i]);
        out.push_str(&format!("{{{n}}}"));
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// A const or static (`ORDERS_TABLE`, `names::ORDERS`), not a local `let table`: only
/// names the whole crate shares are worth binding other calls by.
fn is_global_name(name: &str) -> bool {
    let last = name.rsplit("::").next().unwrap_or(name);
    !name.contains('.')
        && last.chars().any(|c| c.is_ascii_uppercase())
        && !last.chars().any(|c| c.is_ascii_lowercase())
}

fn keys(schema: &[KeyDecl]) -> Result<(String, Option<String>), String> {
    let named = |k: &KeyDecl| -> Result<String, String> {
        k.attribute.value().map(str::to_string).ok_or_else(|| {
            format!(
                "a key attribute's name is not known statically ({})",
                k.attribute.label()
            )
        })
    };
    let hash: Vec<&KeyDecl> = schema
        .iter()
        .filter(|k| k.role == Some(KeyRole::Hash))
        .collect();
    let range: Vec<&KeyDecl> = schema
        .iter()
        .filter(|k| k.role == Some(KeyRole::Range))
        .collect();
    match (hash.as_slice(), range.as_slice()) {
        ([h], []) => Ok((named(h)?, None)),
        ([h], [r]) => Ok((named(h)?, Some(named(r)?))),
        ([], _) if schema.is_empty() => Err("its key schema could not be read".to_string()),
        ([], _) => Err("its key schema has no `HASH` key dynalint can read".to_string()),
        _ => Err("its key schema has more than one `HASH` or `RANGE` key".to_string()),
    }
}

pub(super) fn blank(
    name: String,
    refs: Vec<String>,
    pk: String,
    sk: Option<String>,
    span: Span,
    origin: TableOrigin,
) -> Table {
    Table {
        name,
        refs,
        partition_key: pk,
        sort_key: sk,
        item_count: None,
        avg_item_size: None,
        write_rate: None,
        attributes: IndexMap::new(),
        indexes: Vec::new(),
        entities: Vec::new(),
        billing_mode: None,
        provisioned: None,
        table_class: None,
        replicas: Vec::new(),
        origin,
        span,
        name_span: span,
        fields: Default::default(),
    }
}

fn throughput(t: &crate::scanner::create_table::ThroughputDecl) -> Throughput {
    let (read, write) = t.units();
    Throughput { read, write }
}

fn add_attributes(t: &mut Table, d: &TableDecl) {
    for a in &d.attributes {
        let (Some(name), Some(ty)) = (a.attribute.value(), a.ty) else {
            continue;
        };
        t.attributes
            .entry(name.to_string())
            .or_insert_with(|| Attribute {
                name: name.to_string(),
                ty,
                values: None,
                unique: false,
                cardinality: None,
                span: d.span,
                name_span: d.span,
                fields: Default::default(),
            });
    }
}

fn index(
    t: &Table,
    i: &crate::scanner::create_table::IndexDecl,
    span: Span,
) -> Result<Index, String> {
    let Some(name) = i.name.value() else {
        return Err(format!(
            "an index of `{}` is skipped: its name is not known statically",
            t.name
        ));
    };
    let (pk, sk) = keys(&i.key_schema)
        .map_err(|why| format!("index `{name}` of `{}` is skipped: {why}", t.name))?;
    let projection = match &i.projection {
        Some(ProjectionDecl::All) | None => Projection::All,
        Some(ProjectionDecl::KeysOnly) => Projection::KeysOnly,
        Some(ProjectionDecl::Include(attrs)) => {
            let names: Option<Vec<String>> = attrs
                .iter()
                .map(|a| a.value().map(str::to_string))
                .collect();
            match names {
                Some(n) => Projection::Include(n),
                None => {
                    return Err(format!(
                        "index `{name}` of `{}` is skipped: a projected attribute's name is not known statically",
                        t.name
                    ))
                }
            }
        }
    };
    let provisioned = i.throughput.as_ref().map(throughput);
    Ok(Index {
        name: name.to_string(),
        kind: if i.local {
            IndexKind::Local
        } else {
            IndexKind::Global
        },
        partition_key: pk,
        sort_key: sk,
        projection,
        provisioned,
        span,
        name_span: span,
        fields: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{scan, ScanSettings};

    fn run(code: &str) -> (Vec<CodeTable>, Vec<CodeNote>) {
        let f = SourceFile::new("src/bin/setup.rs", code);
        let scanned = scan(std::slice::from_ref(&f), &ScanSettings::default());
        tables(&scanned.tables, &[f], &mut [])
    }

    const KEYS: &str = r#".key_schema(KeySchemaElement::builder().attribute_name("pk").key_type(KeyType::Hash).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("pk").attribute_type(ScalarAttributeType::S).build()?)"#;

    #[test]
    fn names_refs_and_origins() {
        let code = format!(
            r#"
pub static ORDERS_TABLE: &str = "orders";
async fn setup(c: &Client, stage: &str) -> Result<()> {{
    c.create_table().table_name(ORDERS_TABLE){KEYS}.send().await?;
    c.create_table().table_name(format!("{{}}_events", stage)){KEYS}.send().await?;
    c.create_table().table_name(std::env::var("USERS").unwrap()){KEYS}.send().await?;
    let table = "local";
    c.create_table().table_name(table){KEYS}.send().await?;
    Ok(())
}}
"#
        );
        let (t, notes) = run(&code);
        assert!(notes.is_empty(), "{notes:?}");
        let got: Vec<(&str, &[String], usize)> = t
            .iter()
            .map(|c| (c.table.name.as_str(), c.table.refs.as_slice(), c.line))
            .collect();
        assert_eq!(
            got,
            [
                ("orders", &["ORDERS_TABLE".to_string()][..], 4),
                ("{1}_events", &[][..], 6),
                ("{USERS}", &["USERS".to_string()][..], 8),
                ("local", &[][..], 11),
            ]
        );
        assert_eq!(t[0].table.attribute("pk").map(|a| a.ty.as_str()), Some("S"));
    }

    #[test]
    fn a_call_that_builds_the_name_binds_to_the_table_created_with_it() {
        let code = format!(
            r#"
async fn setup(c: &Client, stage: &str) -> Result<()> {{
    c.create_table().table_name(format!("{{}}_events", stage)){KEYS}.send().await?;
    Ok(())
}}
async fn read(c: &Client, env: &str) {{
    c.get_item().table_name(format!("{{}}_events", env)).send().await;
    c.get_item().table_name("prod_events").send().await;
    c.get_item().table_name(format!("{{}}_other", env)).send().await;
}}
"#
        );
        let f = SourceFile::new("src/lib.rs", code);
        let scanned = scan(std::slice::from_ref(&f), &ScanSettings::default());
        let inf = crate::infer::infer_with(
            std::path::Path::new("."),
            Default::default(),
            &scanned.tables,
            &scanned.operations,
            &[f],
        );
        let bound: Vec<Option<&str>> = scanned
            .operations
            .iter()
            .map(|o| {
                let t = o.table.as_ref()?;
                crate::facts::bind::find_table(&inf.model, t).map(|t| t.name.as_str())
            })
            .collect();
        assert_eq!(bound, [Some("{1}_events"), Some("{1}_events"), None]);
    }

    /// A helper `create_table(client, name, pk, sk)` named by its call's literals (keys
    /// too); a function of the same name taking another number of arguments (another
    /// module's) is not one of its calls.
    #[test]
    fn a_helper_s_name_and_keys_come_from_its_call() {
        let (t, notes) = run(r#"
mod movies {
    pub fn create_table(client: &Client, table_name: &str, pk: &str, sk: &str) -> Builder {
        client.create_table().table_name(table_name)
            .key_schema(KeySchemaElement::builder().attribute_name(pk).key_type(KeyType::Hash).build().unwrap())
            .key_schema(KeySchemaElement::builder().attribute_name(sk).key_type(KeyType::Range).build().unwrap())
    }
    pub async fn start(client: &Client) {
        create_table(client, "movies", "year", "title").send().await;
    }
}
mod cli {
    pub async fn create_table(client: &Client, table: &str, key: &str) {}
    pub async fn main(client: &Client, args: Args) {
        create_table(client, &args.table, &args.key).await;
    }
}
"#);
        let got: Vec<(&str, &str, Option<&str>)> = t
            .iter()
            .map(|c| {
                (
                    c.table.name.as_str(),
                    c.table.partition_key.as_str(),
                    c.table.sort_key.as_deref(),
                )
            })
            .collect();
        assert_eq!(got, [("movies", "year", Some("title"))], "{notes:?}");
    }

    /// A test harness creates the table under the name its config struct holds, which
    /// several of the library's constructors set (the default, a staging one; the
    /// tests' own is not the service's): the table is the one that field holds,
    /// `{journal}`, and the store's calls, which read the same field, bind to it. A
    /// local or a parameter holds no table of its own.
    #[test]
    fn a_name_held_in_a_field_names_the_table_by_the_field() {
        let store = SourceFile::new(
            "src/store.rs",
            r#"
pub struct TableNames { pub journal: String }
impl Default for TableNames {
    fn default() -> Self { Self { journal: "journal".to_string() } }
}
impl TableNames {
    pub fn staging() -> Self { Self { journal: "staging-journal".to_string() } }
}
pub struct Config { pub table_names: TableNames }
pub struct Store { client: Client, config: Config }
impl Store {
    pub async fn events(&self, id: &str) -> Result<QueryOutput> {
        self.client.query()
            .table_name(&self.config.table_names.journal)
            .key_condition_expression("pkey = :pkey")
            .expression_attribute_values(":pkey", AttributeValue::S(id.to_string()))
            .send().await
    }
}
"#,
        );
        let harness = SourceFile::new(
            "tests/common/mod.rs",
            format!(
                r#"
pub struct Setup {{ client: Client, table_names: TableNames }}
impl Setup {{
    pub async fn new(client: Client) -> Self {{
        let suffix = uuid::Uuid::new_v4().to_string();
        let table_names = TableNames {{ journal: format!("test-journal-{{suffix}}") }};
        let setup = Self {{ client, table_names }};
        setup.create_journal_table().await;
        setup
    }}
    async fn create_journal_table(&self) {{
        let _ = self.client.create_table()
            .table_name(&self.table_names.journal){KEYS}
            .send().await;
    }}
    async fn create_scratch_table(&self, name: &str) {{
        let _ = self.client.create_table().table_name(name){KEYS}.send().await;
    }}
}}
"#
            ),
        );
        let files = [store, harness];
        let scanned = scan(&files, &ScanSettings::default());
        let inf = crate::infer::infer_with(
            std::path::Path::new("."),
            Default::default(),
            &scanned.tables,
            &scanned.operations,
            &files,
        );
        let got: Vec<(&str, &[String], OriginKind)> = inf
            .model
            .tables
            .iter()
            .map(|t| (t.name.as_str(), t.refs.as_slice(), t.origin.kind))
            .collect();
        assert_eq!(
            got,
            [(
                "{journal}",
                &["journal".to_string()][..],
                OriginKind::RustCode
            )],
            "{:?}",
            inf.notes
        );
        let query = scanned
            .operations
            .iter()
            .find(|o| o.kind == crate::scanner::OpKind::Query)
            .unwrap();
        let bound = crate::facts::bind::bind(&inf.model, query);
        assert_eq!(bound.table.map(|t| t.name.as_str()), Some("{journal}"));
        assert!(
            inf.notes
                .iter()
                .any(|n| n.contains("`name` is a parameter")),
            "{:?}",
            inf.notes
        );
    }

    #[test]
    fn unknown_names_and_keys_are_notes() {
        let code = format!(
            r#"
async fn setup(c: &Client, name: String) -> Result<()> {{
    c.create_table().table_name(name){KEYS}.send().await?;
    c.create_table().table_name("t").key_schema(key()).send().await?;
    Ok(())
}}
"#
        );
        let (t, notes) = run(&code);
        assert!(t.is_empty());
        let msgs: Vec<&str> = notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(notes.len(), 3, "{msgs:?}");
        assert!(msgs[0].contains("`name` is a parameter"), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("`key()`")), "{msgs:?}");
        assert!(
            msgs.iter()
                .any(|m| m.contains("`t` is skipped: its key schema could not be read")),
            "{msgs:?}"
        );
    }

    #[test]
    fn update_table_adds_a_gsi_to_the_table() {
        let code = format!(
            r#"
async fn migrate(c: &Client) -> Result<()> {{
    c.create_table().table_name("orders"){KEYS}.send().await?;
    c.update_table().table_name("orders")
        .global_secondary_index_updates(GlobalSecondaryIndexUpdate::builder()
            .create(CreateGlobalSecondaryIndexAction::builder().index_name("by_customer")
                .key_schema(KeySchemaElement::builder().attribute_name("customer").key_type(KeyType::Hash).build()?)
                .projection(Projection::builder().projection_type(ProjectionType::KeysOnly).build())
                .build()?).build())
        .send().await?;
    c.update_table().table_name("elsewhere")
        .global_secondary_index_updates(GlobalSecondaryIndexUpdate::builder()
            .create(CreateGlobalSecondaryIndexAction::builder().index_name("x")
                .key_schema(KeySchemaElement::builder().attribute_name("x").key_type(KeyType::Hash).build()?)
                .build()?).build())
        .send().await?;
    Ok(())
}}
"#
        );
        let (t, notes) = run(&code);
        assert_eq!(t.len(), 1);
        let i = t[0].table.index("by_customer").unwrap();
        assert_eq!(i.partition_key, "customer");
        assert_eq!(i.projection, Projection::KeysOnly);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0]
            .message
            .contains("`elsewhere`, which nothing declares"));
    }
}
