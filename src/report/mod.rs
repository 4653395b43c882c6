//! Diagnostics and their renderers. `report` decides how a finding looks, never whether
//! it is one.

pub mod cost;
pub mod diagnostic;
pub mod github;
pub mod html;
pub mod human;
pub mod json;
pub mod position;
pub mod sarif;
pub mod unread;

pub use cost::{CallEstimate, Cost, Estimate, Money, Unpriced};
pub use diagnostic::{Category, Diagnostic, Edit, Fix, Label, Severity};
pub use unread::Unread;
