//! The expression-layer cases of the shared conformance data
//! (`test-fixtures/expr/conformance-expr.json`, extracted by `extract.py` beside it):
//! every request DynamoDB accepts must pass the expression checks, and every request it
//! rejects for an expression reason must fail with DynamoDB's message.

use serde_json::Value;

use crate::attr::AttributeType;
use crate::expr::{
    check_key_condition, check_request, Ast, ExprError, ExprKind, KeyAttribute, KeySchema, Limits,
    Names,
};

const FIXTURE: &str = include_str!("../../../test-fixtures/expr/conformance-expr.json");

fn kind_of(parameter: &str) -> Option<ExprKind> {
    Some(match parameter {
        "KeyConditionExpression" => ExprKind::KeyCondition,
        "FilterExpression" => ExprKind::Filter,
        "ConditionExpression" => ExprKind::Condition,
        "ProjectionExpression" => ExprKind::Projection,
        "UpdateExpression" => ExprKind::Update,
        _ => return None,
    })
}

fn key_attr(v: &Value) -> Option<KeyAttribute> {
    Some(KeyAttribute {
        name: v.get(0)?.as_str()?.to_string(),
        ty: v
            .get(1)
            .and_then(Value::as_str)
            .and_then(AttributeType::parse),
    })
}

/// Runs one request's expressions through everything the expression layer checks.
fn run(case: &Value) -> Result<(), ExprError> {
    let exprs: Vec<(ExprKind, &str)> = case["expressions"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((kind_of(k)?, v.as_str()?)))
        .collect();
    let names = case["names"].as_object().map(|m| {
        Names::from_pairs(
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())),
        )
    });
    // GetItem and BatchGetItem have no ExpressionAttributeValues parameter: DynamoDB
    // ignores one sent anyway (conformance projection/err_projection_with_unused_values).
    let has_values_parameter = !matches!(case["op"].as_str(), Some("GetItem" | "BatchGetItem"));
    let values: Option<Vec<&str>> = case["values"]
        .as_array()
        .filter(|_| has_values_parameter)
        .map(|a| a.iter().filter_map(Value::as_str).collect());
    let parsed = check_request(&exprs, names.as_ref(), values.as_deref(), &Limits::DYNAMODB)?;
    let schema = case.get("key_schema").and_then(|s| {
        Some(KeySchema {
            partition_key: key_attr(s.get("partition")?)?,
            sort_key: s.get("sort").and_then(key_attr),
        })
    });
    if let Some(schema) = schema {
        for (kind, ast) in &parsed {
            if let (ExprKind::KeyCondition, Ast::Condition(c)) = (kind, ast) {
                check_key_condition(c, &schema, names.as_ref().unwrap_or(&Names::new()))?;
            }
        }
    }
    Ok(())
}

#[test]
fn conformance_cases() {
    let data: Value = serde_json::from_str(FIXTURE).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert!(cases.len() > 150, "fixture looks truncated");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let result = run(case);
        if case["ok"].as_bool() == Some(true) {
            if let Err(e) = result {
                failures.push(format!("{name}: DynamoDB accepts it, we said: {e}"));
            }
            continue;
        }
        let Err(e) = result else {
            failures.push(format!("{name}: DynamoDB rejects it, we accepted it"));
            continue;
        };
        if let Some(expected) = case["message"].as_str() {
            if e.message != expected {
                failures.push(format!(
                    "{name}:\n  expected {expected}\n  got      {}",
                    e.message
                ));
            }
        }
        for phrase in case["message_contains"].as_array().into_iter().flatten() {
            let phrase = phrase.as_str().unwrap();
            if !e.message.contains(phrase) {
                failures.push(format!("{name}: {:?} lacks {phrase:?}", e.message));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
