//! A finding's cost line: what the pattern it reports costs a month as the code
//! writes it and as its fix would, in dollars at the model's prices, and which figure
//! is missing when one is. Every output carries the same line and figures.

use serde::Serialize;

/// Dollars a month in both capacity modes (`None`: a price or unit is missing).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Money {
    pub on_demand: Option<f64>,
    pub provisioned: Option<f64>,
}

/// The cost line of one finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cost {
    /// The line, as every format prints it after `cost:`.
    pub text: String,
    /// Requests (or writes) per second the monthly figures are at.
    pub rate_per_second: f64,
    /// What the rate is: an access pattern's `rate`, the model's `write-rate`; `None`
    /// when nothing declares one and the figures are at one a second.
    pub rate_from: Option<String>,
    /// The capacity mode `text` prices in: `on_demand` (unless the table is
    /// provisioned) or `provisioned`.
    pub mode: &'static str,
    /// The pattern as the code writes it, a month.
    pub as_written: Option<Money>,
    /// The same requests as the fix serves them, a month.
    pub as_fixed: Option<Money>,
    /// What the fix costs besides (a new index's writes and storage), a month.
    pub fix_adds: Option<Money>,
    /// Figures the model or the price table lacks, each saying where to give it.
    pub missing: Vec<String>,
}

// Every figure is finite (prices and units are checked when read), so equality is total.
impl Eq for Cost {}

/// What the code's DynamoDB calls cost a month: every call that runs in production
/// (not a test's, a bench's or a one-off binary's) priced per call and at the rate of
/// the declared access pattern it implements, one call a second when none declares
/// one. A CI gate compares it with a baseline's (`--max-cost-increase`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Estimate {
    /// The sum of the priced calls' months, each in its table's capacity mode
    /// (on-demand unless the table is declared provisioned).
    pub monthly: f64,
    /// The same calls, all on-demand.
    pub monthly_on_demand: f64,
    /// The same calls, all provisioned at the target utilisation.
    pub monthly_provisioned: f64,
    /// The prices used.
    pub prices: String,
    pub calls: Vec<CallEstimate>,
    /// Calls whose units or prices are not known, and why.
    pub unpriced: Vec<Unpriced>,
    /// Calls left out as cold: tests, benches, examples, one-off binaries.
    pub cold: usize,
}

/// One priced call of an [`Estimate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallEstimate {
    #[serde(skip)]
    pub location: crate::source::Location,
    /// `Query`, `PutItem`, ...
    pub kind: &'static str,
    pub table: Option<String>,
    pub rate_per_second: f64,
    /// The access pattern whose `rate` it is; `None`: one call a second.
    pub rate_from: Option<String>,
    pub per_call_on_demand: f64,
    /// A month at its rate, in its table's capacity mode.
    pub monthly: f64,
    pub monthly_on_demand: f64,
    pub monthly_provisioned: f64,
}

/// A call an [`Estimate`] could not price.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unpriced {
    #[serde(skip)]
    pub location: crate::source::Location,
    pub kind: &'static str,
    /// The figure it lacks.
    pub missing: String,
}

impl Eq for Estimate {}
