//! DynamoDB Streams (`ListStreams`, `DescribeStream`, `GetShardIterator`,
//! `GetRecords`, served under `DynamoDBStreams_20120810.`): every change to a table
//! with a stream enabled, in order, as one shard, with the images its view type keeps.
//!
//! Over time, as DynamoDB: records are kept 24 hours (an iterator or sequence number
//! before the oldest record kept is `TrimmedDataAccessException`), a shard iterator
//! expires 15 minutes after it is given (`ExpiredIteratorException`), and a record of
//! an item Time to Live deleted names the DynamoDB service as its `userIdentity`.

use serde_json::{json, Value};

use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult, ErrorKind};
use crate::engine::table::{StreamRecord, StreamState, Table};
use crate::engine::validate::Constraints;
use crate::engine::wire::{item_to_json, Body};

/// The one shard of every stream.
pub const SHARD_ID: &str = "shardId-00000000000000000001-00000001";

/// How long a shard iterator can be used after it is given.
pub const ITERATOR_LIFETIME_SECONDS: f64 = 15.0 * 60.0;

fn trimmed() -> DynamoError {
    DynamoError::new(
        ErrorKind::TrimmedDataAccess,
        "The operation attempted to read past the oldest stream record in a shard.",
    )
}

fn expired() -> DynamoError {
    // The API reference's wording; no recording of the service's message is at hand.
    DynamoError::new(
        ErrorKind::ExpiredIterator,
        "The shard iterator has expired and can no longer be used to retrieve stream records. A shard iterator expires 15 minutes after it is retrieved using the GetShardIterator action.",
    )
}

/// A shard iterator: the stream, the position of the next record to read and when
/// the iterator was given (milliseconds since the epoch), as one opaque string.
fn shard_iterator(arn: &str, position: u64, now: f64) -> String {
    format!("{arn}|{position}|{}", (now * 1000.0) as u64)
}

/// The stream ARN, position and time of issue of an iterator.
fn parse_iterator(it: &str) -> Option<(&str, u64, f64)> {
    let (rest, issued) = it.rsplit_once('|')?;
    let (arn, position) = rest.rsplit_once('|')?;
    Some((
        arn,
        position.parse().ok()?,
        issued.parse::<u64>().ok()? as f64 / 1000.0,
    ))
}

/// A table's ARN, as DescribeTable shows it.
pub fn table_arn(name: &str) -> String {
    format!("arn:aws:dynamodb:local:000000000000:table/{name}")
}

/// The ARN of a table's current stream.
pub fn stream_arn(table: &Table) -> Option<String> {
    let s = table.stream.as_ref()?;
    Some(format!(
        "{}/stream/{}",
        table_arn(&table.schema.name),
        s.label
    ))
}

fn not_found(what: &str) -> DynamoError {
    DynamoError::new(
        ErrorKind::ResourceNotFound,
        format!("Requested resource not found: {what}"),
    )
}

/// The table whose current stream `arn` names.
fn table_of_stream<'e>(engine: &'e Engine, arn: &str) -> DynamoResult<&'e Table> {
    engine
        .tables
        .values()
        .find(|t| stream_arn(t).as_deref() == Some(arn))
        .ok_or_else(|| not_found(&format!("Stream: {arn} not found")))
}

fn stream_arn_member<'a>(b: &Body<'a>) -> DynamoResult<&'a str> {
    let arn = b.str("StreamArn")?;
    let mut c = Constraints::new();
    c.not_null(arn.is_some(), "streamArn");
    if let Some(a) = arn {
        c.length(a.chars().count(), a, "streamArn", 37, Some(1024));
    }
    c.finish()?;
    Ok(arn.unwrap_or_default())
}

/// `ListStreams`, optionally for one table.
pub fn list_streams(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let only = b.str("TableName")?;
    let streams: Vec<Value> = engine
        .tables
        .values()
        .filter(|t| only.is_none_or(|n| n == t.schema.name))
        .filter_map(|t| {
            let s = t.stream.as_ref()?;
            Some(json!({"StreamArn": stream_arn(t)?, "TableName": t.schema.name, "StreamLabel": s.label}))
        })
        .collect();
    Ok(json!({ "Streams": streams }))
}

/// `DescribeStream`.
pub fn describe_stream(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let arn = stream_arn_member(&b)?;
    let table = table_of_stream(engine, arn)?;
    let Some(s) = &table.stream else {
        return Err(not_found(arn));
    };
    let mut keys = vec![json!({"AttributeName": table.schema.keys.hash.name, "KeyType": "HASH"})];
    if let Some(r) = &table.schema.keys.range {
        keys.push(json!({"AttributeName": r.name, "KeyType": "RANGE"}));
    }
    Ok(json!({"StreamDescription": {
        "StreamArn": arn,
        "StreamLabel": s.label,
        "StreamStatus": "ENABLED",
        "StreamViewType": s.view_type,
        "TableName": table.schema.name,
        "KeySchema": keys,
        "CreationRequestDateTime": table.created,
        "Shards": [{"ShardId": SHARD_ID,
                    "SequenceNumberRange": {"StartingSequenceNumber": sequence_number(0)}}],
    }}))
}

fn sequence_number(n: u64) -> String {
    format!("{:021}", n + 1)
}

/// `GetShardIterator`: an iterator is the stream and the position of the next record.
pub fn get_shard_iterator(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let arn = stream_arn_member(&b)?;
    let kind = b.str("ShardIteratorType")?;
    let shard = b.str("ShardId")?;
    let mut c = Constraints::new();
    c.not_null(shard.is_some(), "shardId");
    c.not_null(kind.is_some(), "shardIteratorType");
    c.enumeration(
        kind,
        "shardIteratorType",
        &[
            "TRIM_HORIZON",
            "LATEST",
            "AT_SEQUENCE_NUMBER",
            "AFTER_SEQUENCE_NUMBER",
        ],
    );
    c.finish()?;
    let now = engine.clock().now();
    let table = table_of_stream(engine, arn)?;
    if shard != Some(SHARD_ID) {
        return Err(not_found(&format!(
            "Shard: {} not found",
            shard.unwrap_or_default()
        )));
    }
    let (end, horizon) = table
        .stream
        .as_ref()
        .map_or((0, 0), |s| (s.next, s.trim_horizon(now)));
    let at = |b: &Body<'_>| -> DynamoResult<u64> {
        let n = b
            .str("SequenceNumber")?
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| DynamoError::validation("Invalid SequenceNumber"))?;
        let position = n.saturating_sub(1);
        if position < horizon {
            return Err(trimmed());
        }
        Ok(position)
    };
    let position = match kind {
        Some("TRIM_HORIZON") => horizon,
        Some("LATEST") => end,
        Some("AT_SEQUENCE_NUMBER") => at(&b)?,
        _ => at(&b)? + 1,
    };
    Ok(json!({ "ShardIterator": shard_iterator(arn, position, now) }))
}

fn record_json(r: &StreamRecord, view: &str, table: &str) -> Value {
    let mut record = record_body(r, view, table);
    if r.by_ttl {
        if let Some(o) = record.as_object_mut() {
            o.insert(
                "userIdentity".into(),
                json!({"type": "Service", "principalId": "dynamodb.amazonaws.com"}),
            );
        }
    }
    record
}

fn record_body(r: &StreamRecord, view: &str, table: &str) -> Value {
    let mut d = serde_json::Map::new();
    d.insert(
        "ApproximateCreationDateTime".into(),
        json!(r.created.floor()),
    );
    d.insert("Keys".into(), item_to_json(&r.keys));
    if matches!(view, "NEW_IMAGE" | "NEW_AND_OLD_IMAGES") {
        if let Some(n) = &r.new {
            d.insert("NewImage".into(), item_to_json(n));
        }
    }
    if matches!(view, "OLD_IMAGE" | "NEW_AND_OLD_IMAGES") {
        if let Some(o) = &r.old {
            d.insert("OldImage".into(), item_to_json(o));
        }
    }
    d.insert("SequenceNumber".into(), json!(sequence_number(r.seq)));
    d.insert("SizeBytes".into(), json!(r.size));
    d.insert("StreamViewType".into(), json!(view));
    json!({
        "eventID": format!("{table}-{}", r.seq),
        "eventName": r.event,
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "local",
        "dynamodb": Value::Object(d),
    })
}

/// `GetRecords`: up to `Limit` (1000) records from the iterator's position on.
pub fn get_records(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let iterator = b.str("ShardIterator")?;
    let limit = b.int("Limit")?;
    let mut c = Constraints::new();
    c.not_null(iterator.is_some(), "shardIterator");
    c.range(limit, "limit", Some(1), Some(1000));
    c.finish()?;
    let (arn, position, issued) = parse_iterator(iterator.unwrap_or_default())
        .ok_or_else(|| DynamoError::validation("Invalid ShardIterator"))?;
    let now = engine.clock().now();
    let table = table_of_stream(engine, arn)?;
    let Some(s) = &table.stream else {
        return Err(not_found(arn));
    };
    if now - issued > ITERATOR_LIFETIME_SECONDS {
        return Err(expired());
    }
    if position < s.trim_horizon(now) {
        return Err(trimmed());
    }
    let limit = limit.and_then(|l| usize::try_from(l).ok()).unwrap_or(1000);
    let records: Vec<&StreamRecord> = records_from(s, position).take(limit).collect();
    let next = records.last().map_or(position, |r| r.seq + 1);
    Ok(json!({
        "Records": records.iter().map(|r| record_json(r, &s.view_type, &table.schema.name)).collect::<Vec<_>>(),
        "NextShardIterator": shard_iterator(arn, next, now),
    }))
}

/// The records from position `position` on; positions are consecutive, so the first
/// is found by subtraction.
fn records_from(s: &StreamState, position: u64) -> impl Iterator<Item = &StreamRecord> {
    let first = s.records.front().map_or(s.next, |r| r.seq);
    let skip = usize::try_from(position.saturating_sub(first)).unwrap_or(usize::MAX);
    s.records.range(skip.min(s.records.len())..)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_recorded_with_the_images_the_view_keeps() {
        let mut e = Engine::new();
        e.handle(
            "CreateTable",
            &json!({"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "OLD_IMAGE"}}),
        )
        .unwrap();
        let d = e
            .handle("DescribeTable", &json!({"TableName": "Tbl"}))
            .unwrap();
        let arn = d["Table"]["LatestStreamArn"].as_str().unwrap().to_string();
        let item = |v: &str| json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "v": {"S": v}}});
        e.handle("PutItem", &item("1")).unwrap();
        e.handle("PutItem", &item("1")).unwrap(); // unchanged: no record
        e.handle("PutItem", &item("2")).unwrap();
        e.handle(
            "DeleteItem",
            &json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}}}),
        )
        .unwrap();
        let it = e
            .handle(
                "GetShardIterator",
                &json!({"StreamArn": arn, "ShardId": SHARD_ID, "ShardIteratorType": "TRIM_HORIZON"}),
            )
            .unwrap();
        let r = e
            .handle("GetRecords", &json!({"ShardIterator": it["ShardIterator"]}))
            .unwrap();
        let events: Vec<&str> = r["Records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["eventName"].as_str().unwrap())
            .collect();
        assert_eq!(events, ["INSERT", "MODIFY", "REMOVE"]);
        assert!(r["Records"][0]["dynamodb"].get("OldImage").is_none());
        assert!(r["Records"][1]["dynamodb"].get("NewImage").is_none());
        assert_eq!(
            r["Records"][1]["dynamodb"]["OldImage"]["v"],
            json!({"S": "1"})
        );
        let rest = e
            .handle(
                "GetRecords",
                &json!({"ShardIterator": r["NextShardIterator"]}),
            )
            .unwrap();
        assert_eq!(rest["Records"], json!([]));
    }

    /// A table `Tbl` with a NEW_AND_OLD_IMAGES stream and TTL on `exp`, on a manual
    /// clock; its stream's ARN.
    fn timed_table(clock: &crate::engine::clock::Clock) -> (Engine, String) {
        let mut e = Engine::with_clock(clock.clone());
        e.handle(
            "CreateTable",
            &json!({"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}}),
        )
        .unwrap();
        e.handle(
            "UpdateTimeToLive",
            &json!({"TableName": "Tbl", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}),
        )
        .unwrap();
        let d = e
            .handle("DescribeTable", &json!({"TableName": "Tbl"}))
            .unwrap();
        let arn = d["Table"]["LatestStreamArn"].as_str().unwrap().to_string();
        (e, arn)
    }

    fn put(e: &mut Engine, pk: &str) {
        e.handle(
            "PutItem",
            &json!({"TableName": "Tbl", "Item": {"pk": {"S": pk}}}),
        )
        .unwrap();
    }

    fn iterator_of(
        e: &mut Engine,
        arn: &str,
        kind: &str,
        seq: Option<&str>,
    ) -> DynamoResult<String> {
        let mut body = json!({"StreamArn": arn, "ShardId": SHARD_ID, "ShardIteratorType": kind});
        if let Some(seq) = seq {
            body["SequenceNumber"] = json!(seq);
        }
        let it = e.handle("GetShardIterator", &body)?;
        Ok(it["ShardIterator"].as_str().unwrap().to_string())
    }

    fn keys_read(e: &mut Engine, it: &str) -> DynamoResult<Vec<String>> {
        let r = e.handle("GetRecords", &json!({ "ShardIterator": it }))?;
        Ok(r["Records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["dynamodb"]["Keys"]["pk"]["S"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect())
    }

    #[test]
    fn records_are_kept_24_hours_and_reads_before_the_trim_are_refused() {
        let clock = crate::engine::clock::Clock::manual(1_700_000_000.0);
        let (mut e, arn) = timed_table(&clock);
        put(&mut e, "old");
        let first = iterator_of(&mut e, &arn, "TRIM_HORIZON", None).unwrap();
        let r = e
            .handle("GetRecords", &json!({ "ShardIterator": first }))
            .unwrap();
        let old_seq = r["Records"][0]["dynamodb"]["SequenceNumber"]
            .as_str()
            .unwrap()
            .to_string();
        clock.advance(12.0 * 3600.0);
        put(&mut e, "new");
        // 24 hours and a second after the first write, its record is gone; the second
        // write's is still there.
        clock.advance(12.0 * 3600.0 + 1.0);
        let horizon = iterator_of(&mut e, &arn, "TRIM_HORIZON", None).unwrap();
        assert_eq!(keys_read(&mut e, &horizon).unwrap(), ["new"]);
        for kind in ["AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"] {
            let err = iterator_of(&mut e, &arn, kind, Some(&old_seq)).unwrap_err();
            assert_eq!(err.kind, ErrorKind::TrimmedDataAccess, "{kind}");
        }
        // An iterator taken before the trim that still points at the trimmed record.
        clock.set(1_700_000_000.0 + 24.0 * 3600.0 - 60.0);
        let before_trim = iterator_of(&mut e, &arn, "TRIM_HORIZON", None).unwrap();
        clock.advance(120.0);
        let err = keys_read(&mut e, &before_trim).unwrap_err();
        assert_eq!(err.kind, ErrorKind::TrimmedDataAccess);
        assert_eq!(
            err.message,
            "The operation attempted to read past the oldest stream record in a shard."
        );
        // Writes drop what is older than 24 hours from memory, not only from view.
        put(&mut e, "newer");
        let table = e.table("Tbl").unwrap();
        assert_eq!(table.stream.as_ref().unwrap().records.len(), 2);
    }

    #[test]
    fn iterators_expire_after_15_minutes() {
        let clock = crate::engine::clock::Clock::manual(1_700_000_000.0);
        let (mut e, arn) = timed_table(&clock);
        put(&mut e, "a");
        let it = iterator_of(&mut e, &arn, "TRIM_HORIZON", None).unwrap();
        clock.advance(14.0 * 60.0);
        let r = e
            .handle("GetRecords", &json!({ "ShardIterator": it }))
            .unwrap();
        assert_eq!(r["Records"].as_array().unwrap().len(), 1);
        // The next iterator is new: it lives 15 minutes from this read.
        let next = r["NextShardIterator"].as_str().unwrap().to_string();
        clock.advance(2.0 * 60.0);
        assert_eq!(
            keys_read(&mut e, &it).unwrap_err().kind,
            ErrorKind::ExpiredIterator
        );
        assert_eq!(keys_read(&mut e, &next).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn time_to_live_deletes_are_records_by_the_dynamodb_service() {
        let clock = crate::engine::clock::Clock::manual(1_700_000_000.0);
        let (mut e, arn) = timed_table(&clock);
        e.handle(
            "PutItem",
            &json!({"TableName": "Tbl", "Item": {"pk": {"S": "t"}, "exp": {"N": "1700000030"}}}),
        )
        .unwrap();
        put(&mut e, "u");
        e.handle(
            "DeleteItem",
            &json!({"TableName": "Tbl", "Key": {"pk": {"S": "u"}}}),
        )
        .unwrap();
        assert_eq!(e.expire_items(100), 0);
        clock.advance(31.0);
        assert_eq!(e.expire_items(100), 1);
        let it = iterator_of(&mut e, &arn, "TRIM_HORIZON", None).unwrap();
        let r = e
            .handle("GetRecords", &json!({ "ShardIterator": it }))
            .unwrap();
        let records = r["Records"].as_array().unwrap();
        assert_eq!(records.len(), 4);
        // The user's delete has no userIdentity; Time to Live's names the service.
        assert!(records[2].get("userIdentity").is_none());
        assert_eq!(records[3]["eventName"], "REMOVE");
        assert_eq!(
            records[3]["userIdentity"],
            json!({"type": "Service", "principalId": "dynamodb.amazonaws.com"})
        );
        assert_eq!(
            records[3]["dynamodb"]["OldImage"]["exp"],
            json!({"N": "1700000030"})
        );
    }
}
