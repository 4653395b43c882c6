//! The simulation's result as plain data: what was generated, what each access
//! pattern and code operation costs, where the load lands, and what the model and
//! the code do not cover. Serialised as is for `--format json` (versioned).

use indexmap::IndexMap;
use serde::Serialize;

use super::notes::Note;
use super::replay::Measured;
use crate::facts::plan::ReadPlan;
use crate::facts::shards::ShardPlan;

/// Version of the JSON shape; bumped on any breaking change.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything `dynalint simulate` found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulationReport {
    pub schema_version: u32,
    /// The `dynalint.toml` simulated; without one, where the model came from
    /// (`inferred from template.yaml, src/setup.rs`, or `none`).
    pub model: String,
    pub seed: u64,
    /// Fraction of the model's items generated.
    pub scale: f64,
    pub tables: Vec<TableReport>,
    pub patterns: Vec<PatternReport>,
    pub operations: Vec<OperationReport>,
    pub coverage: Coverage,
    /// Missing figures and assumptions, sorted, without repeats.
    pub notes: Vec<Note>,
    /// The prices every dollar figure is at.
    pub prices: PriceBasis,
}

/// Which prices the dollar figures use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriceBasis {
    pub region: String,
    /// The bundled price table's date.
    pub date: String,
    /// Provisioned capacity's average use the provisioned figures assume.
    pub target_utilization: f64,
    /// `us-east-1 list prices of 2026-11-28 (bundled), 2 figures from `[pricing]``.
    pub describe: String,
}

/// Dollars a month in both capacity modes, side by side.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Spend {
    /// On-demand: every request unit at its price.
    pub on_demand: Option<f64>,
    /// Provisioned for the load at the target utilisation.
    pub provisioned: Option<f64>,
    /// Which costs less at the target utilisation.
    pub cheaper: Option<crate::pricing::CapacityMode>,
    /// Provisioned costs less when its capacity is used on average above this share.
    pub break_even_utilization: Option<f64>,
    /// Prices it lacks, each saying where to set it.
    pub missing: Vec<String>,
}

impl From<crate::pricing::Monthly> for Spend {
    fn from(m: crate::pricing::Monthly) -> Self {
        Self {
            cheaper: m.cheaper(),
            on_demand: m.on_demand,
            provisioned: m.provisioned,
            break_even_utilization: m.break_even_utilization,
            missing: m.missing,
        }
    }
}

/// What a table costs a month at the model's rates.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TableCost {
    /// Request units per second: the access patterns' reads at their `rate`s, the
    /// entities' writes at their `write-rate`s.
    pub units: crate::pricing::UnitsPerSecond,
    pub reads: Spend,
    pub writes: Spend,
    /// Storage of the items and every index's entries (the same in both modes).
    pub storage: Option<f64>,
    /// Bytes stored, DynamoDB's per-item overhead included.
    pub storage_bytes: f64,
    /// Requests and storage.
    pub total: Spend,
    /// What the figures leave out: patterns without a `rate`, no `write-rate`.
    pub left_out: Vec<String>,
}

/// What a code operation costs in dollars.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct OperationSpend {
    /// Dollars one call costs on-demand.
    pub per_call_on_demand: Option<f64>,
    /// Calls per second: the `rate` of the access pattern it implements.
    pub rate_per_second: Option<f64>,
    /// That access pattern.
    pub rate_from: Option<String>,
    /// A month at that rate; `None` without one.
    pub monthly: Option<Spend>,
    /// Units or prices it lacks.
    pub missing: Vec<String>,
}

/// One table's generated data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableReport {
    pub name: String,
    /// Items at full scale.
    pub items: u64,
    /// Items generated.
    pub simulated_items: u64,
    pub declared_avg_item_size: Option<u64>,
    pub simulated_avg_item_size: Option<f64>,
    pub entities: Vec<EntityReport>,
    pub indexes: Vec<IndexReport>,
    /// What it costs a month, in dollars.
    pub cost: TableCost,
}

/// One entity: counts, sizes and what one write of it costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityReport {
    pub name: String,
    pub count: u64,
    pub simulated: u64,
    pub avg_item_size: Option<f64>,
    /// Write capacity one PutItem of this entity consumes.
    pub write: WriteCost,
}

/// Write amplification: WCU on the table and on every index a write touches.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct WriteCost {
    pub table_wcu: f64,
    /// Index name → WCU, for the indexes the entity's items land in.
    pub indexes: IndexMap<String, f64>,
    pub total_wcu: f64,
}

/// One secondary index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexReport {
    pub name: String,
    /// `GSI` or `LSI`.
    pub kind: &'static str,
    /// Items at full scale (extrapolated from what landed in it).
    pub items: f64,
    pub simulated_items: u64,
    /// Entities whose items land in it / entities left out (a sparse index).
    pub entities: Vec<String>,
    pub absent: Vec<String>,
    /// Access patterns and code operations that read it.
    pub read_by: Vec<String>,
    /// Its most common partition key value, and the write ceiling that puts on it.
    pub hottest_key: Option<HottestKey>,
    /// Average bytes of an entry as the index stores it (its projection).
    pub avg_entry_size: Option<f64>,
}

/// The partition key value of an index that most items share. Every write of such
/// an item is also a write to that one index partition, so the 1,000 WCU a partition
/// takes caps the table's write rate of those items — the write side of a hot key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HottestKey {
    pub value: String,
    /// Share of the index's items under this value.
    pub share: f64,
    /// Distinct partition key values in the generated index.
    pub distinct_values: u64,
    /// Average WCU one write of such an item costs on the index.
    pub wcu_per_write: f64,
    /// Item writes per second (to items landing in the index) before that index
    /// partition reaches 1,000 WCU: `1000 / (share × wcu_per_write)`.
    pub max_writes_per_sec: f64,
    /// Writes per second to items landing in the index, from the model's `write-rate`
    /// (the entities', else the table's spread by item count); `None` without one.
    pub declared_writes_per_sec: Option<f64>,
    /// When the declared rate tops the ceiling: the shards the key needs, padded for
    /// skew (`declared × share × wcu_per_write / 1,000`, rounded up, plus headroom).
    pub shards_needed: Option<u64>,
}

/// One access pattern, simulated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternReport {
    pub name: String,
    pub plan: Option<ReadPlan>,
    pub cost: Option<Measured>,
    /// Requests per second, declared.
    pub rate: Option<f64>,
    pub load: Option<PartitionLoad>,
    /// Code operations that implement it (`file:line`).
    pub implemented_by: Vec<String>,
    /// A month of it at its `rate`, in dollars.
    pub spend: Option<Spend>,
    /// Why it could not be planned or measured.
    pub error: Option<String>,
}

/// How a read's key values spread requests over partitions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Spread {
    /// Every call reads the same partition(s): literal keys, a fixed shard range.
    Fixed { partitions: u64 },
    /// Calls pick a key value among `values` at full scale; the hottest takes
    /// `max_share` of them (evenly `1/values` unless shares are declared).
    Varying { values: f64, max_share: f64 },
    /// Every call reads every partition (a Scan).
    Everything,
}

/// The load a pattern's `rate` puts on its hottest partition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionLoad {
    pub spread: Spread,
    /// Read units per second on the hottest partition.
    pub hottest_rcu_per_sec: f64,
    /// The partition limit, 3,000 RCU.
    pub limit_rcu_per_sec: f64,
    pub hot: bool,
    /// Shards for the hottest key (DOMAIN.md §3's formula), when it is hot.
    pub shards: Option<ShardPlan>,
}

/// One code operation, simulated when its shape resolves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OperationReport {
    /// `src/orders.rs:42`.
    pub location: String,
    /// `Query`, `GetItem`, ...
    pub kind: &'static str,
    pub table: Option<String>,
    pub index: Option<String>,
    /// `Query index `ByFacet``, `PutItem table `Orders``, or why it has no plan.
    pub served_by: String,
    pub plan: Option<ReadPlan>,
    /// A read measured on the generated data.
    pub cost: Option<Measured>,
    /// What one call costs by the model's figures: the estimate `check`'s findings and
    /// the editor's hover print, for every kind of call (writes, batches and
    /// transactions included).
    pub estimate: crate::facts::call_cost::CallCost,
    /// The declared access patterns it implements.
    pub patterns: Vec<String>,
    /// What it costs in dollars: per call, and a month at its pattern's rate.
    pub spend: OperationSpend,
    /// Why it was not simulated.
    pub skipped: Option<String>,
}

/// What the model and the code leave uncovered.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Coverage {
    /// Patterns that need a Scan or a filter on every index they could use.
    pub unserved_patterns: Vec<UnservedPattern>,
    /// Patterns no code operation implements (empty when no code was given).
    pub patterns_without_code: Vec<String>,
    /// Code operations (`file:line`) matching no declared pattern.
    pub operations_without_pattern: Vec<String>,
    /// Code reads that Scan or filter: capacity spent on items they throw away.
    pub wasteful_operations: Vec<WastefulRead>,
    /// Secondary indexes nothing reads: they cost writes and storage for no read.
    pub unread_indexes: Vec<UnreadIndex>,
}

/// An access pattern no key serves directly.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnservedPattern {
    pub pattern: String,
    /// How it is served now and why that reads more than it returns.
    pub reason: String,
    /// A declared index that would serve it, or the key to add.
    pub help: String,
}

/// A code read that reads more than it returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WastefulRead {
    /// `file:line:col`.
    pub location: String,
    /// `Scan table `Orders``, `Query index `ByUser` + filter`.
    pub served_by: String,
    /// Per call at full scale.
    pub items_read: f64,
    pub items_returned: f64,
    pub rcu: f64,
    /// What makes it read more: the Scan, the filtered attributes.
    pub why: Vec<String>,
}

/// A secondary index without readers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnreadIndex {
    pub table: String,
    pub index: String,
    /// WCU it adds per write, by entity.
    pub write_wcu: IndexMap<String, f64>,
}
