//! ConsumedCapacity as DynamoDB rounds it: reads in 4 KB units (half when eventually
//! consistent), Query/Scan summed over the items read before any filter and rounded
//! once, writes in 1 KB units of the larger of the old and new item, index writes
//! charged on what each index stores, transactions doubled.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::error::{DynamoError, DynamoResult};
use super::keys::{index_entry, PrimaryKey, Sort, WriteKind};
use super::schema::{IndexKind, TableSchema};
use super::size::item_size;
use super::table::project_index;
use super::value::{Item, KeyValue};

/// One read capacity unit covers 4 KB.
pub const READ_UNIT_BYTES: u64 = 4096;
/// One write capacity unit covers 1 KB.
pub const WRITE_UNIT_BYTES: u64 = 1024;

/// `ReturnConsumedCapacity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnCapacity {
    #[default]
    None,
    Total,
    Indexes,
}

impl ReturnCapacity {
    /// Parses the request field, with DynamoDB's enum error.
    pub fn parse(s: Option<&str>) -> DynamoResult<Self> {
        match s {
            None | Some("NONE") => Ok(Self::None),
            Some("TOTAL") => Ok(Self::Total),
            Some("INDEXES") => Ok(Self::Indexes),
            Some(other) => Err(DynamoError::validation(format!(
                "1 validation error detected: Value '{other}' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
            ))),
        }
    }
}

/// Read units for `bytes` read at once: rounded up to 4 KB, at least one unit, halved
/// for an eventually consistent read.
pub fn read_units(bytes: u64, consistent: bool) -> f64 {
    let units = bytes.div_ceil(READ_UNIT_BYTES).max(1) as f64;
    if consistent {
        units
    } else {
        units / 2.0
    }
}

/// Write units for an item of `bytes`: rounded up to 1 KB, at least one unit.
pub fn write_units(bytes: u64) -> f64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1) as f64
}

/// Units one request consumed on a table and its indexes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Consumed {
    pub table: String,
    pub table_units: f64,
    /// Per index name.
    pub indexes: BTreeMap<String, f64>,
}

impl Consumed {
    /// Nothing consumed yet on `table`.
    pub fn new(table: &str) -> Self {
        Self {
            table: table.to_string(),
            ..Self::default()
        }
    }

    /// Table plus indexes.
    pub fn total(&self) -> f64 {
        self.table_units + self.indexes.values().sum::<f64>()
    }

    /// Every figure multiplied by `factor` (transactions cost double).
    pub fn scaled(mut self, factor: f64) -> Self {
        self.table_units *= factor;
        for v in self.indexes.values_mut() {
            *v *= factor;
        }
        self
    }

    /// The `ConsumedCapacity` object for `mode`, or `None` when not asked for.
    pub fn to_json(&self, schema: Option<&TableSchema>, mode: ReturnCapacity) -> Option<Value> {
        if mode == ReturnCapacity::None {
            return None;
        }
        let mut o = Map::new();
        o.insert("TableName".into(), json!(self.table));
        o.insert("CapacityUnits".into(), json!(self.total()));
        if mode == ReturnCapacity::Indexes {
            o.insert("Table".into(), json!({ "CapacityUnits": self.table_units }));
            let mut gsi = Map::new();
            let mut lsi = Map::new();
            for (name, units) in &self.indexes {
                let local = schema
                    .and_then(|s| s.index(name))
                    .is_some_and(|i| i.kind == IndexKind::Local);
                let target = if local { &mut lsi } else { &mut gsi };
                target.insert(name.clone(), json!({ "CapacityUnits": units }));
            }
            if !gsi.is_empty() {
                o.insert("GlobalSecondaryIndexes".into(), Value::Object(gsi));
            }
            if !lsi.is_empty() {
                o.insert("LocalSecondaryIndexes".into(), Value::Object(lsi));
            }
        }
        Some(Value::Object(o))
    }
}

/// Write units each index is charged for a write that turned `old` into `new`: an
/// index entry removed or added costs its projected size, one whose key changed
/// costs both, one whose projected attributes changed costs the new size, and an
/// index the item is not in (before or after) costs nothing.
pub fn index_write_units(
    schema: &TableSchema,
    old: Option<&Item>,
    new: Option<&Item>,
) -> BTreeMap<String, f64> {
    let probe = PrimaryKey {
        hash: KeyValue::S(String::new()),
        sort: Sort::Absent,
    };
    let mut out = BTreeMap::new();
    for index in &schema.indexes {
        let entry = |item: Option<&Item>| {
            item.and_then(|i| {
                index_entry(index, &probe, i, WriteKind::Put)
                    .ok()
                    .flatten()
                    .map(|e| (e, project_index(schema, index, i)))
            })
        };
        let units = match (entry(old), entry(new)) {
            (None, None) => continue,
            (Some((_, o)), None) => write_units(item_size(&o)),
            (None, Some((_, n))) => write_units(item_size(&n)),
            (Some((ek_old, o)), Some((ek_new, n))) => {
                if ek_old != ek_new {
                    write_units(item_size(&o)) + write_units(item_size(&n))
                } else if o != n {
                    write_units(item_size(&n))
                } else {
                    continue;
                }
            }
        };
        out.insert(index.name.clone(), units);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(read_units(4096, true), 1.0);
        assert_eq!(read_units(4097, true), 2.0);
        assert_eq!(read_units(0, true), 1.0);
        assert_eq!(read_units(0, false), 0.5);
        assert_eq!(read_units(8193, false), 1.5);
        assert_eq!(write_units(1024), 1.0);
        assert_eq!(write_units(1025), 2.0);
        assert_eq!(write_units(0), 1.0);
    }

    #[test]
    fn shapes_by_mode() {
        let mut c = Consumed::new("T");
        c.table_units = 1.0;
        c.indexes.insert("G".into(), 2.0);
        assert_eq!(c.to_json(None, ReturnCapacity::None), None);
        assert_eq!(
            c.to_json(None, ReturnCapacity::Total),
            Some(json!({"TableName": "T", "CapacityUnits": 3.0}))
        );
        assert_eq!(
            c.to_json(None, ReturnCapacity::Indexes),
            Some(
                json!({"TableName": "T", "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
                        "GlobalSecondaryIndexes": {"G": {"CapacityUnits": 2.0}}})
            )
        );
    }
}
