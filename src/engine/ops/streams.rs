//! DynamoDB Streams (`ListStreams`, `DescribeStream`, `GetShardIterator`,
//! `GetRecords`, served under `DynamoDBStreams_20120810.`): every change to a table
//! with a stream enabled, in order, as one shard, with the images its view type keeps.

use serde_json::{json, Value};

use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult, ErrorKind};
use crate::engine::table::{StreamRecord, Table};
use crate::engine::validate::Constraints;
use crate::engine::wire::{item_to_json, Body};

/// The one shard of every stream.
pub const SHARD_ID: &str = "shardId-00000000000000000001-00000001";

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
    let table = table_of_stream(engine, arn)?;
    if shard != Some(SHARD_ID) {
        return Err(not_found(&format!(
            "Shard: {} not found",
            shard.unwrap_or_default()
        )));
    }
    let end = table.stream.as_ref().map_or(0, |s| s.next);
    let at = |b: &Body<'_>| -> DynamoResult<u64> {
        let n = b
            .str("SequenceNumber")?
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| DynamoError::validation("Invalid SequenceNumber"))?;
        Ok(n.saturating_sub(1))
    };
    let position = match kind {
        Some("TRIM_HORIZON") => 0,
        Some("LATEST") => end,
        Some("AT_SEQUENCE_NUMBER") => at(&b)?,
        _ => at(&b)? + 1,
    };
    Ok(json!({ "ShardIterator": format!("{arn}|{position}") }))
}

fn record_json(r: &StreamRecord, view: &str, table: &str) -> Value {
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
    let (arn, position) = iterator
        .unwrap_or_default()
        .rsplit_once('|')
        .and_then(|(a, p)| Some((a, p.parse::<u64>().ok()?)))
        .ok_or_else(|| DynamoError::validation("Invalid ShardIterator"))?;
    let table = table_of_stream(engine, arn)?;
    let Some(s) = &table.stream else {
        return Err(not_found(arn));
    };
    let limit = limit.and_then(|l| usize::try_from(l).ok()).unwrap_or(1000);
    let records: Vec<&StreamRecord> = s
        .records
        .iter()
        .filter(|r| r.seq >= position)
        .take(limit)
        .collect();
    let next = records.last().map_or(position, |r| r.seq + 1);
    Ok(json!({
        "Records": records.iter().map(|r| record_json(r, &s.view_type, &table.schema.name)).collect::<Vec<_>>(),
        "NextShardIterator": format!("{arn}|{next}"),
    }))
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
}
