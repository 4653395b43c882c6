//! Diagnostics and their renderers. `report` decides how a finding looks, never whether
//! it is one.

pub mod diagnostic;

pub use diagnostic::{Category, Diagnostic, Edit, Fix, Label, Severity};
