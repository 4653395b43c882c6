//! The legacy `Condition` (`ComparisonOperator` with its `AttributeValueList`, as in
//! `KeyConditions`, `QueryFilter`, `ScanFilter` and `Expected`) written as the
//! condition expression it means. The engine serves legacy requests through this,
//! and the linter validates a rusoto `key_conditions` map as the key condition
//! expression it stands for.

/// How many values `op` takes: `None` when any number from one up (`IN`).
pub fn arity(op: &str) -> Option<usize> {
    match op {
        "NULL" | "NOT_NULL" => Some(0),
        "IN" => None,
        "BETWEEN" => Some(2),
        _ => Some(1),
    }
}

/// The expression for `name` (a `#placeholder` or plain name) compared by `op` with
/// `values` (`:placeholders`), or `None` for an unknown operator or a wrong number of
/// values.
pub fn condition_text(name: &str, op: &str, values: &[String]) -> Option<String> {
    match arity(op) {
        Some(n) if values.len() != n => return None,
        None if values.is_empty() => return None,
        _ => {}
    }
    let v = |i: usize| values.get(i).map_or("", String::as_str);
    Some(match op {
        "EQ" => format!("{name} = {}", v(0)),
        "NE" => format!("{name} <> {}", v(0)),
        "LT" => format!("{name} < {}", v(0)),
        "LE" => format!("{name} <= {}", v(0)),
        "GT" => format!("{name} > {}", v(0)),
        "GE" => format!("{name} >= {}", v(0)),
        "BETWEEN" => format!("{name} BETWEEN {} AND {}", v(0), v(1)),
        "BEGINS_WITH" => format!("begins_with({name}, {})", v(0)),
        "CONTAINS" => format!("contains({name}, {})", v(0)),
        "NOT_CONTAINS" => format!("NOT contains({name}, {})", v(0)),
        "NULL" => format!("attribute_not_exists({name})"),
        "NOT_NULL" => format!("attribute_exists({name})"),
        "IN" => format!("{name} IN ({})", values.join(", ")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_parses_back() {
        for (op, n) in [
            ("EQ", 1),
            ("NE", 1),
            ("LT", 1),
            ("LE", 1),
            ("GT", 1),
            ("GE", 1),
            ("BETWEEN", 2),
            ("BEGINS_WITH", 1),
            ("CONTAINS", 1),
            ("NOT_CONTAINS", 1),
            ("NULL", 0),
            ("NOT_NULL", 0),
            ("IN", 3),
        ] {
            let values: Vec<String> = (0..n).map(|i| format!(":v{i}")).collect();
            let text = condition_text("#a", op, &values).unwrap();
            assert!(
                crate::expr::parse_condition(&text, crate::expr::ExprKind::Filter).is_ok(),
                "{op}: {text}"
            );
        }
        assert_eq!(condition_text("#a", "EQ", &[]), None);
        assert_eq!(condition_text("#a", "LIKE", &[":v".into()]), None);
    }
}
