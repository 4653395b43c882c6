//! Key models the unit tests share: the `Orders` and `BlogApp` tables of DOMAIN's
//! worked examples, written once here rather than in each test module that needs them.
//! Test code only (`#[cfg(test)]` in `lib.rs`), outside the layering.

use std::path::Path;

use crate::model::{load_str, Model};

/// Orders keyed by id, with a GSI on a three-valued status (20% `OPEN`) and an access
/// pattern reading the open ones once a second: the hot-key article's worked example.
pub const ORDERS_BY_STATUS: &str = r#"
[[table]]
name = "Orders"
partition-key = "orderId"
item-count = 3_000_000
avg-item-size = 250
[table.attributes]
orderId = { type = "S", unique = true }
status = { type = "S", values = { OPEN = 0.2, PAID = 0.75, VOID = 0.05 } }
[[table.index]]
name = "ByStatus"
partition-key = "status"
[[access-pattern]]
name = "open orders"
table = "Orders"
index = "ByStatus"
key = { status = "OPEN" }
rate = 1
"#;

/// The blog's single table with its two entities (users and their blogs, told apart
/// by the sort key) and the sparse `ByFacet` GSI both feed.
pub const BLOG_APP: &str = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
[table.attributes]
PK = "S"
SK = "S"
facet = "S"
createdAt = "S"
[[table.index]]
name = "ByFacet"
partition-key = "facet"
sort-key = "createdAt"
[[table.entity]]
name = "User"
keys = { PK = "USER#{userID}", SK = "PROFILE" }
attributes = ["facet"]
[[table.entity]]
name = "Blog"
keys = { PK = "USER#{userID}", SK = "BLOG#{blogID}" }
attributes = ["facet", "createdAt"]
"#;

/// The model of the project the LSP tests open (`test-fixtures/_lsp`): `BlogApp` of
/// 5M items of 400 B, its `ByFacet` GSI projecting keys only.
pub const BLOG_APP_KEYS_ONLY: &str = include_str!("../test-fixtures/_lsp/dynalint.toml");

/// `toml` loaded as a `dynalint.toml`; a test's model that does not load is a bug in
/// the test.
pub fn load(toml: &str) -> Model {
    match load_str(Path::new("dynalint.toml"), toml) {
        Ok(m) => m,
        Err(problems) => panic!("bad test model: {problems:?}"),
    }
}
