//! The renderers of diagnostics (`crate::diagnostic`): human, JSON, SARIF, GitHub.
//! `report` decides how a finding looks, never whether it is one.

pub mod github;
pub mod human;
pub mod json;
pub mod position;
pub mod sarif;
pub mod unread;

pub use unread::Unread;
