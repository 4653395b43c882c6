//! DynamoDB's first line of validation: the constraints of its service model on
//! request members (required, length, pattern, enum, range), checked before anything
//! else in the request is read, and reported together as
//! `N validation errors detected: Value 'x' at 'path' failed to satisfy constraint: ...`.
//!
//! Every operation validates in one fixed order, as DynamoDB does:
//! 1. request shape (JSON types: `SerializationException`, in [`super::wire::Body`]);
//! 2. member constraints, here: a bad table name is reported alone, everything
//!    else that fails is gathered into one message, in the service model's order;
//! 3. parameters that depend on each other (legacy versus expression parameters,
//!    attribute values, `ReturnValues` for the operation, item size);
//! 4. expressions ([`super::exprs::prepare`]);
//! 5. the table and index, then the key schema, then the item's contents.
//!
//! Each operation's function in [`super::ops`] calls the steps in that order, so a
//! new check lands in one place and the error is the one DynamoDB gives first.

use serde_json::Value;

use super::error::{DynamoError, DynamoResult};
use super::wire::Body;

/// The characters a table or index name may use.
pub const NAME_PATTERN: &str = "[a-zA-Z0-9_.-]+";
/// Longest table or index name.
pub const MAX_NAME_LEN: usize = 255;

/// `ReturnConsumedCapacity`'s values, as DynamoDB lists them.
pub const RETURN_CAPACITY: &[&str] = &["INDEXES", "TOTAL", "NONE"];
/// `ReturnValues`' values.
pub const RETURN_VALUES: &[&str] = &["ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"];
/// `ReturnItemCollectionMetrics`' values.
pub const RETURN_METRICS: &[&str] = &["SIZE", "NONE"];
/// `ReturnValuesOnConditionCheckFailure`'s values.
pub const RETURN_ON_FAILURE: &[&str] = &["ALL_OLD", "NONE"];
/// `ConditionalOperator`'s values.
pub const CONDITIONAL_OPERATORS: &[&str] = &["OR", "AND"];
/// `Select`'s values.
pub const SELECT: &[&str] = &[
    "SPECIFIC_ATTRIBUTES",
    "COUNT",
    "ALL_ATTRIBUTES",
    "ALL_PROJECTED_ATTRIBUTES",
];
/// The legacy comparison operators (`Expected`, `KeyConditions`, `QueryFilter`...).
pub const COMPARISON_OPERATORS: &[&str] = &[
    "IN",
    "NULL",
    "BETWEEN",
    "LT",
    "NOT_CONTAINS",
    "EQ",
    "GT",
    "NOT_NULL",
    "NE",
    "LE",
    "BEGINS_WITH",
    "GE",
    "CONTAINS",
];
/// `AttributeUpdates` actions.
pub const UPDATE_ACTIONS: &[&str] = &["ADD", "PUT", "DELETE"];
/// `BillingMode`'s values.
pub const BILLING_MODES: &[&str] = &["PROVISIONED", "PAY_PER_REQUEST"];

/// Constraint violations found so far, in the order DynamoDB lists them.
#[derive(Debug, Default)]
pub struct Constraints {
    violations: Vec<String>,
}

/// How a member's value is echoed in a violation.
fn echo(value: Option<&str>) -> String {
    match value {
        Some(v) => format!("'{v}'"),
        None => "null".into(),
    }
}

/// `1 validation error detected: ...` for one violation, `N validation errors
/// detected: a; b` for several.
pub fn violations_message(violations: &[String]) -> String {
    let n = violations.len();
    format!(
        "{n} validation error{} detected: {}",
        if n == 1 { "" } else { "s" },
        violations.join("; ")
    )
}

impl Constraints {
    /// No violations yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a violation of `constraint` by the member at `path` whose value is
    /// echoed as `value` (`None`: the member is absent, echoed `null`).
    pub fn fail(&mut self, value: Option<&str>, path: &str, constraint: &str) {
        self.violations.push(format!(
            "Value {} at '{path}' failed to satisfy constraint: {constraint}",
            echo(value)
        ));
    }

    /// Records a violation DynamoDB words without the usual `Value ... at` frame.
    pub fn fail_raw(&mut self, message: impl Into<String>) {
        self.violations.push(message.into());
    }

    /// A required member that is absent.
    pub fn not_null(&mut self, present: bool, path: &str) {
        if !present {
            self.fail(None, path, "Member must not be null");
        }
    }

    /// A string member that must be one of `set`.
    pub fn enumeration(&mut self, value: Option<&str>, path: &str, set: &[&str]) {
        if let Some(v) = value.filter(|v| !set.contains(v)) {
            self.fail(
                Some(v),
                path,
                &format!("Member must satisfy enum value set: [{}]", set.join(", ")),
            );
        }
    }

    /// A number member with a lower and/or upper bound.
    pub fn range(&mut self, value: Option<i64>, path: &str, min: Option<i64>, max: Option<i64>) {
        let Some(v) = value else { return };
        if let Some(min) = min.filter(|m| v < *m) {
            self.fail(
                Some(&v.to_string()),
                path,
                &format!("Member must have value greater than or equal to {min}"),
            );
        } else if let Some(max) = max.filter(|m| v > *m) {
            self.fail(
                Some(&v.to_string()),
                path,
                &format!("Member must have value less than or equal to {max}"),
            );
        }
    }

    /// A list or map member with a length range; `shown` is how its value is echoed.
    pub fn length(&mut self, len: usize, shown: &str, path: &str, min: usize, max: Option<usize>) {
        if len < min {
            self.fail(
                Some(shown),
                path,
                &format!("Member must have length greater than or equal to {min}"),
            );
        } else if let Some(max) = max.filter(|m| len > *m) {
            self.fail(
                Some(shown),
                path,
                &format!("Member must have length less than or equal to {max}"),
            );
        }
    }

    /// A table or index name: its first failing constraint (length, then pattern).
    pub fn name(&mut self, value: Option<&str>, path: &str, min_len: usize) {
        let Some(v) = value else { return };
        let len = v.chars().count();
        if len < min_len {
            self.fail(
                Some(v),
                path,
                &format!("Member must have length greater than or equal to {min_len}"),
            );
        } else if len > MAX_NAME_LEN {
            self.fail(
                Some(v),
                path,
                &format!("Member must have length less than or equal to {MAX_NAME_LEN}"),
            );
        } else if !valid_name(v) {
            self.fail(
                Some(v),
                path,
                &format!("Member must satisfy regular expression pattern: {NAME_PATTERN}"),
            );
        }
    }

    /// True when nothing failed so far.
    pub fn is_empty(&self) -> bool {
        self.violations.is_empty()
    }

    /// The gathered violations as DynamoDB's error, or nothing.
    pub fn finish(self) -> DynamoResult<()> {
        if self.violations.is_empty() {
            Ok(())
        } else {
            Err(DynamoError::validation(violations_message(
                &self.violations,
            )))
        }
    }
}

/// True when `name` matches [`NAME_PATTERN`].
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// The `TableName` of a data operation (1 to 255 characters of [`NAME_PATTERN`]).
/// DynamoDB reports a bad table name alone, before any other member's constraint.
pub fn table_name<'a>(b: &Body<'a>) -> DynamoResult<&'a str> {
    table_name_at(b, "TableName", "tableName", 1)
}

/// A table name member at `path`, at least `min_len` characters long.
pub fn table_name_at<'a>(
    b: &Body<'a>,
    field: &str,
    path: &str,
    min_len: usize,
) -> DynamoResult<&'a str> {
    let value = b.str(field)?;
    let mut c = Constraints::new();
    c.not_null(value.is_some(), path);
    c.name(value, path, min_len);
    c.finish()?;
    Ok(value.unwrap_or_default())
}

/// A JSON value as DynamoDB echoes it in a violation (Java's `toString` of the
/// request model): maps as `{k=v, ...}`, lists as `[a, b]`, strings bare.
pub fn java_repr(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(java_repr).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{k}={}", java_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn name_error(body: Value) -> String {
        table_name(&Body::new(&body).unwrap()).unwrap_err().message
    }

    #[test]
    fn table_names_in_dynamodb_words() {
        assert_eq!(
            name_error(json!({})),
            "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"
        );
        assert_eq!(
            name_error(json!({"TableName": ""})),
            "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
        );
        assert!(name_error(json!({"TableName": "a".repeat(256)}))
            .ends_with("Member must have length less than or equal to 255"));
        assert!(name_error(json!({"TableName": "bad table!"}))
            .ends_with("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"));
        let ok = json!({"TableName": "a.b-c_9"});
        assert_eq!(table_name(&Body::new(&ok).unwrap()).unwrap(), "a.b-c_9");
    }

    #[test]
    fn several_violations_are_reported_together() {
        let mut c = Constraints::new();
        c.enumeration(Some("X"), "returnValues", RETURN_VALUES);
        c.enumeration(Some("NONE"), "returnConsumedCapacity", RETURN_CAPACITY);
        c.range(Some(0), "limit", Some(1), None);
        let msg = c.finish().unwrap_err().message;
        assert!(msg.starts_with("2 validation errors detected: Value 'X' at 'returnValues'"));
        assert!(msg.contains("; Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"));
        assert!(Constraints::new().finish().is_ok());
    }

    #[test]
    fn values_are_echoed_as_java_does() {
        assert_eq!(
            java_repr(&json!({"T": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]})),
            "{T=[{PutRequest={Item={pk={S=a}}}}]}"
        );
    }
}
