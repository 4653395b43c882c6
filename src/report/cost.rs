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
