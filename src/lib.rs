//! dynalint: a static access-pattern linter for Amazon DynamoDB code.
//!
//! Data flows one way, as plain data through plain functions:
//! `scanner` (Rust source → [`scanner::Operation`]) → `analysis` (binds each operation to
//! the [`model::Model`] and asks the `engine`) → `rules` → [`diagnostic::Diagnostic`] →
//! suppressions → `report` renderers or the `lsp`. See `ARCHITECTURE.md`.

pub mod analysis;
pub mod attr;
pub mod cli;
pub mod diagnostic;
pub mod encoding;
pub mod engine;
pub mod expr;
pub mod facts;
pub mod figures;
pub mod fix;
pub mod infer;
pub mod lsp;
pub mod model;
pub mod pricing;
pub mod project;
pub mod report;
pub mod rules;
pub mod scanner;
pub mod simulate;
pub mod source;
#[cfg(test)]
mod test_models;
pub mod workspace;
