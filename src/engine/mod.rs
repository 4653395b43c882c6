//! An in-memory DynamoDB: its semantics, its validation word for word, its costs.
//!
//! Layers, bottom up: [`number`] and [`value`] (DynamoDB's data), [`size`] (how
//! DynamoDB measures it), [`schema`] and [`keys`] (a table's shape and key rules),
//! [`table`] (ordered storage with index maintenance), [`exprs`], [`keycond`] and
//! [`eval`] (expressions over items), [`capacity`], the operations in [`ops`], and
//! [`wire`] with [`Engine::handle`] (`dispatch.rs`, above the operations and
//! [`partiql`]), the JSON entry point.

pub mod capacity;
pub mod clock;
pub mod database;
pub mod db;
mod dispatch;
pub mod error;
pub mod eval;
pub mod exprs;
pub mod http;
pub mod journal;
pub mod keycond;
pub mod keys;
pub mod legacy;
pub mod number;
pub mod ops;
pub mod partiql;
pub mod persist;
pub mod schema;
pub mod server;
pub mod size;
pub mod symbolic;
pub mod table;
pub mod validate;
pub mod value;
pub mod wire;

pub use db::Engine;
pub use error::{DynamoError, DynamoResult, ErrorKind};
pub use number::Number;
pub use schema::{IndexKind, IndexSchema, KeyAttribute, KeySchema, Projection, TableSchema};
pub use value::{AttributeValue, Item, KeyValue};
