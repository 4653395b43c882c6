//! Synthetic items that follow the model: per `[[table.entity]]`, `count × scale`
//! items built from its key templates and attributes, values drawn from each name's
//! [`Domain`], padded to the table's `avg-item-size`, stored in an engine table (so
//! every secondary index, sparse ones included, is maintained as DynamoDB would).
//!
//! Generation is reproducible: one seeded generator per (seed, table, entity), so a
//! figure does not change when another table or entity is added.

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::attr::AttributeType;
use crate::engine::keys::{index_entry, item_primary_key, WriteKind};
use crate::engine::size::item_size;
use crate::engine::table::Table as EngineTable;
use crate::engine::{AttributeValue, Engine, Item, KeyValue, Number, TableSchema};
use crate::model::{Entity, FieldSpans, Table};
use crate::source::Span;

use super::domain::{self, Domain, TableDomains};
use super::notes::Note;

/// Items kept per entity as examples of real key values, for choosing which
/// partitions to query.
pub const SAMPLES_PER_ENTITY: usize = 64;
/// The attribute that carries padding when an entity lists no free-form attribute.
pub const PAD_ATTRIBUTE: &str = "_pad";
/// Items generated for an entity whatever the scale (all of them when fewer).
pub const MIN_ITEMS_PER_ENTITY: u64 = 100;

/// Items between two progress reports: often enough for a line redrawn every 100 ms,
/// rare enough to cost nothing.
const PROGRESS_EVERY: u64 = 4096;
/// Tries per item before a primary-key collision is counted as a lost item.
const TRIES: usize = 4;

/// One generated item kept as an example: the value of every name it was built from.
#[derive(Debug, Clone)]
pub struct Sample {
    pub values: IndexMap<String, String>,
    pub item: Item,
}

/// What was generated for one entity.
#[derive(Debug, Clone)]
pub struct GeneratedEntity {
    pub name: String,
    /// Items at full scale (declared `count`, or inferred; see the notes).
    pub full_count: u64,
    /// Items asked for at this scale.
    pub target: u64,
    /// Items stored.
    pub written: u64,
    /// Items lost because their primary key was already taken after every retry.
    pub collisions: u64,
    /// Sum of the stored items' sizes.
    pub bytes: u64,
    pub samples: Vec<Sample>,
    /// Secondary indexes (by name) the entity's items were written to, with counts.
    pub index_writes: IndexMap<String, u64>,
}

impl GeneratedEntity {
    /// Average size of the stored items, in bytes.
    pub fn avg_size(&self) -> Option<f64> {
        (self.written > 0).then(|| self.bytes as f64 / self.written as f64)
    }
}

/// A table filled with synthetic items, held by an engine of its own so reads go
/// through DynamoDB's wire API (and its ConsumedCapacity).
#[derive(Debug, Clone)]
pub struct GeneratedTable {
    pub name: String,
    engine: Engine,
    pub scale: f64,
    /// The entities generated (the model's, or one standing for the whole table
    /// when it declares none).
    pub entities: Vec<Entity>,
    pub generated: Vec<GeneratedEntity>,
    pub domains: TableDomains,
    /// Per secondary index (schema order), items per partition key value.
    pub index_keys: Vec<KeyCounts>,
    /// The model's `avg-item-size`: full-scale figures use it, as `check` does, so
    /// that both name the same cost (generated sizes only approach it).
    pub declared_item_bytes: Option<f64>,
}

/// Distinct key values tracked per index before new ones are no longer added: a
/// key holding even 1% of the items shows up long before that many others have.
pub const MAX_TRACKED_KEYS: usize = 100_000;

/// Items per partition key value of one index, counted as items are written.
#[derive(Debug, Clone, Default)]
pub struct KeyCounts {
    counts: HashMap<KeyValue, u64>,
    /// Entries counted, tracked key or not.
    pub total: u64,
    /// True when more distinct values appeared than [`MAX_TRACKED_KEYS`].
    pub saturated: bool,
}

impl KeyCounts {
    fn count(&mut self, key: KeyValue) {
        self.total += 1;
        let full = self.counts.len() >= MAX_TRACKED_KEYS;
        match self.counts.get_mut(&key) {
            Some(n) => *n += 1,
            None if !full => {
                self.counts.insert(key, 1);
            }
            None => self.saturated = true,
        }
    }

    /// The value most entries share, with its count (ties: the smallest value).
    pub fn hottest(&self) -> Option<(&KeyValue, u64)> {
        self.counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(k, n)| (k, *n))
    }

    /// Distinct values seen (a lower bound when saturated).
    pub fn distinct(&self) -> u64 {
        self.counts.len() as u64
    }
}

impl GeneratedTable {
    /// The generated table.
    pub fn data(&self) -> &EngineTable {
        self.engine
            .table(&self.name)
            .expect("a generated table's engine holds that table from construction on")
    }

    /// The engine holding the table, for wire requests.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Items at full scale over items generated: how much bigger the real table is.
    pub fn table_factor(&self) -> f64 {
        let full: u64 = self.generated.iter().map(|g| g.full_count).sum();
        let written: u64 = self.generated.iter().map(|g| g.written).sum();
        if written == 0 {
            1.0
        } else {
            full as f64 / written as f64
        }
    }
}

/// Full-scale item counts per entity: declared `count`s; one missing count is the
/// rest of the table's `item-count`; a table without entities is one kind of item.
pub fn entity_counts(
    table: &Table,
    entities: &[Entity],
    notes: &mut Vec<Note>,
) -> IndexMap<String, u64> {
    let mut out = IndexMap::new();
    let declared: u64 = entities.iter().filter_map(|e| e.count).sum();
    let missing: Vec<&Entity> = entities.iter().filter(|e| e.count.is_none()).collect();
    for e in entities {
        match e.count {
            Some(c) => {
                out.insert(e.name.clone(), c);
            }
            None if missing.len() == 1 && table.item_count.is_some_and(|n| n > declared) => {
                let rest = table.item_count.unwrap_or(0) - declared;
                out.insert(e.name.clone(), rest);
                if !table.entities.is_empty() {
                    notes.push(Note::assumed(
                        format!("entity `{}`", e.name),
                        format!("has no `count`; taken as the rest of `item-count`: {rest}"),
                        format!("set `count` on entity `{}`", e.name),
                    ));
                }
            }
            None => notes.push(Note::missing(
                format!("entity `{}`", e.name),
                "has no `count`, so none of its items are simulated",
                if table.item_count.is_none() && table.entities.is_empty() {
                    format!("set `item-count` on table `{}`", table.name)
                } else {
                    format!("set `count` on entity `{}`", e.name)
                },
            )),
        }
    }
    out
}

/// The entities to generate: the model's, or — for a table that declares none — one
/// entity standing for every item, keyed by the key attributes' own values.
pub fn entities_of(table: &Table) -> Vec<Entity> {
    if !table.entities.is_empty() {
        return table.entities.clone();
    }
    let keys: IndexMap<String, String> = table
        .key_attributes()
        .into_iter()
        .map(|k| (k.to_string(), format!("{{{k}}}")))
        .collect();
    let attributes = table
        .attributes
        .keys()
        .filter(|a| !keys.contains_key(*a))
        .cloned()
        .collect();
    vec![Entity {
        name: table.name.clone(),
        count: table.item_count,
        keys,
        attributes,
        write_rate: table.write_rate,
        span: Span::default(),
        name_span: Span::default(),
        fields: FieldSpans::default(),
    }]
}

/// How many items an entity of `full` items gets at `scale`. Small entities (regions,
/// warehouses, the top 3 of a game) are generated in full up to a floor, so scaling
/// never leaves a pattern without items.
fn target_items(full: u64, scale: f64) -> u64 {
    ((full as f64 * scale).round() as u64).max(full.min(MIN_ITEMS_PER_ENTITY))
}

/// How many items [`generate_table`] sets out to write for `table` at `scale`: the
/// total its progress counts towards.
pub fn planned_items(table: &Table, scale: f64) -> u64 {
    let entities = entities_of(table);
    let counts = entity_counts(table, &entities, &mut Vec::new());
    entities
        .iter()
        .filter_map(|e| counts.get(&e.name))
        .map(|&full| target_items(full, scale))
        .sum()
}

/// Fills an engine table with `table`'s entities at `scale`.
pub fn generate_table(
    table: &Table,
    patterns: &[crate::model::AccessPattern],
    scale: f64,
    seed: u64,
    notes: &mut Vec<Note>,
) -> GeneratedTable {
    generate_table_reporting(table, patterns, scale, seed, notes, &mut |_| {})
}

/// [`generate_table`], calling `progress` with the number of items it has tried so
/// far (of [`planned_items`]): a million-item table takes seconds.
pub fn generate_table_reporting(
    table: &Table,
    patterns: &[crate::model::AccessPattern],
    scale: f64,
    seed: u64,
    notes: &mut Vec<Note>,
    progress: &mut dyn FnMut(u64),
) -> GeneratedTable {
    let mut tried: u64 = 0;
    let schema = TableSchema::from_model(table);
    let mut data = EngineTable::new(schema, 0.0);
    let entities = entities_of(table);
    let counts = entity_counts(table, &entities, notes);
    if table.avg_item_size.is_none() {
        notes.push(Note::missing(
            format!("table `{}`", table.name),
            "has no average item size: items hold only their keys and listed attributes, so read and write units are low",
            format!("set `avg-item-size` on table `{}`", table.name),
        ));
    }
    let mut with_entities = table.clone();
    with_entities.entities = entities.clone();
    let domains = domain::infer(&with_entities, patterns, &counts, scale, notes);
    let mut generated = Vec::new();
    let mut key_counts: Vec<KeyCounts> = data
        .schema
        .indexes
        .iter()
        .map(|_| KeyCounts::default())
        .collect();
    for (ei, e) in entities.iter().enumerate() {
        let Some(&full) = counts.get(&e.name) else {
            continue;
        };
        let ctx = EntityPlan::new(&with_entities, e, &domains, notes);
        let Some(plan) = ctx else { continue };
        let target = target_items(full, scale);
        let mut rng = fastrand::Rng::with_seed(mix(seed, &table.name, ei));
        let mut g = GeneratedEntity {
            name: e.name.clone(),
            full_count: full,
            target,
            written: 0,
            collisions: 0,
            bytes: 0,
            samples: Vec::new(),
            index_writes: IndexMap::new(),
        };
        // Per index position, items that landed in it (names resolved at the end, so
        // the hot loop allocates nothing for it).
        let mut landed = vec![0u64; data.schema.indexes.len()];
        for i in 0..target {
            let mut stored = false;
            for _ in 0..TRIES {
                let (values, item) = match plan.item(i, &mut rng) {
                    Ok(x) => x,
                    Err(note) => {
                        notes.push(note);
                        break;
                    }
                };
                let Ok(pk) = item_primary_key(&data.schema, &item) else {
                    break;
                };
                // Index keys of the new item, counted per key value as they land.
                let mut entries = Vec::with_capacity(landed.len());
                for (ix, index) in data.schema.indexes.iter().enumerate() {
                    if let Ok(Some(entry)) = index_entry(index, &pk, &item, WriteKind::Put) {
                        entries.push((ix, entry.0));
                    }
                }
                let size = item_size(&item);
                let sample = sample_slot(g.samples.len(), i, &mut rng).map(|slot| {
                    let s = Sample {
                        values: plan.named(values),
                        item: item.clone(),
                    };
                    (slot, s)
                });
                // One lookup: a put that replaced an item was a key collision, so the
                // first item goes back and this one counts as a retry.
                if let Some(old) = data.put(pk.clone(), item) {
                    data.put(pk, old);
                    continue;
                }
                for (ix, key) in entries {
                    if let Some(n) = landed.get_mut(ix) {
                        *n += 1;
                    }
                    if let Some(c) = key_counts.get_mut(ix) {
                        c.count(key);
                    }
                }
                g.bytes += size;
                g.written += 1;
                if let Some((slot, sample)) = sample {
                    match g.samples.get_mut(slot) {
                        Some(old) => *old = sample,
                        None => g.samples.push(sample),
                    }
                }
                stored = true;
                break;
            }
            if !stored {
                g.collisions += 1;
            }
            tried += 1;
            if tried.is_multiple_of(PROGRESS_EVERY) {
                progress(tried);
            }
            if g.written == 0 && i >= TRIES as u64 {
                // Nothing can be built (bad template type); one note said why.
                break;
            }
        }
        for (n, index) in landed.iter().zip(&data.schema.indexes) {
            if *n > 0 {
                g.index_writes.insert(index.name.clone(), *n);
            }
        }
        if g.collisions > 0 {
            notes.push(Note::assumed(
                format!("entity `{}`", e.name),
                format!(
                    "{} of {} generated items collided on the primary key and were dropped",
                    g.collisions, g.target
                ),
                format!(
                    "give the key placeholders of `{}` more distinct values (`cardinality`) or lower its `count`",
                    e.name
                ),
            ));
        }
        generated.push(g);
    }
    let mut engine = Engine::new();
    engine.insert_table(data);
    GeneratedTable {
        name: table.name.clone(),
        engine,
        index_keys: key_counts,
        declared_item_bytes: table.avg_item_size.map(|s| s as f64),
        scale,
        entities,
        generated,
        domains,
    }
}

/// Reservoir sampling (every item has the same chance to be kept): the slot item
/// `i` takes among `len` kept samples, if any.
fn sample_slot(len: usize, i: u64, rng: &mut fastrand::Rng) -> Option<usize> {
    if len < SAMPLES_PER_ENTITY {
        return Some(len);
    }
    let j = rng.u64(0..=i) as usize;
    (j < SAMPLES_PER_ENTITY).then_some(j)
}

/// A seed per (seed, table, entity): FNV-1a over the name, mixed with the others.
fn mix(seed: u64, table: &str, entity: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^ seed.rotate_left(17) ^ (entity as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Everything needed to build one entity's items.
struct EntityPlan<'a> {
    entity: &'a Entity,
    table: &'a Table,
    domains: &'a IndexMap<String, Domain>,
    /// Key attribute → parsed template.
    templates: Vec<(String, crate::model::KeyTemplate)>,
    /// Listed attributes that are free-form text: they carry the padding.
    payload: Vec<String>,
    avg_size: Option<u64>,
}

impl<'a> EntityPlan<'a> {
    fn new(
        table: &'a Table,
        entity: &'a Entity,
        domains: &'a TableDomains,
        notes: &mut Vec<Note>,
    ) -> Option<Self> {
        let domains = domains.entities.get(&entity.name)?;
        let subject = format!("entity `{}`", entity.name);
        for k in table.key_attributes() {
            if !entity.keys.contains_key(k) {
                notes.push(Note::missing(
                    subject.clone(),
                    format!("does not say how its items fill key attribute `{k}`, so none are simulated"),
                    format!("add `{k}` to `keys` of entity `{}` (e.g. `{k} = \"{}#{{id}}\"`)", entity.name, entity.name.to_uppercase()),
                ));
                return None;
            }
        }
        let mut templates = Vec::new();
        for (attr, text) in &entity.keys {
            match crate::model::KeyTemplate::parse(text) {
                Ok(t) => templates.push((attr.clone(), t)),
                // Loading already reported the broken template.
                Err(_) => return None,
            }
        }
        let placeholders: Vec<&str> = templates
            .iter()
            .flat_map(|(_, t)| t.placeholders())
            .collect();
        let payload: Vec<String> = entity
            .attributes
            .iter()
            .filter(|a| {
                table.attribute(a).is_none()
                    && !table.is_key_attribute(a)
                    && !placeholders.contains(&a.as_str())
            })
            .cloned()
            .collect();
        if payload.is_empty() && table.avg_item_size.is_some() {
            notes.push(Note::assumed(
                subject,
                format!("lists no free-form attribute; items are padded to `avg-item-size` with `{PAD_ATTRIBUTE}`"),
                format!("list the payload attributes (e.g. `body`) in `attributes` of entity `{}`", entity.name),
            ));
        }
        Some(Self {
            entity,
            table,
            domains,
            templates,
            payload,
            avg_size: table.avg_item_size,
        })
    }

    /// Item number `i`: its name values and the item, or a note when a key cannot
    /// be built (a template that renders a non-number into an N key).
    fn item(&self, i: u64, rng: &mut fastrand::Rng) -> Result<(Vec<String>, Item), Note> {
        // One value per domain, in domain order; names are looked up by position.
        let values: Vec<String> = self.domains.values().map(|d| draw(d, i, rng)).collect();
        let get = |name: &str| {
            self.domains
                .get_index_of(name)
                .and_then(|k| values.get(k))
                .map_or("", String::as_str)
        };
        let mut item = Item::new();
        for (attr, t) in &self.templates {
            let mut text = String::new();
            for part in &t.parts {
                match part {
                    crate::model::TemplatePart::Literal(l) => text.push_str(l),
                    crate::model::TemplatePart::Placeholder(p) => text.push_str(get(p)),
                }
            }
            let ty = self
                .table
                .attribute(attr)
                .map_or(AttributeType::S, |a| a.ty);
            let value = typed(ty, &text).ok_or_else(|| {
                Note::missing(
                    format!("entity `{}`", self.entity.name),
                    format!("key `{attr} = \"{t}\"` renders `{text}`, not a valid {ty} value"),
                    format!("make the template of `{attr}` produce a {ty} value, or declare `{attr}` with the type it holds"),
                )
            })?;
            item.insert(attr.clone(), value);
        }
        for a in &self.entity.attributes {
            if item.contains_key(a) {
                continue;
            }
            let ty = self.table.attribute(a).map_or(AttributeType::S, |x| x.ty);
            if let Some(v) = typed(ty, get(a)) {
                item.insert(a.clone(), v);
            }
        }
        self.pad(&mut item, rng);
        Ok((values, item))
    }

    /// The values of an item by name, for a kept sample.
    fn named(&self, values: Vec<String>) -> IndexMap<String, String> {
        self.domains.keys().cloned().zip(values).collect()
    }

    /// Grows the item to around `avg-item-size` (±25%, mean on target) by lengthening
    /// free-form attributes, or adding [`PAD_ATTRIBUTE`].
    fn pad(&self, item: &mut Item, rng: &mut fastrand::Rng) {
        let Some(avg) = self.avg_size else { return };
        let target = (avg as f64 * (0.75 + 0.5 * rng.f64())).round() as u64;
        let size = item_size(item);
        if size >= target {
            return;
        }
        let mut deficit = (target - size) as usize;
        if self.payload.is_empty() {
            if deficit <= PAD_ATTRIBUTE.len() {
                return;
            }
            deficit -= PAD_ATTRIBUTE.len();
            item.insert(
                PAD_ATTRIBUTE.to_string(),
                AttributeValue::S("x".repeat(deficit)),
            );
            return;
        }
        let n = self.payload.len();
        for (k, a) in self.payload.iter().enumerate() {
            let share = deficit / n + usize::from(k < deficit % n);
            if let Some(AttributeValue::S(s)) = item.get_mut(a) {
                s.extend(std::iter::repeat_n('x', share));
            }
        }
    }
}

/// One value from a domain for item `i`.
fn draw(d: &Domain, i: u64, rng: &mut fastrand::Rng) -> String {
    match d {
        Domain::Constant(c) => c.clone(),
        Domain::Values { values, cumulative } => {
            let r = rng.f64();
            let k = cumulative
                .partition_point(|c| *c <= r)
                .min(values.len().saturating_sub(1));
            values.get(k).cloned().unwrap_or_default()
        }
        Domain::Range { lo, hi } => rng.i64(*lo..=*hi).to_string(),
        Domain::Ids { scaled, .. } => rng.u64(0..(*scaled).max(1)).to_string(),
        Domain::Own { .. } => i.to_string(),
        Domain::Unique => format!("{i}-{:04x}", rng.u16(..)),
        Domain::Timestamp => timestamp(rng.u64(0..FIVE_YEARS)),
        Domain::Random(AttributeType::Bool) => rng.bool().to_string(),
        Domain::Random(AttributeType::N | AttributeType::NS) => rng.u32(..).to_string(),
        Domain::Random(_) => format!("{:012x}", rng.u64(..) >> 16),
    }
}

const FIVE_YEARS: u64 = 5 * 365 * 86_400;

/// `2020-01-01T00:00:00Z` plus `secs`, as ISO 8601 (so text order is time order).
fn timestamp(secs: u64) -> String {
    // Days since 2020-01-01 to a civil date (Howard Hinnant's algorithm, from the
    // 1970 epoch: 2020-01-01 is day 18262).
    let days = 18_262 + (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The text as a value of type `ty`; `None` when it is not one (a number type with
/// non-numeric text).
fn typed(ty: AttributeType, text: &str) -> Option<AttributeValue> {
    let num = || Number::parse(text).ok();
    Some(match ty {
        AttributeType::S => AttributeValue::S(text.to_string()),
        AttributeType::N => AttributeValue::N(num()?),
        AttributeType::B => AttributeValue::B(text.as_bytes().to_vec()),
        AttributeType::Bool => AttributeValue::Bool(text == "true"),
        AttributeType::Null => AttributeValue::Null,
        AttributeType::M => {
            let mut m = std::collections::BTreeMap::new();
            m.insert("v".to_string(), AttributeValue::S(text.to_string()));
            AttributeValue::M(m)
        }
        AttributeType::L => AttributeValue::L(vec![AttributeValue::S(text.to_string())]),
        AttributeType::SS => AttributeValue::string_set([text.to_string()]),
        AttributeType::NS => AttributeValue::number_set([num()?]),
        AttributeType::BS => AttributeValue::binary_set([text.as_bytes().to_vec()]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_dates() {
        assert_eq!(timestamp(0), "2020-01-01T00:00:00Z");
        assert_eq!(timestamp(59 * 86_400 + 3_661), "2020-02-29T01:01:01Z");
        assert_eq!(timestamp(366 * 86_400), "2021-01-01T00:00:00Z");
    }

    #[test]
    fn values_follow_types() {
        assert_eq!(typed(AttributeType::N, "x"), None);
        assert!(matches!(
            typed(AttributeType::N, "42"),
            Some(AttributeValue::N(_))
        ));
        assert_eq!(
            typed(AttributeType::B, "ab"),
            Some(AttributeValue::B(b"ab".to_vec()))
        );
    }
}
