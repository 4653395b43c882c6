//! The operations, one file per family. Each reads a JSON request body and answers
//! DynamoDB's JSON response or DynamoDB's error.

pub mod batch;
pub mod items;
pub mod read;
pub mod settings;
pub mod streams;
pub mod tables;
pub mod transact;

use serde_json::Value;

use super::db::Engine;
use super::error::{DynamoError, DynamoResult, ErrorKind};

/// Runs one request (every operation but PartiQL's, which `partiql.rs` turns into
/// these): `op` is DynamoDB's operation name (`PutItem`), `body` its JSON request.
pub fn request(engine: &mut Engine, op: &str, body: &Value) -> DynamoResult<Value> {
    match op {
        "CreateTable" => tables::create_table(engine, body),
        "DescribeTable" => tables::describe_table(engine, body),
        "DeleteTable" => tables::delete_table(engine, body),
        "ListTables" => tables::list_tables(engine, body),
        "UpdateTable" => tables::update_table(engine, body),
        "UpdateTimeToLive" => settings::update_time_to_live(engine, body),
        "DescribeTimeToLive" => settings::describe_time_to_live(engine, body),
        "TagResource" => settings::tag_resource(engine, body),
        "UntagResource" => settings::untag_resource(engine, body),
        "ListTagsOfResource" => settings::list_tags_of_resource(engine, body),
        // DynamoDB Streams' operations (`DynamoDBStreams_20120810.<Op>`).
        "ListStreams" => streams::list_streams(engine, body),
        "DescribeStream" => streams::describe_stream(engine, body),
        "GetShardIterator" => streams::get_shard_iterator(engine, body),
        "GetRecords" => streams::get_records(engine, body),
        "PutItem" => items::put_item(engine, body),
        "GetItem" => items::get_item(engine, body),
        "DeleteItem" => items::delete_item(engine, body),
        "UpdateItem" => items::update_item(engine, body),
        "Query" => read::query(engine, body),
        "Scan" => read::scan(engine, body),
        "BatchGetItem" => batch::batch_get_item(engine, body),
        "BatchWriteItem" => batch::batch_write_item(engine, body),
        "TransactGetItems" => transact::transact_get_items(engine, body),
        "TransactWriteItems" => transact::transact_write_items(engine, body),
        _ => Err(DynamoError::new(ErrorKind::UnknownOperation, "")),
    }
}
