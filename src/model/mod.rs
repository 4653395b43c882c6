//! The key model: `dynalint.toml` — tables, keys, indexes, entities, access patterns
//! and the figures that say how big and hot they are. Knows nothing of source code.
//!
//! Loading goes `load` (entry points) → `toml_read` (spanned TOML, field by field) →
//! `read` (fields into [`Model`] values) → `validate` (items against each other and
//! DynamoDB's limits). Every problem is a [`ModelProblem`] with a span into the TOML.

pub mod facts;
pub mod import;
pub mod load;
pub mod price_figure;
mod pricing_read;
pub mod problem;
mod read;
pub mod show;
pub mod template;
mod toml_read;
pub mod types;
pub mod validate;

pub use facts::{Cardinality, ItemCollection, Presence, Projected};
pub use load::{discover, load_file, load_str, ModelError, ModelProblem, CONFIG_FILE_NAME};
pub use problem::ProblemKind;
pub use template::{KeyTemplate, TemplateError, TemplatePart};
pub use types::*;
pub use validate::unknown_rules;

#[cfg(test)]
mod tests;
