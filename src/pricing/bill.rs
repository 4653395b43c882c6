//! From capacity units to dollars: a workload's request units per second priced for a
//! month on-demand and provisioned, storage for a month, and the utilisation at which
//! the two capacity modes cost the same.

use serde::Serialize;

use super::book::{MissingPrice, Prices};
use crate::model::price_figure::Figure;
use crate::model::TableClass;

/// Request units a workload uses per second, by how they are priced.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct UnitsPerSecond {
    /// Read request units (read capacity units when provisioned).
    pub read: f64,
    /// Write request units of tables and their indexes.
    pub write: f64,
    /// Replicated write request units of a global table's writes.
    pub replicated_write: f64,
}

impl UnitsPerSecond {
    /// The sum of two loads.
    pub fn plus(self, o: UnitsPerSecond) -> Self {
        Self {
            read: self.read + o.read,
            write: self.write + o.write,
            replicated_write: self.replicated_write + o.replicated_write,
        }
    }

    /// Every figure times `k` (a call's units at `k` calls per second).
    pub fn times(self, k: f64) -> Self {
        Self {
            read: self.read * k,
            write: self.write * k,
            replicated_write: self.replicated_write * k,
        }
    }

    /// Whether nothing is read or written.
    pub fn is_zero(&self) -> bool {
        self.read == 0.0 && self.write == 0.0 && self.replicated_write == 0.0
    }
}

/// How reads and writes are paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CapacityMode {
    OnDemand,
    Provisioned,
}

impl CapacityMode {
    /// `on-demand`, `provisioned`.
    pub fn label(self) -> &'static str {
        match self {
            Self::OnDemand => "on-demand",
            Self::Provisioned => "provisioned",
        }
    }
}

/// A month of a workload's requests in both capacity modes.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Monthly {
    /// Dollars a month on-demand; `None` when a price it needs is missing.
    pub on_demand: Option<f64>,
    /// Dollars a month provisioned for the load at `target_utilization`.
    pub provisioned: Option<f64>,
    /// Provisioned capacity's average use the provisioned figure assumes.
    pub target_utilization: f64,
    /// Provisioned capacity costs less than on-demand when it is used on average above
    /// this share (the same for any load with these prices and this read/write mix).
    pub break_even_utilization: Option<f64>,
    /// The prices it lacks, each saying where to set it.
    pub missing: Vec<String>,
}

impl Monthly {
    /// The cheaper mode at the target utilisation, when both are known.
    pub fn cheaper(&self) -> Option<CapacityMode> {
        let (od, pr) = (self.on_demand?, self.provisioned?);
        // Nothing requested: neither mode costs less.
        if od == pr {
            return None;
        }
        Some(if pr < od {
            CapacityMode::Provisioned
        } else {
            CapacityMode::OnDemand
        })
    }

    /// The sum of two months (a price missing from either is missing from the sum).
    pub fn plus(&self, o: &Monthly) -> Monthly {
        let add = |a: Option<f64>, b: Option<f64>| Some(a? + b?);
        let mut missing = self.missing.clone();
        for m in &o.missing {
            if !missing.contains(m) {
                missing.push(m.clone());
            }
        }
        Monthly {
            on_demand: add(self.on_demand, o.on_demand),
            provisioned: add(self.provisioned, o.provisioned),
            target_utilization: self.target_utilization,
            break_even_utilization: match (
                add(self.provisioned, o.provisioned),
                add(self.on_demand, o.on_demand),
            ) {
                (Some(p), Some(d)) if d > 0.0 => Some(p * self.target_utilization / d),
                _ => None,
            },
            missing,
        }
    }
}

/// The on-demand and provisioned price of each kind of unit.
fn unit_prices(
    prices: &Prices,
    region: Option<&str>,
    class: TableClass,
    units: UnitsPerSecond,
    missing: &mut Vec<MissingPrice>,
) -> [(f64, Option<f64>, Option<f64>); 3] {
    let mut get = |f: Figure, used: bool| -> Option<f64> {
        if !used {
            return Some(0.0);
        }
        match prices.get(region, class, f) {
            Ok(p) => Some(p.value),
            Err(m) => {
                missing.push(m);
                None
            }
        }
    };
    [
        (
            units.read,
            get(Figure::ReadRequestUnits, units.read > 0.0),
            get(Figure::ReadCapacityUnitHours, units.read > 0.0),
        ),
        (
            units.write,
            get(Figure::WriteRequestUnits, units.write > 0.0),
            get(Figure::WriteCapacityUnitHours, units.write > 0.0),
        ),
        (
            units.replicated_write,
            get(
                Figure::ReplicatedWriteRequestUnits,
                units.replicated_write > 0.0,
            ),
            get(
                Figure::ReplicatedWriteCapacityUnitHours,
                units.replicated_write > 0.0,
            ),
        ),
    ]
}

/// A month of `units` per second: on-demand, every unit at its price per million;
/// provisioned, capacity of `units / target-utilization` at its price per hour.
pub fn monthly(
    prices: &Prices,
    region: Option<&str>,
    class: TableClass,
    units: UnitsPerSecond,
) -> Monthly {
    let mut missing = Vec::new();
    let parts = unit_prices(prices, region, class, units, &mut missing);
    let seconds = prices.seconds_per_month();
    let t = prices.target_utilization;
    let mut on_demand = Some(0.0);
    let mut provisioned = Some(0.0);
    let mut full_use = Some(0.0);
    for (u, per_million, per_hour) in parts {
        on_demand = on_demand
            .zip(per_million)
            .map(|(s, p)| s + u * seconds * p / 1e6);
        provisioned = provisioned
            .zip(per_hour)
            .map(|(s, p)| s + u / t * p * prices.hours_per_month);
        full_use = full_use
            .zip(per_hour)
            .map(|(s, p)| s + u * p * prices.hours_per_month);
    }
    let break_even = match (full_use, on_demand) {
        (Some(p), Some(d)) if d > 0.0 => Some(p / d),
        _ => None,
    };
    missing.sort();
    missing.dedup();
    Monthly {
        on_demand,
        provisioned,
        target_utilization: t,
        break_even_utilization: break_even,
        missing: missing.iter().map(ToString::to_string).collect(),
    }
}

/// Dollars one call costs on-demand: its read and write request units at their price.
pub fn per_call_on_demand(
    prices: &Prices,
    class: TableClass,
    units: UnitsPerSecond,
) -> Result<f64, Vec<MissingPrice>> {
    let mut missing = Vec::new();
    let parts = unit_prices(prices, None, class, units, &mut missing);
    if !missing.is_empty() {
        return Err(missing);
    }
    Ok(parts
        .iter()
        .map(|(u, p, _)| u * p.unwrap_or(0.0) / 1e6)
        .sum())
}

/// Dollars a month for storing `bytes` (items' bytes with DynamoDB's per-item overhead
/// already added).
pub fn storage_monthly(
    prices: &Prices,
    region: Option<&str>,
    class: TableClass,
    bytes: f64,
) -> Result<f64, MissingPrice> {
    let p = prices.get(region, class, Figure::StorageGbMonths)?;
    Ok(bytes / prices.gb_bytes * p.value)
}

/// Dollars as figures print them: `$12,345`, `$123`, `$12.34`, `$0.42`, `<$0.01`.
pub fn dollars(x: f64) -> String {
    if !x.is_finite() {
        return "$?".into();
    }
    if x == 0.0 {
        return "$0".into();
    }
    if x < 0.0 {
        return format!("-{}", dollars(-x));
    }
    if x < 0.005 {
        return "<$0.01".into();
    }
    if x < 100.0 {
        return format!("${x:.2}");
    }
    format!("${}", crate::figures::count(x))
}

/// Dollars per million calls, for figures too small to read per call: `$0.0625`.
pub fn per_million_calls(per_call: f64) -> String {
    let m = per_call * 1e6;
    if m >= 100.0 || m == 0.0 {
        return dollars(m);
    }
    // Four significant figures at most, trailing zeros trimmed.
    let digits = (3 - m.log10().floor() as i32).clamp(2, 10) as usize;
    let s = format!("{m:.digits$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("${s}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{load_str, Model};
    use std::path::Path;

    fn prices(extra: &str) -> Prices {
        let m: Model = load_str(Path::new("dynalint.toml"), extra).unwrap();
        Prices::for_model(&m)
    }

    #[test]
    fn a_month_on_demand_and_provisioned_by_hand() {
        let p = prices("");
        // 100 RRU/s and 10 WRU/s for 730 hours.
        let m = monthly(
            &p,
            None,
            TableClass::Standard,
            UnitsPerSecond {
                read: 100.0,
                write: 10.0,
                replicated_write: 0.0,
            },
        );
        let seconds = 730.0 * 3600.0;
        let od = 100.0 * seconds * 0.125 / 1e6 + 10.0 * seconds * 0.625 / 1e6;
        assert!((m.on_demand.unwrap() - od).abs() < 1e-9, "{m:?}");
        assert!((od - 49.275).abs() < 1e-9);
        // Provisioned at 70%: 142.86 RCU and 14.29 WCU for 730 hours.
        let pr = 100.0 / 0.7 * 0.00013 * 730.0 + 10.0 / 0.7 * 0.00065 * 730.0;
        assert!((m.provisioned.unwrap() - pr).abs() < 1e-9);
        // Break-even: provisioned at full use costs 28.9% of on-demand.
        let full = 100.0 * 0.00013 * 730.0 + 10.0 * 0.00065 * 730.0;
        assert!((m.break_even_utilization.unwrap() - full / od).abs() < 1e-12);
        assert!((m.break_even_utilization.unwrap() - 0.28889).abs() < 1e-4);
        assert_eq!(m.cheaper(), Some(CapacityMode::Provisioned));
        assert!(m.missing.is_empty());
    }

    #[test]
    fn a_missing_price_is_named_not_guessed() {
        let p = prices("[pricing]\nregion = \"eu-west-1\"\n");
        let m = monthly(
            &p,
            None,
            TableClass::Standard,
            UnitsPerSecond {
                read: 1.0,
                ..UnitsPerSecond::default()
            },
        );
        assert_eq!(m.on_demand, None);
        assert!(
            m.missing[0].contains("read-request-units") && m.missing[0].contains("[pricing]"),
            "{m:?}"
        );
        // Units that are not used need no price.
        assert!(!m.missing.iter().any(|s| s.contains("write")));
    }

    #[test]
    fn storage_counts_gb_of_2_30_bytes() {
        let p = prices("");
        let gb = 1_073_741_824.0;
        let s = storage_monthly(&p, None, TableClass::Standard, 10.0 * gb).unwrap();
        assert!((s - 2.5).abs() < 1e-12);
        let ia = storage_monthly(&p, None, TableClass::StandardInfrequentAccess, 10.0 * gb);
        assert!((ia.unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn dollars_read_like_prose() {
        assert_eq!(dollars(12_345.4), "$12,345");
        assert_eq!(dollars(123.4), "$123");
        assert_eq!(dollars(12.345), "$12.35");
        assert_eq!(dollars(0.42), "$0.42");
        assert_eq!(dollars(0.001), "<$0.01");
        assert_eq!(dollars(0.0), "$0");
        assert_eq!(per_million_calls(0.125 / 1e6 * 0.5), "$0.0625");
        assert_eq!(per_million_calls(30_518.0 * 0.125 / 1e6), "$3,815");
    }
}
