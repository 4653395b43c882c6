//! The engine itself: a set of named tables and the wire-level entry point that turns
//! `(operation name, JSON body)` into DynamoDB's JSON answer or DynamoDB's error.

use std::collections::BTreeMap;

use serde_json::Value;

use super::clock::Clock;
use super::error::{DynamoError, DynamoResult, ErrorKind};
use super::journal::Journal;
use super::ops;
use super::table::Table;

/// An in-memory DynamoDB: tables by name. Single-threaded; the server wraps it in a
/// mutex, as DynamoDB's answers for one table are serialisable anyway.
#[derive(Debug, Clone, Default)]
pub struct Engine {
    pub(crate) tables: BTreeMap<String, Table>,
    /// TransactWriteItems' `ClientRequestToken`s: the request's `TransactItems` and
    /// the answer given, so a retry is answered alike and a reuse refused.
    pub(crate) transaction_tokens: BTreeMap<String, (Value, Value)>,
    clock: Clock,
    journal: Option<Journal>,
}

impl Engine {
    /// An engine with no tables.
    pub fn new() -> Self {
        Self::default()
    }

    /// An engine with no tables that reads the time from `clock`.
    pub fn with_clock(clock: Clock) -> Self {
        Self {
            clock,
            ..Self::default()
        }
    }

    /// Where the engine reads the time.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Starts journalling every table's writes (for a durable store) and returns the
    /// journal they go to.
    pub fn attach_journal(&mut self) -> Journal {
        let journal = self.journal.get_or_insert_with(Journal::new).clone();
        for table in self.tables.values_mut() {
            table.journal = Some(journal.clone());
        }
        journal
    }

    /// Time to Live's background work at the clock's time: in each table with TTL
    /// enabled, examines up to `budget` items and deletes the expired ones (each
    /// a `REMOVE` stream record by the DynamoDB service). Returns how many it deleted.
    pub fn expire_items(&mut self, budget: usize) -> usize {
        let now = self.clock.now();
        self.tables
            .values_mut()
            .map(|t| t.expire(now, budget))
            .sum()
    }

    /// Drops every stream's records older than 24 hours at the clock's time.
    pub fn trim_streams(&mut self) {
        let now = self.clock.now();
        for table in self.tables.values_mut() {
            table.trim_stream(now);
        }
    }

    /// The table called `name`, or `ResourceNotFoundException`.
    pub fn table(&self, name: &str) -> DynamoResult<&Table> {
        self.tables.get(name).ok_or_else(DynamoError::not_found)
    }

    /// The table called `name`, mutably, or `ResourceNotFoundException`.
    pub fn table_mut(&mut self, name: &str) -> DynamoResult<&mut Table> {
        self.tables.get_mut(name).ok_or_else(DynamoError::not_found)
    }

    /// Adds a table built directly (e.g. bulk-loaded synthetic data for
    /// `dynalint simulate`), replacing and returning any table of the same name.
    pub fn insert_table(&mut self, mut table: Table) -> Option<Table> {
        table.clock = self.clock.clone();
        table.journal = self.journal.clone();
        self.tables.insert(table.schema.name.clone(), table)
    }

    /// Table names, sorted.
    pub fn table_names(&self) -> impl Iterator<Item = &String> {
        self.tables.keys()
    }

    /// Runs one request given as DynamoDB's operation name (`PutItem`, the part after
    /// `DynamoDB_20120810.` in `X-Amz-Target`) and JSON body, answering as DynamoDB
    /// would: the response body, or the error (type and message).
    pub fn handle(&mut self, op: &str, body: &Value) -> DynamoResult<Value> {
        match op {
            "CreateTable" => ops::tables::create_table(self, body),
            "DescribeTable" => ops::tables::describe_table(self, body),
            "DeleteTable" => ops::tables::delete_table(self, body),
            "ListTables" => ops::tables::list_tables(self, body),
            "UpdateTable" => ops::tables::update_table(self, body),
            "UpdateTimeToLive" => ops::settings::update_time_to_live(self, body),
            "DescribeTimeToLive" => ops::settings::describe_time_to_live(self, body),
            "TagResource" => ops::settings::tag_resource(self, body),
            "UntagResource" => ops::settings::untag_resource(self, body),
            "ListTagsOfResource" => ops::settings::list_tags_of_resource(self, body),
            // DynamoDB Streams' operations (`DynamoDBStreams_20120810.<Op>`).
            "ListStreams" => ops::streams::list_streams(self, body),
            "DescribeStream" => ops::streams::describe_stream(self, body),
            "GetShardIterator" => ops::streams::get_shard_iterator(self, body),
            "GetRecords" => ops::streams::get_records(self, body),
            "PutItem" => ops::items::put_item(self, body),
            "GetItem" => ops::items::get_item(self, body),
            "DeleteItem" => ops::items::delete_item(self, body),
            "UpdateItem" => ops::items::update_item(self, body),
            "Query" => ops::read::query(self, body),
            "Scan" => ops::read::scan(self, body),
            "BatchGetItem" => ops::batch::batch_get_item(self, body),
            "BatchWriteItem" => ops::batch::batch_write_item(self, body),
            "TransactGetItems" => ops::transact::transact_get_items(self, body),
            "TransactWriteItems" => ops::transact::transact_write_items(self, body),
            "ExecuteStatement" => super::partiql::execute_statement(self, body),
            "BatchExecuteStatement" => super::partiql::batch_execute_statement(self, body),
            "ExecuteTransaction" => super::partiql::execute_transaction(self, body),
            _ => Err(DynamoError::new(ErrorKind::UnknownOperation, "")),
        }
    }
}
