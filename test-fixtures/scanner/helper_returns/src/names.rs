// Helpers that name tables and build keys; no DynamoDB call here, so this file is
// indexed from its sparse text (short string-returning functions are kept).
use std::env;

pub const TABLE: &str = "Users";

pub fn orders_table() -> String {
    std::env::var("ORDERS_TABLE").unwrap()
}

pub fn users_table() -> &'static str {
    TABLE
}

pub fn pk(id: &str) -> String {
    format!("USER#{id}")
}

pub fn audit_table() -> Result<String, Error> {
    Ok(env::var("AUDIT_TABLE")?)
}

/// Every path returns the same constant.
pub fn same_on_both_paths(eu: bool) -> &'static str {
    if eu {
        return TABLE;
    }
    TABLE
}

/// The error path never reaches the caller as a value.
pub fn checked() -> Result<String, Error> {
    let t = env::var("CHECKED_TABLE")?;
    if t.is_empty() {
        return Err(Error::Empty);
    }
    Ok(t)
}

// ---- must stay unknown ----

/// Two paths, two tables.
pub fn region_table(eu: bool) -> &'static str {
    if eu {
        "EuOrders"
    } else {
        "Orders"
    }
}

/// A match whose arms differ.
pub fn by_tier(tier: Tier) -> String {
    match tier {
        Tier::Free => "FreeUsers".to_string(),
        Tier::Paid => format!("{}-paid", TABLE),
    }
}

pub fn recursive(n: u32) -> String {
    if n == 0 {
        "base".into()
    } else {
        recursive(n - 1)
    }
}

pub fn forever() -> String {
    forever()
}

/// The caller's argument decides.
pub fn table_of(name: &str) -> String {
    name.to_string()
}

/// A key map built by a helper.
pub fn user_key(id: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("pk".to_string(), AttributeValue::S(pk(id))),
        ("sk".to_string(), AttributeValue::S("PROFILE".into())),
    ])
}

/// The same, by inserts.
pub fn order_key(id: &str, at: &str) -> Result<HashMap<String, AttributeValue>, Error> {
    let mut key = HashMap::new();
    key.insert("pk".to_string(), AttributeValue::S(format!("ORDER#{id}")));
    key.insert("sk".to_string(), AttributeValue::S(at.to_string()));
    Ok(key)
}

/// Two shapes: not followed.
pub fn either_key(id: &str, admin: bool) -> HashMap<String, AttributeValue> {
    if admin {
        return HashMap::from([("pk".to_string(), AttributeValue::S("ADMIN".into()))]);
    }
    HashMap::from([("pk".to_string(), AttributeValue::S(pk(id)))])
}
