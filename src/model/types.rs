//! The loaded key model. Field names mirror `dynalint.toml` (the contract in
//! DESIGN.md); every item keeps the span of its TOML so findings can point at it.

use indexmap::IndexMap;

use super::template::KeyTemplate;
use crate::attr::AttributeType;
use crate::diagnostic::Severity;
use crate::source::{FilePath, Span};

/// The whole `dynalint.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Path of the `dynalint.toml` this came from.
    pub path: FilePath,
    /// `[lint]`: CI gate and path globs.
    pub lint: LintSettings,
    /// `[rules]`: per-rule level and options, by rule id.
    pub rules: IndexMap<String, RuleSettings>,
    /// `[[table]]`, in file order.
    pub tables: Vec<Table>,
    /// `[[access-pattern]]`, in file order.
    pub access_patterns: Vec<AccessPattern>,
    /// `import = ["template.yaml"]`: templates whose tables join the model, paths
    /// relative to the `dynalint.toml`.
    pub imports: Vec<Import>,
    /// The span of the `import` array, when written.
    pub import_span: Option<Span>,
    /// What importing those files could not do (unreadable declarations, conflicts
    /// with the TOML): notes, never errors.
    pub import_notes: Vec<super::import::ImportNote>,
    /// `[pricing]`: the region and any price figures that replace the bundled ones.
    pub pricing: PricingSettings,
}

/// One entry of `import`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The file, as written (relative to the `dynalint.toml`).
    pub file: String,
    /// The span of the string in the TOML.
    pub span: Span,
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
            imports: Vec::new(),
            import_span: None,
            import_notes: Vec::new(),
            pricing: PricingSettings::default(),
        }
    }

    /// Looks a table up by its name (not its refs; see [`Table::is_named_by`]).
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}

/// `[pricing]`: what a table's requests and storage cost, where the bundled price
/// table (`src/pricing/prices.toml`) does not say or the team pays otherwise.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PricingSettings {
    /// `region`: the AWS region the tables are in (`us-east-1` when not written).
    pub region: Option<String>,
    /// `target-utilization`: the share of provisioned capacity used on average (auto
    /// scaling's target), in `(0, 1]`.
    pub target_utilization: Option<f64>,
    /// Price figures given in the TOML, each replacing the bundled one.
    pub overrides: Vec<PriceOverride>,
    /// `[pricing.reserved-capacity]`: a reserved capacity offer to compare.
    pub reserved: Option<ReservedCapacity>,
    /// Spans of `region`, `target-utilization` and the sub-tables.
    pub fields: FieldSpans,
}

/// One price figure of `[pricing]` (`write-request-units = 0.625`), for the model's
/// region or one of `[pricing.regions.<code>]`, and one table class.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceOverride {
    /// `None`: the model's region.
    pub region: Option<String>,
    pub class: TableClass,
    /// The figure's key, one of `crate::model::price_figure::Figure`'s.
    pub figure: crate::model::price_figure::Figure,
    /// In the figure's unit (dollars per million request units, per unit-hour, per
    /// GB-month).
    pub value: f64,
    /// The value in the TOML.
    pub span: Span,
}

/// `[pricing.reserved-capacity]`: DynamoDB's reserved capacity (Standard table class,
/// provisioned mode), an upfront fee and an hourly rate per 100 capacity units.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReservedCapacity {
    /// `term-years`: 1 or 3.
    pub term_years: u32,
    /// `read-upfront`: dollars per 100 RCU, once per term.
    pub read_upfront: Option<f64>,
    /// `read-hourly`: dollars per 100 RCU per hour.
    pub read_hourly: Option<f64>,
    /// `write-upfront`: dollars per 100 WCU, once per term.
    pub write_upfront: Option<f64>,
    /// `write-hourly`: dollars per 100 WCU per hour.
    pub write_hourly: Option<f64>,
    /// The `[pricing.reserved-capacity]` table.
    pub span: Span,
}

/// `[lint]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LintSettings {
    /// `fail-on`: the lowest severity that fails the run (exit 1).
    pub fail_on: Option<Severity>,
    /// `exclude`: globs of files never checked.
    pub exclude: Vec<String>,
    /// `hot-paths`: globs of files whose calls are hot (request paths).
    pub hot_paths: Vec<String>,
    /// `cold-paths`: globs of files whose calls are cold (batch jobs, tools).
    pub cold_paths: Vec<String>,
    /// `skipped-files = "allow"`: a source file that cannot be read (unreadable, not
    /// UTF-8, over the size limit) is only a note. By default (`"error"`) it fails the
    /// run, so a CI gate never passes without having read every file.
    pub allow_skipped: bool,
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
    /// `"off"`: the rule does not run.
    Off,
    /// The rule runs and reports at this severity.
    On(Severity),
}

/// One `[rules]` entry: `rule-id = "warning"` or `rule-id = { level = "error", .. }`.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSettings {
    /// `level`, or the string itself; `None` keeps the rule's default level.
    pub level: Option<RuleLevel>,
    /// Rule-specific options (`min-cardinality = 100`), kept as TOML for the rule.
    pub options: toml::Table,
    /// The whole entry (`rule-id = ...`).
    pub span: Span,
}

/// `[[table]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// `name`.
    pub name: String,
    /// Env vars and consts the code names this table by.
    pub refs: Vec<String>,
    /// `partition-key`: the attribute DynamoDB hashes to pick a partition.
    pub partition_key: String,
    /// `sort-key`: orders items within a partition, when there is one.
    pub sort_key: Option<String>,
    /// `item-count`: how many items the table holds.
    pub item_count: Option<u64>,
    /// Average item size in bytes.
    pub avg_item_size: Option<u64>,
    /// `write-rate`: items written (put, updated or deleted) per second at peak, all
    /// kinds together; entities' own `write-rate`s take precedence.
    pub write_rate: Option<f64>,
    /// `[table.attributes]`, by name, in file order.
    pub attributes: IndexMap<String, Attribute>,
    /// `[[table.index]]`, in file order.
    pub indexes: Vec<Index>,
    /// `[[table.entity]]`, in file order.
    pub entities: Vec<Entity>,
    /// `billing-mode`: on-demand or provisioned, when declared.
    pub billing_mode: Option<BillingMode>,
    /// `read-capacity`/`write-capacity`: the table's provisioned throughput, when given.
    pub provisioned: Option<Throughput>,
    /// `table-class`: `STANDARD` (the default) or `STANDARD_INFREQUENT_ACCESS`.
    pub table_class: Option<TableClass>,
    /// `replicas`: the other regions of a global table, each storing and writing
    /// every item again.
    pub replicas: Vec<String>,
    /// Where the table was declared: `dynalint.toml`, a template, the Rust code. Its
    /// `path` is the file that `span`, `name_span` and `fields` index into.
    pub origin: TableOrigin,
    /// The `[[table]]` header and body.
    pub span: Span,
    /// The value of `name`.
    pub name_span: Span,
    /// Spans of the other fields' values (`partition-key`, `item-count`, ...).
    pub fields: FieldSpans,
}

impl Table {
    /// Looks an index up by name.
    pub fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// Looks a declared attribute up by name.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.get(name)
    }

    /// True when the code's table reference (a name, const or env var) means this table.
    pub fn is_named_by(&self, name: &str) -> bool {
        self.name == name || self.refs.iter().any(|r| r == name)
    }

    /// The table's name as a template when it is built from parts a deployment fills in
    /// (`{Stage}-orders` from `!Sub "${Stage}-orders"`); `None` for a plain name.
    pub fn name_template(&self) -> Option<KeyTemplate> {
        KeyTemplate::parse(&self.name)
            .ok()
            .filter(|t| !t.is_constant())
    }
}

/// Where a table's declaration came from, so `model show`, `init` and conflict notes
/// can name the file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOrigin {
    /// What kind of file declared it.
    pub kind: OriginKind,
    /// The file (the one the table's spans index into).
    pub path: FilePath,
    /// 1-based line of the declaration; 0 when not known.
    pub line: usize,
    /// The name the file gives the declaration besides the table name: the logical id of
    /// a CloudFormation resource (`OrdersTable`), a Terraform address
    /// (`aws_dynamodb_table.orders`).
    pub id: Option<String>,
}

impl TableOrigin {
    /// A table of a `dynalint.toml` at `path`, line unknown yet.
    pub fn toml(path: FilePath) -> Self {
        Self {
            kind: OriginKind::DynalintToml,
            path,
            line: 0,
            id: None,
        }
    }
}

/// The kinds of file a table can be declared in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OriginKind {
    /// A `[[table]]` of `dynalint.toml`.
    DynalintToml,
    /// A CloudFormation template (YAML or JSON): `AWS::DynamoDB::Table`/`GlobalTable`.
    CloudFormation,
    /// A SAM template (`Transform: AWS::Serverless-2016-10-31`), including
    /// `AWS::Serverless::SimpleTable`.
    Sam,
    /// A CDK app's synthesised template (`cdk.out/*.template.json`).
    Cdk,
    /// The `resources` of a Serverless Framework `serverless.yml`.
    Serverless,
    /// A Terraform `aws_dynamodb_table` resource.
    Terraform,
    /// A NoSQL Workbench data model export.
    NoSqlWorkbench,
    /// The output of `aws dynamodb describe-table`.
    DescribeTable,
    /// A `create_table` call in the Rust code.
    RustCode,
    /// Declared nowhere: the key the code's calls use (`infer::usage`). A guess about
    /// the code being checked, so never the ground of an error.
    Usage,
}

impl OriginKind {
    /// How `model show` and notes name the kind.
    pub fn label(self) -> &'static str {
        match self {
            Self::DynalintToml => "dynalint.toml",
            Self::CloudFormation => "CloudFormation",
            Self::Sam => "SAM",
            Self::Cdk => "CDK",
            Self::Serverless => "Serverless Framework",
            Self::Terraform => "Terraform",
            Self::NoSqlWorkbench => "NoSQL Workbench",
            Self::DescribeTable => "describe-table",
            Self::RustCode => "Rust code",
            Self::Usage => "inferred from how the code uses it",
        }
    }
}

/// How a table's reads and writes are paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingMode {
    /// `PAY_PER_REQUEST`: on-demand, billed per request.
    PayPerRequest,
    /// `PROVISIONED`: a fixed read and write capacity per second.
    Provisioned,
}

impl BillingMode {
    /// DynamoDB's name: `PAY_PER_REQUEST` or `PROVISIONED`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PayPerRequest => "PAY_PER_REQUEST",
            Self::Provisioned => "PROVISIONED",
        }
    }

    /// Parses DynamoDB's name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "PAY_PER_REQUEST" => Some(Self::PayPerRequest),
            "PROVISIONED" => Some(Self::Provisioned),
            _ => None,
        }
    }
}

/// The table class DynamoDB bills a table's requests and storage by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum TableClass {
    /// `STANDARD`: the default; throughput is the larger cost.
    #[default]
    Standard,
    /// `STANDARD_INFREQUENT_ACCESS`: cheaper storage, dearer requests.
    StandardInfrequentAccess,
}

impl TableClass {
    /// DynamoDB's name: `STANDARD` or `STANDARD_INFREQUENT_ACCESS`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Standard => "STANDARD",
            Self::StandardInfrequentAccess => "STANDARD_INFREQUENT_ACCESS",
        }
    }

    /// Parses DynamoDB's name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "STANDARD" => Some(Self::Standard),
            "STANDARD_INFREQUENT_ACCESS" => Some(Self::StandardInfrequentAccess),
            _ => None,
        }
    }
}

/// Provisioned throughput: capacity units per second; `None` when not known (a
/// parameter without a default, an auto-scaled figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Throughput {
    /// `ReadCapacityUnits`.
    pub read: Option<u64>,
    /// `WriteCapacityUnits`.
    pub write: Option<u64>,
}

/// A declared value distribution: a plain list, or value → share of items.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueSet {
    /// `values = ["A", "B"]`: the values, shares unknown.
    List(Vec<String>),
    /// `values = { A = 0.2, B = 0.8 }`: each value's fraction of items.
    Shares(IndexMap<String, f64>),
}

impl ValueSet {
    /// How many values are declared.
    pub fn len(&self) -> usize {
        match self {
            Self::List(v) => v.len(),
            Self::Shares(m) => m.len(),
        }
    }

    /// True when no value is declared.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `[table.attributes]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// `name`.
    pub name: String,
    /// `type` (or the bare type string).
    pub ty: AttributeType,
    /// `values`: the values the attribute takes.
    pub values: Option<ValueSet>,
    /// `unique`: every item has its own value.
    pub unique: bool,
    /// `cardinality`: how many distinct values.
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
    /// `kind = "global"` (the default): own keys, eventually consistent.
    Global,
    /// `kind = "local"`: the table's partition key, another sort key.
    Local,
}

/// What an index copies besides the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    /// `"ALL"`: every attribute.
    All,
    /// `"KEYS_ONLY"`: the table's and the index's keys.
    KeysOnly,
    /// `{ include = [..] }`: the keys plus these attributes.
    Include(Vec<String>),
}

/// `[[table.index]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// `name`.
    pub name: String,
    /// `kind`.
    pub kind: IndexKind,
    /// `partition-key`: the attribute DynamoDB hashes to pick a partition.
    pub partition_key: String,
    /// `sort-key`: orders items within a partition, when there is one.
    pub sort_key: Option<String>,
    /// `projection` (`ALL` when not written).
    pub projection: Projection,
    /// `read-capacity`/`write-capacity` of a global index, when given.
    pub provisioned: Option<Throughput>,
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
    /// `name`.
    pub name: String,
    /// `count`: how many items of this kind.
    pub count: Option<u64>,
    /// Key attribute → template, e.g. `PK = "USER#{userID}"`.
    pub keys: IndexMap<String, String>,
    /// `attributes`: the other attributes its items carry (decides sparse-index presence).
    pub attributes: Vec<String>,
    /// `write-rate`: items of this kind written per second at peak.
    pub write_rate: Option<f64>,
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
    /// `order = "asc"`: ascending sort key (`ScanIndexForward = true`).
    Asc,
    /// `order = "desc"`: descending sort key (`ScanIndexForward = false`).
    Desc,
}

/// `[[access-pattern]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessPattern {
    /// `name`.
    pub name: String,
    /// `table`: a table name or one of its `refs`.
    pub table: String,
    /// `index`: the index read through, if any.
    pub index: Option<String>,
    /// Key attribute → the value (or `{placeholder}` template) the pattern queries by.
    pub key: IndexMap<String, String>,
    /// `order`.
    pub order: Option<Order>,
    /// `limit`: items per request.
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
