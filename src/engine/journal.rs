//! The item changes a request made, as a durable store needs them: each table write
//! (put or delete, with its time and whether Time to Live made it) in the order the
//! engine applied them. Tables append here only when a store is attached
//! ([`super::db::Engine::attach_journal`]); an in-memory engine keeps no journal and
//! pays one `Option` check per write.

use std::sync::{Arc, Mutex};

use super::value::Item;

/// One write to one table, as it was applied.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `item` was stored (inserted or replaced) at `at` (seconds since the epoch).
    Put { table: String, item: Item, at: f64 },
    /// The item with primary key `key` was deleted at `at`; `by_ttl` when Time to
    /// Live deleted it (its stream record names the DynamoDB service).
    Delete {
        table: String,
        key: Item,
        at: f64,
        by_ttl: bool,
    },
}

/// Changes not yet taken by the store. Shared by every table of one engine; the
/// engine's own lock already serialises writers, so this lock is never contended.
#[derive(Debug, Clone, Default)]
pub struct Journal(Arc<Mutex<Vec<Change>>>);

impl Journal {
    /// An empty journal.
    pub fn new() -> Journal {
        Journal::default()
    }

    /// Appends one change.
    pub fn push(&self, change: Change) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(change);
    }

    /// Takes every change appended so far, oldest first.
    pub fn take(&self) -> Vec<Change> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }
}
