//! The Operation IR: one value per DynamoDB request the code can make. This is the
//! contract between the scanner and everything downstream; rules never see syntax.
//!
//! Unknowns are first-class: a value the scanner cannot resolve says so (with a reason)
//! instead of being guessed.

use indexmap::IndexMap;
use serde::Serialize;

use crate::attr::AttributeType;
use crate::source::{FilePath, Location, Span};

/// Which DynamoDB API the call makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum OpKind {
    Query,
    Scan,
    GetItem,
    PutItem,
    UpdateItem,
    DeleteItem,
    BatchGetItem,
    BatchWriteItem,
    TransactGetItems,
    TransactWriteItems,
    /// PartiQL `ExecuteStatement`; the statement text is in [`Operation::statement`].
    ExecuteStatement,
    /// A `ConditionCheck` inside `TransactWriteItems`.
    ConditionCheck,
}

impl OpKind {
    /// DynamoDB's name of the API (`Query`, `PutItem`, ...).
    pub fn api_name(self) -> &'static str {
        match self {
            Self::Query => "Query",
            Self::Scan => "Scan",
            Self::GetItem => "GetItem",
            Self::PutItem => "PutItem",
            Self::UpdateItem => "UpdateItem",
            Self::DeleteItem => "DeleteItem",
            Self::BatchGetItem => "BatchGetItem",
            Self::BatchWriteItem => "BatchWriteItem",
            Self::TransactGetItems => "TransactGetItems",
            Self::TransactWriteItems => "TransactWriteItems",
            Self::ExecuteStatement => "ExecuteStatement",
            Self::ConditionCheck => "ConditionCheck",
        }
    }

    /// The SDK's fluent method name (`query`, `put_item`, ...).
    pub fn sdk_method(self) -> &'static str {
        match self {
            Self::Query => "query",
            Self::Scan => "scan",
            Self::GetItem => "get_item",
            Self::PutItem => "put_item",
            Self::UpdateItem => "update_item",
            Self::DeleteItem => "delete_item",
            Self::BatchGetItem => "batch_get_item",
            Self::BatchWriteItem => "batch_write_item",
            Self::TransactGetItems => "transact_get_items",
            Self::TransactWriteItems => "transact_write_items",
            Self::ExecuteStatement => "execute_statement",
            Self::ConditionCheck => "condition_check",
        }
    }

    pub fn is_read(self) -> bool {
        matches!(
            self,
            Self::Query | Self::Scan | Self::GetItem | Self::BatchGetItem | Self::TransactGetItems
        )
    }

    pub fn is_write(self) -> bool {
        matches!(
            self,
            Self::PutItem
                | Self::UpdateItem
                | Self::DeleteItem
                | Self::BatchWriteItem
                | Self::TransactWriteItems
        )
    }
}

/// A string the code computes, as far as static analysis can tell.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Resolved {
    /// Written inline: `"Orders"`.
    Literal { value: String },
    /// A named `const`/`static`/`let`/`LazyLock`/struct field whose value resolves further.
    Const { name: String, value: Box<Resolved> },
    /// `std::env::var("TABLE_NAME")`: matched against a table's `refs`.
    Env { var: String },
    /// `format!("USER#{}", id)` and friends: the template with `{}` holes kept.
    Template { template: String },
    /// Could not be resolved; the reason says why.
    Unknown { reason: String },
}

impl Resolved {
    pub fn literal(value: impl Into<String>) -> Self {
        Self::Literal {
            value: value.into(),
        }
    }

    pub fn unknown(reason: impl Into<String>) -> Self {
        Self::Unknown {
            reason: reason.into(),
        }
    }

    /// The concrete string, when it is known (through any chain of constants).
    pub fn value(&self) -> Option<&str> {
        match self {
            Self::Literal { value } => Some(value),
            Self::Const { value, .. } => value.value(),
            _ => None,
        }
    }

    /// Every name the value is known by: constant names, env var names, the literal.
    /// A table's `refs` match any of them.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Self::Literal { value } => vec![value],
            Self::Const { name, value } => {
                let mut v = vec![name.as_str()];
                // `names::TABLE` is also referred to by its last segment.
                if let Some(last) = name.rsplit("::").next().filter(|l| *l != name) {
                    v.push(last);
                }
                v.extend(value.names());
                v
            }
            Self::Env { var } => vec![var],
            Self::Template { .. } | Self::Unknown { .. } => Vec::new(),
        }
    }

    /// The innermost value behind constants.
    pub fn innermost(&self) -> &Resolved {
        match self {
            Self::Const { value, .. } => value.innermost(),
            other => other,
        }
    }

    /// A short human label: `"Orders"`, `TABLE`, `env TABLE_NAME`, `format!("USER#{}")`.
    pub fn label(&self) -> String {
        match self {
            Self::Literal { value } => format!("\"{value}\""),
            Self::Const { name, .. } => name.clone(),
            Self::Env { var } => format!("env {var}"),
            Self::Template { template } => format!("format!(\"{template}\")"),
            Self::Unknown { .. } => "<unknown>".to_string(),
        }
    }
}

/// Where a value comes from; rules judge keys by it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Provenance {
    /// A literal in the code.
    Literal,
    /// A named constant.
    Constant,
    /// A hash digest of something (`sha256(id)`, `DefaultHasher`, `Uuid::new_v5`).
    Hashed {
        function: String,
    },
    /// A small shard suffix: `hash % N`, `rand::random_range(0..N)`.
    ShardSuffix {
        modulus: Option<u64>,
    },
    /// Few distinct values: `status.to_string()`, a `bool`, an enum.
    EnumLike,
    /// A function parameter or request input: many values.
    Param,
    /// A generated id (`Uuid::new_v4`, ULID, a sequence).
    GeneratedId,
    Unknown,
}

/// What the scanner knows about one attribute value or placeholder value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueInfo {
    /// The value as a string, when static (`"USER#"`, `"42"`, `"true"`).
    pub literal: Option<String>,
    /// Its DynamoDB type when the construction shows it (`AttributeValue::S(..)`).
    pub ty: Option<AttributeType>,
    /// The string shape when it is a template (`USER#{}`) or a resolved name.
    pub text: Option<Resolved>,
    pub provenance: Provenance,
    /// The parts of a template, in order of the `{}` holes.
    pub parts: Vec<ValueInfo>,
    /// True when it can be NULL or absent: `AttributeValue::Null`, an `Option` field
    /// without `skip_serializing_if`, `unwrap_or_default()`.
    pub nullable: bool,
    /// The expression in the source.
    pub span: Span,
}

impl ValueInfo {
    pub fn unknown(span: Span) -> Self {
        Self {
            literal: None,
            ty: None,
            text: None,
            provenance: Provenance::Unknown,
            parts: Vec::new(),
            nullable: false,
            span,
        }
    }
}

/// An expression string argument (`key_condition_expression("#pk = :pk")`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExprArg {
    pub text: Resolved,
    /// The argument expression in the source.
    pub span: Span,
    /// When the text is a string literal: the byte offset of its first content char in
    /// the file, so an error at byte `i` of the expression maps to `literal_start + i`.
    pub literal_start: Option<usize>,
    /// Set only on some paths (inside an `if`, or rebound in one branch).
    pub conditional: bool,
    /// When `text` is not known because the code appends to the string on some paths
    /// only (`push_str` in an `if` or a `match` arm): its text on each path.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub paths: Box<[String]>,
}

/// A name placeholder `#n` and what it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameArg {
    pub name: Resolved,
    pub span: Span,
    pub conditional: bool,
}

/// One attribute of an item or key the call writes or addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttrArg {
    pub name: Resolved,
    pub value: ValueInfo,
    pub span: Span,
    pub conditional: bool,
}

/// One setter call of the builder chain (`.limit(10)`, `.expression_attribute_values(":v", ..)`).
/// Rules use it to point at a setter and to offer its removal as a fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetterCall {
    /// The SDK method as written (`consistent_read`, `set_limit`).
    pub method: String,
    /// The pair's key for map setters (`":v"` of `expression_attribute_values(":v", ..)`).
    pub key: Option<String>,
    /// From the method name to the closing parenthesis: what a label points at.
    pub span: Span,
    /// From the end of the receiver to the closing parenthesis (the `.`, and the line
    /// break before it): deleting it leaves the chain well-formed.
    pub removal_span: Span,
    /// Called only on some paths (inside an `if`, or rebound in one branch).
    pub conditional: bool,
    /// The white space before the call's `.` (a line break and indentation in a chain
    /// written one call per line), so a fix can add a setter in the same layout.
    pub lead: String,
}

impl SetterCall {
    /// True for a call of `method` or of its `set_` twin.
    pub fn is(&self, method: &str) -> bool {
        self.method == method || self.method.strip_prefix("set_") == Some(method)
    }
}

/// An item or key map; `complete` says every attribute of it is known.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct AttrMap {
    pub attributes: Vec<AttrArg>,
    /// False when part of the map comes from somewhere the scanner could not follow.
    pub complete: bool,
    /// The Rust type that produced it (`serde_dynamo::to_item(order)` → `Order`).
    pub from_type: Option<String>,
    /// When a map of `attributes` is extended by a serialised struct
    /// (`item.extend(to_item(query)?)`): how many of `attributes` come before it. The
    /// struct's attributes replace those of the same name, and are replaced by those
    /// set after it (unless set only on some paths). Cleared once the link phase has
    /// put the struct's attributes in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serde_at: Option<usize>,
}

impl AttrMap {
    pub fn get(&self, name: &str) -> Option<&AttrArg> {
        self.attributes
            .iter()
            .find(|a| a.name.value() == Some(name))
    }
}

/// Why a call runs on every request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HotReason {
    /// What makes the root hot: `axum route GET /orders`, `lambda_runtime::service_fn`,
    /// `hot-paths glob src/api/**`.
    pub entry: String,
    /// The call chain from the entry point to the function holding the call.
    pub chain: Vec<CallStep>,
}

/// One function on a hot chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallStep {
    pub function: String,
    #[serde(serialize_with = "serialize_path")]
    pub file: FilePath,
    /// The function's name (or the call site) in that file.
    pub span: Span,
}

/// Why a call is not on a request path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ColdReason {
    Test,
    Bench,
    Example,
    BuildScript,
    ColdPathGlob {
        glob: String,
    },
    /// A `main` that starts no server: a one-off binary.
    OneOffBinary,
}

/// The loop a call sits in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoopInfo {
    /// `for`, `while`, `loop`, `for_each`, `map`, `join_all`, ...
    pub kind: String,
    /// The loop in `caller`'s file when there is a caller, else in the operation's file.
    pub span: Span,
    /// When the loop is not around the call itself but around a call of its function:
    /// the function whose loop calls it (`friends` in `for f in ids { repo.get_user(f) }`).
    pub caller: Option<CallStep>,
    /// How many times it runs when the code fixes it: a `for` over an array literal
    /// (`for t in ["a", "b"]`, `[a, b].iter()`) or a literal range (`0..3`).
    pub elements: Option<u64>,
}

impl LoopInfo {
    /// The file the loop's span is in.
    pub fn file<'a>(&'a self, op: &'a Operation) -> &'a FilePath {
        self.caller.as_ref().map_or(&op.file, |c| &c.file)
    }

    /// The loop's keyword when it is one (`for`, `while`, `loop`), else the whole loop
    /// or combinator call: a label over a 40-line body says less than one over `for`.
    pub fn keyword_span(&self) -> Span {
        if matches!(self.kind.as_str(), "for" | "while" | "loop") {
            Span::new(
                self.span.start,
                (self.span.start + self.kind.len()).min(self.span.end),
            )
        } else {
            self.span
        }
    }

    /// "this `for`", or "this `for` in `friends`, which calls `Repo::get_user`," when
    /// the loop is at a call site of the operation's function.
    pub fn this_loop(&self, op: &Operation) -> String {
        match (&self.caller, &op.context.function) {
            (Some(c), Some(f)) => format!(
                "this `{}` in `{}`, through its call of `{f}`,",
                self.kind, c.function
            ),
            (Some(c), None) => format!("this `{}` in `{}`", self.kind, c.function),
            (None, _) => format!("this `{}`", self.kind),
        }
    }
}

/// Where the call sits in the program.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Context {
    /// Enclosing function, qualified by its impl: `OrderRepo::list_open`.
    pub function: Option<String>,
    pub in_loop: Option<LoopInfo>,
    pub hot: Option<HotReason>,
    pub cold: Option<ColdReason>,
    /// For a Query read as one page: the functions that call `function`, each with its
    /// own callers, two levels up: what the request is for when its own function's
    /// name does not say (`query_0` that only `get_all_rss_registrations` calls).
    /// Empty when nothing calls it that the call graph can tell apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<CallerFn>,
    /// The request is all its function does: the body is the chain that sends it (a
    /// repository's `async fn get(&self, id) -> .. { self.client.get_item()..send()
    /// .await }`), so a call of the function is the request, made where it is called.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub whole_function: bool,
    /// When the request is linked at the one call of its function that makes it (a
    /// helper that sends it, bound to what that call passes): that call, in the
    /// function it is in. Where that function makes the request, beside its others.
    /// Boxed: most requests have none, and every operation carries a context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called_at: Option<Box<CallStep>>,
}

/// A function that calls another, with its own callers ([`Context::callers`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallerFn {
    /// Qualified by its impl: `Repo::list_all`.
    pub function: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<CallerFn>,
}

/// One DynamoDB request the code can make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Operation {
    pub kind: OpKind,
    #[serde(serialize_with = "serialize_path")]
    pub file: FilePath,
    /// The whole call chain (from the client to `.send()` or the paginator).
    pub span: Span,
    /// The SDK method call (`.query()`) that names the operation.
    pub method_span: Span,
    pub table: Option<Resolved>,
    pub table_span: Option<Span>,
    /// The table argument as written, whitespace folded (`&self.config.orders_table`):
    /// when its value is unknown, its last name can still match a table's `refs`.
    pub table_text: Option<String>,
    pub index: Option<Resolved>,
    pub index_span: Option<Span>,
    /// The expressions are boxed: a call sets one or two of the six, and inline they
    /// were a quarter of every operation.
    pub key_condition: Option<Box<ExprArg>>,
    pub filter: Option<Box<ExprArg>>,
    pub condition: Option<Box<ExprArg>>,
    pub projection: Option<Box<ExprArg>>,
    pub update: Option<Box<ExprArg>>,
    /// PartiQL statement of `ExecuteStatement`.
    pub statement: Option<Box<ExprArg>>,
    /// `#name` → attribute name.
    pub names: IndexMap<String, NameArg>,
    /// `:value` → what is known of it.
    pub values: IndexMap<String, ValueInfo>,
    /// False when some `#name` keys could not be read (a map built in a loop, a
    /// parameter, a helper's map, `format!("#{k}")`): `names` is then not all of them,
    /// and what the request defines is unknown.
    pub names_complete: bool,
    /// The same for `:value` keys and `values`.
    pub values_complete: bool,
    /// The item of a PutItem (or a transaction Put).
    pub item: Option<AttrMap>,
    /// The key of a GetItem/UpdateItem/DeleteItem (or BatchGet key list, merged).
    pub key: Option<AttrMap>,
    pub consistent_read: Option<bool>,
    /// Boxed, as `total_segments` and `batch_size`: most calls set none of them, and
    /// inline they were a quarter of every operation (a 40,000-call file holds all
    /// its operations at once).
    pub limit: Option<Box<ValueInfo>>,
    pub scan_index_forward: Option<bool>,
    /// `Select` as DynamoDB spells it (`COUNT`, `ALL_ATTRIBUTES`, ...), when the code
    /// gives one value.
    pub select: Option<String>,
    /// The values an `if`/`match` argument of `select` gives, one per branch, when they
    /// differ (`select` is then `None`): each is a request the code can send.
    pub select_choices: Vec<String>,
    /// The table is one of the few a field of the receiver may hold, whose
    /// constructors' calls give it different tables (`DynamoStore::new("apps")`,
    /// `("users")`, then `.table_name(&self.table)`): this is the request as sent to
    /// one of them, made only if the code calls it on that instance. Or the chain
    /// continues one of several builders a call of that name may return (two
    /// `player_request` helpers, one setting the table). A rule judges it as possible,
    /// never as certain: no error rests on its table.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub possible_table: bool,
    /// Every setter call of the chain, in source order (empty for struct literals).
    pub setters: Vec<SetterCall>,
    /// Read through `into_paginator()` or an `exclusive_start_key` loop.
    pub paginated: bool,
    /// `exclusive_start_key`/`set_exclusive_start_key` is set.
    pub exclusive_start_key: bool,
    /// The response is read only for its first item (`items.first()`,
    /// `.into_iter().next()`, `items[0]`, an `is_empty()` check aside): pages after
    /// the first hold nothing the code reads.
    pub first_item_only: bool,
    /// `segment`/`total_segments` of a parallel Scan.
    pub total_segments: Option<Box<ValueInfo>>,
    /// Requests inside a batch or transaction, each with its own kind and table.
    pub children: Vec<Operation>,
    /// How many requests (keys, for a BatchGetItem) each call of a batch or
    /// transaction carries when its list maps one `chunks(n)`/`chunks_exact(n)`
    /// element one to one (`chunk.iter().map(..).collect()`): `n`, a literal or a
    /// constant. `children` then holds the one request the mapping builds.
    pub batch_size: Option<Box<ValueInfo>>,
    /// A typed request (`Put::builder()` .. `.build()`) folded from one chain that
    /// ends in `build()` and calls no method the scanner does not know: a parameter
    /// missing from `setters` is missing from the request (a transaction `Put` with no
    /// `table_name`), or a request sent by the one chain that starts it
    /// (`client.delete_item().key(..).send()`), calling no method the scanner does
    /// not know.
    pub complete_builder: bool,
    /// The number of PartiQL `Parameters` a `set_parameters` call gives as a list
    /// literal (`Some(vec![a, b])`); `.parameters(v)` calls each add one and are in
    /// `setters`.
    pub parameter_list: Option<usize>,
    /// The parts of the request that parameters of its function hold, read by the
    /// link at each call; boxed, as nearly every request has none.
    #[serde(skip)]
    pub from_params: Option<Box<ParamParts>>,
    pub context: Context,
    /// The normalised text of the call (whitespace folded): the baseline fingerprint.
    pub fingerprint_text: String,
}

impl Operation {
    /// Where the call is shown, by every command and format: its SDK method's name
    /// (`.scan()`), as findings point at it.
    pub fn location(&self) -> Location {
        Location::new(self.file.clone(), self.method_span)
    }

    /// An operation with nothing known but its kind and place.
    pub fn new(kind: OpKind, file: FilePath, span: Span) -> Self {
        Self {
            kind,
            file,
            span,
            method_span: span,
            table: None,
            table_span: None,
            table_text: None,
            index: None,
            index_span: None,
            key_condition: None,
            filter: None,
            condition: None,
            projection: None,
            update: None,
            statement: None,
            names: IndexMap::new(),
            values: IndexMap::new(),
            names_complete: true,
            values_complete: true,
            item: None,
            key: None,
            consistent_read: None,
            limit: None,
            scan_index_forward: None,
            select: None,
            select_choices: Vec::new(),
            possible_table: false,
            setters: Vec::new(),
            paginated: false,
            exclusive_start_key: false,
            first_item_only: false,
            total_segments: None,
            children: Vec::new(),
            batch_size: None,
            complete_builder: false,
            parameter_list: None,
            from_params: None,
            context: Context::default(),
            fingerprint_text: String::new(),
        }
    }

    /// The last call of setter `method` (or its `set_` twin), when the chain has one.
    pub fn setter(&self, method: &str) -> Option<&SetterCall> {
        self.setters.iter().rev().find(|s| s.is(method))
    }

    /// A short label of the table for messages: `"Orders"`, `TABLE`, `<unknown table>`.
    pub fn table_label(&self) -> String {
        match &self.table {
            Some(Resolved::Literal { value }) => format!("`{value}`"),
            Some(Resolved::Const { name, value }) => match value.value() {
                Some(v) => format!("`{v}`"),
                None => format!("`{name}`"),
            },
            Some(Resolved::Env { var }) => format!("the table in `${var}`"),
            _ => "<unknown table>".to_string(),
        }
    }
}

fn serialize_path<S: serde::Serializer>(p: &FilePath, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.to_string_lossy())
}

/// A column an ORM schema of the project declares unique (`#[sea_orm(unique)]`): no
/// two records of the entity's table share its value. An attribute of the same name on
/// the DynamoDB table of the same records names one item.
/// The parts of a request that parameters of its function hold
/// ([`Operation::from_params`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParamParts {
    /// `set_parameters(params)` given a parameter of the request's function (or
    /// `Some(params)`): the reference through which the link reads the length of the
    /// list each call passes (`Some(vec![a, b])`) into `parameter_list`.
    pub parameter_list: Option<Resolved>,
    /// `transact_items(item)` or `set_transact_items(Some(items))` given a parameter
    /// of the request's function (`fn tx(c: &Client, items: Vec<TransactWriteItem>)`):
    /// the items each call builds and passes there are this transaction's, which the
    /// link adds to `children` at each chain that continues the returned builder.
    pub items: Vec<ItemsParam>,
}

/// A parameter of a transaction's function that holds its items
/// ([`ParamParts::items`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemsParam {
    /// The reference to the parameter, read at the call being followed.
    pub param: Resolved,
    /// Which parameter it is (not counting `self`): the argument whose items a call
    /// hands the transaction.
    pub index: usize,
    /// Added on some paths only (`if keep { b = b.transact_items(item) }`).
    pub conditional: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UniqueColumn {
    /// The entity's table (`#[sea_orm(table_name = "sessions")]`).
    pub table: String,
    pub column: String,
}

/// A problem the scanner met in a file: it never fails, it says what it skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScanProblem {
    #[serde(serialize_with = "serialize_path")]
    pub file: FilePath,
    pub span: Option<Span>,
    pub message: String,
}
