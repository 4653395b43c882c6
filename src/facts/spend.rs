//! A call's dollars: its units ([`call_cost`](super::call_cost)) at the rate it is
//! made, priced by the model's [`Prices`] for its table's class and region, a global
//! table's replicas included, on-demand and provisioned. And the rate itself: the
//! `rate` of the declared access pattern the call implements, else one call a second
//! (said as such), so every monthly figure is honest about what it assumes.

use serde::Serialize;

use super::call_cost::CallCost;
use crate::facts::call_plan::{implements, plan_keys};
use crate::facts::plan::plan_pattern;
use crate::model::{BillingMode, Model, Table, TableClass};
use crate::pricing::{self, CapacityMode, Monthly, Prices, UnitsPerSecond};
use crate::scanner::Operation;

/// How often a call (or write, or loop element) happens, and why that figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallRate {
    /// Per second.
    pub per_second: f64,
    /// What declares it (`the `rate` of access pattern `latest blogs``); `None`: nothing
    /// does, and the figure is one a second.
    pub from: Option<String>,
    /// What is counted: `calls`, `writes`, `elements`.
    pub what: &'static str,
}

impl CallRate {
    /// One a second: the unit monthly figures scale from.
    pub fn unit(what: &'static str) -> Self {
        Self {
            per_second: 1.0,
            from: None,
            what,
        }
    }

    /// `at 50 calls/s (the `rate` of access pattern `latest blogs`)`, `at 1 call/s (no
    /// rate is declared for it)`.
    pub fn describe(&self) -> String {
        let n = crate::figures::units(self.per_second);
        let what = if n == "1" {
            self.what.trim_end_matches('s')
        } else {
            self.what
        };
        match &self.from {
            Some(f) => format!("at {n} {what}/s ({f})"),
            None => format!("at {n} {what}/s (no rate is declared for it)"),
        }
    }
}

/// The rate of the declared access pattern `op` implements (the highest, when it
/// implements several), or one call a second.
pub fn call_rate(model: &Model, op: &Operation) -> CallRate {
    let Ok(keys) = plan_keys(model, op) else {
        return CallRate::unit("calls");
    };
    model
        .access_patterns
        .iter()
        .filter_map(|p| Some((p, p.rate?)))
        .filter(|(p, _)| plan_pattern(model, p).is_ok_and(|plan| implements(&keys, &plan)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or_else(
            || CallRate::unit("calls"),
            |(p, rate)| CallRate {
                per_second: rate,
                from: Some(format!("the `rate` of access pattern `{}`", p.name)),
                what: "calls",
            },
        )
}

/// The table class a table is billed by (`STANDARD` unless declared).
pub fn class_of(table: Option<&Table>) -> TableClass {
    table.and_then(|t| t.table_class).unwrap_or_default()
}

/// The capacity mode a table declares, else on-demand (what figures lead with).
pub fn mode_of(table: Option<&Table>) -> CapacityMode {
    match table.and_then(|t| t.billing_mode) {
        Some(BillingMode::Provisioned) => CapacityMode::Provisioned,
        _ => CapacityMode::OnDemand,
    }
}

/// A call's units as they are priced on `table`: a global table's own writes are
/// replicated writes (its indexes' stay ordinary ones). `None` when a figure the call
/// needs is not known.
pub fn call_units(table: Option<&Table>, cost: &CallCost) -> Option<UnitsPerSecond> {
    let u = cost.units()?;
    if table.is_some_and(|t| !t.replicas.is_empty()) {
        let indexes: f64 = cost.index_writes.iter().map(|w| w.units).sum();
        return Some(UnitsPerSecond {
            read: u.read,
            write: indexes,
            replicated_write: (u.write - indexes).max(0.0),
        });
    }
    Some(u)
}

/// A month of `units` per second of requests to `table` (from [`call_units`]): reads
/// where they are made, and for a global table every write again in each replica
/// region.
pub fn table_monthly(prices: &Prices, table: Option<&Table>, units: UnitsPerSecond) -> Monthly {
    let class = class_of(table);
    let mut total = pricing::monthly(prices, None, class, units);
    for r in table.map_or(&[][..], |t| t.replicas.as_slice()) {
        let writes = UnitsPerSecond { read: 0.0, ..units };
        total = total.plus(&pricing::monthly(prices, Some(r), class, writes));
    }
    total
}

/// Dollars a month of storage for `items` of `bytes` each in `table`'s class and
/// region (and every replica): DynamoDB's per-item overhead added.
pub fn storage_monthly(
    prices: &Prices,
    table: Option<&Table>,
    items: f64,
    bytes: f64,
) -> Result<f64, String> {
    let class = class_of(table);
    let total = items * (bytes + prices.item_overhead_bytes);
    let mut sum =
        pricing::bill::storage_monthly(prices, None, class, total).map_err(|m| m.to_string())?;
    for r in table.map_or(&[][..], |t| t.replicas.as_slice()) {
        sum += pricing::bill::storage_monthly(prices, Some(r), class, total)
            .map_err(|m| m.to_string())?;
    }
    Ok(sum)
}

/// The figure of `m` in `mode`, with the mode named: `$1,234 a month on-demand`.
pub fn month_text(m: &Monthly, mode: CapacityMode) -> Option<String> {
    let v = match mode {
        CapacityMode::OnDemand => m.on_demand?,
        CapacityMode::Provisioned => m.provisioned?,
    };
    Some(format!(
        "{} a month {}",
        pricing::dollars(v),
        match mode {
            CapacityMode::OnDemand => "on-demand".to_string(),
            CapacityMode::Provisioned => format!(
                "provisioned (at {} utilisation)",
                crate::figures::percent(m.target_utilization)
            ),
        }
    ))
}

/// A figure in dollars a month, or why it is not known.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Priced {
    pub monthly: Option<Monthly>,
    /// The units or prices it lacks.
    pub missing: Vec<String>,
}

impl Priced {
    /// `units` per call (or `None`, lacking `lacks`) `rate` times a second on `table`.
    pub fn calls(
        prices: &Prices,
        table: Option<&Table>,
        units: Option<UnitsPerSecond>,
        lacks: &[String],
        rate: f64,
    ) -> Self {
        let Some(u) = units else {
            return Self {
                monthly: None,
                missing: if lacks.is_empty() {
                    vec!["the call's units".to_string()]
                } else {
                    lacks.to_vec()
                },
            };
        };
        let m = table_monthly(prices, table, u.times(rate));
        Self {
            missing: m.missing.clone(),
            monthly: Some(m),
        }
    }

    /// A known figure plus `dollars` of storage a month (or its missing price).
    pub fn plus_storage(mut self, storage: Result<f64, String>) -> Self {
        match (storage, &mut self.monthly) {
            (Ok(d), Some(m)) => {
                m.on_demand = m.on_demand.map(|x| x + d);
                m.provisioned = m.provisioned.map(|x| x + d);
            }
            (Err(e), _) => self.missing.push(e),
            _ => {}
        }
        self
    }

    /// The figure in `mode`, when every part of it is known.
    pub fn value(&self, mode: CapacityMode) -> Option<f64> {
        if !self.missing.is_empty() {
            return None;
        }
        let m = self.monthly.as_ref()?;
        match mode {
            CapacityMode::OnDemand => m.on_demand,
            CapacityMode::Provisioned => m.provisioned,
        }
    }

    /// `$1,234 a month on-demand`, or what is missing for it.
    pub fn text(&self, mode: CapacityMode) -> String {
        match (self.value(mode), &self.monthly) {
            (Some(_), Some(m)) => month_text(m, mode).unwrap_or_default(),
            _ => format!("not known (needs {})", self.needs()),
        }
    }

    /// `$1,234`, when known.
    pub fn dollars(&self, mode: CapacityMode) -> Option<String> {
        self.value(mode).map(pricing::dollars)
    }

    /// The first figure it lacks.
    pub fn needs(&self) -> &str {
        self.missing.first().map_or("a figure", String::as_str)
    }

    /// Both modes' figures, for the structured outputs.
    pub fn money(&self) -> Option<crate::diagnostic::Money> {
        if !self.missing.is_empty() {
            return None;
        }
        let m = self.monthly.as_ref()?;
        Some(crate::diagnostic::Money {
            on_demand: m.on_demand,
            provisioned: m.provisioned,
        })
    }
}

/// A finding's cost line from its parts: the text, the rate and the figures.
pub fn finding_cost(
    text: String,
    rate: &CallRate,
    mode: CapacityMode,
    written: &Priced,
    fixed: Option<&Priced>,
    adds: Option<&Priced>,
) -> crate::diagnostic::Cost {
    let mut missing: Vec<String> = Vec::new();
    for p in std::iter::once(written).chain(fixed).chain(adds) {
        for m in &p.missing {
            if !missing.contains(m) {
                missing.push(m.clone());
            }
        }
    }
    crate::diagnostic::Cost {
        text,
        rate_per_second: rate.per_second,
        rate_from: rate.from.clone(),
        mode: match mode {
            CapacityMode::OnDemand => "on_demand",
            CapacityMode::Provisioned => "provisioned",
        },
        as_written: written.money(),
        as_fixed: fixed.and_then(Priced::money),
        fix_adds: adds.and_then(Priced::money),
        missing,
    }
}

/// What the code's calls cost a month (see [`crate::diagnostic::Estimate`]): each call
/// that is not cold priced by [`call_cost`](super::call_cost) at its [`call_rate`].
/// A batch or transaction is one call; its requests are inside it.
pub fn estimate(model: &Model, operations: &[Operation]) -> crate::diagnostic::Estimate {
    use crate::diagnostic::{CallEstimate, Estimate, Unpriced};
    let prices = Prices::for_model(model);
    let mut out = Estimate {
        prices: prices.describe(),
        ..Estimate::default()
    };
    for op in operations {
        if op.context.cold.is_some() {
            out.cold += 1;
            continue;
        }
        let bound = super::bind(model, op);
        let table = bound.table.or_else(|| {
            op.children
                .first()
                .and_then(|c| super::bind(model, c).table)
        });
        let cost = super::call_cost::call_cost(model, &bound);
        let unpriced = |missing: String| Unpriced {
            location: op.location(),
            kind: op.kind.api_name(),
            missing,
        };
        let Some(units) = call_units(table, &cost) else {
            let why = cost
                .missing
                .first()
                .cloned()
                .unwrap_or_else(|| "the call's units".to_string());
            out.unpriced.push(unpriced(why));
            continue;
        };
        let rate = call_rate(model, op);
        let m = table_monthly(&prices, table, units.times(rate.per_second));
        let per_call = crate::pricing::bill::per_call_on_demand(&prices, class_of(table), units);
        let (Some(od), Some(pr), Ok(per_call)) = (m.on_demand, m.provisioned, per_call) else {
            let why = m
                .missing
                .first()
                .cloned()
                .unwrap_or_else(|| "a price".to_string());
            out.unpriced.push(unpriced(why));
            continue;
        };
        let monthly = match mode_of(table) {
            CapacityMode::OnDemand => od,
            CapacityMode::Provisioned => pr,
        };
        out.monthly += monthly;
        out.monthly_on_demand += od;
        out.monthly_provisioned += pr;
        out.calls.push(CallEstimate {
            location: op.location(),
            kind: op.kind.api_name(),
            table: table.map(|t| t.name.clone()),
            rate_per_second: rate.per_second,
            rate_from: rate.from.clone(),
            per_call_on_demand: per_call,
            monthly,
            monthly_on_demand: od,
            monthly_provisioned: pr,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load_str;
    use std::path::Path;

    #[test]
    fn a_global_table_pays_its_writes_and_storage_in_every_replica() {
        let m = load_str(
            Path::new("dynalint.toml"),
            "[pricing.regions.eu-west-1]\nreplicated-write-request-units = 0.7\nstorage-gb-months = 0.3\n\n[[table]]\nname = \"T\"\npartition-key = \"PK\"\nreplicas = [\"eu-west-1\"]\n[table.attributes]\nPK = \"S\"\n",
        )
        .unwrap();
        let p = Prices::for_model(&m);
        let t = &m.tables[0];
        let units = UnitsPerSecond {
            read: 10.0,
            write: 0.0,
            replicated_write: 2.0,
        };
        let got = table_monthly(&p, Some(t), units).on_demand.unwrap();
        let s = 730.0 * 3600.0;
        let want = 10.0 * s * 0.125 / 1e6 + 2.0 * s * 0.625 / 1e6 + 2.0 * s * 0.7 / 1e6;
        assert!((got - want).abs() < 1e-9, "{got} {want}");
        let gb = 1_073_741_824.0;
        let st = storage_monthly(&p, Some(t), 1.0, gb - 100.0).unwrap();
        assert!((st - (0.25 + 0.3)).abs() < 1e-12, "{st}");
    }
}
