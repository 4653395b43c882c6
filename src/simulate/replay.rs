//! Running a [`ReadPlan`] against generated data: the partitions it would read, the
//! items read and returned, pages and read units per call — measured on the engine's
//! ordered table at the simulated scale, then extrapolated to full scale.
//!
//! Extrapolation is per partition: a partition keyed by an id keeps its size when the
//! id's domain shrinks with the data (`factor` 1, the measured call is the real one);
//! a partition keyed by an enum value (`facet = "BLOG"`) is `1/scale` times bigger at
//! full scale. The factor comes from the domains the generator used, not from a guess.

use std::ops::Bound;

use serde::Serialize;

use crate::attr::AttributeType;
use crate::engine::keys::{Bounded, PrimaryKey, Sort};
use crate::engine::size::item_size;
use crate::engine::table::project_index;
use crate::engine::{AttributeValue, IndexKind, Item, KeyValue, Number, Projection};
use crate::model::{KeyTemplate, TemplatePart};

use super::calls::run_request;
use super::generate::{GeneratedTable, Sample};
use crate::facts::align::{align, Slot};
use crate::facts::plan::parse_range;
use crate::facts::plan::{Access, ReadPlan, SortCondition};

/// A Query or Scan page stops after 1 MB of data read.
pub const PAGE_BYTES: u64 = 1024 * 1024;
/// Bytes one read unit covers.
pub const READ_UNIT_BYTES: u64 = 4096;
/// Partitions (distinct key values) sampled per access pattern.
pub const PARTITION_SAMPLES: usize = 16;

/// What one call costs.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct CallCost {
    /// Requests, counting every page and every shard of a fan-out.
    pub pages: f64,
    /// Items read (what capacity is charged on), before any filter.
    pub items_read: f64,
    /// Items returned after the filter.
    pub items_returned: f64,
    pub bytes_read: f64,
    /// Read capacity units (eventually consistent unless the plan says otherwise).
    pub rcu: f64,
}

impl CallCost {
    fn add(&mut self, o: &CallCost) {
        self.pages += o.pages;
        self.items_read += o.items_read;
        self.items_returned += o.items_returned;
        self.bytes_read += o.bytes_read;
        self.rcu += o.rcu;
    }

    fn scaled(mut self, k: f64) -> Self {
        self.pages *= k;
        self.items_read *= k;
        self.items_returned *= k;
        self.bytes_read *= k;
        self.rcu *= k;
        self
    }
}

/// The simulated cost of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// Averaged over the sampled partitions, as run on the generated data.
    pub simulated: CallCost,
    /// The same call at full scale.
    pub full: CallCost,
    /// The costliest sampled partition's call at full scale.
    pub worst: CallCost,
    /// How much bigger a read partition is at full scale than simulated (average).
    pub factor: f64,
    /// Distinct partition keys sampled.
    pub partitions_sampled: usize,
    /// Average size of the items read (as the target stores them), in bytes.
    pub avg_item_bytes: Option<f64>,
    /// Items in the key range of one request at full scale (before the limit): what
    /// a request would read if it read everything.
    pub range_items_full: f64,
}

/// Why a plan could not be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("no generated item of table `{table}` has a `{attr}` matching `{value}`")]
    NoMatchingItems {
        table: String,
        attr: String,
        value: String,
    },
    #[error("the plan names an index `{0}` the table does not have")]
    UnknownIndex(String),
    /// The engine refused a request; DynamoDB's message.
    #[error("the engine refused the request: {0}")]
    Engine(String),
}

/// One partition to read, resolved to concrete values.
#[derive(Debug, Clone)]
struct Choice {
    /// One hash value per request (several for a fan-out).
    hashes: Vec<KeyValue>,
    sort: Option<ConcreteSort>,
    filters: Vec<(String, AttributeValue)>,
    factor: f64,
}

#[derive(Debug, Clone)]
pub(crate) enum ConcreteSort {
    Eq(KeyValue),
    BeginsWith(String),
}

/// Range statistics of one request at the simulated scale.
#[derive(Debug, Clone, Copy, Default)]
struct RangeStats {
    /// Items in the key range.
    items: u64,
    bytes: u64,
    /// Of those, items the filter keeps.
    matched: u64,
}

/// Measures `plan` on `gt`: each sampled call runs on the engine (pages, items and
/// `ConsumedCapacity` as DynamoDB would report them at the simulated scale), and is
/// extrapolated to full scale from the partition's size and its growth factor.
pub fn measure(gt: &mut GeneratedTable, plan: &ReadPlan) -> Result<Measured, ReplayError> {
    let index = match &plan.index {
        Some(name) => Some(
            gt.data()
                .schema
                .indexes
                .iter()
                .position(|i| &i.name == name)
                .ok_or_else(|| ReplayError::UnknownIndex(name.clone()))?,
        ),
        None => None,
    };
    // Strong consistency exists on the table and its LSIs only.
    let consistent = plan.consistent
        && index
            .and_then(|i| gt.data().schema.indexes.get(i))
            .is_none_or(|i| i.kind == IndexKind::Local);
    let choices = if plan.access == Access::Scan {
        vec![scan_choice(gt, plan)]
    } else {
        query_choices(gt, plan)?
    };
    let stats: Vec<Vec<RangeStats>> = choices
        .iter()
        .map(|c| {
            c.hashes
                .iter()
                .map(|h| {
                    if plan.access == Access::Scan {
                        scan_stats(gt, index, &c.filters)
                    } else {
                        range_stats(gt, index, h, c.sort.as_ref(), plan.forward, &c.filters)
                    }
                })
                .collect()
        })
        .collect();
    let mut simulated = CallCost::default();
    let mut full = CallCost::default();
    let mut worst = CallCost::default();
    let mut factor = 0.0;
    let mut range_full = 0.0;
    let (mut size_sum, mut size_n) = (0u64, 0u64);
    let table = gt.name.clone();
    for (c, st) in choices.iter().zip(&stats) {
        let mut sim_call = CallCost::default();
        let mut full_call = CallCost::default();
        for (h, s) in c.hashes.iter().zip(st) {
            size_sum += s.bytes;
            size_n += s.items;
            range_full += s.items as f64 * c.factor;
            let mut measured = run_request(
                gt.engine_mut(),
                &table,
                plan,
                consistent,
                h,
                c.sort.as_ref(),
                &c.filters,
            )
            .map_err(|e| ReplayError::Engine(e.to_string()))?;
            let avg = if s.items > 0 {
                s.bytes as f64 / s.items as f64
            } else {
                0.0
            };
            measured.bytes_read = measured.items_read * avg;
            // A partition about the same size at full scale (ids scaled with the data,
            // up to rounding of the scaled domain) costs what was run on the engine.
            let extrapolated = if same_size(c.factor) {
                measured
            } else {
                let s = match gt.declared_item_bytes {
                    Some(size) => RangeStats {
                        bytes: (s.items as f64 * size).round() as u64,
                        ..*s
                    },
                    None => *s,
                };
                request_cost(plan, s, c.factor, consistent)
            };
            sim_call.add(&measured);
            full_call.add(&extrapolated);
        }
        if full_call.rcu > worst.rcu {
            worst = full_call;
        }
        simulated.add(&sim_call);
        full.add(&full_call);
        factor += c.factor;
    }
    let n = choices.len().max(1) as f64;
    let requests = choices.iter().map(|c| c.hashes.len()).sum::<usize>().max(1) as f64;
    let measured = Measured {
        simulated: simulated.scaled(1.0 / n),
        full: full.scaled(1.0 / n),
        worst,
        factor: factor / n,
        partitions_sampled: choices.len(),
        avg_item_bytes: (size_n > 0).then(|| size_sum as f64 / size_n as f64),
        range_items_full: range_full / requests,
    };
    Ok(match plan.segments {
        Some(segments) => measured.one_segment(segments, consistent),
        None => measured,
    })
}

impl Measured {
    /// One segment of a parallel Scan of `segments`: DynamoDB splits the table's items
    /// evenly by the hash of their partition keys, so a segment reads `1/segments` of
    /// what the whole Scan reads, paged and charged on its own.
    fn one_segment(mut self, segments: u64, consistent: bool) -> Self {
        let n = segments.max(1) as f64;
        let part = |c: CallCost| {
            let bytes = c.bytes_read / n;
            let p = crate::facts::read_cost::paged(bytes, consistent);
            CallCost {
                pages: p.pages,
                items_read: c.items_read / n,
                items_returned: c.items_returned / n,
                bytes_read: bytes,
                rcu: p.rcu,
            }
        };
        self.simulated = part(self.simulated);
        self.full = part(self.full);
        self.worst = part(self.worst);
        self.range_items_full /= n;
        self
    }
}

/// Partitions within this much of their simulated size at full scale are read as
/// simulated: the difference is the rounding of a scaled id domain, not growth.
pub const SAME_SIZE_TOLERANCE: f64 = 0.05;

/// True when a partition growth factor means "the same size".
pub fn same_size(factor: f64) -> bool {
    (factor - 1.0).abs() <= SAME_SIZE_TOLERANCE
}

/// The cost of one request (with its pagination) over a key range of `stats`, with
/// the range `factor` times bigger. Limit semantics follow the access pattern: the
/// caller wants `limit` results, so without a filter `Limit` stops the read, and with
/// one the caller pages until enough items pass it.
fn request_cost(plan: &ReadPlan, stats: RangeStats, factor: f64, consistent: bool) -> CallCost {
    let n = stats.items as f64 * factor;
    let avg = if stats.items > 0 {
        stats.bytes as f64 / stats.items as f64
    } else {
        0.0
    };
    let ratio = if stats.items > 0 {
        stats.matched as f64 / stats.items as f64
    } else {
        1.0
    };
    let filtered = !plan.filters.is_empty();
    let kept = if filtered { Some(ratio) } else { Some(1.0) };
    let read = crate::facts::read_cost::limited_items(n, plan.limit, kept, plan.one_request);
    let returned = {
        let r = if filtered { read * ratio } else { read };
        plan.limit.map_or(r, |l| r.min(l as f64))
    };
    let bytes = read * avg;
    let half = if consistent { 1.0 } else { 0.5 };
    if plan.access == Access::GetItem {
        let units = (avg.max(1.0) / READ_UNIT_BYTES as f64).ceil().max(1.0);
        return CallCost {
            pages: 1.0,
            items_read: read,
            items_returned: returned,
            bytes_read: bytes,
            rcu: units * half,
        };
    }
    let p = crate::facts::read_cost::paged(bytes, consistent);
    CallCost {
        pages: p.pages,
        items_read: read,
        items_returned: returned,
        bytes_read: bytes,
        rcu: p.rcu,
    }
}

/// A Scan reads the whole table or index once; it is as much bigger at full scale
/// as the entities in it are.
fn scan_choice(gt: &GeneratedTable, plan: &ReadPlan) -> Choice {
    let (mut full, mut written) = (0u64, 0u64);
    for g in &gt.generated {
        let n = match &plan.index {
            Some(name) => g.index_writes.get(name).copied().unwrap_or(0),
            None => g.written,
        };
        if n > 0 && g.written > 0 {
            written += n;
            full += (g.full_count as f64 * n as f64 / g.written as f64).round() as u64;
        }
    }
    let factor = if written > 0 {
        full as f64 / written as f64
    } else {
        1.0
    };
    let sample = gt.generated.iter().flat_map(|g| g.samples.first()).next();
    let filters = concrete_filters(gt, plan, sample);
    Choice {
        hashes: vec![KeyValue::S(String::new())],
        sort: None,
        filters,
        factor,
    }
}

/// Filter values: literals as written, placeholders from a sample item.
fn concrete_filters(
    gt: &GeneratedTable,
    plan: &ReadPlan,
    sample: Option<&Sample>,
) -> Vec<(String, AttributeValue)> {
    let mut out = Vec::new();
    for (attr, value) in &plan.filters {
        let Ok(t) = KeyTemplate::parse(value) else {
            continue;
        };
        let v = if t.is_constant() {
            typed_value(gt, attr, value)
        } else {
            sample
                .and_then(|s| s.item.get(attr).cloned())
                .or_else(|| any_value(gt, attr))
        };
        if let Some(v) = v {
            out.push((attr.clone(), v));
        }
    }
    out
}

fn any_value(gt: &GeneratedTable, attr: &str) -> Option<AttributeValue> {
    gt.generated
        .iter()
        .flat_map(|g| &g.samples)
        .find_map(|s| s.item.get(attr).cloned())
}

/// A literal as a value of the attribute's declared type.
fn typed_value(gt: &GeneratedTable, attr: &str, text: &str) -> Option<AttributeValue> {
    // Key attributes have a schema type; others take the type generated items show.
    let ty = gt
        .data()
        .schema
        .key_type(attr)
        .unwrap_or_else(|| any_value(gt, attr).map_or(AttributeType::S, |v| v.ty()));
    Some(match ty {
        AttributeType::N => AttributeValue::N(Number::parse(text).ok()?),
        AttributeType::B => AttributeValue::B(text.as_bytes().to_vec()),
        _ => AttributeValue::S(text.to_string()),
    })
}

fn key_value(gt: &GeneratedTable, attr: &str, text: &str) -> Option<KeyValue> {
    typed_value(gt, attr, text)?.as_key()
}

/// The partitions a Query or GetItem plan reads: concrete key values taken from
/// sampled items of the entities the key value can belong to.
fn query_choices(gt: &GeneratedTable, plan: &ReadPlan) -> Result<Vec<Choice>, ReplayError> {
    let Some((pk_attr, pk_text)) = &plan.partition else {
        return Ok(Vec::new());
    };
    let no_match = || ReplayError::NoMatchingItems {
        table: gt.name.clone(),
        attr: pk_attr.clone(),
        value: pk_text.clone(),
    };
    let pt = KeyTemplate::parse(pk_text).map_err(|_| no_match())?;
    let mut out: Vec<Choice> = Vec::new();
    let mut seen: Vec<Vec<KeyValue>> = Vec::new();
    for (e, g) in gt.entities.iter().zip(&gt.generated) {
        let present = match &plan.index {
            Some(name) => g.index_writes.get(name).copied().unwrap_or(0) > 0,
            None => g.written > 0,
        };
        if !present {
            continue;
        }
        let et = e.template(pk_attr);
        for s in &g.samples {
            let Some(texts) = partition_texts(&pt, et.as_ref(), s, pk_attr) else {
                continue;
            };
            let Some(hashes) = texts
                .iter()
                .map(|t| key_value(gt, pk_attr, t))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            // An entity whose template cannot produce the value does not live there.
            if pt.is_constant() && !entity_can_hold(e, pk_attr, pk_text, s) {
                continue;
            }
            if seen.contains(&hashes) {
                continue;
            }
            let sort = match &plan.sort {
                None => None,
                Some((_, SortCondition::BeginsWith { prefix })) => {
                    Some(ConcreteSort::BeginsWith(fill_prefix(prefix, s)))
                }
                Some((sk, SortCondition::Eq { value })) => {
                    let Ok(st) = KeyTemplate::parse(value) else {
                        continue;
                    };
                    let text = if st.is_constant() {
                        value.clone()
                    } else {
                        match s.item.get(sk) {
                            Some(AttributeValue::S(v)) if st.matches(v) => v.clone(),
                            Some(AttributeValue::N(n)) => n.to_string(),
                            _ => continue,
                        }
                    };
                    let Some(k) = key_value(gt, sk, &text) else {
                        continue;
                    };
                    Some(ConcreteSort::Eq(k))
                }
            };
            seen.push(hashes.clone());
            out.push(Choice {
                hashes,
                sort,
                filters: concrete_filters(gt, plan, Some(s)),
                factor: partition_factor(gt, e, g, pk_attr),
            });
            if out.len() >= PARTITION_SAMPLES || pt.is_constant() && plan.fan_out.is_none() {
                break;
            }
        }
        if out.len() >= PARTITION_SAMPLES {
            break;
        }
    }
    if out.is_empty() {
        return Err(no_match());
    }
    Ok(out)
}

/// A `begins_with` prefix with its placeholders filled from the sample's values of
/// the same name; from the first unknown one on, the prefix stops.
fn fill_prefix(prefix: &str, s: &Sample) -> String {
    let Ok(t) = KeyTemplate::parse(prefix) else {
        return prefix.to_string();
    };
    let mut out = String::new();
    for part in &t.parts {
        match part {
            TemplatePart::Literal(l) => out.push_str(l),
            TemplatePart::Placeholder(p) => match s.values.get(p) {
                Some(v) => out.push_str(v),
                None => break,
            },
        }
    }
    out
}

/// Whether entity `e`'s items can carry `value` in `attr`: by its template, or by
/// the sampled item's own value when the attribute is plain.
fn entity_can_hold(e: &crate::model::Entity, attr: &str, value: &str, s: &Sample) -> bool {
    match e.template(attr) {
        Some(t) => t.matches(value),
        None => match s.item.get(attr) {
            Some(AttributeValue::S(v)) => v == value,
            Some(AttributeValue::N(n)) => n.to_string() == value,
            _ => false,
        },
    }
}

/// The partition key texts one call reads for sample `s`: the pattern value with
/// its placeholders filled from the sample, one per shard of a `{lo..hi}` range.
fn partition_texts(
    pt: &KeyTemplate,
    et: Option<&KeyTemplate>,
    s: &Sample,
    attr: &str,
) -> Option<Vec<String>> {
    let range = pt.placeholders().find_map(parse_range);
    if pt.is_constant() {
        return Some(vec![pt.to_string()]);
    }
    let Some((lo, hi)) = range else {
        let actual = match s.item.get(attr)? {
            AttributeValue::S(v) => v.clone(),
            AttributeValue::N(n) => n.to_string(),
            _ => return None,
        };
        return pt.matches(&actual).then_some(vec![actual]);
    };
    // A fan-out: fill the non-range placeholders from what the entity put there.
    let slots = match et {
        Some(et) => align(pt, et)?,
        None => Vec::new(),
    };
    let mut out = Vec::new();
    for k in lo..=hi {
        let mut text = String::new();
        for part in &pt.parts {
            match part {
                TemplatePart::Literal(l) => text.push_str(l),
                TemplatePart::Placeholder(p) if parse_range(p).is_some() => {
                    text.push_str(&k.to_string());
                }
                TemplatePart::Placeholder(p) => {
                    let (en, _) = slots
                        .iter()
                        .find(|(_, slot)| matches!(slot, Slot::Placeholder(x) if x == p))?;
                    text.push_str(s.values.get(en)?);
                }
            }
        }
        out.push(text);
    }
    Some(out)
}

/// How much bigger the partition an entity's item lands in is at full scale.
fn partition_factor(
    gt: &GeneratedTable,
    e: &crate::model::Entity,
    g: &super::generate::GeneratedEntity,
    attr: &str,
) -> f64 {
    if g.written == 0 {
        return 1.0;
    }
    let count = g.full_count as f64 / g.written as f64;
    let names: Vec<String> = match e.template(attr) {
        Some(t) => t.placeholders().map(str::to_string).collect(),
        None => vec![attr.to_string()],
    };
    let Some(domains) = gt.domains.entities.get(&e.name) else {
        return count;
    };
    let mut ratio = 1.0;
    for n in &names {
        match domains.get(n).and_then(|d| d.cardinality()) {
            Some((full, scaled)) if full > 0.0 => ratio *= scaled / full,
            Some(_) => {}
            // One item per value at any scale: the partition does not grow.
            None => return 1.0,
        }
    }
    count * ratio
}

/// Items in one partition's key range, with sizes as the target stores them.
fn range_stats(
    gt: &GeneratedTable,
    index: Option<usize>,
    hash: &KeyValue,
    sort: Option<&ConcreteSort>,
    forward: bool,
    filters: &[(String, AttributeValue)],
) -> RangeStats {
    let (lower, upper) = sort_bounds(sort);
    let keep = |s: Option<&KeyValue>| match sort {
        Some(ConcreteSort::BeginsWith(p)) => {
            matches!(s, Some(KeyValue::S(v)) if v.starts_with(p.as_str()))
        }
        _ => true,
    };
    let mut stats = RangeStats::default();
    let mut tally = |item: &Item, sk: Option<&KeyValue>| {
        if !keep(sk) {
            return;
        }
        let stored = match index.and_then(|i| gt.data().schema.indexes.get(i)) {
            Some(ix) if ix.projection != Projection::All => {
                item_size(&project_index(&gt.data().schema, ix, item))
            }
            _ => item_size(item),
        };
        stats.items += 1;
        stats.bytes += stored;
        if passes(item, filters) {
            stats.matched += 1;
        }
    };
    match index {
        None => {
            for (pk, item) in gt.data().partition_range(hash, lower, upper, forward) {
                tally(item, pk.sort.value());
            }
        }
        Some(i) => {
            let wrap = |b: Bound<Sort>, edge: Bounded<PrimaryKey>| match b {
                Bound::Included(s) => Bound::Included((s, edge)),
                Bound::Excluded(s) => Bound::Excluded((s, edge)),
                Bound::Unbounded => Bound::Unbounded,
            };
            let lo = wrap(lower, Bounded::Min);
            let hi = wrap(upper, Bounded::Max);
            for (entry, item) in gt.data().index_partition_range(i, hash, lo, hi, forward) {
                tally(item, entry.1.value());
            }
        }
    }
    stats
}

/// Every item of the table or index.
fn scan_stats(
    gt: &GeneratedTable,
    index: Option<usize>,
    filters: &[(String, AttributeValue)],
) -> RangeStats {
    let mut stats = RangeStats::default();
    let mut tally = |size: u64, item: &Item| {
        stats.items += 1;
        stats.bytes += size;
        if passes(item, filters) {
            stats.matched += 1;
        }
    };
    match index.and_then(|i| Some((i, gt.data().schema.indexes.get(i)?))) {
        None => {
            for (_, item) in gt.data().scan_from(None) {
                tally(item_size(item), item);
            }
        }
        Some((i, ix)) => {
            for (_, item) in gt.data().index_scan_from(i, None) {
                let size = if ix.projection == Projection::All {
                    item_size(item)
                } else {
                    item_size(&project_index(&gt.data().schema, ix, item))
                };
                tally(size, item);
            }
        }
    }
    stats
}

fn passes(item: &Item, filters: &[(String, AttributeValue)]) -> bool {
    filters.iter().all(|(a, v)| item.get(a) == Some(v))
}

/// Key-range bounds for a sort condition; `begins_with` starts at the prefix and
/// ends before the prefix followed by the highest character (then filtered exactly).
fn sort_bounds(sort: Option<&ConcreteSort>) -> (Bound<Sort>, Bound<Sort>) {
    match sort {
        None => (Bound::Unbounded, Bound::Unbounded),
        Some(ConcreteSort::Eq(k)) => (
            Bound::Included(Sort::Value(k.clone())),
            Bound::Included(Sort::Value(k.clone())),
        ),
        Some(ConcreteSort::BeginsWith(p)) => (
            Bound::Included(Sort::Value(KeyValue::S(p.clone()))),
            Bound::Included(Sort::Value(KeyValue::S(format!("{p}{}", char::MAX)))),
        ),
    }
}
