//! Table and index names, shared by the repository.

pub const ORDERS_TABLE: &str = "Orders";

pub const BY_STATUS: &str = "ByStatus";

/// The table a job writes to.
pub fn jobs_table() -> String {
    ORDERS_TABLE.to_string()
}
