//! What the log and the snapshots say, as JSON records: a table's settings (keys,
//! indexes, billing, TTL, tags, stream), the writes made to its items (in DynamoDB's
//! wire format), its stream's records, and TransactWriteItems' idempotency tokens.
//! Writes are recorded as their effect (the item stored, the key deleted), never as
//! the request, so replaying them needs no re-validation and gives the same state
//! whatever later versions change in how requests are checked.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::attr::AttributeType;
use crate::engine::db::Engine;
use crate::engine::journal::Change;
use crate::engine::keys::{item_primary_key, request_primary_key};
use crate::engine::schema::{
    IndexKind, IndexSchema, KeyAttribute, KeySchema, Projection, TableSchema,
};
use crate::engine::table::{Billing, StreamRecord, StreamState, Table};
use crate::engine::value::Item;
use crate::engine::wire::{item_from_json, item_to_json};

/// The version of this format, in every file's first record.
pub const FORMAT: u32 = 1;

/// One record of a log or a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// A log's first record: its generation.
    Log { format: u32, generation: u64 },
    /// A snapshot's first record: its generation and the last batch it holds.
    Snapshot {
        format: u32,
        generation: u64,
        lsn: u64,
    },
    /// What one request (or one round of background work) changed, applied whole or
    /// not at all; `lsn` counts batches from the database's creation.
    Batch { lsn: u64, entries: Vec<Entry> },
    /// Part of a snapshot's state.
    State { entries: Vec<Entry> },
    /// A snapshot's last record: how many entries it holds.
    End { entries: u64 },
}

/// One change, or one part of a snapshot's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// A table as it now is: created, or its settings changed.
    Table(TableMeta),
    /// A table deleted.
    Drop { name: String },
    /// An item stored at `at` (a stream, if any, records it).
    Put { table: String, item: Value, at: f64 },
    /// An item deleted at `at`, by Time to Live or not.
    Delete {
        table: String,
        key: Value,
        at: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        ttl: bool,
    },
    /// A TransactWriteItems `ClientRequestToken`: the request's items and the answer.
    Token {
        token: String,
        items: Value,
        answer: Value,
    },
    /// Snapshot only: an item as stored, which no stream records again.
    Item { table: String, item: Value },
    /// Snapshot only: a stream's next position and the records it keeps.
    Stream {
        table: String,
        next: u64,
        records: Vec<StreamRecordOnDisk>,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A table's settings: everything about it but its items and its stream's records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableMeta {
    /// The table's name.
    pub name: String,
    /// When it was created (seconds since the epoch): a table deleted and created
    /// again under the same name is another table.
    pub created: f64,
    /// Its primary key.
    pub keys: KeysOnDisk,
    /// Its secondary indexes, in the order DescribeTable lists them.
    #[serde(default)]
    pub indexes: Vec<IndexOnDisk>,
    /// Provisioned read and write units; absent for on-demand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisioned: Option<(i64, i64)>,
    /// The Time to Live attribute, when TTL is enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<String>,
    /// Tags, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
    /// The stream, when enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamMeta>,
}

/// A stream's settings: its view type and its label (part of its ARN).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamMeta {
    /// `KEYS_ONLY`, `NEW_IMAGE`, `OLD_IMAGE` or `NEW_AND_OLD_IMAGES`.
    pub view_type: String,
    /// A new label is a new stream.
    pub label: String,
}

/// A key schema: attribute names and types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeysOnDisk {
    /// The partition key's name and type.
    pub hash: (String, AttributeType),
    /// The sort key's, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<(String, AttributeType)>,
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexOnDisk {
    /// The index's name.
    pub name: String,
    /// A local secondary index (else global).
    pub local: bool,
    /// Its key.
    pub keys: KeysOnDisk,
    /// `None` for `ALL`, the attributes of `INCLUDE`, or an empty list for `KEYS_ONLY`
    /// (told apart by `keys_only`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub keys_only: bool,
}

/// A stream record as a snapshot keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamRecordOnDisk {
    /// Position in the stream.
    pub seq: u64,
    /// `INSERT`, `MODIFY` or `REMOVE`.
    pub event: String,
    /// The item's key, in wire format.
    pub keys: Value,
    /// The item before the change, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The item after the change, unless it was deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
    /// Seconds since the epoch.
    pub created: f64,
    /// Size of the images.
    pub size: u64,
    /// Time to Live deleted the item.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ttl: bool,
}

/// Why a record could not be applied: the files are not what this version wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

fn keys_on_disk(k: &KeySchema) -> KeysOnDisk {
    KeysOnDisk {
        hash: (k.hash.name.clone(), k.hash.ty),
        range: k.range.as_ref().map(|r| (r.name.clone(), r.ty)),
    }
}

fn keys_from_disk(k: &KeysOnDisk) -> KeySchema {
    KeySchema {
        hash: KeyAttribute::new(k.hash.0.clone(), k.hash.1),
        range: k
            .range
            .as_ref()
            .map(|(n, t)| KeyAttribute::new(n.clone(), *t)),
    }
}

fn index_on_disk(i: &IndexSchema) -> IndexOnDisk {
    IndexOnDisk {
        name: i.name.clone(),
        local: i.kind == IndexKind::Local,
        keys: keys_on_disk(&i.keys),
        include: match &i.projection {
            Projection::Include(list) => Some(list.clone()),
            _ => None,
        },
        keys_only: i.projection == Projection::KeysOnly,
    }
}

fn index_from_disk(i: &IndexOnDisk) -> IndexSchema {
    IndexSchema {
        name: i.name.clone(),
        kind: if i.local {
            IndexKind::Local
        } else {
            IndexKind::Global
        },
        keys: keys_from_disk(&i.keys),
        projection: match (&i.include, i.keys_only) {
            (_, true) => Projection::KeysOnly,
            (Some(list), false) => Projection::Include(list.clone()),
            (None, false) => Projection::All,
        },
    }
}

impl TableMeta {
    /// The settings of `table`.
    pub fn of(table: &Table) -> TableMeta {
        TableMeta {
            name: table.schema.name.clone(),
            created: table.created,
            keys: keys_on_disk(&table.schema.keys),
            indexes: table.schema.indexes.iter().map(index_on_disk).collect(),
            provisioned: match table.billing {
                Billing::PayPerRequest => None,
                Billing::Provisioned { read, write } => Some((read, write)),
            },
            ttl: table.ttl.clone(),
            tags: table.tags.clone(),
            stream: table.stream.as_ref().map(|s| StreamMeta {
                view_type: s.view_type.clone(),
                label: s.label.clone(),
            }),
        }
    }

    /// Makes the engine's table `self.name` have these settings: creates it, or
    /// changes its indexes (dropped ones removed, new ones built from its items),
    /// billing, TTL, tags and stream (a new label is a new, empty stream).
    fn apply(&self, engine: &mut Engine) {
        let indexes: Vec<IndexSchema> = self.indexes.iter().map(index_from_disk).collect();
        let same_table = engine.tables.get(&self.name).is_some_and(|t| {
            t.created == self.created && keys_on_disk(&t.schema.keys) == self.keys
        });
        if !same_table {
            let schema = TableSchema {
                name: self.name.clone(),
                keys: keys_from_disk(&self.keys),
                indexes: indexes.clone(),
            };
            engine.insert_table(Table::new(schema, self.created));
        }
        let Some(table) = engine.tables.get_mut(&self.name) else {
            return;
        };
        let stale: Vec<String> = table
            .schema
            .indexes
            .iter()
            .filter(|i| !indexes.contains(i))
            .map(|i| i.name.clone())
            .collect();
        for name in stale {
            table.remove_index(&name);
        }
        for index in indexes {
            if !table.schema.indexes.contains(&index) {
                table.add_index(index);
            }
        }
        table.billing = match self.provisioned {
            None => Billing::PayPerRequest,
            Some((read, write)) => Billing::Provisioned { read, write },
        };
        table.ttl = self.ttl.clone();
        table.tags = self.tags.clone();
        let label = table.stream.as_ref().map(|s| s.label.as_str());
        if label != self.stream.as_ref().map(|s| s.label.as_str()) {
            table.stream = self
                .stream
                .as_ref()
                .map(|s| StreamState::new(s.view_type.clone(), s.label.clone()));
        }
    }
}

/// The entry a journalled change is written as.
pub fn entry_of(change: &Change) -> Entry {
    match change {
        Change::Put { table, item, at } => Entry::Put {
            table: table.clone(),
            item: item_to_json(item),
            at: *at,
        },
        Change::Delete {
            table,
            key,
            at,
            by_ttl,
        } => Entry::Delete {
            table: table.clone(),
            key: item_to_json(key),
            at: *at,
            ttl: *by_ttl,
        },
    }
}

/// Hands `emit` the entries that recreate `table` in a snapshot, a group at a time:
/// its settings, its items (`chunk` at a time), its stream's position and records.
pub fn table_state<E>(
    table: &Table,
    chunk: usize,
    emit: &mut impl FnMut(Vec<Entry>) -> Result<(), E>,
) -> Result<(), E> {
    let name = &table.schema.name;
    emit(vec![Entry::Table(TableMeta::of(table))])?;
    let mut group = Vec::with_capacity(chunk);
    for (_, item) in table.scan_from(None) {
        group.push(Entry::Item {
            table: name.clone(),
            item: item_to_json(item),
        });
        if group.len() >= chunk {
            emit(std::mem::take(&mut group))?;
        }
    }
    if !group.is_empty() {
        emit(group)?;
    }
    if let Some(s) = &table.stream {
        emit(vec![Entry::Stream {
            table: name.clone(),
            next: s.next,
            records: s.records.iter().map(record_on_disk).collect(),
        }])?;
    }
    Ok(())
}

fn record_on_disk(r: &StreamRecord) -> StreamRecordOnDisk {
    StreamRecordOnDisk {
        seq: r.seq,
        event: r.event.to_string(),
        keys: item_to_json(&r.keys),
        old: r.old.as_ref().map(item_to_json),
        new: r.new.as_ref().map(item_to_json),
        created: r.created,
        size: r.size,
        ttl: r.by_ttl,
    }
}

fn record_from_disk(r: &StreamRecordOnDisk) -> Result<StreamRecord, Unreadable> {
    let event = match r.event.as_str() {
        "INSERT" => "INSERT",
        "MODIFY" => "MODIFY",
        "REMOVE" => "REMOVE",
        other => return Err(Unreadable(format!("a stream record of event `{other}`"))),
    };
    let image = |v: &Option<Value>| v.as_ref().map(item).transpose();
    Ok(StreamRecord {
        seq: r.seq,
        event,
        keys: item(&r.keys)?,
        old: image(&r.old)?,
        new: image(&r.new)?,
        created: r.created,
        size: r.size,
        by_ttl: r.ttl,
    })
}

fn item(v: &Value) -> Result<Item, Unreadable> {
    item_from_json(v).map_err(|e| Unreadable(format!("an item that does not read: {}", e.message)))
}

fn table_mut<'e>(engine: &'e mut Engine, name: &str) -> Result<&'e mut Table, Unreadable> {
    engine
        .tables
        .get_mut(name)
        .ok_or_else(|| Unreadable(format!("a write to table `{name}`, which does not exist")))
}

/// Applies one entry to the engine (which keeps no journal meanwhile).
pub fn apply(engine: &mut Engine, entry: &Entry) -> Result<(), Unreadable> {
    match entry {
        Entry::Table(meta) => meta.apply(engine),
        Entry::Drop { name } => {
            engine.tables.remove(name);
        }
        Entry::Put { table, item: v, at } => {
            let item = item(v)?;
            let t = table_mut(engine, table)?;
            let pk = item_primary_key(&t.schema, &item)
                .map_err(|e| Unreadable(format!("an item without its key: {}", e.message)))?;
            t.put_at(pk, item, Some(*at));
        }
        Entry::Item { table, item: v } => {
            let item = item(v)?;
            let t = table_mut(engine, table)?;
            let pk = item_primary_key(&t.schema, &item)
                .map_err(|e| Unreadable(format!("an item without its key: {}", e.message)))?;
            // Loading a snapshot records nothing: its stream records come with it.
            let stream = t.stream.take();
            t.put(pk, item);
            t.stream = stream;
        }
        Entry::Delete {
            table,
            key,
            at,
            ttl,
        } => {
            let key = item(key)?;
            let t = table_mut(engine, table)?;
            let pk = request_primary_key(&t.schema, &key)
                .map_err(|e| Unreadable(format!("a key that does not read: {}", e.message)))?;
            t.remove_at(&pk, Some(*at), *ttl);
        }
        Entry::Token {
            token,
            items,
            answer,
        } => {
            engine
                .transaction_tokens
                .insert(token.clone(), (items.clone(), answer.clone()));
        }
        Entry::Stream {
            table,
            next,
            records,
        } => {
            let t = table_mut(engine, table)?;
            let Some(s) = t.stream.as_mut() else {
                return Err(Unreadable(format!(
                    "stream records of table `{table}`, which has no stream"
                )));
            };
            s.next = *next;
            s.records = records
                .iter()
                .map(record_from_disk)
                .collect::<Result<VecDeque<_>, _>>()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn records_read_back_as_written() {
        let r = Record::Batch {
            lsn: 7,
            entries: vec![
                Entry::Put {
                    table: "T".into(),
                    item: json!({"pk": {"S": "a"}}),
                    at: 1.5,
                },
                Entry::Delete {
                    table: "T".into(),
                    key: json!({"pk": {"S": "a"}}),
                    at: 2.0,
                    ttl: true,
                },
                Entry::Drop { name: "T".into() },
            ],
        };
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Record>(&text).unwrap(), r);
    }

    #[test]
    fn table_settings_survive_the_round_trip() {
        let mut e = Engine::new();
        e.handle(
            "CreateTable",
            &json!({"TableName": "Tbl", "BillingMode": "PROVISIONED",
                "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4},
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                    {"AttributeName": "sk", "AttributeType": "N"},
                    {"AttributeName": "g", "AttributeType": "B"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "RANGE"}],
                "LocalSecondaryIndexes": [{"IndexName": "Local",
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "g", "KeyType": "RANGE"}],
                    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x"]}}],
                "GlobalSecondaryIndexes": [{"IndexName": "Global",
                    "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"},
                    "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}),
        )
        .unwrap();
        let table = e.table("Tbl").unwrap();
        let meta = TableMeta::of(table);
        let text = serde_json::to_string(&Entry::Table(meta.clone())).unwrap();
        let Entry::Table(back) = serde_json::from_str(&text).unwrap() else {
            panic!("not a table entry: {text}");
        };
        assert_eq!(back, meta);
        let mut fresh = Engine::new();
        back.apply(&mut fresh);
        let rebuilt = fresh.table("Tbl").unwrap();
        assert_eq!(rebuilt.schema, table.schema);
        assert_eq!(rebuilt.billing, table.billing);
        assert_eq!(TableMeta::of(rebuilt), meta);
    }
}
