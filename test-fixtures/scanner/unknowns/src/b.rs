pub const TABLE: &str = "Beta";
