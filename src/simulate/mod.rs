//! Synthetic data from the model, replayed against the engine for cost figures.
//!
//! `dynalint simulate` fills the in-memory engine with items that follow the model
//! ([`generate`], values from [`domain`]), plans every access pattern and code read
//! ([`plan`], [`ops`]), measures each on the data ([`replay`]), puts `rate`s on
//! partitions and links model, code and indexes ([`coverage`]) into a
//! [`SimulationReport`] ([`render`] prints it).
//!
//! Rules use the cheap, model-only figures ([`figures`], [`shards`]) and never
//! generate data, so `dynalint check` pays nothing for this module: [`run`] is only
//! called by `dynalint simulate`.

pub mod align;
mod calls;
pub mod cost;
pub mod coverage;
pub mod domain;
pub mod figures;
pub mod generate;
pub mod notes;
pub mod ops;
pub mod plan;
pub mod render;
pub mod replay;
pub mod report;
pub mod run;
pub mod shards;

pub use notes::{Note, NoteKind};
pub use render::{render_human, render_json};
pub use report::SimulationReport;
pub use run::{run, run_reporting, SimulateError, SimulateOptions};
