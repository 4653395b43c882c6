//! DynamoDB's legacy (pre-expression) request parameters: `KeyConditions`,
//! `QueryFilter`, `ScanFilter`, `Expected`, `AttributeUpdates`, `AttributesToGet` and
//! `ConditionalOperator`. DynamoDB still serves them; each is checked with DynamoDB's
//! own errors, then rewritten as the expression it stands for (with placeholders of
//! its own), so one evaluator serves both forms.
//!
//! A request may not mix the two forms ("Can not use both expression and
//! non-expression parameters"), and with legacy parameters it may carry no
//! `ExpressionAttributeNames`/`ExpressionAttributeValues` (those "can only be
//! specified when using expressions"): the placeholders below cannot clash.

use serde_json::{Map, Value};

use super::error::{DynamoError, DynamoResult};
use super::eval::compare;
use super::validate::{COMPARISON_OPERATORS, UPDATE_ACTIONS};
use super::value::AttributeValue;
use super::wire::{value_from_json, Body};

/// Legacy parameters and the expression parameter each one stands for, in the order
/// DynamoDB names them in the mixing error.
pub const LEGACY: [(&str, &str); 7] = [
    ("AttributesToGet", "ProjectionExpression"),
    ("QueryFilter", "FilterExpression"),
    ("ScanFilter", "FilterExpression"),
    ("ConditionalOperator", "FilterExpression"),
    ("KeyConditions", "KeyConditionExpression"),
    ("Expected", "ConditionExpression"),
    ("AttributeUpdates", "UpdateExpression"),
];

fn invalid(msg: impl std::fmt::Display) -> DynamoError {
    DynamoError::validation(format!("One or more parameter values were invalid: {msg}"))
}

/// Builds expression text with its own `#lN`/`:lN` placeholders.
#[derive(Default)]
struct Writer {
    names: Map<String, Value>,
    values: Map<String, Value>,
}

impl Writer {
    fn name(&mut self, attr: &str) -> String {
        if let Some((k, _)) = self.names.iter().find(|(_, v)| v.as_str() == Some(attr)) {
            return k.clone();
        }
        let k = format!("#l{}", self.names.len());
        self.names
            .insert(k.clone(), Value::String(attr.to_string()));
        k
    }

    fn value(&mut self, v: &Value) -> String {
        let k = format!(":l{}", self.values.len());
        self.values.insert(k.clone(), v.clone());
        k
    }
}

/// Whether `op` takes `n` values.
fn arity_ok(op: &str, n: usize) -> bool {
    match crate::expr::legacy::arity(op) {
        Some(k) => n == k,
        None => n >= 1,
    }
}

/// The value types each comparison operator accepts.
fn type_ok(op: &str, ty: &str) -> bool {
    match op {
        "EQ" | "NE" => matches!(ty, "S" | "N" | "B" | "SS" | "NS" | "BS"),
        "BEGINS_WITH" => matches!(ty, "S" | "B"),
        "NULL" | "NOT_NULL" => true,
        _ => matches!(ty, "S" | "N" | "B"),
    }
}

fn wire_type(v: &Value) -> &str {
    v.as_object()
        .and_then(|o| o.keys().next())
        .map_or("", String::as_str)
}

/// Checks one `Condition` (`ComparisonOperator` + `AttributeValueList`) as DynamoDB
/// does and writes it as an expression on `attr`.
fn condition(w: &mut Writer, attr: &str, op: &str, list: &[Value]) -> DynamoResult<String> {
    let mut parsed = Vec::with_capacity(list.len());
    for v in list {
        parsed.push(value_from_json(v)?);
    }
    if !arity_ok(op, list.len()) {
        return Err(invalid(format!(
            "Invalid number of argument(s) for the {op} ComparisonOperator"
        )));
    }
    if let Some(first) = list.first() {
        let ty = wire_type(first);
        if list.iter().any(|v| wire_type(v) != ty) {
            return Err(invalid(
                "AttributeValues inside AttributeValueList must be of same type",
            ));
        }
        if let Some(bad) = list.iter().map(wire_type).find(|t| !type_ok(op, t)) {
            return Err(invalid(format!(
                "ComparisonOperator {op} is not valid for {bad} AttributeValue type"
            )));
        }
    }
    if op == "BETWEEN" {
        if let [lo, hi] = parsed.as_slice() {
            if compare(lo, hi) == Some(std::cmp::Ordering::Greater) {
                return Err(DynamoError::validation(
                    "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
                ));
            }
        }
    }
    let n = w.name(attr);
    let values: Vec<String> = list.iter().map(|v| w.value(v)).collect();
    crate::expr::legacy::condition_text(&n, op, &values).ok_or_else(|| {
        DynamoError::validation(format!(
            "1 validation error detected: Value '{op}' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [{}]",
            COMPARISON_OPERATORS.join(", ")
        ))
    })
}

/// A `Condition` map (`KeyConditions`, `QueryFilter`, `ScanFilter`) as one expression
/// per attribute.
fn conditions(w: &mut Writer, map: &Body<'_>) -> DynamoResult<Vec<String>> {
    let mut out = Vec::new();
    for (attr, spec) in map.entries() {
        let spec = Body::new(spec)?;
        let op = spec.str("ComparisonOperator")?.unwrap_or_default();
        let list = spec
            .list("AttributeValueList")?
            .cloned()
            .unwrap_or_default();
        out.push(condition(w, attr, op, &list)?);
    }
    Ok(out)
}

/// `Expected`: per attribute, `Exists`/`Value` or `ComparisonOperator`/
/// `AttributeValueList`, with DynamoDB's checks on their combinations.
fn expected(w: &mut Writer, map: &Body<'_>) -> DynamoResult<Vec<String>> {
    let mut out = Vec::new();
    for (attr, spec) in map.entries() {
        let spec = Body::new(spec)?;
        let value = spec.raw("Value");
        let list = spec.list("AttributeValueList")?;
        let exists = spec.bool("Exists")?;
        if list.is_some() && value.is_some() {
            return Err(invalid(format!(
                "Value and AttributeValueList cannot be used together for Attribute: {attr}"
            )));
        }
        if let Some(op) = spec.str("ComparisonOperator")? {
            if exists.is_some() {
                return Err(invalid(format!(
                    "Exists and ComparisonOperator cannot be used together for Attribute: {attr}"
                )));
            }
            let values: Vec<Value> = match (list, value) {
                (Some(l), _) => l.clone(),
                (None, Some(v)) => vec![v.clone()],
                (None, None) => {
                    if op != "NULL" && op != "NOT_NULL" {
                        return Err(invalid(format!(
                            "Value or AttributeValueList must be used with ComparisonOperator: {op} for Attribute: {attr}"
                        )));
                    }
                    Vec::new()
                }
            };
            out.push(condition(w, attr, op, &values)?);
            continue;
        }
        if list.is_some() {
            return Err(invalid(format!(
                "AttributeValueList can only be used with a ComparisonOperator for Attribute: {attr}"
            )));
        }
        match (exists.unwrap_or(true), value) {
            (true, None) => {
                return Err(invalid(format!(
                    "Value must be provided when Exists is {} for Attribute: {attr}",
                    exists.map_or("null".to_string(), |e| e.to_string())
                )))
            }
            (false, Some(_)) => {
                return Err(invalid(format!(
                    "Value cannot be used when Exists is false for Attribute: {attr}"
                )))
            }
            (false, None) => out.push(format!("attribute_not_exists({})", w.name(attr))),
            (true, Some(v)) => {
                value_from_json(v)?;
                let n = w.name(attr);
                let v = w.value(v);
                out.push(format!("{n} = {v}"));
            }
        }
    }
    Ok(out)
}

/// `AttributeUpdates`: `PUT` sets, `DELETE` without a value removes, `DELETE` with a
/// set removes its elements, `ADD` adds to a number or set, or appends to a list.
fn attribute_updates(w: &mut Writer, map: &Body<'_>) -> DynamoResult<String> {
    let (mut set, mut remove, mut add, mut delete) = (vec![], vec![], vec![], vec![]);
    for (attr, spec) in map.entries() {
        let spec = Body::new(spec)?;
        let action = spec.str("Action")?.unwrap_or("PUT");
        let value = spec.raw("Value");
        let parsed = value.map(value_from_json).transpose()?;
        let n = w.name(attr);
        match (action, value, parsed) {
            ("PUT", Some(v), _) => set.push(format!("{n} = {}", w.value(v))),
            ("PUT", None, _) => {
                return Err(invalid(format!(
                    "Only DELETE action is allowed when no attribute value is specified: {attr}"
                )))
            }
            ("DELETE", None, _) => remove.push(n),
            ("DELETE", Some(v), Some(p)) => {
                if !matches!(
                    p,
                    AttributeValue::SS(_) | AttributeValue::NS(_) | AttributeValue::BS(_)
                ) {
                    return Err(invalid(format!(
                        "DELETE action with value is not supported for the type {}",
                        p.ty()
                    )));
                }
                delete.push(format!("{n} {}", w.value(v)));
            }
            ("ADD", Some(v), Some(AttributeValue::L(_))) => {
                let empty = w.value(&serde_json::json!({"L": []}));
                let v = w.value(v);
                set.push(format!("{n} = list_append(if_not_exists({n}, {empty}), {v})"));
            }
            ("ADD", Some(v), Some(p)) => {
                if !matches!(
                    p,
                    AttributeValue::N(_)
                        | AttributeValue::SS(_)
                        | AttributeValue::NS(_)
                        | AttributeValue::BS(_)
                ) {
                    return Err(invalid(format!(
                        "ADD action is not supported for the type {}",
                        p.ty()
                    )));
                }
                add.push(format!("{n} {}", w.value(v)));
            }
            ("ADD", None, _) => {
                return Err(invalid(format!(
                    "Only DELETE action is allowed when no attribute value is specified: {attr}"
                )))
            }
            (other, _, _) => {
                return Err(DynamoError::validation(format!(
                    "1 validation error detected: Value '{other}' at 'attributeUpdates.{attr}.member.action' failed to satisfy constraint: Member must satisfy enum value set: [{}]",
                    UPDATE_ACTIONS.join(", ")
                )))
            }
        }
    }
    let mut clauses = Vec::new();
    for (kw, list) in [
        ("SET", set),
        ("REMOVE", remove),
        ("ADD", add),
        ("DELETE", delete),
    ] {
        if !list.is_empty() {
            clauses.push(format!("{kw} {}", list.join(", ")));
        }
    }
    Ok(clauses.join(" "))
}

/// True when the body carries any of the legacy parameters `params`.
pub fn uses_legacy(b: &Body<'_>, params: &[&str]) -> bool {
    params.iter().any(|l| b.has(l))
}

/// The legacy parameters present, and the expression parameters present of those
/// `allowed` (the request's own), for the mixing check. `KeyConditions` alone with
/// expressions that are not a key condition is no conflict, as in DynamoDB.
pub fn mixed(b: &Body<'_>, params: &[&str], expression_params: &[&str]) -> Option<String> {
    let exprs: Vec<&str> = expression_params
        .iter()
        .copied()
        .filter(|e| b.has(e))
        .collect();
    if exprs.is_empty() {
        return None;
    }
    let key_condition_alone = b.has("KeyConditions") && !b.has("KeyConditionExpression");
    let legacy: Vec<&str> = LEGACY
        .iter()
        .map(|(l, _)| *l)
        .filter(|l| params.contains(l))
        .filter(|l| b.has(l) && !(*l == "KeyConditions" && key_condition_alone))
        .collect();
    if legacy.is_empty() {
        return None;
    }
    Some(format!(
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {{{}}} Expression parameters: {{{}}}",
        legacy.join(", "),
        exprs.join(", ")
    ))
}

/// The request with its legacy parameters (those of `params` the operation takes)
/// rewritten as expression parameters, or `None` when it has none. Expects the
/// mixing and placeholder checks done.
pub fn rewrite(b: &Body<'_>, params: &[&str]) -> DynamoResult<Option<Value>> {
    if !uses_legacy(b, params) {
        return Ok(None);
    }
    let has = |p: &str| params.contains(&p);
    let mut w = Writer::default();
    let mut out: Map<String, Value> = b.entries().map(|(k, v)| (k.clone(), v.clone())).collect();
    for l in params {
        out.remove(*l);
    }
    let joiner = match b.str("ConditionalOperator")? {
        Some("OR") => " OR ",
        _ => " AND ",
    };
    let group = |parts: Vec<String>| -> Option<String> {
        match parts.len() {
            0 => None,
            1 => parts.into_iter().next(),
            _ => Some(
                parts
                    .iter()
                    .map(|p| format!("({p})"))
                    .collect::<Vec<_>>()
                    .join(joiner),
            ),
        }
    };
    if let Some(kc) = b.object("KeyConditions")?.filter(|_| has("KeyConditions")) {
        let parts = conditions(&mut w, &kc)?;
        if !(1..=2).contains(&parts.len()) {
            return Err(DynamoError::validation(
                "Conditions can be of length 1 or 2 only",
            ));
        }
        if let Some(kce) = group_and(parts) {
            out.insert("KeyConditionExpression".into(), Value::String(kce));
        }
    }
    for field in ["QueryFilter", "ScanFilter"] {
        if let Some(f) = b.object(field)?.filter(|_| has(field)) {
            if let Some(e) = group(conditions(&mut w, &f)?) {
                out.insert("FilterExpression".into(), Value::String(e));
            }
        }
    }
    if let Some(e) = b.object("Expected")?.filter(|_| has("Expected")) {
        if let Some(c) = group(expected(&mut w, &e)?) {
            out.insert("ConditionExpression".into(), Value::String(c));
        }
    }
    if let Some(u) = b
        .object("AttributeUpdates")?
        .filter(|_| has("AttributeUpdates"))
    {
        let text = attribute_updates(&mut w, &u)?;
        if !text.is_empty() {
            out.insert("UpdateExpression".into(), Value::String(text));
        }
    }
    if let Some(list) = b
        .list("AttributesToGet")?
        .filter(|_| has("AttributesToGet"))
    {
        let mut seen: Vec<&str> = Vec::new();
        let mut paths = Vec::new();
        for v in list {
            let name = v.as_str().ok_or_else(|| {
                DynamoError::serialization("Unexpected value type in payload for AttributesToGet")
            })?;
            if seen.contains(&name) {
                return Err(invalid(format!(
                    "Duplicate value in attribute name: {name}"
                )));
            }
            seen.push(name);
            paths.push(w.name(name));
        }
        out.insert(
            "ProjectionExpression".into(),
            Value::String(paths.join(", ")),
        );
    }
    if !w.names.is_empty() {
        out.insert("ExpressionAttributeNames".into(), Value::Object(w.names));
    }
    if !w.values.is_empty() {
        out.insert("ExpressionAttributeValues".into(), Value::Object(w.values));
    }
    Ok(Some(Value::Object(out)))
}

/// Key conditions are always joined by AND, whatever `ConditionalOperator` says.
fn group_and(parts: Vec<String>) -> Option<String> {
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(" AND "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ALL: [&str; 7] = [
        "AttributesToGet",
        "QueryFilter",
        "ScanFilter",
        "ConditionalOperator",
        "KeyConditions",
        "Expected",
        "AttributeUpdates",
    ];

    fn rewritten(v: Value) -> Value {
        rewrite(&Body::new(&v).unwrap(), &ALL).unwrap().unwrap()
    }

    #[test]
    fn conditions_become_expressions() {
        let r = rewritten(json!({
            "TableName": "T",
            "KeyConditions": {
                "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]},
                "sk": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "b"}, {"S": "d"}]}
            },
            "QueryFilter": {"x": {"ComparisonOperator": "NOT_NULL"}},
        }));
        assert_eq!(
            r["KeyConditionExpression"],
            "#l0 = :l0 AND #l1 BETWEEN :l1 AND :l2"
        );
        assert_eq!(r["FilterExpression"], "attribute_exists(#l2)");
        assert_eq!(r["ExpressionAttributeNames"]["#l1"], "sk");
        assert!(r.get("KeyConditions").is_none());
    }

    #[test]
    fn expected_and_updates() {
        let r = rewritten(json!({
            "Expected": {"a": {"Exists": false}, "b": {"Value": {"N": "1"}}},
            "ConditionalOperator": "OR",
            "AttributeUpdates": {
                "c": {"Action": "ADD", "Value": {"N": "2"}},
                "d": {"Action": "DELETE"},
                "e": {"Value": {"S": "x"}}
            }
        }));
        assert_eq!(
            r["ConditionExpression"],
            "(attribute_not_exists(#l0)) OR (#l1 = :l0)"
        );
        assert_eq!(
            r["UpdateExpression"],
            "SET #l4 = :l2 REMOVE #l3 ADD #l2 :l1"
        );
    }

    #[test]
    fn dynamodb_errors() {
        let err = |v: Value| rewrite(&Body::new(&v).unwrap(), &ALL).unwrap_err().message;
        assert_eq!(
            err(json!({"Expected": {"a": {"Exists": true}}})),
            "One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: a"
        );
        assert_eq!(
            err(json!({"ScanFilter": {"a": {"ComparisonOperator": "EQ"}}})),
            "One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"
        );
        assert_eq!(
            err(json!({"ScanFilter": {"a": {"ComparisonOperator": "GT", "AttributeValueList": [{"SS": ["x"]}]}}})),
            "One or more parameter values were invalid: ComparisonOperator GT is not valid for SS AttributeValue type"
        );
        assert!(mixed(
            &Body::new(&json!({"Expected": {}, "ConditionExpression": "x"})).unwrap(),
            &ALL,
            &["ConditionExpression"]
        )
        .is_some());
    }
}
