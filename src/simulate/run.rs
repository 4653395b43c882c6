//! The simulation from end to end: choose a scale, generate every table, plan and
//! measure every access pattern and code read, put `rate`s on partitions, and link
//! patterns, code and indexes into a coverage report.

use indexmap::IndexMap;

use crate::engine::keys::{index_entry, item_primary_key, WriteKind};
use crate::engine::size::item_size;
use crate::engine::table::project_index;
use crate::engine::{IndexKind, KeyValue};
use crate::model::{KeyTemplate, Model, Projection};
use crate::scanner::Operation;
use crate::source::SourceFile;

use super::coverage;
use super::generate::{generate_table_reporting, planned_items, GeneratedEntity, GeneratedTable};
use super::notes::Note;
use super::replay::{measure, Measured};
use super::report::*;
use crate::facts::call_plan::{implements, plan_operation, SkipReason};
use crate::facts::plan::{plan_pattern, Access, ReadPlan};
use crate::facts::shards::{
    required_shards, shards_for_units, Io, PARTITION_MAX_RCU, PARTITION_MAX_WCU, WRITE_UNIT_BYTES,
};

/// Seed used unless `--seed` says otherwise.
pub const DEFAULT_SEED: u64 = 7;
/// Items generated across all tables when no `--scale` is given: the scale is chosen
/// so the model fits, which keeps a run to a few seconds and a few hundred MB.
pub const DEFAULT_MAX_ITEMS: u64 = 100_000;

/// How to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulateOptions {
    /// Fraction of the model's items to generate, in `(0, 1]`; `None` picks the
    /// largest scale that stays within `max_items`.
    pub scale: Option<f64>,
    pub seed: u64,
    /// Item budget for the automatic scale.
    pub max_items: u64,
}

impl Default for SimulateOptions {
    fn default() -> Self {
        Self {
            scale: None,
            seed: DEFAULT_SEED,
            max_items: DEFAULT_MAX_ITEMS,
        }
    }
}

/// Bad options.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulateError {
    #[error("`--scale` must be a fraction in (0, 1], not {0}")]
    BadScale(f64),
}

/// Items the model declares across all tables (entity counts, or `item-count`).
pub fn model_items(model: &Model) -> u64 {
    model
        .tables
        .iter()
        .map(|t| {
            let by_entity: u64 = t.entities.iter().filter_map(|e| e.count).sum();
            by_entity.max(t.item_count.unwrap_or(0))
        })
        .sum()
}

/// The scale to simulate at.
pub fn choose_scale(model: &Model, options: &SimulateOptions) -> Result<f64, SimulateError> {
    if let Some(s) = options.scale {
        if !(s.is_finite() && s > 0.0 && s <= 1.0) {
            return Err(SimulateError::BadScale(s));
        }
        return Ok(s);
    }
    let total = model_items(model);
    Ok(if total <= options.max_items || total == 0 {
        1.0
    } else {
        options.max_items as f64 / total as f64
    })
}

/// Simulates `model` and the code's `operations` (with their `sources`, for line
/// numbers; operations of files not given are located by byte offset).
pub fn run(
    model: &Model,
    operations: &[Operation],
    sources: &[SourceFile],
    options: &SimulateOptions,
) -> Result<SimulationReport, SimulateError> {
    run_reporting(model, operations, sources, options, &|_, _, _| {})
}

/// [`run`], saying how far it is (for the CLI's progress line): each phase that
/// grows with the model or the code, with what it has done of how many —
/// `generating items`, `replaying access patterns`, `replaying calls`.
pub fn run_reporting(
    model: &Model,
    operations: &[Operation],
    sources: &[SourceFile],
    options: &SimulateOptions,
    report: crate::scanner::Report<'_>,
) -> Result<SimulationReport, SimulateError> {
    let scale = choose_scale(model, options)?;
    let mut notes: Vec<Note> = Vec::new();
    // Counted in items, not tables: one table can hold a million of them.
    let planned: Vec<u64> = model
        .tables
        .iter()
        .map(|t| planned_items(t, scale))
        .collect();
    let items = planned.iter().sum::<u64>() as usize;
    let mut generated: Vec<GeneratedTable> = Vec::with_capacity(model.tables.len());
    let mut before = 0usize;
    report("generating items", 0, items);
    for (t, planned) in model.tables.iter().zip(&planned) {
        generated.push(generate_table_reporting(
            t,
            &model.access_patterns,
            scale,
            options.seed,
            &mut notes,
            &mut |tried| report("generating items", before + tried as usize, items),
        ));
        before += *planned as usize;
    }
    report("generating items", items, items);

    let mut readers: IndexMap<(String, String), Vec<String>> = IndexMap::new();
    let mut patterns = Vec::new();
    let mut coverage = Coverage::default();
    let pattern_count = model.access_patterns.len();
    for (i, p) in model.access_patterns.iter().enumerate() {
        report("replaying access patterns", i, pattern_count);
        let mut r = PatternReport {
            name: p.name.clone(),
            plan: None,
            cost: None,
            rate: p.rate,
            load: None,
            implemented_by: Vec::new(),
            spend: None,
            error: None,
        };
        match plan_pattern(model, p) {
            Ok(plan) => {
                if let Some(u) = coverage::unserved(model, p, &plan) {
                    coverage.unserved_patterns.push(u);
                }
                if let Some(i) = &plan.index {
                    readers
                        .entry((plan.table.clone(), i.clone()))
                        .or_default()
                        .push(format!("access pattern `{}`", p.name));
                }
                match generated.iter_mut().find(|g| g.name == plan.table) {
                    Some(gt) => match measure(gt, &plan) {
                        Ok(cost) => {
                            r.load = p
                                .rate
                                .map(|rate| partition_load(model, gt, &plan, &cost, rate));
                            r.cost = Some(cost);
                        }
                        Err(e) => r.error = Some(e.to_string()),
                    },
                    None => r.error = Some(format!("table `{}` was not generated", plan.table)),
                }
                if p.rate.is_none() {
                    notes.push(Note::missing(
                        format!("access pattern `{}`", p.name),
                        "has no request rate, so its partition load is unknown",
                        format!(
                            "set `rate` (requests per second) on access pattern `{}`",
                            p.name
                        ),
                    ));
                }
                r.plan = Some(plan);
            }
            Err(e) => r.error = Some(e.to_string()),
        }
        patterns.push(r);
    }
    report("replaying access patterns", pattern_count, pattern_count);

    let mut op_reports = Vec::new();
    let mut op_plans: Vec<(String, Option<ReadPlan>)> = Vec::new();
    let mut implementers: IndexMap<String, Vec<String>> = IndexMap::new();
    for (i, op) in operations.iter().enumerate() {
        report("replaying calls", i, operations.len());
        let location = locate(op, sources);
        let bound = crate::facts::bind(model, op);
        let mut r = OperationReport {
            location: location.clone(),
            kind: op.kind.api_name(),
            table: None,
            index: None,
            served_by: String::new(),
            plan: None,
            cost: None,
            estimate: crate::facts::call_cost::call_cost(model, &bound),
            patterns: Vec::new(),
            spend: OperationSpend::default(),
            skipped: None,
        };
        match plan_operation(model, op) {
            Ok(plan) => {
                r.table = Some(plan.table.clone());
                r.index = plan.index.clone();
                if let Some(i) = &plan.index {
                    readers
                        .entry((plan.table.clone(), i.clone()))
                        .or_default()
                        .push(location.clone());
                }
                for pr in &patterns {
                    if pr.plan.as_ref().is_some_and(|pp| implements(&plan, pp)) {
                        r.patterns.push(pr.name.clone());
                        implementers
                            .entry(pr.name.clone())
                            .or_default()
                            .push(location.clone());
                    }
                }
                match generated
                    .iter_mut()
                    .find(|g| g.name == plan.table)
                    .map(|gt| measure(gt, &plan))
                {
                    Some(Ok(cost)) => {
                        if let Some(w) = wasteful(&location, &plan, &cost) {
                            coverage.wasteful_operations.push(w);
                        }
                        r.cost = Some(cost);
                    }
                    Some(Err(e)) => r.skipped = Some(e.to_string()),
                    None => r.skipped = Some(format!("table `{}` was not generated", plan.table)),
                }
                op_plans.push((location, Some(plan.clone())));
                r.served_by = plan.served_by();
                r.plan = Some(plan);
            }
            Err(e) => {
                // A batch's or transaction's table is its requests', a statement's
                // the one its text names.
                let table = bound
                    .table
                    .or_else(|| {
                        op.children
                            .first()
                            .and_then(|c| crate::facts::bind(model, c).table)
                    })
                    .or_else(|| {
                        let text = op.statement.as_ref()?.text.value()?;
                        let name = crate::facts::partiql::table(text)?;
                        model.tables.iter().find(|t| t.is_named_by(&name))
                    });
                if let Some(t) = table {
                    r.table = Some(t.name.clone());
                }
                // A call with a broken filter still implements its pattern: the
                // pattern is covered (the filter is reported on its own).
                if let Ok(keys) = crate::facts::call_plan::plan_keys(model, op) {
                    for pr in &patterns {
                        if pr.plan.as_ref().is_some_and(|pp| implements(&keys, pp)) {
                            r.patterns.push(pr.name.clone());
                            implementers
                                .entry(pr.name.clone())
                                .or_default()
                                .push(location.clone());
                        }
                    }
                }
                op_plans.push((location, None));
                match e {
                    // Writes, batches and transactions are costed by the model's figures
                    // (`estimate`), request by request: there is no read to replay.
                    SkipReason::Write(_) | SkipReason::Unsupported(_) => {
                        r.served_by = served_by(op, table);
                    }
                    e => {
                        r.served_by = e.to_string();
                        r.skipped = Some(e.to_string());
                    }
                }
            }
        }
        op_reports.push(r);
    }
    report("replaying calls", operations.len(), operations.len());
    for pr in &mut patterns {
        pr.implemented_by = implementers.get(&pr.name).cloned().unwrap_or_default();
    }
    let pattern_plans: Vec<(String, Option<ReadPlan>)> = patterns
        .iter()
        .map(|p| (p.name.clone(), p.plan.clone()))
        .collect();
    coverage::link(&mut coverage, &pattern_plans, &op_plans, &implementers);

    let tables: Vec<TableReport> = model
        .tables
        .iter()
        .filter_map(|t| {
            let gt = generated.iter().find(|g| g.name == t.name)?;
            Some(table_report(t, gt, &readers))
        })
        .collect();
    let entities: IndexMap<String, Vec<EntityReport>> = tables
        .iter()
        .map(|t| (t.name.clone(), t.entities.clone()))
        .collect();
    coverage.unread_indexes = coverage::unread_indexes(model, &readers, &entities);
    // Freeing millions of small allocations takes as long as a good part of the
    // run; nothing waits for it, so it happens off the caller's thread.
    // (If no thread can be started, the closure is dropped here, and the data with it.)
    let _ = std::thread::Builder::new()
        .name("simulate-drop".into())
        .spawn(move || drop(generated));
    notes.sort();
    notes.dedup();
    let mut report = SimulationReport {
        schema_version: SCHEMA_VERSION,
        model: model.path.to_string_lossy().into_owned(),
        seed: options.seed,
        scale,
        tables,
        patterns,
        operations: op_reports,
        coverage,
        notes,
        prices: super::cost::basis(model),
    };
    super::cost::price(model, &mut report);
    Ok(report)
}

/// How a call that is not one read is served: `PutItem table `Orders``, `BatchGetItem
/// of 2 requests on `Orders``.
fn served_by(op: &Operation, table: Option<&crate::model::Table>) -> String {
    if op.children.is_empty() {
        return match table {
            Some(t) => format!("{} table `{}`", op.kind.api_name(), t.name),
            None => format!("{} {}", op.kind.api_name(), op.table_label()),
        };
    }
    let mut tables: Vec<String> = op.children.iter().map(Operation::table_label).collect();
    tables.dedup();
    format!(
        "{} of {} request{} on {}",
        op.kind.api_name(),
        op.children.len(),
        if op.children.len() == 1 { "" } else { "s" },
        tables.join(", ")
    )
}

/// A code read that Scans or filters, with what it reads and returns.
fn wasteful(location: &str, plan: &ReadPlan, cost: &Measured) -> Option<WastefulRead> {
    if plan.access != Access::Scan && plan.filters.is_empty() {
        return None;
    }
    let mut why = plan.why.clone();
    if plan.access == Access::Scan {
        let reads = match (plan.limit, plan.segments) {
            (Some(n), _) if plan.one_request => {
                format!("a Scan reads the first {n} items it comes to (`limit` on one request)")
            }
            (_, Some(s)) => format!(
                "a Scan's segment reads every item of one of its {s} segments (a {s}th of the table or index)"
            ),
            _ => "a Scan reads every item of the table or index".to_string(),
        };
        why.insert(0, reads);
    }
    for (a, _) in &plan.filters {
        let line = format!("`{a}` is filtered after reading");
        if !why.iter().any(|w| w.contains(&format!("`{a}`"))) {
            why.push(line);
        }
    }
    Some(WastefulRead {
        location: location.to_string(),
        served_by: plan.served_by(),
        items_read: cost.full.items_read,
        items_returned: cost.full.items_returned,
        rcu: cost.full.rcu,
        why,
    })
}

/// `path:line:col` of the call's method, exactly as `check` and `calls` show it;
/// `path@offset` without the source (the location also tells calls apart).
fn locate(op: &Operation, sources: &[SourceFile]) -> String {
    if !sources.iter().any(|s| s.path == op.file) {
        return format!(
            "{}@{}",
            crate::workspace::display_path(&op.file),
            op.method_span.start
        );
    }
    crate::report::position::Positions::new(sources)
        .range(&op.location())
        .place()
}

/// The load `rate` requests per second put on the hottest partition a plan reads.
fn partition_load(
    model: &Model,
    gt: &GeneratedTable,
    plan: &ReadPlan,
    cost: &Measured,
    rate: f64,
) -> PartitionLoad {
    let requests = plan.requests_per_call() as f64;
    let per_request_rcu = cost.full.rcu / requests;
    let per_request_items = cost.full.items_read / requests;
    let fixed = plan
        .partition
        .as_ref()
        .and_then(|(_, v)| KeyTemplate::parse(v).ok())
        .is_some_and(|t| {
            t.placeholders()
                .all(|p| crate::facts::plan::parse_range(p).is_some())
        });
    let (spread, requests_per_sec) = if plan.access == Access::Scan {
        (Spread::Everything, rate)
    } else if fixed {
        (
            Spread::Fixed {
                partitions: plan.requests_per_call(),
            },
            rate,
        )
    } else {
        // Distinct key values ≈ items in the target / items per key value.
        let items = target_items(gt, plan.index.as_deref());
        let values = if cost.range_items_full > 0.0 {
            (items / cost.range_items_full).max(1.0)
        } else {
            1.0
        };
        let share = 1.0 / values;
        // A key value gets its share of the requests, but at least one request
        // whenever it is read at all.
        (
            Spread::Varying {
                values,
                max_share: share,
            },
            (rate * share).max(rate.min(1.0)),
        )
    };
    let hottest = requests_per_sec * per_request_rcu;
    let hot = plan.access != Access::Scan && hottest > PARTITION_MAX_RCU;
    let shards = hot.then(|| {
        let size = item_size_for(model, plan, cost);
        let items = declared_partition_items(model, plan).unwrap_or(per_request_items);
        required_shards(Io::Read, items * requests_per_sec, size)
    });
    PartitionLoad {
        spread,
        hottest_rcu_per_sec: if plan.access == Access::Scan {
            rate * cost.full.rcu
        } else {
            hottest
        },
        limit_rcu_per_sec: PARTITION_MAX_RCU,
        hot,
        shards,
    }
}

/// Items one request reads by the model's own figures, when it reads a whole
/// partition keyed by a literal whose share is declared (`State = "OPEN"` with
/// `OPEN = 0.2` of 3M items: 600K): exact where sampling is only close.
fn declared_partition_items(model: &Model, plan: &ReadPlan) -> Option<f64> {
    if plan.limit.is_some() || plan.sort.is_some() || !plan.filters.is_empty() {
        return None;
    }
    let (_, value) = plan.partition.as_ref()?;
    if !KeyTemplate::parse(value).ok()?.is_constant() {
        return None;
    }
    let table = model.table(&plan.table)?;
    let index = match plan.index.as_deref() {
        Some(i) => Some(table.index(i)?),
        None => None,
    };
    // The share applies when every item carrying the attribute draws it from the
    // shares: no entity is typed by it (`facet = "BLOG"` for every blog).
    let attr = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    let values = table.attribute(attr)?.values.as_ref()?;
    let writers: Vec<_> = table
        .entities
        .iter()
        .filter(|e| e.keys.contains_key(attr) || e.attributes.iter().any(|a| a == attr))
        .collect();
    let drawn = !writers.is_empty()
        && writers
            .iter()
            .all(|e| crate::model::facts::entity_constant(values, &e.name).is_none());
    if !drawn {
        return None;
    }
    super::figures::key_value_load(table, index, Some(value))
        .ok()
        .map(|l| l.items)
}

/// The item size the shard formula uses: the declared `avg-item-size` when the read
/// sees whole items, else what the index stores (measured).
fn item_size_for(model: &Model, plan: &ReadPlan, cost: &Measured) -> u64 {
    let table = model.table(&plan.table);
    let whole = match plan.index.as_deref() {
        None => true,
        Some(i) => table
            .and_then(|t| t.index(i))
            .is_some_and(|i| i.projection == Projection::All),
    };
    let declared = table.and_then(|t| t.avg_item_size);
    match (whole, declared, cost.avg_item_bytes) {
        (true, Some(d), _) => d,
        (_, _, Some(m)) => m.round() as u64,
        (_, Some(d), None) => d,
        _ => 1,
    }
}

/// Items in the table or an index at full scale.
fn target_items(gt: &GeneratedTable, index: Option<&str>) -> f64 {
    gt.generated
        .iter()
        .filter(|g| g.written > 0)
        .map(|g| {
            let n = match index {
                Some(i) => g.index_writes.get(i).copied().unwrap_or(0),
                None => g.written,
            };
            g.full_count as f64 * n as f64 / g.written as f64
        })
        .sum()
}

/// Counts, sizes, write amplification and index membership of one generated table.
fn table_report(
    table: &crate::model::Table,
    gt: &GeneratedTable,
    readers: &IndexMap<(String, String), Vec<String>>,
) -> TableReport {
    let entities: Vec<EntityReport> = gt
        .generated
        .iter()
        .map(|g| EntityReport {
            name: g.name.clone(),
            count: g.full_count,
            simulated: g.written,
            avg_item_size: g.avg_size(),
            write: write_cost(gt, g),
        })
        .collect();
    let indexes = gt
        .data()
        .schema
        .indexes
        .iter()
        .enumerate()
        .map(|(i, ix)| {
            let mut present = Vec::new();
            let mut absent = Vec::new();
            let mut full = 0.0;
            for g in gt.generated.iter().filter(|g| g.written > 0) {
                let n = g.index_writes.get(&ix.name).copied().unwrap_or(0);
                if n > 0 {
                    present.push(g.name.clone());
                    full += g.full_count as f64 * n as f64 / g.written as f64;
                } else {
                    absent.push(g.name.clone());
                }
            }
            IndexReport {
                name: ix.name.clone(),
                kind: match ix.kind {
                    IndexKind::Global => "GSI",
                    IndexKind::Local => "LSI",
                },
                items: full,
                simulated_items: gt.data().index_item_count(i) as u64,
                entities: present,
                absent,
                read_by: readers
                    .get(&(table.name.clone(), ix.name.clone()))
                    .cloned()
                    .unwrap_or_default(),
                hottest_key: hottest_key(gt, table, i, &entities),
                avg_entry_size: avg_entry_size(gt, i),
            }
        })
        .collect();
    let simulated_items = gt.data().item_count() as u64;
    TableReport {
        name: table.name.clone(),
        items: gt.generated.iter().map(|g| g.full_count).sum(),
        simulated_items,
        declared_avg_item_size: table.avg_item_size,
        simulated_avg_item_size: (simulated_items > 0)
            .then(|| gt.data().size_bytes() as f64 / simulated_items as f64),
        entities,
        indexes,
        cost: TableCost::default(),
    }
}

/// Average bytes of an index's entries, over the sampled items that land in it.
fn avg_entry_size(gt: &GeneratedTable, index: usize) -> Option<f64> {
    let schema = &gt.data().schema;
    let ix = schema.indexes.get(index)?;
    let (mut sum, mut n) = (0u64, 0u64);
    for s in gt.generated.iter().flat_map(|g| &g.samples) {
        let Ok(pk) = item_primary_key(schema, &s.item) else {
            continue;
        };
        if let Ok(Some(_)) = index_entry(ix, &pk, &s.item, WriteKind::Put) {
            sum += item_size(&project_index(schema, ix, &s.item));
            n += 1;
        }
    }
    (n > 0).then(|| sum as f64 / n as f64)
}

/// The index partition key value most entries share (counted as items were
/// generated), with the write ceiling it implies.
fn hottest_key(
    gt: &GeneratedTable,
    table: &crate::model::Table,
    index: usize,
    entities: &[EntityReport],
) -> Option<HottestKey> {
    let ix = gt.data().schema.indexes.get(index)?;
    let counts = gt.index_keys.get(index)?;
    let (value, n) = counts.hottest()?;
    let total = counts.total.max(1);
    let share = n as f64 / total as f64;
    // WCU per index write, averaged over the entities landing in it by their items.
    let (mut wcu, mut weight) = (0.0, 0.0);
    for (e, g) in entities.iter().zip(&gt.generated) {
        let landed = g.index_writes.get(&ix.name).copied().unwrap_or(0) as f64;
        if let Some(w) = e.write.indexes.get(&ix.name) {
            if landed > 0.0 && g.written > 0 {
                // `w` averages over all the entity's writes; per landing write:
                let per_landing = w * g.written as f64 / landed;
                wcu += per_landing * landed;
                weight += landed;
            }
        }
    }
    let wcu_per_write = if weight > 0.0 { wcu / weight } else { 1.0 };
    let declared = declared_index_writes(gt, table, &ix.name);
    let shards_needed = declared
        .map(|w| shards_for_units(Io::Write, w * share * wcu_per_write))
        .filter(|(shards, _)| *shards > 1)
        .map(|(_, padded)| padded);
    Some(HottestKey {
        value: match value {
            KeyValue::S(s) => s.clone(),
            KeyValue::N(n) => n.to_string(),
            KeyValue::B(b) => format!("<{} bytes>", b.len()),
        },
        share,
        distinct_values: counts.distinct(),
        wcu_per_write,
        max_writes_per_sec: PARTITION_MAX_WCU / (share * wcu_per_write),
        declared_writes_per_sec: declared,
        shards_needed,
    })
}

/// Writes per second to items that land in `index`, from the model's write rates: each
/// entity's `write-rate` times the share of its items the index holds; with none
/// declared, the table's `write-rate` spread over the entities by item count.
fn declared_index_writes(
    gt: &GeneratedTable,
    table: &crate::model::Table,
    index: &str,
) -> Option<f64> {
    let landing = |g: &GeneratedEntity| {
        let n = g.index_writes.get(index).copied().unwrap_or(0) as f64;
        if g.written > 0 {
            n / g.written as f64
        } else {
            0.0
        }
    };
    let pairs = gt.entities.iter().zip(&gt.generated);
    if gt.entities.iter().any(|e| e.write_rate.is_some()) {
        return Some(
            pairs
                .map(|(e, g)| e.write_rate.unwrap_or(0.0) * landing(g))
                .sum(),
        );
    }
    let rate = table.write_rate?;
    let total: f64 = gt.generated.iter().map(|g| g.full_count as f64).sum();
    (total > 0.0).then(|| {
        gt.generated
            .iter()
            .map(|g| rate * g.full_count as f64 / total * landing(g))
            .sum()
    })
}

/// WCU of one PutItem of a new item of the entity: 1 KB units of the item on the
/// table, and of what each index stores of it on every index it lands in (averaged
/// over the sampled items, each rounded up as DynamoDB rounds it).
fn write_cost(gt: &GeneratedTable, g: &GeneratedEntity) -> WriteCost {
    let units = |bytes: u64| bytes.div_ceil(WRITE_UNIT_BYTES).max(1) as f64;
    let n = g.samples.len().max(1) as f64;
    let mut cost = WriteCost::default();
    for s in &g.samples {
        cost.table_wcu += units(item_size(&s.item)) / n;
        let Ok(pk) = item_primary_key(&gt.data().schema, &s.item) else {
            continue;
        };
        for ix in &gt.data().schema.indexes {
            if let Ok(Some(_)) = index_entry(ix, &pk, &s.item, WriteKind::Put) {
                let stored = item_size(&project_index(&gt.data().schema, ix, &s.item));
                *cost.indexes.entry(ix.name.clone()).or_insert(0.0) += units(stored) / n;
            }
        }
    }
    cost.total_wcu = cost.table_wcu + cost.indexes.values().sum::<f64>();
    cost
}
