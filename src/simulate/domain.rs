//! Where each generated value comes from: for every name an entity writes (a key
//! template's `{placeholder}` or a listed attribute), the set of values it takes and
//! how often, inferred from the model and nothing else.
//!
//! Precedence, first match wins (the model's own words before any inference):
//! 1. a type attribute: `values` holding a value named like the entity (`BLOG` for
//!    entity `Blog`) is that entity's constant;
//! 2. declared `values` (plain list: uniform; share map: the shares);
//! 3. declared `cardinality`; 4. `unique = true`;
//! 5. a shard range learned from an access pattern (`{1..10}` aligned with `{shard}`);
//! 6. an id owned by an entity (its last undeclared primary-key placeholder, numbered
//!    item by item) — other entities draw from the owner's ids;
//! 7. a composite key attribute's declared cardinality divided by its other parts;
//! 8. otherwise by declared type (timestamps for date-like names, random text or
//!    numbers), or a fresh id per item for undeclared primary-key parts.

use indexmap::IndexMap;

use crate::attr::AttributeType;
use crate::model::facts::entity_constant;
use crate::model::{Entity, KeyTemplate, Table, ValueSet};

use super::notes::Note;
use crate::facts::align::{align, Slot};
use crate::facts::plan::parse_range;

/// Domains smaller than this keep their full size when the data is scaled down:
/// shard suffixes and small enums are design, not volume.
pub const KEEP_SMALL_DOMAIN: u64 = 100;

/// The values one name takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Domain {
    /// One value for every item of the entity (`facet = "BLOG"` for blogs).
    Constant(String),
    /// Declared values; `cumulative` holds the running share, ending at 1.
    Values {
        values: Vec<String>,
        cumulative: Vec<f64>,
    },
    /// A shard suffix `lo..=hi`.
    Range { lo: i64, hi: i64 },
    /// Ids `0..scaled`, standing for `full` distinct values at full scale.
    Ids { full: u64, scaled: u64 },
    /// The entity's own id: item `i` gets `i`.
    Own { full: u64, scaled: u64 },
    /// One distinct value per item (`unique = true`).
    Unique,
    /// A random instant, for date-like names; sorts like an ISO timestamp.
    Timestamp,
    /// Random high-cardinality text or number by type, for plain attributes.
    Random(AttributeType),
}

impl Domain {
    /// Distinct values at full scale and in the generated data, when meaningful: the
    /// ratio tells how much bigger a partition keyed by this value is at full scale.
    /// `None` for per-item values (unique, random), whose partitions hold one item
    /// at any scale.
    pub fn cardinality(&self) -> Option<(f64, f64)> {
        match self {
            Self::Constant(_) => Some((1.0, 1.0)),
            Self::Values { values, .. } => Some((values.len() as f64, values.len() as f64)),
            Self::Range { lo, hi } => {
                let n = (hi - lo + 1).max(1) as f64;
                Some((n, n))
            }
            Self::Ids { full, scaled } | Self::Own { full, scaled } => {
                Some((*full as f64, *scaled as f64))
            }
            Self::Unique | Self::Timestamp | Self::Random(_) => None,
        }
    }
}

/// Scaled size of an id domain of `full` values.
pub fn scaled_domain(full: u64, scale: f64) -> u64 {
    if full <= KEEP_SMALL_DOMAIN {
        return full.max(1);
    }
    ((full as f64 * scale).round() as u64).clamp(KEEP_SMALL_DOMAIN, full)
}

/// The table's primary-key attributes' templates of an entity, parsed.
pub fn primary_templates(table: &Table, entity: &Entity) -> Vec<(String, KeyTemplate)> {
    table
        .key_attributes()
        .into_iter()
        .filter_map(|k| Some((k.to_string(), entity.template(k)?)))
        .collect()
}

/// Placeholder names of an entity's primary key, in order, without repeats.
pub fn primary_placeholders(table: &Table, entity: &Entity) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, t) in primary_templates(table, entity) {
        for p in t.placeholders() {
            if !out.iter().any(|o| o == p) {
                out.push(p.to_string());
            }
        }
    }
    out
}

/// Every domain a table's generation needs, per entity.
#[derive(Debug, Clone, Default)]
pub struct TableDomains {
    /// Entity name → name → domain.
    pub entities: IndexMap<String, IndexMap<String, Domain>>,
    /// Entity name → the name it numbers item by item, if any.
    pub owned: IndexMap<String, String>,
}

/// Infers the domain of every name each entity of `table` writes, at `scale`, with
/// entity counts `counts` (full scale, by entity name).
pub fn infer(
    table: &Table,
    patterns: &[crate::model::AccessPattern],
    counts: &IndexMap<String, u64>,
    scale: f64,
    notes: &mut Vec<Note>,
) -> TableDomains {
    let ranges = learned_ranges(table, patterns);
    // Owners: the first entity whose last undeclared primary-key placeholder it is
    // (undeclared: no values, cardinality, shard range, nor a composite's share).
    let mut owner_of: IndexMap<String, String> = IndexMap::new();
    let mut owned: IndexMap<String, String> = IndexMap::new();
    for e in &table.entities {
        let mut free = primary_placeholders(table, e).into_iter().filter(|p| {
            declared(table, p).is_none()
                && !ranges.contains_key(p)
                && derived_cardinality(table, e, p, &ranges).is_none()
        });
        if let Some(last) = free.next_back() {
            if !owner_of.contains_key(&last) {
                owner_of.insert(last.clone(), e.name.clone());
                owned.insert(e.name.clone(), last);
            }
        }
    }
    let mut out = TableDomains {
        entities: IndexMap::new(),
        owned,
    };
    for e in &table.entities {
        let mut names: Vec<String> = Vec::new();
        for t in e.keys.keys().filter_map(|k| e.template(k)) {
            names.extend(t.placeholders().map(str::to_string));
        }
        names.extend(e.attributes.iter().cloned());
        let primary = primary_placeholders(table, e);
        let mut domains: IndexMap<String, Domain> = IndexMap::new();
        for n in names {
            if domains.contains_key(&n) {
                continue;
            }
            let d = domain_of(
                table, e, &n, &ranges, &owner_of, counts, scale, &primary, notes,
            );
            domains.insert(n, d);
        }
        out.entities.insert(e.name.clone(), domains);
    }
    out
}

/// Steps 1–4: what `[table.attributes]` says about `name`.
fn declared(table: &Table, name: &str) -> Option<&'static str> {
    let a = table.attribute(name)?;
    if a.values.as_ref().is_some_and(|v| !v.is_empty()) {
        Some("values")
    } else if a.cardinality.is_some() {
        Some("cardinality")
    } else if a.unique {
        Some("unique")
    } else {
        None
    }
}

#[allow(clippy::too_many_arguments)]
fn domain_of(
    table: &Table,
    entity: &Entity,
    name: &str,
    ranges: &IndexMap<String, (i64, i64)>,
    owner_of: &IndexMap<String, String>,
    counts: &IndexMap<String, u64>,
    scale: f64,
    primary: &[String],
    notes: &mut Vec<Note>,
) -> Domain {
    let scaled_count = |full: u64| ((full as f64 * scale).round() as u64).max(1);
    if let Some(a) = table.attribute(name) {
        if let Some(values) = a.values.as_ref().filter(|v| !v.is_empty()) {
            if let Some(c) = entity_constant(values, &entity.name) {
                return Domain::Constant(c.to_string());
            }
            return values_domain(values);
        }
        if let Some(c) = a.cardinality {
            return Domain::Ids {
                full: c.max(1),
                scaled: scaled_domain(c.max(1), scale),
            };
        }
        if a.unique {
            return Domain::Unique;
        }
    }
    if let Some(&(lo, hi)) = ranges.get(name) {
        return Domain::Range { lo, hi };
    }
    if let Some(owner) = owner_of.get(name) {
        let full = counts.get(owner).copied().unwrap_or(0).max(1);
        let scaled = scaled_count(full);
        return if owner == &entity.name {
            Domain::Own { full, scaled }
        } else {
            Domain::Ids { full, scaled }
        };
    }
    if let Some(full) = derived_cardinality(table, entity, name, ranges) {
        return Domain::Ids {
            full,
            scaled: scaled_domain(full, scale),
        };
    }
    if let Some(a) = table.attribute(name) {
        return by_type(name, a.ty);
    }
    if primary.iter().any(|p| p == name) {
        // Not reached for owned names; a second undeclared part of a primary key.
        notes.push(Note::assumed(
            format!("entity `{}`", entity.name),
            format!("placeholder `{{{name}}}` of its key takes one value per item"),
            format!("declare `{name} = {{ type = \"S\", cardinality = N }}` in `[table.attributes]` of `{}`", table.name),
        ));
        return Domain::Unique;
    }
    by_type(name, AttributeType::S)
}

fn values_domain(values: &ValueSet) -> Domain {
    let (names, weights): (Vec<String>, Vec<f64>) = match values {
        ValueSet::List(v) => (v.clone(), vec![1.0; v.len()]),
        ValueSet::Shares(m) => (
            m.keys().cloned().collect(),
            m.values()
                .map(|w| if w.is_finite() { w.max(0.0) } else { 0.0 })
                .collect(),
        ),
    };
    let total: f64 = weights.iter().sum();
    let mut acc = 0.0;
    let cumulative = weights
        .iter()
        .map(|w| {
            acc += if total > 0.0 {
                w / total
            } else {
                1.0 / weights.len() as f64
            };
            acc
        })
        .collect();
    Domain::Values {
        values: names,
        cumulative,
    }
}

/// Date-like names get timestamps (they are usually sort keys, and order matters);
/// anything else random values of its type.
fn by_type(name: &str, ty: AttributeType) -> Domain {
    let lower = name.to_lowercase();
    let date_like = lower.contains("date") || lower.contains("time") || name.ends_with("At");
    if ty == AttributeType::S && date_like {
        Domain::Timestamp
    } else {
        Domain::Random(ty)
    }
}

/// Step 7: a composite key attribute `A = "{x}#{y}"` with `A`'s cardinality declared
/// and the other parts' sizes known tells `x`'s size. Parts may be known the same
/// way through another attribute (`Game = "{game}"` sizes `{game}`).
fn derived_cardinality(
    table: &Table,
    entity: &Entity,
    name: &str,
    ranges: &IndexMap<String, (i64, i64)>,
) -> Option<u64> {
    derived(table, entity, name, ranges, 3)
}

fn derived(
    table: &Table,
    entity: &Entity,
    name: &str,
    ranges: &IndexMap<String, (i64, i64)>,
    depth: u8,
) -> Option<u64> {
    if depth == 0 {
        return None;
    }
    for (attr, text) in &entity.keys {
        let Some(total) = table.attribute(attr).and_then(|a| a.cardinality) else {
            continue;
        };
        let Ok(t) = KeyTemplate::parse(text) else {
            continue;
        };
        let parts: Vec<&str> = t.placeholders().collect();
        if !parts.contains(&name) {
            continue;
        }
        let mut others = 1u64;
        let mut known = true;
        for p in parts.iter().filter(|p| **p != name) {
            let size = match table.attribute(p) {
                Some(a) if a.values.as_ref().is_some_and(|v| !v.is_empty()) => {
                    a.values.as_ref().map_or(1, |v| v.len() as u64)
                }
                Some(a) if a.cardinality.is_some() => a.cardinality.unwrap_or(1),
                _ => match ranges.get(*p) {
                    Some((lo, hi)) => (hi - lo + 1).max(1) as u64,
                    None => match derived(table, entity, p, ranges, depth - 1) {
                        Some(n) => n,
                        None => {
                            known = false;
                            1
                        }
                    },
                },
            };
            others = others.saturating_mul(size.max(1));
        }
        if known {
            return Some((total / others).max(1));
        }
    }
    None
}

/// Step 5: shard ranges from access patterns. A pattern's `key.A = "In Transit#{1..10}"`
/// aligned with an entity's `A = "{Status}#{shard}"` says `shard` runs 1..=10.
fn learned_ranges(
    table: &Table,
    patterns: &[crate::model::AccessPattern],
) -> IndexMap<String, (i64, i64)> {
    let mut out = IndexMap::new();
    for p in patterns.iter().filter(|p| p.table == table.name) {
        for (attr, text) in &p.key {
            let Ok(pt) = KeyTemplate::parse(text) else {
                continue;
            };
            if !pt.placeholders().any(|n| parse_range(n).is_some()) {
                continue;
            }
            for e in &table.entities {
                let Some(et) = e.template(attr) else {
                    continue;
                };
                let Some(slots) = align(&pt, &et) else {
                    continue;
                };
                for (en, slot) in slots {
                    if let Slot::Placeholder(pn) = slot {
                        if let Some(r) = parse_range(&pn) {
                            out.entry(en).or_insert(r);
                        }
                    }
                }
            }
        }
    }
    out
}
