//! The engine's entry point: a request, given as DynamoDB's operation name and JSON
//! body, to the operation that answers it. Above the operations and PartiQL (whose
//! statements run as the requests they stand for), so neither knows it.

use serde_json::Value;

use super::db::Engine;
use super::error::DynamoResult;
use super::{ops, partiql};

impl Engine {
    /// Runs one request given as DynamoDB's operation name (`PutItem`, the part after
    /// `DynamoDB_20120810.` in `X-Amz-Target`) and JSON body, answering as DynamoDB
    /// would: the response body, or the error (type and message).
    pub fn handle(&mut self, op: &str, body: &Value) -> DynamoResult<Value> {
        match op {
            "ExecuteStatement" => partiql::execute_statement(self, body),
            "BatchExecuteStatement" => partiql::batch_execute_statement(self, body),
            "ExecuteTransaction" => partiql::execute_transaction(self, body),
            _ => ops::request(self, op, body),
        }
    }
}
