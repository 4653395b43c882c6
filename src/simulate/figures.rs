//! Cheap figures from the model alone, for rules' messages: no data is generated, so
//! `dynalint check` can call these on every run. Each returns the [`Note`] naming the
//! model field it lacks instead of guessing.

use serde::Serialize;

use crate::model::{Index, Table, ValueSet};

use super::notes::Note;
use crate::facts::shards::{items_per_unit, required_shards, Io, ShardPlan};

/// Items one read unit covers at the table's `avg-item-size` (16 for 250 B).
pub fn items_per_rcu(table: &Table) -> Result<f64, Note> {
    Ok(items_per_unit(Io::Read, avg_item_size(table)?))
}

/// The table's declared `avg-item-size`.
pub fn avg_item_size(table: &Table) -> Result<u64, Note> {
    table.avg_item_size.ok_or_else(|| {
        Note::missing(
            format!("table `{}`", table.name),
            "has no average item size",
            format!("set `avg-item-size` on table `{}`", table.name),
        )
    })
}

/// Items in the table (`index` = `None`) or in one of its indexes (a sparse index
/// holds only its entities' items): `item-count`, else the entities' `count`s.
pub fn item_count(table: &Table, index: Option<&Index>) -> Result<u64, Note> {
    // `items_in` sums entity counts, which is 0 for a table that declares none.
    let known = table
        .items_in(index)
        .filter(|n| *n > 0 || table.item_count.is_some());
    known.ok_or_else(|| {
        let fix = match index {
            Some(_) if table.item_count.is_some() => format!(
                "set `count` on every entity of table `{}` (the index holds only some of them)",
                table.name
            ),
            _ => format!("set `item-count` on table `{}`", table.name),
        };
        Note::missing(format!("table `{}`", table.name), "has no item count", fix)
    })
}

/// How many items share one value of a partition key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyValueLoad {
    /// The partition key attribute (of the table or the index).
    pub attribute: String,
    pub value: String,
    /// Its declared share of the items.
    pub share: f64,
    /// Items in the table or index × share.
    pub items: f64,
}

/// The partition key attribute of the table or of `index`.
fn partition_key<'a>(table: &'a Table, index: Option<&'a Index>) -> &'a str {
    index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str())
}

/// The items under one value (`None`: the most common one) of the partition key of
/// the table or `index`, from the attribute's declared shares (`values = { OPEN =
/// 0.2, .. }`); a plain `values` list counts as an even spread.
pub fn key_value_load(
    table: &Table,
    index: Option<&Index>,
    value: Option<&str>,
) -> Result<KeyValueLoad, Note> {
    let attr = partition_key(table, index);
    let items = item_count(table, index)? as f64;
    let declare = || {
        Note::missing(
            format!("attribute `{attr}` of table `{}`", table.name),
            "has no declared values, so the load per key value is unknown",
            format!(
                "declare `{attr} = {{ type = \"S\", values = {{ A = 0.5, B = 0.5 }} }}` (each value's share of items)"
            ),
        )
    };
    let set = table
        .attribute(attr)
        .and_then(|a| a.values.as_ref())
        .filter(|v| !v.is_empty())
        .ok_or_else(declare)?;
    let shares: Vec<(String, f64)> = match set {
        ValueSet::Shares(m) => {
            let total: f64 = m.values().filter(|v| v.is_finite() && **v > 0.0).sum();
            m.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        if total > 0.0 { v.max(0.0) / total } else { 0.0 },
                    )
                })
                .collect()
        }
        ValueSet::List(l) => l
            .iter()
            .map(|k| (k.clone(), 1.0 / l.len() as f64))
            .collect(),
    };
    let pick = match value {
        Some(v) => shares.iter().find(|(k, _)| k == v),
        None => shares.iter().max_by(|a, b| a.1.total_cmp(&b.1)),
    };
    let (value, share) = pick.cloned().ok_or_else(declare)?;
    Ok(KeyValueLoad {
        attribute: attr.to_string(),
        value,
        share,
        items: items * share,
    })
}

/// DOMAIN.md §3's shard count for reading every item under one key value (`None`:
/// the most common) of the table's or `index`'s partition key once per second —
/// the article's `MaxRequiredIO`. For 3M orders, 20% `OPEN`, 250 B: 16 items per
/// RCU, 48K items/s per partition, N = 13, padded to 15.
pub fn key_value_shards(
    table: &Table,
    index: Option<&Index>,
    value: Option<&str>,
) -> Result<(KeyValueLoad, ShardPlan), Note> {
    let load = key_value_load(table, index, value)?;
    let plan = required_shards(Io::Read, load.items, avg_item_size(table)?);
    Ok((load, plan))
}
