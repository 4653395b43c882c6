//! Hot partition keys: how many values a table's or index's partition key takes (from
//! the model, its entities' key templates, or the values the code writes), how many
//! items per second the hottest value must serve (from access patterns' `rate`,
//! `limit` and the item counts), and the shard count that would spread it.

use crate::facts::shards::{required_shards, Io, ShardPlan};
use crate::model::{AccessPattern, Cardinality, Index, KeyTemplate, Model, Table, TemplatePart};
use crate::source::Span;

/// A table (its primary key) or one of its indexes.
#[derive(Debug, Clone, Copy)]
pub struct KeyTarget<'m> {
    pub table: &'m Table,
    pub index: Option<&'m Index>,
}

impl<'m> KeyTarget<'m> {
    /// Every table and index of the model.
    pub fn all(model: &'m Model) -> Vec<KeyTarget<'m>> {
        let mut out = Vec::new();
        for table in &model.tables {
            out.push(KeyTarget { table, index: None });
            for index in &table.indexes {
                out.push(KeyTarget {
                    table,
                    index: Some(index),
                });
            }
        }
        out
    }

    pub fn partition_key(&self) -> &'m str {
        self.index.map_or(self.table.partition_key.as_str(), |i| {
            i.partition_key.as_str()
        })
    }

    /// `table `Orders`` or `index `ByStatus` of `Orders``, for messages.
    pub fn label(&self) -> String {
        match self.index {
            Some(i) => format!("index `{}` of `{}`", i.name, self.table.name),
            None => format!("table `{}`", self.table.name),
        }
    }

    /// The TOML value of the target's `partition-key`.
    pub fn partition_key_span(&self) -> Span {
        match self.index {
            Some(i) => i.fields.get("partition-key").unwrap_or(i.name_span),
            None => self
                .table
                .fields
                .get("partition-key")
                .unwrap_or(self.table.name_span),
        }
    }

    /// True when an access pattern reads through this target.
    pub fn serves(&self, p: &AccessPattern) -> bool {
        self.table.is_named_by(&p.table)
            && p.index.as_deref() == self.index.map(|i| i.name.as_str())
    }
}

/// How many values a partition key takes, and where the model says so.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValues {
    pub count: u64,
    /// `3 values declared`, `entity `Order` writes the constant `ALL``.
    pub why: String,
    /// The TOML that says it (an attribute or an entity), when it is in the model.
    pub span: Option<Span>,
}

/// The number of values of the target's partition key the model declares: on the
/// attribute (`values`, `cardinality`), else derived from the entities' key templates
/// (a constant template is one value; a placeholder brings its attribute's count; a
/// `{0..14}` range its length). `None` when any part is unknown or `unique`.
pub fn declared_values(target: &KeyTarget<'_>) -> Option<KeyValues> {
    let table = target.table;
    let pk = target.partition_key();
    let attr = table.attribute(pk);
    match table.cardinality(pk) {
        Cardinality::Values(n) => {
            return Some(KeyValues {
                count: n,
                why: format!("`{pk}` declares {n} value{}", plural(n)),
                span: attr.map(|a| a.fields.get("values").unwrap_or(a.span)),
            })
        }
        Cardinality::Declared(n) => {
            return Some(KeyValues {
                count: n,
                why: format!("`{pk}` declares `cardinality = {n}`"),
                span: attr.map(|a| a.fields.get("cardinality").unwrap_or(a.span)),
            })
        }
        Cardinality::Unique(_) => return None,
        Cardinality::Unknown => {}
    }
    let mut total = 0u64;
    let mut parts = Vec::new();
    let mut span = None;
    for e in &table.entities {
        let Some(text) = e.keys.get(pk) else {
            if e.writes(table, pk) == Some(true) {
                // Listed in `attributes` with no template: its values are unknown.
                return None;
            }
            continue;
        };
        let template = KeyTemplate::parse(text).ok()?;
        let n = template_values(table, &template)?;
        total = total.saturating_add(n);
        parts.push(format!("`{}` writes `{text}`", e.name));
        span.get_or_insert(e.fields.get(&format!("keys.{pk}")).unwrap_or(e.span));
    }
    if parts.is_empty() {
        return None;
    }
    Some(KeyValues {
        count: total,
        why: format!("{} ({total} value{})", parts.join(", "), plural(total)),
        span,
    })
}

/// Values one key template can produce: the product of its placeholders' counts.
fn template_values(table: &Table, t: &KeyTemplate) -> Option<u64> {
    let mut n = 1u64;
    for p in &t.parts {
        let TemplatePart::Placeholder(name) = p else {
            continue;
        };
        let c = range_len(name).or_else(|| {
            table
                .cardinality(name)
                .count()
                .filter(|_| !matches!(table.cardinality(name), Cardinality::Unique(_)))
        })?;
        n = n.saturating_mul(c);
    }
    Some(n)
}

/// `0..14` → 15 (inclusive, as the articles write shard ranges), `1..=10` → 10.
pub fn range_len(placeholder: &str) -> Option<u64> {
    let (a, b) = placeholder.split_once("..")?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let (a, b): (u64, u64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    Some(b.checked_sub(a)? + 1)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The read load an access pattern puts on the hottest value of a partition key.
#[derive(Debug, Clone)]
pub struct PatternLoad<'m> {
    pub pattern: &'m AccessPattern,
    /// Items under the value the pattern reads (its declared share, else the
    /// largest/average value).
    pub items_per_value: f64,
    /// Items one request reads: the partition, or `limit`.
    pub items_per_request: f64,
    pub rate: f64,
    /// `items_per_request × rate`.
    pub items_per_sec: f64,
}

/// The access pattern that reads the most items per second from one value of the
/// target's partition key, given `values` values. `None` when no pattern through the
/// target has a `rate`, or the model lacks item counts.
pub fn hottest_pattern<'m>(
    model: &'m Model,
    target: &KeyTarget<'m>,
    values: u64,
) -> Option<PatternLoad<'m>> {
    let table = target.table;
    let pk = target.partition_key();
    let items = table.items_in(target.index)? as f64;
    let shares = table.attribute(pk).and_then(|a| a.values.as_ref());
    let even = items / values.max(1) as f64;
    let largest = shares
        .and_then(|s| s.max_share())
        .map_or(even, |(_, share)| items * share);
    model
        .access_patterns
        .iter()
        .filter(|p| target.serves(p))
        .filter_map(|p| {
            let rate = p.rate?;
            let per_value = p
                .key
                .get(pk)
                .and_then(|v| value_share(table, pk, v))
                .map_or(largest, |share| items * share);
            let per_request = p.limit.map_or(per_value, |l| per_value.min(l as f64));
            Some(PatternLoad {
                pattern: p,
                items_per_value: per_value,
                items_per_request: per_request,
                rate,
                items_per_sec: per_request * rate,
            })
        })
        .max_by(|a, b| a.items_per_sec.total_cmp(&b.items_per_sec))
}

/// The share of items under the key value a pattern reads: the declared share of a
/// literal value, or for a sharded template (`OPEN#{0..14}`) the share of its value
/// part (`OPEN`, looked up in any attribute's share map) divided by the shard range.
fn value_share(table: &Table, pk: &str, value: &str) -> Option<f64> {
    if !value.contains('{') {
        return table.attribute(pk)?.values.as_ref()?.share(value);
    }
    let template = KeyTemplate::parse(value).ok()?;
    let mut share = None;
    let mut spread = 1u64;
    for part in &template.parts {
        match part {
            TemplatePart::Placeholder(name) => spread = spread.saturating_mul(range_len(name)?),
            TemplatePart::Literal(text) => {
                for word in text.split(['#', ':', '_', '|']).filter(|w| !w.is_empty()) {
                    let found = table
                        .attributes
                        .values()
                        .find_map(|a| a.values.as_ref()?.share(word));
                    if found.is_some() {
                        share = found;
                    }
                }
            }
        }
    }
    share.map(|s| s / spread as f64)
}

/// The write load on the hottest value of a partition key.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteLoad {
    /// Items written per second that carry the target's partition key.
    pub rate: f64,
    /// The share of them that lands on the hottest value.
    pub share: f64,
    /// `rate × share`: writes per second on one value.
    pub items_per_sec: f64,
    /// The `write-rate` in `dynalint.toml` that says so.
    pub span: Span,
    /// Who declares it: `entity `Order``, `table `Orders``.
    pub source: String,
}

/// The writes per second the hottest of `values` values of the target's partition key
/// takes: from the `write-rate` of the entities whose items carry the key (the table's
/// own `write-rate` when none declares one, scaled to the items an index holds), times
/// the hottest value's declared share (else an even `1 / values`). `None` without a
/// write rate.
pub fn hottest_write(target: &KeyTarget<'_>, values: u64) -> Option<WriteLoad> {
    let table = target.table;
    let pk = target.partition_key();
    let rated: Vec<_> = table
        .entities
        .iter()
        .filter(|e| e.write_rate.is_some() && e.writes(table, pk) != Some(false))
        .collect();
    let (rate, span, source) = if let Some(first) = rated.first() {
        let rate = rated.iter().filter_map(|e| e.write_rate).sum::<f64>();
        let names: Vec<String> = rated.iter().map(|e| format!("`{}`", e.name)).collect();
        let span = first.fields.get("write-rate").unwrap_or(first.span);
        let noun = if rated.len() == 1 {
            "entity"
        } else {
            "entities"
        };
        (rate, span, format!("{noun} {}", names.join(", ")))
    } else {
        let rate = table.write_rate?;
        // A sparse index takes only the writes of the items it holds.
        let held = match (table.items_in(target.index), table.items_in(None)) {
            (Some(part), Some(all)) if all > 0 => (part as f64 / all as f64).min(1.0),
            _ => 1.0,
        };
        let span = table.fields.get("write-rate").unwrap_or(table.span);
        (rate * held, span, format!("table `{}`", table.name))
    };
    let share = table
        .attribute(pk)
        .and_then(|a| a.values.as_ref())
        .and_then(|v| v.max_share())
        .map_or(1.0 / values.max(1) as f64, |(_, s)| s);
    Some(WriteLoad {
        rate,
        share,
        items_per_sec: rate * share,
        span,
        source,
    })
}

/// The shard plan for a write load on items of the table's average size.
pub fn write_shard_plan(table: &Table, load: &WriteLoad) -> Option<ShardPlan> {
    Some(required_shards(
        Io::Write,
        load.items_per_sec,
        table.avg_item_size?,
    ))
}

/// The shard plan for a pattern's load on items of the table's average size.
pub fn shard_plan(table: &Table, load: &PatternLoad<'_>) -> Option<ShardPlan> {
    Some(required_shards(
        Io::Read,
        load.items_per_sec,
        table.avg_item_size?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_models::ORDERS_BY_STATUS as ORDERS;

    #[test]
    fn the_articles_worked_example() {
        let m = crate::model::load_str(std::path::Path::new("m.toml"), ORDERS).unwrap();
        let t = &m.tables[0];
        let target = KeyTarget {
            table: t,
            index: Some(&t.indexes[0]),
        };
        let v = declared_values(&target).unwrap();
        assert_eq!(v.count, 3);
        let load = hottest_pattern(&m, &target, v.count).unwrap();
        assert_eq!(load.items_per_sec, 600_000.0);
        let plan = shard_plan(t, &load).unwrap();
        assert_eq!(plan.items_per_unit, 16.0);
        assert_eq!(plan.partition_max_items_per_sec, 48_000.0);
        assert_eq!(plan.exact, 12.5);
        assert_eq!((plan.shards, plan.padded), (13, 15));
        // The table's own key is unique: not counted.
        assert!(declared_values(&KeyTarget {
            table: t,
            index: None
        })
        .is_none());
    }

    #[test]
    fn template_counts() {
        let m = crate::model::load_str(
            std::path::Path::new("m.toml"),
            r#"
[[table]]
name = "T"
partition-key = "PK"
[table.attributes]
PK = "S"
GSI1PK = "S"
GSI2PK = "S"
kind = { type = "S", values = ["A", "B"] }
[[table.index]]
name = "G1"
partition-key = "GSI1PK"
[[table.index]]
name = "G2"
partition-key = "GSI2PK"
[[table.entity]]
name = "E"
keys = { PK = "E#{id}", GSI1PK = "ALL", GSI2PK = "{kind}#{0..14}" }
[[table.entity]]
name = "F"
keys = { PK = "F#{id}", GSI1PK = "{id}" }
"#,
        )
        .unwrap();
        let t = &m.tables[0];
        let g1 = KeyTarget {
            table: t,
            index: Some(&t.indexes[0]),
        };
        assert!(declared_values(&g1).is_none(), "F's id is unknown");
        let g2 = KeyTarget {
            table: t,
            index: Some(&t.indexes[1]),
        };
        assert_eq!(declared_values(&g2).unwrap().count, 30);
        assert_eq!(range_len("0..14"), Some(15));
        assert_eq!(range_len("1..=10"), Some(10));
        assert_eq!(range_len("a..b"), None);
    }

    #[test]
    fn a_pattern_over_a_shard_range_reads_one_shard_of_its_value() {
        let toml = ORDERS
            .replace(
                "[[table.index]]",
                "shard = { type = \"S\", cardinality = 30 }\n[[table.index]]",
            )
            .replace("partition-key = \"status\"", "partition-key = \"shard\"")
            .replace(
                "key = { status = \"OPEN\" }",
                "key = { shard = \"OPEN#{0..14}\" }",
            );
        let m = crate::model::load_str(std::path::Path::new("m.toml"), &toml).unwrap();
        let t = &m.tables[0];
        let target = KeyTarget {
            table: t,
            index: Some(&t.indexes[0]),
        };
        let load = hottest_pattern(&m, &target, 30).unwrap();
        // 20% of 3M over 15 shards.
        assert_eq!(load.items_per_value, 40_000.0);
        assert!(!shard_plan(t, &load).unwrap().needs_sharding());
    }

    #[test]
    fn write_rates_from_entities_or_the_table() {
        let base = r#"
[[table]]
name = "Signups"
partition-key = "email"
item-count = 4_000_000
avg-item-size = 1_500
write-rate = 900
[table.attributes]
email = { type = "S", unique = true }
status = { type = "S", values = { PENDING = 0.9, VERIFIED = 0.1 } }
kind = { type = "S", cardinality = 4 }
[[table.index]]
name = "ByStatus"
partition-key = "status"
[[table.index]]
name = "ByKind"
partition-key = "kind"
"#;
        let m = crate::model::load_str(std::path::Path::new("m.toml"), base).unwrap();
        let t = &m.tables[0];
        let by = |i: usize| KeyTarget {
            table: t,
            index: Some(&t.indexes[i]),
        };
        // The table's rate, 90% of it on `PENDING`; 1,500 B items cost 2 WCU each.
        let w = hottest_write(&by(0), 2).unwrap();
        assert_eq!((w.rate, w.share, w.items_per_sec), (900.0, 0.9, 810.0));
        assert_eq!(w.source, "table `Signups`");
        let plan = write_shard_plan(t, &w).unwrap();
        assert_eq!(plan.partition_max_items_per_sec, 500.0);
        assert_eq!((plan.shards, plan.padded), (2, 2));
        // No declared shares: an even split over the 4 values.
        assert_eq!(hottest_write(&by(1), 4).unwrap().items_per_sec, 225.0);

        // Entities' rates take precedence, and only those whose items carry the key.
        let with_entities = format!(
            "{base}[[table.entity]]\nname = \"Signup\"\nkeys = {{ email = \"{{e}}\" }}\n\
             attributes = [\"status\"]\nwrite-rate = 2_000\n\
             [[table.entity]]\nname = \"Note\"\nkeys = {{ email = \"{{e}}\" }}\n\
             attributes = [\"kind\"]\nwrite-rate = 50\n"
        );
        let m = crate::model::load_str(std::path::Path::new("m.toml"), &with_entities).unwrap();
        let t = &m.tables[0];
        let status = KeyTarget {
            table: t,
            index: Some(&t.indexes[0]),
        };
        let w = hottest_write(&status, 2).unwrap();
        assert_eq!(w.rate, 2_000.0);
        assert_eq!(w.source, "entity `Signup`");
        let table = KeyTarget {
            table: t,
            index: None,
        };
        assert_eq!(hottest_write(&table, 1).unwrap().rate, 2_050.0);
    }
}
