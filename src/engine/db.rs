//! The engine's state: a set of named tables, and the transaction tokens seen. Below
//! the operations, which read and change it; the entry point that picks the operation
//! for a request is above them (`dispatch.rs`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::clock::Clock;
use super::error::{DynamoError, DynamoResult};
use super::journal::Journal;
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
}
