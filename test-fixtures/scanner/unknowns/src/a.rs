pub const TABLE: &str = "Alpha";
