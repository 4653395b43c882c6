//! Write sharding, sized: how many suffixes a low-cardinality partition key needs so
//! that no single partition is asked for more than DynamoDB serves per partition.
//!
//! The formula is DOMAIN.md §3's (article 004):
//! `ItemsPerRCU = 4KB / AvgItemSize`; `PartitionMaxReadRate = 3000 * ItemsPerRCU`;
//! `N = MaxRequiredIO / PartitionMaxReadRate`, rounded up, then padded for skew.
//! Worked example: 3M orders, 20% OPEN (600K items), 250 B → 16 items per RCU,
//! 48,000 items/s per partition, N = 12.5 → 13, padded to 15.

use serde::Serialize;

/// Bytes one read capacity unit covers (a strongly consistent read of up to 4 KB).
pub const READ_UNIT_BYTES: u64 = 4096;
/// Bytes one write capacity unit covers.
pub const WRITE_UNIT_BYTES: u64 = 1024;
/// Read capacity units one partition serves per second.
pub const PARTITION_MAX_RCU: f64 = 3000.0;
/// Write capacity units one partition serves per second.
pub const PARTITION_MAX_WCU: f64 = 1000.0;
/// Headroom added to the exact shard count, because random suffixes never spread
/// load perfectly evenly and the range is hard to change later (DOMAIN.md §3, 003).
/// 15% turns the article's 13 into its 15.
pub const SKEW_HEADROOM: f64 = 0.15;

/// Whether the load to spread is reads or writes: they have different unit sizes and
/// per-partition limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Io {
    /// Strongly consistent reads (the article's case; eventually consistent reads
    /// cost half, so this errs on the safe side).
    Read,
    Write,
}

impl Io {
    fn unit_bytes(self) -> u64 {
        match self {
            Self::Read => READ_UNIT_BYTES,
            Self::Write => WRITE_UNIT_BYTES,
        }
    }

    /// Capacity units one partition serves per second.
    pub fn partition_limit(self) -> f64 {
        match self {
            Self::Read => PARTITION_MAX_RCU,
            Self::Write => PARTITION_MAX_WCU,
        }
    }

    /// `RCU` or `WCU`, for messages.
    pub fn unit_name(self) -> &'static str {
        match self {
            Self::Read => "RCU",
            Self::Write => "WCU",
        }
    }
}

/// The arithmetic behind a shard count, every step kept so messages can show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShardPlan {
    pub io: Io,
    /// Items per second the hottest key value must serve (`MaxRequiredIO`).
    pub required_items_per_sec: f64,
    pub avg_item_size: u64,
    /// Whole items one capacity unit covers: `floor(4 KB / size)` for reads; for writes
    /// `1`, as each write is charged at least one 1 KB unit.
    /// Items bigger than a unit take several units each, so this is then a fraction
    /// (`1 / ceil(size / unit)`).
    pub items_per_unit: f64,
    /// Items per second one partition serves: `3000 * items_per_unit` (1000 for writes).
    pub partition_max_items_per_sec: f64,
    /// `required / partition max`, before rounding (12.5 in the worked example).
    pub exact: f64,
    /// The exact figure rounded up; at least 1.
    pub shards: u64,
    /// The exact count with [`SKEW_HEADROOM`] added, rounded up (never below
    /// `shards`): the count to recommend.
    pub padded: u64,
}

impl ShardPlan {
    /// True when one partition cannot serve the load: the key needs sharding.
    pub fn needs_sharding(&self) -> bool {
        self.exact > 1.0
    }
}

/// Items one capacity unit covers for items of `avg_item_size` bytes.
///
/// An item of 250 B gives `floor(4096 / 250) = 16` for reads: capacity is charged per
/// whole item in the article's arithmetic, so the fractional 0.38 item is not usable.
/// Writes are charged per item, rounded up to the next 1 KB: a 250 B write costs a
/// whole WCU, so one WCU covers one item however small.
pub fn items_per_unit(io: Io, avg_item_size: u64) -> f64 {
    let unit = io.unit_bytes();
    let size = avg_item_size.max(1);
    if size <= unit && io == Io::Read {
        (unit / size) as f64
    } else {
        1.0 / size.div_ceil(unit) as f64
    }
}

/// The number of partition key suffixes that spreads `required_items_per_sec` items
/// per second of `avg_item_size` bytes over partitions without exceeding the
/// per-partition limit (strongly consistent reads, or writes), with the steps.
///
/// ```
/// use dynalint::facts::shards::{required_shards, Io};
/// // DOMAIN.md §3: 3M orders, 20% OPEN, 250 B each.
/// let plan = required_shards(Io::Read, 3_000_000.0 * 0.2, 250);
/// assert_eq!(plan.items_per_unit, 16.0);
/// assert_eq!(plan.partition_max_items_per_sec, 48_000.0);
/// assert_eq!(plan.exact, 12.5);
/// assert_eq!((plan.shards, plan.padded), (13, 15));
/// ```
pub fn required_shards(io: Io, required_items_per_sec: f64, avg_item_size: u64) -> ShardPlan {
    let items_per_unit = items_per_unit(io, avg_item_size);
    let partition_max_items_per_sec = io.partition_limit() * items_per_unit;
    let required = if required_items_per_sec.is_finite() {
        required_items_per_sec.max(0.0)
    } else {
        0.0
    };
    let exact = required / partition_max_items_per_sec;
    let shards = ceil_count(exact);
    let padded = pad(exact, shards);
    ShardPlan {
        io,
        required_items_per_sec: required,
        avg_item_size,
        items_per_unit,
        partition_max_items_per_sec,
        exact,
        shards,
        padded,
    }
}

/// The shard count that keeps `units_per_sec` capacity units per second on one
/// partition key under the partition limit, when the load is already known in units
/// (e.g. a simulated access pattern's RCU per call × rate).
pub fn shards_for_units(io: Io, units_per_sec: f64) -> (u64, u64) {
    let exact = if units_per_sec.is_finite() {
        units_per_sec.max(0.0) / io.partition_limit()
    } else {
        0.0
    };
    let shards = ceil_count(exact);
    (shards, pad(exact, shards))
}

/// The exact count with headroom, rounded up, never below the plain count: a load
/// that fits one partition with room to spare stays at 1.
fn pad(exact: f64, shards: u64) -> u64 {
    ceil_count(exact * (1.0 + SKEW_HEADROOM)).max(shards)
}

/// Rounds a positive count up, at least 1. A tiny epsilon keeps `13.0000000001`
/// (floating-point noise from the padding multiply) at 13.
fn ceil_count(x: f64) -> u64 {
    if !x.is_finite() || x <= 1.0 {
        return 1;
    }
    (x - 1e-9).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_articles_worked_example() {
        let plan = required_shards(Io::Read, 600_000.0, 250);
        assert_eq!(plan.items_per_unit, 16.0);
        assert_eq!(plan.partition_max_items_per_sec, 48_000.0);
        assert_eq!(plan.exact, 12.5);
        assert_eq!(plan.shards, 13);
        assert_eq!(plan.padded, 15);
        assert!(plan.needs_sharding());
    }

    #[test]
    fn units_and_limits_by_kind() {
        // Writes: one WCU per item up to 1 KB, 1,000 per partition.
        let w = required_shards(Io::Write, 10_000.0, 200);
        assert_eq!(w.items_per_unit, 1.0);
        assert_eq!(w.partition_max_items_per_sec, 1_000.0);
        assert_eq!((w.shards, w.padded), (10, 12));
        assert_eq!(items_per_unit(Io::Write, 2_500), 1.0 / 3.0);
        // Items bigger than a unit take several units each.
        assert_eq!(items_per_unit(Io::Read, 10_000), 1.0 / 3.0);
        assert_eq!(items_per_unit(Io::Read, 4096), 1.0);
        assert_eq!(items_per_unit(Io::Read, 0), 4096.0);
    }

    #[test]
    fn small_loads_need_one_partition() {
        let p = required_shards(Io::Read, 100.0, 400);
        assert_eq!((p.shards, p.padded), (1, 1));
        assert!(!p.needs_sharding());
        assert_eq!(required_shards(Io::Read, f64::NAN, 400).shards, 1);
        assert_eq!(required_shards(Io::Read, -5.0, 400).exact, 0.0);
        assert_eq!(shards_for_units(Io::Read, 7_500.0), (3, 3));
        assert_eq!(shards_for_units(Io::Write, 1_000.0), (1, 2));
    }
}
