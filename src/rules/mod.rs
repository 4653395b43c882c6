//! The rules: one file per rule, one registry line per rule in [`REGISTRY`].
//!
//! A rule is pure and infallible: it reads bound operations, the model and engine
//! verdicts, and reports findings through its [`RuleContext`]. It never sees syntax.

mod client_side_key_hashing;
mod context;
mod filter_instead_of_index;
mod get_item_in_loop;
mod low_cardinality_pk;
mod missing_sparse_attribute;
mod rejected_request;
mod scan_in_hot_path;
mod unpaginated_query;
mod unprojected_attribute;
mod unserved_access_pattern;
mod unused_index;
mod unused_partition_key;

#[cfg(test)]
mod test_support;

pub use context::{RuleContext, RuleSelection};

use crate::diagnostic::Category;
use crate::facts::{BoundOperation, ProjectFacts};
use crate::model::Model;

/// What every rule declares about itself. `doc` is its `rules/<id>.md` page.
#[derive(Debug)]
pub struct RuleMeta {
    pub id: &'static str,
    pub category: Category,
    pub summary: &'static str,
    pub doc: &'static str,
}

impl RuleMeta {
    /// The page's `## What it does` section, for short descriptions (SARIF, hover).
    pub fn what_it_does(&self) -> String {
        doc_section(self.doc, "What it does").unwrap_or_else(|| self.summary.to_string())
    }
}

/// Returns the body of a `## <heading>` section of a rule page.
pub fn doc_section(doc: &str, heading: &str) -> Option<String> {
    let marker = format!("## {heading}");
    let start = doc.find(&marker)? + marker.len();
    let rest = &doc[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// Declares a rule's metadata next to its logic; the doc page is embedded, so a
/// missing `rules/<id>.md` is a compile error.
#[macro_export]
macro_rules! declare_rule {
    ($vis:vis $name:ident, id: $id:literal, category: $cat:ident, summary: $summary:literal $(,)?) => {
        $vis struct $name;
        impl $name {
            pub const META: $crate::rules::RuleMeta = $crate::rules::RuleMeta {
                id: $id,
                category: $crate::diagnostic::Category::$cat,
                summary: $summary,
                doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/", $id, ".md")),
            };
        }
    };
}

/// A lint rule. Every hook defaults to doing nothing; a rule overrides what it needs.
pub trait Rule: Sync + Send {
    fn meta(&self) -> &'static RuleMeta;

    /// Whether some of the rule's findings carry a mechanical fix (`check --fix`).
    fn fixable(&self) -> bool {
        false
    }

    /// Called once per DynamoDB call found in the code (batches' children included).
    fn check_operation(&self, _cx: &mut RuleContext<'_>, _op: &BoundOperation<'_>) {}

    /// Called once per run with the model alone (findings in `dynalint.toml`).
    fn check_model(&self, _cx: &mut RuleContext<'_>, _model: &Model) {}

    /// Called once per run with every operation, for cross-call rules.
    fn check_project(&self, _cx: &mut RuleContext<'_>, _facts: &ProjectFacts<'_>) {}
}

/// Every rule, once. Ids, `--select`, `explain`, the README table and SARIF derive
/// from this list.
pub static REGISTRY: &[&dyn Rule] = &[
    &scan_in_hot_path::ScanInHotPath,
    &filter_instead_of_index::FilterInsteadOfIndex,
    &unpaginated_query::UnpaginatedQuery,
    &unprojected_attribute::UnprojectedAttribute,
    &rejected_request::RejectedRequest,
    &low_cardinality_pk::LowCardinalityPk,
    &client_side_key_hashing::ClientSideKeyHashing,
    &missing_sparse_attribute::MissingSparseAttribute,
    &get_item_in_loop::GetItemInLoop,
    &unused_index::UnusedIndex,
    &unused_partition_key::UnusedPartitionKey,
    &unserved_access_pattern::UnservedAccessPattern,
];

/// Looks a rule up by id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    REGISTRY.iter().copied().find(|r| r.meta().id == id)
}

/// Ids of rules that the pipeline itself reports (not in the registry's rule files).
pub const UNUSED_ALLOW: &str = "unused-allow";
