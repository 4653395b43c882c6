//! The loaded key model. Field names mirror `dynalint.toml` (the contract in
//! DESIGN.md); every item keeps the span of its TOML so findings can point at it.

use indexmap::IndexMap;

use crate::attr::AttributeType;
use crate::report::Severity;
use crate::source::{FilePath, Span};

/// The whole `dynalint.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Path of the `dynalint.toml` this came from.
    pub path: FilePath,
    pub lint: LintSettings,
    /// `[rules]`: per-rule level and options, by rule id.
    pub rules: IndexMap<String, RuleSettings>,
    pub tables: Vec<Table>,
    pub access_patterns: Vec<AccessPattern>,
}

impl Model {
    /// An empty model (no tables) for a file: everything is unknown.
    pub fn empty(path: FilePath) -> Self {
        Self {
            path,
            lint: LintSettings::default(),
            rules: IndexMap::new(),
            tables: Vec::new(),
            access_patterns: Vec::new(),
        }
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}

/// `[lint]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LintSettings {
    pub fail_on: Option<Severity>,
    pub exclude: Vec<String>,
    pub hot_paths: Vec<String>,
    pub cold_paths: Vec<String>,
    /// Spans of the values of `fail-on`, `exclude`, ... in the TOML.
    pub fields: FieldSpans,
}

/// Where each field's value of one TOML item sits, keyed by the field's TOML name
/// (`partition-key`, `projection`, ...) or a dotted path into a sub-table (`keys.PK`,
/// `key.facet`), so a finding can underline the exact value rather than the item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldSpans(IndexMap<String, Span>);

impl FieldSpans {
    /// The span of a field's value, if the field was written.
    pub fn get(&self, field: &str) -> Option<Span> {
        self.0.get(field).copied()
    }

    /// Records where a field's value is.
    pub fn insert(&mut self, field: impl Into<String>, span: Span) {
        self.0.insert(field.into(), span);
    }

    /// Every recorded field and its span, in file order of recording.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Span)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

/// A rule's configured level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    On(Severity),
}

/// One `[rules]` entry: `rule-id = "warning"` or `rule-id = { level = "error", .. }`.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSettings {
    pub level: Option<RuleLevel>,
    /// Rule-specific options (`min-cardinality = 100`), kept as TOML for the rule.
    pub options: toml::Table,
    /// The whole entry (`rule-id = ...`).
    pub span: Span,
}

/// `[[table]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: String,
    /// Env vars and consts the code names this table by.
    pub refs: Vec<String>,
    pub partition_key: String,
    pub sort_key: Option<String>,
    pub item_count: Option<u64>,
    /// Average item size in bytes.
    pub avg_item_size: Option<u64>,
    pub attributes: IndexMap<String, Attribute>,
    pub indexes: Vec<Index>,
    pub entities: Vec<Entity>,
    /// The `[[table]]` header and body.
    pub span: Span,
    /// The value of `name`.
    pub name_span: Span,
    /// Spans of the other fields' values (`partition-key`, `item-count`, ...).
    pub fields: FieldSpans,
}

impl Table {
    pub fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.name == name)
    }

    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.get(name)
    }

    /// True when the code's table reference (a name, const or env var) means this table.
    pub fn is_named_by(&self, name: &str) -> bool {
        self.name == name || self.refs.iter().any(|r| r == name)
    }
}

/// A declared value distribution: a plain list, or value → share of items.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSet {
    List(Vec<String>),
    Shares(IndexMap<String, f64>),
}

impl ValueSet {
    pub fn len(&self) -> usize {
        match self {
            Self::List(v) => v.len(),
            Self::Shares(m) => m.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `[table.attributes]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub ty: AttributeType,
    pub values: Option<ValueSet>,
    pub unique: bool,
    pub cardinality: Option<u64>,
    /// The whole entry (`name = ...`).
    pub span: Span,
    /// The attribute's name (the TOML key).
    pub name_span: Span,
    /// Spans of `type`, `values`, `unique`, `cardinality` (and `values.<value>`).
    pub fields: FieldSpans,
}

/// Global or local secondary index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

/// What an index copies besides the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    All,
    KeysOnly,
    Include(Vec<String>),
}

/// `[[table.index]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub name: String,
    pub kind: IndexKind,
    pub partition_key: String,
    pub sort_key: Option<String>,
    pub projection: Projection,
    /// The `[[table.index]]` header and body.
    pub span: Span,
    /// The value of `name`.
    pub name_span: Span,
    /// Spans of the other fields' values (`partition-key`, `projection`, ...).
    pub fields: FieldSpans,
}

/// `[[table.entity]]`: one kind of item in a (single-table) design.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub name: String,
    pub count: Option<u64>,
    /// Key attribute → template, e.g. `PK = "USER#{userID}"`.
    pub keys: IndexMap<String, String>,
    pub attributes: Vec<String>,
    /// The `[[table.entity]]` header and body.
    pub span: Span,
    /// The value of `name`.
    pub name_span: Span,
    /// Spans of the other fields' values; `keys.<attr>` for each template.
    pub fields: FieldSpans,
}

/// Read order of an access pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Asc,
    Desc,
}

/// `[[access-pattern]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessPattern {
    pub name: String,
    pub table: String,
    pub index: Option<String>,
    /// Key attribute → the value (or `{placeholder}` template) the pattern queries by.
    pub key: IndexMap<String, String>,
    pub order: Option<Order>,
    pub limit: Option<u64>,
    /// Requests per second.
    pub rate: Option<f64>,
    /// The `[[access-pattern]]` header and body.
    pub span: Span,
    /// The value of `name`.
    pub name_span: Span,
    /// Spans of the other fields' values; `key.<attr>` for each key value.
    pub fields: FieldSpans,
}
