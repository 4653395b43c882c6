pub const TABLE: &str = "Shop";
pub mod index {
    pub const BY_EMAIL: &str = "ByEmail";
}
