//! The data directory end to end, through [`Database`]: what is written comes back
//! after a reopen, whatever a crash left at the end of the log.

use std::path::Path;

use serde_json::{json, Value};

use super::{files, StoreOptions};
use crate::engine::clock::Clock;
use crate::engine::database::Database;

const T0: f64 = 1_700_000_000.0;

fn open(dir: &Path, clock: &Clock) -> (Database, super::Recovery) {
    Database::open(dir, clock.clone(), StoreOptions::default()).unwrap()
}

fn ok(db: &Database, op: &str, body: Value) -> Value {
    db.handle(op, &body)
        .unwrap_or_else(|e| panic!("{op} {body}: {e}"))
}

fn create(db: &Database) {
    ok(
        db,
        "CreateTable",
        json!({"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}],
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}}),
    );
}

fn put(db: &Database, pk: &str, sk: i64) {
    ok(
        db,
        "PutItem",
        json!({"TableName": "Orders", "Item": {"pk": {"S": pk}, "sk": {"N": sk.to_string()},
            "status": {"S": if sk % 2 == 0 { "OPEN" } else { "DONE" }},
            "blob": {"B": "AAEC"}, "tags": {"SS": ["b", "a"]}}}),
    );
}

/// Everything a client can see of the database, to compare before and after.
fn observe(db: &Database) -> Vec<Value> {
    let mut seen = vec![ok(db, "ListTables", json!({}))];
    let names: Vec<String> = seen[0]["TableNames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    for name in names {
        seen.push(ok(db, "DescribeTable", json!({ "TableName": name })));
        seen.push(ok(db, "DescribeTimeToLive", json!({ "TableName": name })));
        seen.push(ok(
            db,
            "ListTagsOfResource",
            json!({"ResourceArn": format!("arn:aws:dynamodb:local:000000000000:table/{name}")}),
        ));
        seen.push(ok(db, "Scan", json!({ "TableName": name })));
        if let Some(arn) = seen[seen.len() - 4]["Table"]["LatestStreamArn"].as_str() {
            let it = ok(
                db,
                "GetShardIterator",
                json!({"StreamArn": arn, "ShardId": crate::engine::ops::streams::SHARD_ID,
                    "ShardIteratorType": "TRIM_HORIZON"}),
            );
            seen.push(ok(
                db,
                "GetRecords",
                json!({"ShardIterator": it["ShardIterator"]}),
            ));
        }
    }
    seen
}

#[test]
fn tables_items_settings_and_streams_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let before = {
        let (db, first) = open(dir.path(), &clock);
        assert_eq!((first.tables, first.items), (0, 0));
        create(&db);
        for i in 0..20 {
            put(&db, &format!("u{}", i % 3), i);
            clock.advance(1.0);
        }
        ok(
            &db,
            "UpdateItem",
            json!({"TableName": "Orders", "Key": {"pk": {"S": "u0"}, "sk": {"N": "0"}},
                "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "1.50"}}}),
        );
        ok(
            &db,
            "DeleteItem",
            json!({"TableName": "Orders", "Key": {"pk": {"S": "u1"}, "sk": {"N": "1"}}}),
        );
        ok(
            &db,
            "UpdateTable",
            json!({"TableName": "Orders",
                "AttributeDefinitions": [{"AttributeName": "status", "AttributeType": "S"}],
                "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByStatus",
                    "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}),
        );
        ok(
            &db,
            "UpdateTimeToLive",
            json!({"TableName": "Orders", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}),
        );
        ok(
            &db,
            "TagResource",
            json!({"ResourceArn": "arn:aws:dynamodb:local:000000000000:table/Orders",
                "Tags": [{"Key": "team", "Value": "ledger"}]}),
        );
        ok(
            &db,
            "TransactWriteItems",
            json!({"ClientRequestToken": "once", "TransactItems": [
                {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t"}, "sk": {"N": "1"}}}},
                {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t"}, "sk": {"N": "2"}}}}]}),
        );
        ok(
            &db,
            "CreateTable",
            json!({"TableName": "Gone", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}),
        );
        ok(&db, "DeleteTable", json!({"TableName": "Gone"}));
        observe(&db)
    };
    let (db, recovery) = open(dir.path(), &clock);
    assert_eq!(recovery.tables, 1);
    assert_eq!(recovery.items, 21);
    assert!(recovery.torn.is_empty());
    assert_eq!(observe(&db), before);
    let index = ok(
        &db,
        "Query",
        json!({"TableName": "Orders", "IndexName": "ByStatus",
            "KeyConditionExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": {"S": "OPEN"}}}),
    );
    assert_eq!(index["Count"], 10);
    // The transaction's token came back too: a retry is answered, not applied again.
    ok(
        &db,
        "DeleteItem",
        json!({"TableName": "Orders", "Key": {"pk": {"S": "t"}, "sk": {"N": "1"}}}),
    );
    ok(
        &db,
        "TransactWriteItems",
        json!({"ClientRequestToken": "once", "TransactItems": [
            {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t"}, "sk": {"N": "1"}}}},
            {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t"}, "sk": {"N": "2"}}}}]}),
    );
    let got = ok(
        &db,
        "GetItem",
        json!({"TableName": "Orders", "Key": {"pk": {"S": "t"}, "sk": {"N": "1"}}}),
    );
    assert!(got.get("Item").is_none());
}

fn log_path(dir: &Path) -> std::path::PathBuf {
    let (_, g) = files::list(dir)
        .unwrap()
        .into_iter()
        .filter(|(k, _)| *k == files::Kind::Log)
        .max()
        .unwrap();
    dir.join(files::name(files::Kind::Log, g))
}

#[test]
fn a_torn_tail_is_dropped_with_a_note_and_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    {
        let (db, _) = open(dir.path(), &clock);
        create(&db);
        for i in 0..5 {
            put(&db, "u", i);
        }
    }
    let path = log_path(dir.path());
    let whole = std::fs::read(&path).unwrap();
    // Every cut inside the last record, as a crash in the middle of its write leaves.
    let (db, _) = open(dir.path(), &clock);
    put(&db, "u", 99);
    drop(db);
    let with_last = std::fs::read(&path).unwrap();
    assert!(with_last.len() > whole.len());
    for cut in [whole.len() + 1, whole.len() + 8, with_last.len() - 1] {
        std::fs::write(&path, &with_last[..cut]).unwrap();
        let (db, recovery) = open(dir.path(), &clock);
        assert_eq!(recovery.items, 5, "cut at {cut}");
        assert_eq!(recovery.torn.len(), 1);
        let torn = &recovery.torn[0];
        assert_eq!(torn.offset, whole.len() as u64);
        assert_eq!(torn.bytes, (cut - whole.len()) as u64);
        assert_eq!(
            std::fs::read(&torn.kept).unwrap(),
            &with_last[whole.len()..cut]
        );
        assert!(recovery.to_string().contains("never acknowledged"));
        // The log was cut back: new writes land after the last whole record.
        put(&db, "u", 100);
        drop(db);
        let (db, again) = open(dir.path(), &clock);
        assert!(again.torn.is_empty());
        assert_eq!(again.items, 6);
        ok(
            &db,
            "DeleteItem",
            json!({"TableName": "Orders", "Key": {"pk": {"S": "u"}, "sk": {"N": "100"}}}),
        );
        drop(db);
        std::fs::remove_file(&torn.kept).unwrap();
    }
}

#[test]
fn a_transaction_cut_short_leaves_none_of_its_items() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let (db, _) = open(dir.path(), &clock);
    create(&db);
    drop(db);
    let path = log_path(dir.path());
    let before = std::fs::metadata(&path).unwrap().len() as usize;
    let (db, _) = open(dir.path(), &clock);
    let items: Vec<Value> = (0..50)
        .map(|i| json!({"Put": {"TableName": "Orders", "Item": {"pk": {"S": "t"}, "sk": {"N": i.to_string()}}}}))
        .collect();
    ok(&db, "TransactWriteItems", json!({ "TransactItems": items }));
    drop(db);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..(before + bytes.len()) / 2]).unwrap();
    let (db, recovery) = open(dir.path(), &clock);
    assert_eq!(recovery.items, 0);
    assert_eq!(ok(&db, "Scan", json!({"TableName": "Orders"}))["Count"], 0);
}

#[test]
fn compaction_writes_a_snapshot_and_removes_what_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let options = StoreOptions {
        compact_after_bytes: 2_000,
    };
    let before = {
        let (db, _) = Database::open(dir.path(), clock.clone(), options).unwrap();
        create(&db);
        // The log is compacted once it outgrows the last snapshot as well.
        for round in 0..3 {
            let mut writes = 0;
            loop {
                put(&db, &format!("r{round}"), writes);
                writes += 1;
                if db.background().unwrap().compacted {
                    break;
                }
                assert!(writes < 1_000, "round {round} never compacted");
            }
        }
        put(&db, "after", 1);
        observe(&db)
    };
    let names: Vec<(files::Kind, u64)> = files::list(dir.path()).unwrap();
    assert_eq!(
        names,
        [(files::Kind::Snapshot, 3), (files::Kind::Log, 3)],
        "older generations are removed"
    );
    let (db, recovery) = Database::open(dir.path(), clock.clone(), options).unwrap();
    assert_eq!(recovery.snapshot, Some(3));
    assert_eq!(recovery.batches, 1);
    assert_eq!(observe(&db), before);
}

#[test]
fn a_crash_during_compaction_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let options = StoreOptions {
        compact_after_bytes: 1_000,
    };
    let (db, _) = Database::open(dir.path(), clock.clone(), options).unwrap();
    create(&db);
    for i in 0..20 {
        put(&db, "a", i);
    }
    db.background().unwrap();
    for i in 0..20 {
        put(&db, "b", i);
    }
    let before = observe(&db);
    drop(db);
    // As if the next compaction had begun its log but died writing its snapshot.
    files::create_log(dir.path(), 2).unwrap();
    std::fs::write(dir.path().join("snapshot-0000000002.tmp"), b"half a snap").unwrap();
    let (db, recovery) = Database::open(dir.path(), clock.clone(), options).unwrap();
    assert_eq!(recovery.snapshot, Some(1));
    assert_eq!(observe(&db), before);
    assert!(!dir.path().join("snapshot-0000000002.tmp").exists());
}

#[test]
fn damage_before_the_end_is_an_error_not_a_silent_loss() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let options = StoreOptions {
        compact_after_bytes: 1_000,
    };
    let (db, _) = Database::open(dir.path(), clock.clone(), options).unwrap();
    create(&db);
    for i in 0..20 {
        put(&db, "a", i);
    }
    drop(db);
    // A second log after the first one: the first one's tear is not a crash's.
    files::create_log(dir.path(), 1).unwrap();
    let first = dir.path().join(files::name(files::Kind::Log, 0));
    let mut bytes = std::fs::read(&first).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x40;
    std::fs::write(&first, &bytes).unwrap();
    let err = match Database::open(dir.path(), clock.clone(), options) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a damaged log opened"),
    };
    assert!(err.contains("a newer log follows"), "{err}");
    // A snapshot that does not read is an error too.
    std::fs::write(dir.path().join("snapshot-0000000001"), b"not a snapshot").unwrap();
    assert!(Database::open(dir.path(), clock.clone(), options).is_err());
}

#[test]
fn time_to_live_deletes_are_logged_and_streamed_as_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let (db, _) = open(dir.path(), &clock);
    create(&db);
    ok(
        &db,
        "UpdateTimeToLive",
        json!({"TableName": "Orders", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}),
    );
    ok(
        &db,
        "PutItem",
        json!({"TableName": "Orders", "Item": {"pk": {"S": "x"}, "sk": {"N": "1"}, "exp": {"N": (T0 + 60.0).to_string()}}}),
    );
    assert_eq!(db.background().unwrap().expired, 0);
    clock.advance(61.0);
    assert_eq!(db.background().unwrap().expired, 1);
    let before = observe(&db);
    drop(db);
    let (db, recovery) = open(dir.path(), &clock);
    assert_eq!(recovery.items, 0);
    let after = observe(&db);
    assert_eq!(after, before);
    let records = after.last().unwrap()["Records"].as_array().unwrap().clone();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["userIdentity"]["type"], "Service");
}

#[test]
fn in_memory_databases_keep_no_journal() {
    let db = Database::in_memory(Clock::manual(T0));
    create(&db);
    put(&db, "a", 1);
    assert!(!db.is_durable());
    db.with_engine(|e| {
        assert!(e.table("Orders").unwrap().journal.is_none());
    });
}
