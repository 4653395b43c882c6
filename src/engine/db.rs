//! The engine's state: a set of named tables, and the transaction tokens seen. Below
//! the operations, which read and change it; the entry point that picks the operation
//! for a request is above them (`dispatch.rs`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::error::{DynamoError, DynamoResult};
use super::table::Table;

/// An in-memory DynamoDB: tables by name. Single-threaded; the server wraps it in a
/// mutex, as DynamoDB's answers for one table are serialisable anyway.
#[derive(Debug, Clone, Default)]
pub struct Engine {
    pub(crate) tables: BTreeMap<String, Table>,
    /// TransactWriteItems' `ClientRequestToken`s: the request's `TransactItems` and
    /// the answer given, so a retry is answered alike and a reuse refused.
    pub(crate) transaction_tokens: BTreeMap<String, (Value, Value)>,
}

impl Engine {
    /// An engine with no tables.
    pub fn new() -> Self {
        Self::default()
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
    pub fn insert_table(&mut self, table: Table) -> Option<Table> {
        self.tables.insert(table.schema.name.clone(), table)
    }

    /// Table names, sorted.
    pub fn table_names(&self) -> impl Iterator<Item = &String> {
        self.tables.keys()
    }
}
