//! Synthetic data from the model, replayed against the engine for cost figures.
//!
//! `dynalint simulate` fills the in-memory engine with items that follow the model
//! ([`generate`], values from [`domain`]), plans every access pattern and code read
//! (`facts::plan`, `facts::call_plan`: the findings' cost lines plan them too),
//! measures each on the data ([`replay`]), puts `rate`s on
//! partitions and links model, code and indexes ([`coverage`]) into a
//! [`SimulationReport`] ([`render`] prints it).
//!
//! Rules never generate data: the plans and shard counts they need are computed from
//! the model alone (`facts::plan`, `facts::shards`, which this module uses too), so
//! `dynalint check` pays nothing for this module: [`run`] is only called by
//! `dynalint simulate`.

mod calls;
pub mod cost;
pub mod coverage;
pub mod domain;
pub mod figures;
pub mod generate;
pub mod html;
pub mod notes;
pub mod render;
pub mod replay;
pub mod report;
pub mod run;

pub use notes::{Note, NoteKind};
pub use render::{render_human, render_json};
pub use report::SimulationReport;
pub use run::{run, run_reporting, SimulateError, SimulateOptions};
