//! Synthetic data from the model, replayed against the engine for cost figures.
//!
//! `dynalint simulate` fills the in-memory engine with items that follow the model
//! ([`generate`]), runs every access pattern and every code operation against it, and
//! reports what each costs and where the load lands. Rules use the cheap, model-only
//! figures ([`figures`], [`shards`]) without simulating anything, so `dynalint check`
//! pays nothing for this module.

pub mod align;
pub mod domain;
mod facts;
pub mod figures;
pub mod generate;
pub mod notes;
pub mod plan;
pub mod replay;
pub mod report;
pub mod shards;

pub use notes::{Note, NoteKind};
