//! Facts the rules share, computed from the IR, the model and the engine: which table
//! or index a call is bound to, the key values it addresses or writes, their shape, hot
//! keys, read costs, the requests on each path. This layer sits below the rules and
//! the driver that runs them ([`crate::analysis`]): it imports neither.

pub mod align;
pub mod bind;
pub mod call_cost;
pub mod call_plan;
pub mod conditions;
pub mod entity_of;
pub mod hot_key;
pub mod index_key_check;
pub mod key_access;
pub mod key_shape;
pub mod partiql;
pub mod paths;
pub mod plan;
pub mod read_cost;
pub mod request;
pub mod shards;
pub mod sort_key_template;
pub mod spend;
pub mod unique_columns;
pub mod unwritten_keys;

pub use bind::{bind, BoundOperation};

use crate::model::Model;
use crate::source::{FilePath, SourceFile, Span};

/// Everything a project-wide rule may look at.
pub struct ProjectFacts<'a> {
    pub model: &'a Model,
    pub operations: &'a [BoundOperation<'a>],
    /// The scanned files, for places named in messages (empty when the caller ran the
    /// rules on operations alone).
    pub files: &'a [SourceFile],
    /// How many Rust files were checked: `files.len()`, unless the caller kept only
    /// the texts later phases read (`check` on a large tree keeps those of files with
    /// requests, see `analysis::stream`).
    pub checked_files: usize,
    /// Sources in other languages that name DynamoDB: code the rules do not see.
    pub other_languages: &'a [crate::workspace::OtherSources],
    /// Columns the project's ORM schemas declare unique (see [`unique_columns`]).
    pub unique_columns: &'a [crate::scanner::UniqueColumn],
}

impl ProjectFacts<'_> {
    /// `src/users.rs:42`, or the file alone when its text is not at hand: where a
    /// finding names code outside its own location.
    pub fn place(&self, file: &FilePath, span: Span) -> String {
        let line = self
            .files
            .iter()
            .find(|f| f.path == *file)
            .map(|f| f.line_index(span.start) + 1);
        match line {
            Some(l) => format!("{}:{l}", file.display()),
            None => file.display().to_string(),
        }
    }
}
