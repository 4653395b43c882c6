//! `create_table` / `update_table` calls: the tables a crate declares in its own code
//! (setup binaries, tests, "ensure the table exists" at start-up). aws-sdk fluent
//! builders (`client.create_table().key_schema(KeySchemaElement::builder()..build()?)`)
//! and rusoto literals (`CreateTableInput { key_schema: vec![..], .. }`) are read into
//! one plain shape, [`TableDecl`]. Names go through the same value resolution as
//! requests, so a const, an env var or a `format!` template names the table the way the
//! calls do. What cannot be read is listed, never guessed.

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::resolve::FileCx;
use crate::scanner::ir::Resolved;
use crate::scanner::syntax::nodes::{
    call_args, call_path, field, fold_whitespace, last_segment, method_call, method_name,
    named_children, peel, span, string_value, Src,
};
use crate::scanner::syntax::scope::{lookup, Binding};
use crate::source::{FilePath, Span};

/// Which request declares the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    /// `CreateTable`: the whole key schema.
    Create,
    /// `UpdateTable`: new attribute definitions and GSIs of an existing table.
    Update,
}

/// `HASH` or `RANGE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    Hash,
    Range,
}

/// One `KeySchemaElement`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyDecl {
    pub attribute: Resolved,
    /// `None` when the key type could not be read.
    pub role: Option<KeyRole>,
}

/// One `AttributeDefinition`.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrDecl {
    pub attribute: Resolved,
    pub ty: Option<AttributeType>,
}

/// `ProjectionType`, with `NonKeyAttributes` for `INCLUDE`.
#[derive(Debug, Clone, PartialEq)]
pub enum ProjectionDecl {
    All,
    KeysOnly,
    Include(Vec<Resolved>),
}

/// A GSI or LSI the call creates.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexDecl {
    pub name: Resolved,
    pub local: bool,
    pub key_schema: Vec<KeyDecl>,
    /// `None` when the call sets none (DynamoDB requires one) or it could not be read.
    pub projection: Option<ProjectionDecl>,
    /// A GSI's `provisioned_throughput`, when set.
    pub throughput: Option<ThroughputDecl>,
}

/// `ProvisionedThroughput`: read and write capacity units as written (a literal or a
/// const, resolved by the link phase).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThroughputDecl {
    pub read: Option<Resolved>,
    pub write: Option<Resolved>,
}

impl ThroughputDecl {
    /// The units, each when it is a number.
    pub fn units(&self) -> (Option<u64>, Option<u64>) {
        let n = |r: &Option<Resolved>| r.as_ref()?.value()?.parse::<u64>().ok();
        (n(&self.read), n(&self.write))
    }
}

/// A table as one `create_table` / `update_table` call declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDecl {
    pub file: FilePath,
    /// The call (or the rusoto literal).
    pub span: Span,
    pub kind: DeclKind,
    /// `table_name`; `None` when the call sets none.
    pub table: Option<Resolved>,
    /// The `table_name` argument as written, through `let`s (`&self.names.journal`):
    /// the field that holds a name dynalint cannot resolve, which other calls read too.
    pub table_text: Option<String>,
    pub key_schema: Vec<KeyDecl>,
    pub attributes: Vec<AttrDecl>,
    pub indexes: Vec<IndexDecl>,
    /// `billing_mode` as DynamoDB spells it (`PAY_PER_REQUEST`, `PROVISIONED`).
    pub billing_mode: Option<String>,
    /// `provisioned_throughput`, when set.
    pub throughput: Option<ThroughputDecl>,
    /// Parts of the call dynalint could not read (a key schema built in a loop...).
    pub unread: Vec<String>,
}

/// Every `create_table` / `update_table` call and literal of a file.
pub fn declarations(cx: &FileCx<'_>, path: &FilePath, nodes: &[Node<'_>]) -> Vec<TableDecl> {
    let src = cx.src;
    let mut out = Vec::new();
    // Code that never spells these names declares nothing: the walk below would
    // look at every call of it (a generated file's hundreds of thousands) for none.
    let text = cx.own_text();
    if ![
        "create_table",
        "update_table",
        "CreateTableInput",
        "UpdateTableInput",
    ]
    .iter()
    .any(|w| text.contains(w))
    {
        return out;
    }
    for &n in nodes {
        let (kind, fields) = match n.kind() {
            "call_expression" => {
                // The name before anything is allocated.
                let kind = match method_name(src, n) {
                    Some("create_table") => DeclKind::Create,
                    Some("update_table") => DeclKind::Update,
                    _ => continue,
                };
                match method_call(src, n) {
                    Some((_, _, call)) if call_args(call).is_empty() => (kind, chain_up(src, n)),
                    _ => continue,
                }
            }
            "struct_expression" => {
                let name = field(n, "name").map(|x| last_segment(src.of(x)));
                let kind = match name {
                    Some("CreateTableInput") => DeclKind::Create,
                    Some("UpdateTableInput") => DeclKind::Update,
                    _ => continue,
                };
                (kind, struct_fields(src, n))
            }
            _ => continue,
        };
        let top = top_of_chain(src, n);
        let mut r = Reader {
            cx,
            unread: Vec::new(),
        };
        let mut decl = TableDecl {
            file: path.clone(),
            span: span(top),
            kind,
            table: None,
            table_text: None,
            key_schema: Vec::new(),
            attributes: Vec::new(),
            indexes: Vec::new(),
            billing_mode: None,
            throughput: None,
            unread: Vec::new(),
        };
        for (name, value) in &fields {
            match name.as_str() {
                // A name, as requests' are: a parameter is followed to what the
                // crate's calls pass (`create_table(client, "orders")`).
                "table_name" => {
                    decl.table = Some(r.cx.name(*value));
                    let held = super::fold::holder(r.cx, *value);
                    decl.table_text = Some(fold_whitespace(src.of(held)));
                }
                "key_schema" => decl.key_schema.extend(r.keys(*value)),
                "attribute_definitions" => {
                    for a in r.items(*value, 0) {
                        decl.attributes.extend(r.attribute(a));
                    }
                }
                "global_secondary_indexes" | "local_secondary_indexes" => {
                    let local = name.starts_with("local");
                    for i in r.items(*value, 0) {
                        decl.indexes.extend(r.index(i, local));
                    }
                }
                "global_secondary_index_updates" => {
                    for u in r.items(*value, 0) {
                        let Some(update) = r.object(u, 0) else {
                            continue;
                        };
                        for (action, v) in &update {
                            if action == "create" {
                                decl.indexes.extend(r.index(*v, false));
                            }
                        }
                    }
                }
                "billing_mode" => decl.billing_mode = r.word(*value).map(|w| spelled(&w)),
                "provisioned_throughput" => decl.throughput = r.throughput(*value),
                _ => {}
            }
        }
        decl.unread = r.unread;
        out.push(decl);
    }
    out
}

/// The methods called on a fluent builder, in order, with their argument: climbing
/// `recv.m(arg)` parents from the `create_table()` call.
fn chain_up<'t>(src: Src<'t>, start: Node<'t>) -> Vec<(String, Node<'t>)> {
    let mut out = Vec::new();
    let mut cur = start;
    for _ in 0..256 {
        let Some(fe) = src.parent(cur).filter(|p| p.kind() == "field_expression") else {
            break;
        };
        let Some(call) = src.parent(fe).filter(|p| p.kind() == "call_expression") else {
            break;
        };
        let Some((_, name, _)) = method_call(src, call) else {
            break;
        };
        if let Some(arg) = call_args(call).first() {
            out.push((setter_base(&name), *arg));
        }
        cur = call;
        // `.build()?.send()`: the chain goes on through `?` and `.await`.
        while let Some(p) = src
            .parent(cur)
            .filter(|p| matches!(p.kind(), "try_expression" | "await_expression"))
        {
            cur = p;
        }
    }
    out
}

/// The outermost node of the chain a call is part of (for the declaration's span).
fn top_of_chain<'t>(src: Src<'t>, start: Node<'t>) -> Node<'t> {
    let mut cur = start;
    for _ in 0..512 {
        match src.parent(cur) {
            Some(p)
                if matches!(
                    p.kind(),
                    "field_expression" | "call_expression" | "try_expression" | "await_expression"
                ) =>
            {
                cur = p
            }
            _ => break,
        }
    }
    cur
}

/// `set_key_schema` sets what `key_schema` appends to.
fn setter_base(name: &str) -> String {
    name.strip_prefix("set_").unwrap_or(name).to_string()
}

/// `Name { a: x, b, .. }` → `[(a, x), (b, b)]`.
fn struct_fields<'t>(src: Src<'t>, n: Node<'t>) -> Vec<(String, Node<'t>)> {
    let Some(body) = field(n, "body") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in named_children(body) {
        match f.kind() {
            "field_initializer" => {
                if let (Some(name), Some(value)) = (field(f, "field"), field(f, "value")) {
                    out.push((src.of(name).to_string(), value));
                }
            }
            "shorthand_field_initializer" => {
                if let Some(id) = named_children(f)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")
                {
                    out.push((src.of(id).to_string(), id));
                }
            }
            _ => {}
        }
    }
    out
}

/// Methods that hand their receiver through: `.build()`, `.unwrap()`, `.into()`...
const THROUGH: &[&str] = &[
    "build",
    "unwrap",
    "expect",
    "into",
    "clone",
    "to_owned",
    "to_vec",
    "to_string",
    "context",
    "with_context",
    "map_err",
];

const MAX_DEPTH: usize = 16;

struct Reader<'c, 'a> {
    cx: &'c FileCx<'a>,
    unread: Vec<String>,
}

impl<'a> Reader<'_, 'a> {
    fn src(&self) -> Src<'a> {
        self.cx.src
    }

    fn string(&self, n: Node<'_>) -> Resolved {
        self.cx.string(n)
    }

    fn note(&mut self, n: Node<'_>, what: &str) {
        let text: String = self.src().of(n).chars().take(60).collect();
        self.unread.push(format!(
            "{what}: `{}` is not something dynalint can read",
            text
        ));
    }

    /// What a value is after `?`, `&`, `.build()`, `Some(..)` and `let` bindings.
    fn through<'t>(&self, n: Node<'t>, depth: usize) -> Option<Node<'t>>
    where
        'a: 't,
    {
        let src = self.src();
        let n = peel(n);
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((recv, name, _)) = method_call(src, n) {
            if THROUGH.contains(&name.as_str()) {
                return self.through(recv, depth + 1);
            }
        }
        if let Some(path) = call_path(src, n) {
            if matches!(last_segment(path), "Some" | "Ok" | "from") {
                return self.through(*call_args(n).first()?, depth + 1);
            }
        }
        if n.kind() == "identifier" {
            if let Some(Binding::Let { value: Some(v), .. }) = lookup(src, n, src.of(n)) {
                return self.through(v, depth + 1);
            }
        }
        Some(n)
    }

    /// The elements of a list value (`vec![..]`, `[..]`, `Some(vec![..])`), or the
    /// value itself: a fluent setter appends one element per call.
    fn items<'t>(&self, n: Node<'t>, depth: usize) -> Vec<Node<'t>>
    where
        'a: 't,
    {
        let Some(v) = self.through(n, depth) else {
            return Vec::new();
        };
        if v.kind() == "array_expression" {
            return named_children(v)
                .into_iter()
                .filter(|c| !crate::scanner::syntax::nodes::is_comment(*c))
                .collect();
        }
        vec![v]
    }

    /// The fields of a builder chain (`X::builder().a(..).b(..)`) or a struct literal.
    fn object<'t>(&mut self, n: Node<'t>, depth: usize) -> Option<Vec<(String, Node<'t>)>>
    where
        'a: 't,
    {
        let src = self.src();
        let v = self.through(n, depth)?;
        if v.kind() == "struct_expression" {
            return Some(struct_fields(src, v));
        }
        // A helper that checks or wraps what a builder built, `build(X::builder()..
        // .build(), "msg")?`: the value is the argument that is one.
        if let Some(path) = call_path(src, v) {
            if last_segment(path) != "builder" && depth < MAX_DEPTH {
                return call_args(v)
                    .into_iter()
                    .find_map(|a| self.object(a, depth + 1));
            }
        }
        // Walk down the receivers to `X::builder()`.
        let mut out = Vec::new();
        let mut cur = v;
        for _ in 0..256 {
            if let Some((recv, name, call)) = method_call(src, cur) {
                if !THROUGH.contains(&name.as_str()) {
                    if let Some(a) = call_args(call).first() {
                        out.push((setter_base(&name), *a));
                    }
                }
                cur = peel(recv);
                continue;
            }
            if call_path(src, cur).is_some_and(|p| last_segment(p) == "builder") {
                out.reverse();
                return Some(out);
            }
            break;
        }
        None
    }

    fn keys(&mut self, n: Node<'_>) -> Vec<KeyDecl> {
        let mut out = Vec::new();
        for k in self.items(n, 0) {
            let Some(fields) = self.object(k, 0) else {
                self.note(k, "a key schema element");
                continue;
            };
            let mut attribute = None;
            let mut role = None;
            for (name, v) in fields {
                match name.as_str() {
                    "attribute_name" => attribute = Some(self.cx.name(v)),
                    "key_type" => {
                        role = self.word(v).and_then(|w| match squash(&w).as_str() {
                            "HASH" => Some(KeyRole::Hash),
                            "RANGE" => Some(KeyRole::Range),
                            _ => None,
                        })
                    }
                    _ => {}
                }
            }
            if let Some(attribute) = attribute {
                out.push(KeyDecl { attribute, role });
            }
        }
        out
    }

    fn attribute(&mut self, n: Node<'_>) -> Option<AttrDecl> {
        let Some(fields) = self.object(n, 0) else {
            self.note(n, "an attribute definition");
            return None;
        };
        let mut attribute = None;
        let mut ty = None;
        for (name, v) in fields {
            match name.as_str() {
                "attribute_name" => attribute = Some(self.cx.name(v)),
                "attribute_type" => {
                    ty = self
                        .word(v)
                        .and_then(|w| AttributeType::parse(&w.to_ascii_uppercase()))
                }
                _ => {}
            }
        }
        Some(AttrDecl {
            attribute: attribute?,
            ty,
        })
    }

    fn index(&mut self, n: Node<'_>, local: bool) -> Option<IndexDecl> {
        let Some(fields) = self.object(n, 0) else {
            self.note(n, "an index");
            return None;
        };
        let mut name = None;
        let mut key_schema = Vec::new();
        let mut projection = None;
        let mut throughput = None;
        for (f, v) in fields {
            match f.as_str() {
                "index_name" => name = Some(self.cx.name(v)),
                "key_schema" => key_schema.extend(self.keys(v)),
                "projection" => projection = self.projection(v),
                "provisioned_throughput" => throughput = self.throughput(v),
                _ => {}
            }
        }
        Some(IndexDecl {
            name: name?,
            local,
            key_schema,
            projection,
            throughput,
        })
    }

    fn projection(&mut self, n: Node<'_>) -> Option<ProjectionDecl> {
        let Some(fields) = self.object(n, 0) else {
            self.note(n, "a projection");
            return None;
        };
        let mut ty = None;
        let mut include = Vec::new();
        for (f, v) in fields {
            match f.as_str() {
                "projection_type" => ty = self.word(v).map(|w| squash(&w)),
                "non_key_attributes" => {
                    for a in self.items(v, 0) {
                        include.push(self.string(a));
                    }
                }
                _ => {}
            }
        }
        match ty.as_deref() {
            Some("ALL") => Some(ProjectionDecl::All),
            Some("KEYSONLY") => Some(ProjectionDecl::KeysOnly),
            Some("INCLUDE") => Some(ProjectionDecl::Include(include)),
            _ => None,
        }
    }

    fn throughput(&mut self, n: Node<'_>) -> Option<ThroughputDecl> {
        let Some(fields) = self.object(n, 0) else {
            self.note(n, "a provisioned throughput");
            return None;
        };
        let mut t = ThroughputDecl::default();
        for (f, v) in fields {
            match f.as_str() {
                "read_capacity_units" => t.read = Some(self.string(v)),
                "write_capacity_units" => t.write = Some(self.string(v)),
                _ => {}
            }
        }
        Some(t)
    }

    /// An enum value or string naming one: `KeyType::Hash`, `"HASH".to_string()`,
    /// `KeyType::from("HASH")`, a const holding `"HASH"`.
    fn word(&self, n: Node<'_>) -> Option<String> {
        let src = self.src();
        let v = self.through(n, 0)?;
        if let Some(s) = string_value(src, v) {
            return Some(s);
        }
        if v.kind() == "scoped_identifier" {
            let path = src.of(v);
            let ty = crate::scanner::syntax::nodes::type_segment(path).unwrap_or("");
            // `KeyType::Hash`, not a const such as `keys::HASH_KEY`.
            if ty.chars().next().is_some_and(char::is_uppercase) {
                return Some(last_segment(path).to_string());
            }
        }
        self.string(v).value().map(str::to_string)
    }
}

/// `KeysOnly`, `KEYS_ONLY`, `keys_only` → `KEYSONLY`: the SDK's enum variants and the
/// wire strings compared alike.
fn squash(w: &str) -> String {
    w.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// A billing mode as DynamoDB spells it.
fn spelled(w: &str) -> String {
    match squash(w).as_str() {
        "PAYPERREQUEST" => "PAY_PER_REQUEST".to_string(),
        "PROVISIONED" => "PROVISIONED".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::ScanSettings;
    use crate::source::SourceFile;

    fn decls(code: &str) -> Vec<TableDecl> {
        let f = SourceFile::new("src/bin/setup.rs", code);
        crate::scanner::scan(&[f], &ScanSettings::default()).tables
    }

    fn names(keys: &[KeyDecl]) -> Vec<(String, Option<KeyRole>)> {
        keys.iter()
            .map(|k| (k.attribute.value().unwrap_or("?").to_string(), k.role))
            .collect()
    }

    #[test]
    fn fluent_create_table_with_a_gsi() {
        let got = decls(
            r#"
use aws_sdk_dynamodb::types::*;
const ORDERS: &str = "orders";
async fn setup(client: &aws_sdk_dynamodb::Client) -> anyhow::Result<()> {
    let pk = KeySchemaElement::builder().attribute_name("pk").key_type(KeyType::Hash).build()?;
    client
        .create_table()
        .table_name(ORDERS)
        .key_schema(pk)
        .key_schema(KeySchemaElement::builder().attribute_name("sk").key_type(KeyType::Range).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("pk").attribute_type(ScalarAttributeType::S).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("sk").attribute_type(ScalarAttributeType::N).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("status").attribute_type(ScalarAttributeType::S).build()?)
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("by_status")
                .key_schema(KeySchemaElement::builder().attribute_name("status").key_type(KeyType::Hash).build()?)
                .projection(Projection::builder().projection_type(ProjectionType::KeysOnly).build())
                .build()?,
        )
        .billing_mode(BillingMode::PayPerRequest)
        .provisioned_throughput(ProvisionedThroughput::builder().read_capacity_units(5).write_capacity_units(WCU).build()?)
        .send()
        .await?;
    Ok(())
}
const WCU: i64 = 2;
"#,
        );
        assert_eq!(got.len(), 1, "{got:#?}");
        assert_eq!(
            got[0].throughput.as_ref().map(ThroughputDecl::units),
            Some((Some(5), Some(2)))
        );
        let d = &got[0];
        assert_eq!(d.kind, DeclKind::Create);
        let t = d.table.as_ref().unwrap();
        assert_eq!(t.value(), Some("orders"));
        assert!(t.names().contains(&"ORDERS"));
        assert_eq!(
            names(&d.key_schema),
            [
                ("pk".into(), Some(KeyRole::Hash)),
                ("sk".into(), Some(KeyRole::Range))
            ]
        );
        let types: Vec<_> = d.attributes.iter().map(|a| a.ty).collect();
        assert_eq!(
            types,
            [
                Some(AttributeType::S),
                Some(AttributeType::N),
                Some(AttributeType::S)
            ]
        );
        assert_eq!(d.indexes.len(), 1);
        assert_eq!(d.indexes[0].name.value(), Some("by_status"));
        assert_eq!(d.indexes[0].projection, Some(ProjectionDecl::KeysOnly));
        assert_eq!(
            names(&d.indexes[0].key_schema),
            [("status".into(), Some(KeyRole::Hash))]
        );
        assert_eq!(d.billing_mode.as_deref(), Some("PAY_PER_REQUEST"));
        assert!(d.unread.is_empty(), "{:?}", d.unread);
    }

    #[test]
    fn set_forms_with_vectors_and_a_built_name() {
        let got = decls(
            r#"
async fn ensure(client: &Client, env: &str) -> Result<(), Error> {
    let table = format!("{}_sessions", env);
    let keys = vec![
        KeySchemaElement::builder().attribute_name("id").key_type(KeyType::Hash).build().unwrap(),
    ];
    client.create_table()
        .table_name(&table)
        .set_key_schema(Some(keys))
        .set_attribute_definitions(Some(vec![AttributeDefinition::builder()
            .attribute_name("id").attribute_type("S".into()).build().unwrap()]))
        .send().await?;
    Ok(())
}
"#,
        );
        assert_eq!(got.len(), 1);
        let d = &got[0];
        assert!(
            matches!(d.table.as_ref().unwrap().innermost(), Resolved::Template { template } if template == "{}_sessions"),
            "{:?}",
            d.table
        );
        assert_eq!(names(&d.key_schema), [("id".into(), Some(KeyRole::Hash))]);
        assert_eq!(d.attributes[0].ty, Some(AttributeType::S));
    }

    #[test]
    fn rusoto_create_table_input() {
        let got = decls(
            r#"
fn input() -> CreateTableInput {
    CreateTableInput {
        table_name: std::env::var("USERS_TABLE").unwrap(),
        key_schema: vec![
            KeySchemaElement { attribute_name: "PK".to_string(), key_type: "HASH".to_string() },
            KeySchemaElement { attribute_name: "SK".to_string(), key_type: "RANGE".to_string() },
        ],
        attribute_definitions: vec![
            AttributeDefinition { attribute_name: "PK".into(), attribute_type: "S".into() },
            AttributeDefinition { attribute_name: "SK".into(), attribute_type: "S".into() },
        ],
        local_secondary_indexes: Some(vec![LocalSecondaryIndex {
            index_name: "by_date".into(),
            key_schema: vec![
                KeySchemaElement { attribute_name: "PK".into(), key_type: "HASH".into() },
                KeySchemaElement { attribute_name: "date".into(), key_type: "RANGE".into() },
            ],
            projection: Projection {
                projection_type: Some("INCLUDE".into()),
                non_key_attributes: Some(vec!["total".into()]),
            },
        }]),
        ..Default::default()
    }
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:#?}");
        let d = &got[0];
        assert_eq!(
            d.table.as_ref().unwrap(),
            &Resolved::Env {
                var: "USERS_TABLE".into()
            }
        );
        assert_eq!(names(&d.key_schema).len(), 2);
        let i = &d.indexes[0];
        assert!(i.local);
        assert_eq!(
            i.projection,
            Some(ProjectionDecl::Include(vec![Resolved::literal("total")]))
        );
    }

    #[test]
    fn update_table_creates_a_gsi() {
        let got = decls(
            r#"
async fn migrate(c: &Client) {
    c.update_table()
        .table_name("orders")
        .attribute_definitions(AttributeDefinition::builder().attribute_name("customer").attribute_type(ScalarAttributeType::S).build().unwrap())
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder()
                .create(CreateGlobalSecondaryIndexAction::builder()
                    .index_name("by_customer")
                    .key_schema(KeySchemaElement::builder().attribute_name("customer").key_type(KeyType::Hash).build().unwrap())
                    .projection(Projection::builder().projection_type(ProjectionType::All).build())
                    .build().unwrap())
                .build())
        .send().await.unwrap();
}
"#,
        );
        assert_eq!(got.len(), 1, "{got:#?}");
        assert_eq!(got[0].kind, DeclKind::Update);
        assert_eq!(got[0].indexes[0].name.value(), Some("by_customer"));
        assert_eq!(got[0].indexes[0].projection, Some(ProjectionDecl::All));
    }

    #[test]
    fn a_helper_that_wraps_the_built_value_is_seen_through() {
        let got = decls(
            r#"
fn build<T>(r: Result<T, BuildError>, what: &str) -> Result<T, AppError> { r.map_err(|_| AppError(what.into())) }
async fn ensure(client: &Client) -> Result<(), AppError> {
    let ks_pk = build(KeySchemaElement::builder().attribute_name("PK").key_type(KeyType::Hash).build(), "pk")?;
    let ad_pk = build(
        AttributeDefinition::builder().attribute_name("PK").attribute_type(ScalarAttributeType::S).build(),
        "Failed to build PK"
    )?;
    client.create_table().table_name("PantrySystem").attribute_definitions(ad_pk).key_schema(ks_pk).send().await?;
    Ok(())
}
"#,
        );
        assert_eq!(got.len(), 1);
        assert_eq!(
            names(&got[0].key_schema),
            [("PK".into(), Some(KeyRole::Hash))]
        );
        assert_eq!(got[0].attributes[0].ty, Some(AttributeType::S));
        assert!(got[0].unread.is_empty(), "{:?}", got[0].unread);
    }

    #[test]
    fn a_key_schema_it_cannot_read_is_listed() {
        let got = decls(
            r#"
async fn f(c: &Client, keys: Vec<KeySchemaElement>) {
    c.create_table().table_name("t").key_schema(make_key()).send().await;
}
"#,
        );
        assert_eq!(got.len(), 1);
        assert!(got[0].key_schema.is_empty());
        assert_eq!(got[0].unread.len(), 1, "{:?}", got[0].unread);
        assert!(got[0].unread[0].contains("make_key()"));
    }
}
