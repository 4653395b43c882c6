//! The figures of a price table, named as `prices.toml` and `[pricing]` write them.

use std::fmt;

/// One price of DynamoDB's, for one region and table class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Figure {
    /// On-demand reads: dollars per million read request units.
    ReadRequestUnits,
    /// On-demand writes: dollars per million write request units.
    WriteRequestUnits,
    /// On-demand writes of a global table: dollars per million replicated write
    /// request units.
    ReplicatedWriteRequestUnits,
    /// Provisioned reads: dollars per read capacity unit per hour.
    ReadCapacityUnitHours,
    /// Provisioned writes: dollars per write capacity unit per hour.
    WriteCapacityUnitHours,
    /// Provisioned writes of a global table: dollars per replicated write capacity
    /// unit per hour.
    ReplicatedWriteCapacityUnitHours,
    /// Table and index storage: dollars per GB-month.
    StorageGbMonths,
}

impl Figure {
    /// Every figure, in the order tables list them.
    pub const ALL: [Figure; 7] = [
        Figure::ReadRequestUnits,
        Figure::WriteRequestUnits,
        Figure::ReplicatedWriteRequestUnits,
        Figure::ReadCapacityUnitHours,
        Figure::WriteCapacityUnitHours,
        Figure::ReplicatedWriteCapacityUnitHours,
        Figure::StorageGbMonths,
    ];

    /// The key in `prices.toml` and `[pricing]`: `write-request-units`.
    pub fn key(self) -> &'static str {
        match self {
            Self::ReadRequestUnits => "read-request-units",
            Self::WriteRequestUnits => "write-request-units",
            Self::ReplicatedWriteRequestUnits => "replicated-write-request-units",
            Self::ReadCapacityUnitHours => "read-capacity-unit-hours",
            Self::WriteCapacityUnitHours => "write-capacity-unit-hours",
            Self::ReplicatedWriteCapacityUnitHours => "replicated-write-capacity-unit-hours",
            Self::StorageGbMonths => "storage-gb-months",
        }
    }

    /// What one unit of the figure is: `$ per million write request units`.
    pub fn unit(self) -> &'static str {
        match self {
            Self::ReadRequestUnits => "$ per million read request units",
            Self::WriteRequestUnits => "$ per million write request units",
            Self::ReplicatedWriteRequestUnits => "$ per million replicated write request units",
            Self::ReadCapacityUnitHours => "$ per RCU-hour",
            Self::WriteCapacityUnitHours => "$ per WCU-hour",
            Self::ReplicatedWriteCapacityUnitHours => "$ per replicated WCU-hour",
            Self::StorageGbMonths => "$ per GB-month",
        }
    }

    /// The figure a key names.
    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.key() == key)
    }

    /// Every key, for "did you mean" and the list of allowed fields.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        Self::ALL.into_iter().map(Figure::key)
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}
