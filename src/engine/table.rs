//! A table's data: items in an ordered map by primary key, and one ordered set per
//! secondary index, maintained on every write. An index stores only its entry keys
//! (index keys + table key); reads project the table's item through the index's
//! projection, so an index can never drift from the table and costs little memory.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Bound;

use super::clock::Clock;
use super::journal::{Change, Journal};
use super::keys::{index_entry, key_item, Bounded, IndexEntry, PrimaryKey, Sort, WriteKind};
use super::number::Number;
use super::schema::{IndexSchema, Projection, TableSchema};
use super::size::item_size;
use super::value::{AttributeValue, Item, KeyValue};

/// How long a stream keeps a record: DynamoDB Streams trims records after 24 hours.
pub const STREAM_RETENTION_SECONDS: f64 = 24.0 * 3600.0;

/// Time to Live ignores an expiry time more than five years in the past.
pub const TTL_MAX_AGE_SECONDS: f64 = 5.0 * 365.0 * 86400.0;

/// How a table is billed (`BillingMode`), with its provisioned throughput.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Billing {
    /// On-demand.
    #[default]
    PayPerRequest,
    /// Provisioned read and write capacity units.
    Provisioned { read: i64, write: i64 },
}

/// One change a stream recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamRecord {
    /// Position in the stream, from 0.
    pub seq: u64,
    /// `INSERT`, `MODIFY` or `REMOVE`.
    pub event: &'static str,
    pub keys: Item,
    pub old: Option<Item>,
    pub new: Option<Item>,
    /// Seconds since the epoch.
    pub created: f64,
    /// Size of the images kept.
    pub size: u64,
    /// Time to Live deleted the item: the record's `userIdentity` is the DynamoDB
    /// service.
    pub by_ttl: bool,
}

/// A table's stream: its view type, its label (part of its ARN) and its records.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamState {
    /// `KEYS_ONLY`, `NEW_IMAGE`, `OLD_IMAGE` or `NEW_AND_OLD_IMAGES`.
    pub view_type: String,
    pub label: String,
    /// Records oldest first, at consecutive positions; those older than 24 hours are
    /// dropped from the front as new ones arrive and by [`Table::trim_stream`].
    pub records: VecDeque<StreamRecord>,
    /// The next record's position.
    pub next: u64,
}

impl StreamState {
    /// A stream with no records yet.
    pub fn new(view_type: impl Into<String>, label: impl Into<String>) -> StreamState {
        StreamState {
            view_type: view_type.into(),
            label: label.into(),
            records: VecDeque::new(),
            next: 0,
        }
    }

    /// The position of the oldest record still kept at `now` (the trim horizon): the
    /// next record's position when every record is older than 24 hours.
    pub fn trim_horizon(&self, now: f64) -> u64 {
        self.records
            .iter()
            .find(|r| r.created >= now - STREAM_RETENTION_SECONDS)
            .map_or(self.next, |r| r.seq)
    }

    /// Drops the records older than 24 hours at `now`.
    fn trim(&mut self, now: f64) {
        while self
            .records
            .front()
            .is_some_and(|r| r.created < now - STREAM_RETENTION_SECONDS)
        {
            self.records.pop_front();
        }
    }
}

/// One table: schema, items, index entries.
#[derive(Debug, Clone)]
pub struct Table {
    pub schema: TableSchema,
    /// Creation time, seconds since the epoch (DescribeTable's `CreationDateTime`).
    pub created: f64,
    /// Billing mode and throughput (CreateTable, UpdateTable, DescribeTable).
    pub billing: Billing,
    /// The Time to Live attribute, when TTL is enabled.
    pub ttl: Option<String>,
    /// Tags, by key.
    pub tags: BTreeMap<String, String>,
    /// The stream, when enabled.
    pub stream: Option<StreamState>,
    items: BTreeMap<PrimaryKey, Item>,
    /// Parallel to `schema.indexes`.
    indexes: Vec<BTreeSet<IndexEntry>>,
    total_bytes: u64,
    /// Where stream records and journal entries read their time.
    pub(crate) clock: Clock,
    /// Where writes are journalled for a durable store; `None` in memory.
    pub(crate) journal: Option<Journal>,
    /// Where Time to Live's next sweep resumes (it examines a bounded number of items
    /// at a time, so a large table never holds the engine for long).
    ttl_cursor: Option<PrimaryKey>,
}

impl Table {
    /// An empty table.
    pub fn new(schema: TableSchema, created: f64) -> Self {
        let indexes = schema.indexes.iter().map(|_| BTreeSet::new()).collect();
        Self {
            schema,
            created,
            billing: Billing::default(),
            ttl: None,
            tags: BTreeMap::new(),
            stream: None,
            items: BTreeMap::new(),
            indexes,
            total_bytes: 0,
            clock: Clock::default(),
            journal: None,
            ttl_cursor: None,
        }
    }

    /// Number of items.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// Sum of item sizes.
    pub fn size_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Number of entries of the index at `index` (by position in the schema).
    pub fn index_item_count(&self, index: usize) -> usize {
        self.indexes.get(index).map_or(0, BTreeSet::len)
    }

    /// Sum of the sizes of what the index at `index` stores.
    pub fn index_size_bytes(&self, index: usize) -> u64 {
        let (Some(schema), Some(entries)) =
            (self.schema.indexes.get(index), self.indexes.get(index))
        else {
            return 0;
        };
        entries
            .iter()
            .filter_map(|(_, _, pk)| match pk {
                Bounded::Val(pk) => self.items.get(pk),
                _ => None,
            })
            .map(|item| item_size(&project_index(&self.schema, schema, item)))
            .sum()
    }

    /// The item with primary key `pk`.
    pub fn get(&self, pk: &PrimaryKey) -> Option<&Item> {
        self.items.get(pk)
    }

    /// Stores `item` under `pk` (already validated), replacing and returning any old
    /// item, and updates every index.
    pub fn put(&mut self, pk: PrimaryKey, item: Item) -> Option<Item> {
        self.put_at(pk, item, None)
    }

    /// [`Table::put`] at time `at` (the clock's time when `None`): a durable store
    /// replays a write at the time it was first made, so its stream record is the same.
    pub(crate) fn put_at(&mut self, pk: PrimaryKey, item: Item, at: Option<f64>) -> Option<Item> {
        let old = self.take(&pk);
        for (i, index) in self.schema.indexes.iter().enumerate() {
            // Index keys were validated before the write; a value that still fails here
            // cannot be indexed, so it is left out rather than stored half-way.
            if let Ok(Some(entry)) = index_entry(index, &pk, &item, WriteKind::Put) {
                if let Some(set) = self.indexes.get_mut(i) {
                    set.insert(entry);
                }
            }
        }
        self.total_bytes += item_size(&item);
        if (self.stream.is_some() || self.journal.is_some()) && old.as_ref() != Some(&item) {
            self.changed(&pk, old.clone(), Some(&item), at, false);
        }
        self.items.insert(pk, item);
        old
    }

    /// Tells the stream and the journal (whichever there are) about a change.
    fn changed(
        &mut self,
        pk: &PrimaryKey,
        old: Option<Item>,
        new: Option<&Item>,
        at: Option<f64>,
        by_ttl: bool,
    ) {
        let at = at.unwrap_or_else(|| self.clock.now());
        if let Some(journal) = &self.journal {
            journal.push(match new {
                Some(item) => Change::Put {
                    table: self.schema.name.clone(),
                    item: item.clone(),
                    at,
                },
                None => Change::Delete {
                    table: self.schema.name.clone(),
                    key: key_item(&self.schema.keys, pk),
                    at,
                    by_ttl,
                },
            });
        }
        if self.stream.is_some() {
            self.record(pk, old, new.cloned(), at, by_ttl);
        }
    }

    /// Appends a change to the stream, when there is one, and trims what is older than
    /// 24 hours.
    fn record(
        &mut self,
        pk: &PrimaryKey,
        old: Option<Item>,
        new: Option<Item>,
        created: f64,
        by_ttl: bool,
    ) {
        let keys = key_item(&self.schema.keys, pk);
        let Some(s) = self.stream.as_mut() else {
            return;
        };
        let event = match (&old, &new) {
            (None, _) => "INSERT",
            (Some(_), Some(_)) => "MODIFY",
            (Some(_), None) => "REMOVE",
        };
        let size = old.as_ref().map_or(0, item_size) + new.as_ref().map_or(0, item_size);
        s.records.push_back(StreamRecord {
            seq: s.next,
            event,
            keys,
            old,
            new,
            created,
            size,
            by_ttl,
        });
        s.next += 1;
        s.trim(created);
    }

    /// Drops the stream records older than 24 hours at `now`.
    pub fn trim_stream(&mut self, now: f64) {
        if let Some(s) = self.stream.as_mut() {
            s.trim(now);
        }
    }

    /// Deletes the item with key `pk`, returning it.
    pub fn remove(&mut self, pk: &PrimaryKey) -> Option<Item> {
        self.remove_at(pk, None, false)
    }

    /// [`Table::remove`] at time `at` (the clock's when `None`), by Time to Live or not.
    pub(crate) fn remove_at(
        &mut self,
        pk: &PrimaryKey,
        at: Option<f64>,
        by_ttl: bool,
    ) -> Option<Item> {
        let old = self.take(pk)?;
        if self.stream.is_some() || self.journal.is_some() {
            self.changed(pk, Some(old.clone()), None, at, by_ttl);
        }
        Some(old)
    }

    /// Time to Live's background work on this table at `now`: examines up to `budget`
    /// items from where the last sweep stopped and deletes those whose TTL attribute
    /// is a Number of epoch seconds in the past (at most five years: DynamoDB ignores
    /// older ones). Returns how many it deleted. Nothing when TTL is disabled.
    pub fn expire(&mut self, now: f64, budget: usize) -> usize {
        let Some(attr) = self.ttl.clone() else {
            self.ttl_cursor = None;
            return 0;
        };
        let (Ok(now_n), Ok(oldest)) = (
            Number::parse(&format!("{now:.3}")),
            Number::parse(&format!("{:.3}", now - TTL_MAX_AGE_SECONDS)),
        ) else {
            return 0;
        };
        let mut expired = Vec::new();
        let mut examined = 0;
        let mut last = None;
        for (pk, item) in self.scan_from(self.ttl_cursor.clone()) {
            if examined == budget {
                break;
            }
            examined += 1;
            last = Some(pk);
            if let Some(AttributeValue::N(at)) = item.get(&attr) {
                if *at < now_n && *at >= oldest {
                    expired.push(pk.clone());
                }
            }
        }
        // A sweep that reached the end starts again from the beginning next time.
        let next = if examined == budget {
            last.cloned()
        } else {
            None
        };
        self.ttl_cursor = next;
        for pk in &expired {
            self.remove_at(pk, Some(now), true);
        }
        expired.len()
    }

    /// Deletes the item with key `pk` from the table and its indexes, recording
    /// nothing (a put that replaces it records one change).
    fn take(&mut self, pk: &PrimaryKey) -> Option<Item> {
        let old = self.items.remove(pk)?;
        self.total_bytes = self.total_bytes.saturating_sub(item_size(&old));
        for (i, index) in self.schema.indexes.iter().enumerate() {
            if let Ok(Some(entry)) = index_entry(index, pk, &old, WriteKind::Put) {
                if let Some(set) = self.indexes.get_mut(i) {
                    set.remove(&entry);
                }
            }
        }
        Some(old)
    }

    /// Adds a secondary index and fills it from the items already stored (a GSI
    /// created by UpdateTable; the backfill is instant in memory). An item whose
    /// value for a new key attribute has the wrong type is left out of the index.
    pub fn add_index(&mut self, index: IndexSchema) {
        let mut entries = BTreeSet::new();
        for (pk, item) in &self.items {
            if let Ok(Some(entry)) = index_entry(&index, pk, item, WriteKind::Put) {
                entries.insert(entry);
            }
        }
        self.schema.indexes.push(index);
        self.indexes.push(entries);
    }

    /// Drops the secondary index called `name`; false when there is none.
    pub fn remove_index(&mut self, name: &str) -> bool {
        let Some(pos) = self.schema.indexes.iter().position(|i| i.name == name) else {
            return false;
        };
        self.schema.indexes.remove(pos);
        if pos < self.indexes.len() {
            self.indexes.remove(pos);
        }
        true
    }

    /// Bytes of the item collection of partition `hash`: its items and what its local
    /// secondary indexes store for them (`ItemCollectionMetrics`).
    pub fn collection_bytes(&self, hash: &KeyValue) -> u64 {
        let mut total = 0;
        for (_, item) in self.partition_range(hash, Bound::Unbounded, Bound::Unbounded, true) {
            total += item_size(item);
            for index in &self.schema.indexes {
                if index.kind == super::schema::IndexKind::Local
                    && index.keys.attributes().all(|k| item.contains_key(&k.name))
                {
                    total += item_size(&project_index(&self.schema, index, item));
                }
            }
        }
        total
    }

    /// Items of partition `hash` with sort keys within `(lower, upper)`, in key order
    /// (or reversed).
    pub fn partition_range<'a>(
        &'a self,
        hash: &KeyValue,
        lower: Bound<Sort>,
        upper: Bound<Sort>,
        forward: bool,
    ) -> Box<dyn Iterator<Item = (&'a PrimaryKey, &'a Item)> + 'a> {
        let wrap = |b: Bound<Sort>| match b {
            Bound::Included(s) => Bound::Included(PrimaryKey {
                hash: hash.clone(),
                sort: s,
            }),
            Bound::Excluded(s) => Bound::Excluded(PrimaryKey {
                hash: hash.clone(),
                sort: s,
            }),
            Bound::Unbounded => Bound::Unbounded,
        };
        let lower = match lower {
            Bound::Unbounded => Bound::Included(Sort::Absent),
            b => b,
        };
        let upper = match upper {
            Bound::Unbounded => Bound::Included(Sort::End),
            b => b,
        };
        if empty_range(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        let range = self.items.range((wrap(lower), wrap(upper)));
        if forward {
            Box::new(range)
        } else {
            Box::new(range.rev())
        }
    }

    /// Every item after `start` (exclusive) in scan order.
    pub fn scan_from<'a>(
        &'a self,
        start: Option<PrimaryKey>,
    ) -> Box<dyn Iterator<Item = (&'a PrimaryKey, &'a Item)> + 'a> {
        match start {
            Some(s) => Box::new(self.items.range((Bound::Excluded(s), Bound::Unbounded))),
            None => Box::new(self.items.iter()),
        }
    }

    /// Entries of index `index` in partition `hash` with index sort keys within
    /// `(lower, upper)`, resolved to the table's items.
    pub fn index_partition_range<'a>(
        &'a self,
        index: usize,
        hash: &KeyValue,
        lower: Bound<(Sort, Bounded<PrimaryKey>)>,
        upper: Bound<(Sort, Bounded<PrimaryKey>)>,
        forward: bool,
    ) -> Box<dyn Iterator<Item = (&'a IndexEntry, &'a Item)> + 'a> {
        let Some(set) = self.indexes.get(index) else {
            return Box::new(std::iter::empty());
        };
        let wrap = |b: Bound<(Sort, Bounded<PrimaryKey>)>| match b {
            Bound::Included((s, p)) => Bound::Included((hash.clone(), s, p)),
            Bound::Excluded((s, p)) => Bound::Excluded((hash.clone(), s, p)),
            Bound::Unbounded => Bound::Unbounded,
        };
        let lower = match lower {
            Bound::Unbounded => Bound::Included((Sort::Absent, Bounded::Min)),
            b => b,
        };
        let upper = match upper {
            Bound::Unbounded => Bound::Included((Sort::End, Bounded::Max)),
            b => b,
        };
        if empty_range(&lower, &upper) {
            return Box::new(std::iter::empty());
        }
        let range = set.range((wrap(lower), wrap(upper)));
        let resolve = move |e: &'a IndexEntry| match &e.2 {
            Bounded::Val(pk) => self.items.get(pk).map(|item| (e, item)),
            _ => None,
        };
        if forward {
            Box::new(range.filter_map(resolve))
        } else {
            Box::new(range.rev().filter_map(resolve))
        }
    }

    /// Every entry of index `index` after `start` (exclusive), resolved to items.
    pub fn index_scan_from<'a>(
        &'a self,
        index: usize,
        start: Option<IndexEntry>,
    ) -> Box<dyn Iterator<Item = (&'a IndexEntry, &'a Item)> + 'a> {
        let Some(set) = self.indexes.get(index) else {
            return Box::new(std::iter::empty());
        };
        let resolve = move |e: &'a IndexEntry| match &e.2 {
            Bounded::Val(pk) => self.items.get(pk).map(|item| (e, item)),
            _ => None,
        };
        match start {
            Some(s) => Box::new(
                set.range((Bound::Excluded(s), Bound::Unbounded))
                    .filter_map(resolve),
            ),
            None => Box::new(set.iter().filter_map(resolve)),
        }
    }
}

/// True when `(lower, upper)` holds nothing; `BTreeMap::range` panics on such bounds.
fn empty_range<T: Ord>(lower: &Bound<T>, upper: &Bound<T>) -> bool {
    match (lower, upper) {
        (Bound::Included(l), Bound::Included(u)) => l > u,
        (Bound::Included(l), Bound::Excluded(u))
        | (Bound::Excluded(l), Bound::Included(u))
        | (Bound::Excluded(l), Bound::Excluded(u)) => l >= u,
        _ => false,
    }
}

/// What index `index` stores of `item`: its projection plus the table's and the
/// index's key attributes.
pub fn project_index(table: &TableSchema, index: &IndexSchema, item: &Item) -> Item {
    match &index.projection {
        Projection::All => item.clone(),
        _ => item
            .iter()
            .filter(|(name, _)| table.index_projects(index, name))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::AttributeType;
    use crate::engine::keys::item_primary_key;
    use crate::engine::number::Number;
    use crate::engine::schema::{IndexKind, KeyAttribute, KeySchema};
    use crate::engine::value::AttributeValue;

    fn schema() -> TableSchema {
        TableSchema {
            name: "T".into(),
            keys: KeySchema {
                hash: KeyAttribute::new("pk", AttributeType::S),
                range: Some(KeyAttribute::new("sk", AttributeType::N)),
            },
            indexes: vec![IndexSchema {
                name: "G".into(),
                kind: IndexKind::Global,
                keys: KeySchema {
                    hash: KeyAttribute::new("g", AttributeType::S),
                    range: Some(KeyAttribute::new("sk", AttributeType::N)),
                },
                projection: Projection::Include(vec!["x".into()]),
            }],
        }
    }

    fn put(t: &mut Table, pk: &str, sk: i64, g: Option<&str>) {
        let mut item = Item::new();
        item.insert("pk".into(), AttributeValue::S(pk.into()));
        item.insert("sk".into(), AttributeValue::N(Number::from_i64(sk)));
        item.insert("x".into(), AttributeValue::Bool(true));
        item.insert("y".into(), AttributeValue::Null);
        if let Some(g) = g {
            item.insert("g".into(), AttributeValue::S(g.into()));
        }
        let key = item_primary_key(&t.schema, &item).unwrap();
        t.put(key, item);
    }

    fn sorts(it: impl Iterator<Item = Item>) -> Vec<String> {
        it.map(|i| match i.get("sk") {
            Some(AttributeValue::N(n)) => n.to_string(),
            _ => "?".into(),
        })
        .collect()
    }

    #[test]
    fn partitions_are_ordered_and_indexes_follow_writes() {
        let mut t = Table::new(schema(), 0.0);
        for sk in [3, -1, 10, 2] {
            put(&mut t, "a", sk, if sk > 0 { Some("G") } else { None });
        }
        put(&mut t, "b", 1, Some("G"));
        let a = KeyValue::S("a".into());
        let all = t.partition_range(&a, Bound::Unbounded, Bound::Unbounded, true);
        assert_eq!(sorts(all.map(|(_, i)| i.clone())), ["-1", "2", "3", "10"]);
        let rev = t.partition_range(&a, Bound::Unbounded, Bound::Unbounded, false);
        assert_eq!(sorts(rev.map(|(_, i)| i.clone())), ["10", "3", "2", "-1"]);

        let g = KeyValue::S("G".into());
        let idx = |t: &Table| {
            sorts(
                t.index_partition_range(0, &g, Bound::Unbounded, Bound::Unbounded, true)
                    .map(|(_, i)| project_index(&t.schema, &t.schema.indexes[0], i)),
            )
        };
        assert_eq!(idx(&t), ["1", "2", "3", "10"]);
        // Rewriting without the index key drops the entry (sparse), and deleting too.
        put(&mut t, "a", 3, None);
        let removed = t.remove(&PrimaryKey {
            hash: KeyValue::S("a".into()),
            sort: Sort::Value(KeyValue::N(Number::from_i64(10))),
        });
        assert!(removed.is_some());
        assert_eq!(idx(&t), ["1", "2"]);
        assert_eq!(t.item_count(), 4);
        assert_eq!(t.index_item_count(0), 2);
    }

    #[test]
    fn include_projection_keeps_keys_and_listed_attributes() {
        let sch = schema();
        let mut item = Item::new();
        for k in ["pk", "sk", "g", "x", "y"] {
            item.insert(k.into(), AttributeValue::Null);
        }
        let projected = project_index(&sch, &sch.indexes[0], &item);
        assert_eq!(projected.keys().collect::<Vec<_>>(), ["g", "pk", "sk", "x"]);
    }

    #[test]
    fn empty_bounds_yield_nothing() {
        let t = Table::new(schema(), 0.0);
        let five = Sort::Value(KeyValue::N(Number::from_i64(5)));
        let one = Sort::Value(KeyValue::N(Number::from_i64(1)));
        let a = KeyValue::S("a".into());
        assert_eq!(
            t.partition_range(&a, Bound::Included(five), Bound::Included(one), true)
                .count(),
            0
        );
    }

    #[test]
    fn time_to_live_deletes_only_numbers_of_epoch_seconds_in_the_past_five_years() {
        let now = 1_700_000_000.0;
        let mut t = Table::new(schema(), 0.0);
        let put_exp = |t: &mut Table, sk: i64, exp: Option<AttributeValue>| {
            let mut item = Item::new();
            item.insert("pk".into(), AttributeValue::S("a".into()));
            item.insert("sk".into(), AttributeValue::N(Number::from_i64(sk)));
            item.insert("g".into(), AttributeValue::S("G".into()));
            if let Some(exp) = exp {
                item.insert("exp".into(), exp);
            }
            let key = item_primary_key(&t.schema, &item).unwrap();
            t.put(key, item);
        };
        let n = |s: &str| Some(AttributeValue::N(Number::parse(s).unwrap()));
        put_exp(&mut t, 1, n("1699999999")); // a second ago: deleted
        put_exp(&mut t, 2, n("1700000000")); // now: not yet in the past
        put_exp(&mut t, 3, Some(AttributeValue::S("1699999999".into()))); // not a Number
        put_exp(&mut t, 4, n("1500000000")); // more than five years ago: ignored
        put_exp(&mut t, 5, n("1600000000.5")); // three years ago: deleted
        put_exp(&mut t, 6, None);
        assert_eq!(t.expire(now, 100), 0, "TTL is not enabled");
        t.ttl = Some("exp".into());
        assert_eq!(t.expire(now, 100), 2);
        let left: Vec<String> = sorts(t.items.values().cloned());
        assert_eq!(left, ["2", "3", "4", "6"]);
        // The index entries went with the items.
        assert_eq!(t.index_item_count(0), 4);
    }

    #[test]
    fn time_to_live_sweeps_a_bounded_number_of_items_at_a_time() {
        let mut t = Table::new(schema(), 0.0);
        t.ttl = Some("exp".into());
        for sk in 0..10 {
            let mut item = Item::new();
            item.insert("pk".into(), AttributeValue::S("a".into()));
            item.insert("sk".into(), AttributeValue::N(Number::from_i64(sk)));
            item.insert("exp".into(), AttributeValue::N(Number::from_i64(100)));
            let key = item_primary_key(&t.schema, &item).unwrap();
            t.put(key, item);
        }
        assert_eq!(t.expire(200.0, 4), 4);
        assert_eq!(t.expire(200.0, 4), 4);
        assert_eq!(t.expire(200.0, 4), 2);
        assert_eq!(t.item_count(), 0);
    }
}
