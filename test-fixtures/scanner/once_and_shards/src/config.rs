// Statics set once at start-up, and the shard count; no DynamoDB call in this file.
use std::sync::OnceLock;

pub static ORDERS: OnceLock<String> = OnceLock::new();
pub static AUDIT: once_cell::sync::OnceCell<String> = once_cell::sync::OnceCell::<String>::new();
pub static TWICE: OnceLock<String> = OnceLock::new();
pub static NEVER: OnceLock<String> = OnceLock::new();
pub static TOKIO: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

pub const SHARDS: u64 = 15;
pub const LAST_SHARD: u32 = 9;

pub fn init() -> Result<(), Error> {
    ORDERS.set(std::env::var("ORDERS_TABLE")?).ok();
    AUDIT.set("Audit".to_string()).ok();
    TOKIO.set(std::env::var("TOKIO_TABLE")?).ok();
    TWICE.set(std::env::var("A")?).ok();
    Ok(())
}

pub fn init_again() {
    TWICE.set("B".to_string()).ok();
}
