//! A table's settings besides its keys: Time to Live (`UpdateTimeToLive`,
//! `DescribeTimeToLive`) and tags (`TagResource`, `UntagResource`,
//! `ListTagsOfResource`, by table ARN). Items whose TTL attribute has passed are
//! deleted by background work ([`crate::engine::db::Engine::expire_items`], run by
//! `dynalint serve` every second), as DynamoDB deletes them some time after expiry.

use serde_json::{json, Value};

use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult, ErrorKind};
use crate::engine::table::Table;
use crate::engine::validate::{table_name_at, Constraints};
use crate::engine::wire::Body;

/// `UpdateTimeToLive`: enables TTL on an attribute, or disables it.
pub fn update_time_to_live(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
    let spec = b.object("TimeToLiveSpecification")?;
    let attr = spec.map(|s| s.str("AttributeName")).transpose()?.flatten();
    let enabled = spec.map(|s| s.bool("Enabled")).transpose()?.flatten();
    let mut c = Constraints::new();
    c.not_null(spec.is_some(), "timeToLiveSpecification");
    if spec.is_some() {
        c.not_null(attr.is_some(), "timeToLiveSpecification.attributeName");
        if let Some(a) = attr {
            c.length(
                a.chars().count(),
                a,
                "timeToLiveSpecification.attributeName",
                1,
                Some(255),
            );
        }
        c.not_null(enabled.is_some(), "timeToLiveSpecification.enabled");
    }
    c.finish()?;
    let (attr, enabled) = (attr.unwrap_or_default(), enabled.unwrap_or_default());
    let table = engine.table_mut(name)?;
    match (&table.ttl, enabled) {
        (Some(_), true) => return Err(DynamoError::validation("TimeToLive is already enabled")),
        (None, false) => return Err(DynamoError::validation("TimeToLive is already disabled")),
        _ => {}
    }
    table.ttl = enabled.then(|| attr.to_string());
    Ok(json!({"TimeToLiveSpecification": {"AttributeName": attr, "Enabled": enabled}}))
}

/// `DescribeTimeToLive`.
pub fn describe_time_to_live(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
    let table = engine.table(name)?;
    Ok(match &table.ttl {
        Some(a) => {
            json!({"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLED", "AttributeName": a}})
        }
        None => json!({"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}),
    })
}

/// The table an ARN names (`arn:aws:dynamodb:<region>:<account>:table/<name>`).
/// A malformed ARN is a ValidationException; a table that does not exist is, as
/// DynamoDB answers it, an AccessDeniedException.
fn table_by_arn<'e>(
    engine: &'e mut Engine,
    arn: &str,
    action: &str,
) -> DynamoResult<&'e mut Table> {
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    let name = match parts.as_slice() {
        ["arn", _, "dynamodb", _, _, resource] => resource
            .strip_prefix("table/")
            .filter(|n| !n.is_empty() && !n.contains('/')),
        _ => None,
    }
    .ok_or_else(|| {
        DynamoError::validation(format!(
            "Invalid TableArn: Invalid ResourceArn provided as input {arn}"
        ))
    })?;
    engine.tables.get_mut(name).ok_or_else(|| {
        DynamoError::new(
            ErrorKind::AccessDenied,
            format!(
                "User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:{action} on resource: {arn}"
            ),
        )
    })
}

fn resource_arn<'a>(b: &Body<'a>) -> DynamoResult<&'a str> {
    let arn = b.str("ResourceArn")?;
    let mut c = Constraints::new();
    c.not_null(arn.is_some(), "resourceArn");
    if let Some(a) = arn {
        c.length(a.chars().count(), a, "resourceArn", 1, Some(1283));
    }
    c.finish()?;
    Ok(arn.unwrap_or_default())
}

/// `TagResource`: adds tags, replacing the value of a key already there.
pub fn tag_resource(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let arn = resource_arn(&b)?;
    let tags = b.list("Tags")?;
    let mut c = Constraints::new();
    c.not_null(tags.is_some(), "tags");
    c.finish()?;
    let mut pairs = Vec::new();
    for t in tags.into_iter().flatten() {
        let t = Body::new(t)?;
        let (Some(k), Some(v)) = (t.str("Key")?, t.str("Value")?) else {
            return Err(DynamoError::validation(
                "1 validation error detected: Value null at 'tags.member.key' failed to satisfy constraint: Member must not be null",
            ));
        };
        pairs.push((k.to_string(), v.to_string()));
    }
    let table = table_by_arn(engine, arn, "TagResource")?;
    table.tags.extend(pairs);
    Ok(json!({}))
}

/// `UntagResource`.
pub fn untag_resource(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let arn = resource_arn(&b)?;
    let keys = b.list("TagKeys")?;
    let mut c = Constraints::new();
    c.not_null(keys.is_some(), "tagKeys");
    c.finish()?;
    let keys: Vec<String> = keys
        .into_iter()
        .flatten()
        .filter_map(|k| k.as_str().map(str::to_string))
        .collect();
    let table = table_by_arn(engine, arn, "UntagResource")?;
    for k in keys {
        table.tags.remove(&k);
    }
    Ok(json!({}))
}

/// `ListTagsOfResource`.
pub fn list_tags_of_resource(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let arn = resource_arn(&b)?;
    let table = table_by_arn(engine, arn, "ListTagsOfResource")?;
    let tags: Vec<Value> = table
        .tags
        .iter()
        .map(|(k, v)| json!({"Key": k, "Value": v}))
        .collect();
    Ok(json!({ "Tags": tags }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ttl_and_tags() {
        let mut e = Engine::new();
        e.handle(
            "CreateTable",
            &json!({"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}),
        )
        .unwrap();
        let d = e
            .handle("DescribeTimeToLive", &json!({"TableName": "Tbl"}))
            .unwrap();
        assert_eq!(d["TimeToLiveDescription"]["TimeToLiveStatus"], "DISABLED");
        e.handle(
            "UpdateTimeToLive",
            &json!({"TableName": "Tbl", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}),
        )
        .unwrap();
        let d = e
            .handle("DescribeTimeToLive", &json!({"TableName": "Tbl"}))
            .unwrap();
        assert_eq!(d["TimeToLiveDescription"]["AttributeName"], "exp");
        let arn = "arn:aws:dynamodb:local:000000000000:table/Tbl";
        e.handle(
            "TagResource",
            &json!({"ResourceArn": arn, "Tags": [{"Key": "a", "Value": "1"}]}),
        )
        .unwrap();
        e.handle(
            "TagResource",
            &json!({"ResourceArn": arn, "Tags": [{"Key": "a", "Value": "2"}]}),
        )
        .unwrap();
        let l = e
            .handle("ListTagsOfResource", &json!({"ResourceArn": arn}))
            .unwrap();
        assert_eq!(l["Tags"], json!([{"Key": "a", "Value": "2"}]));
        e.handle(
            "UntagResource",
            &json!({"ResourceArn": arn, "TagKeys": ["a"]}),
        )
        .unwrap();
        let l = e
            .handle("ListTagsOfResource", &json!({"ResourceArn": arn}))
            .unwrap();
        assert_eq!(l["Tags"], json!([]));
        let bad = e
            .handle("TagResource", &json!({"ResourceArn": "nope", "Tags": []}))
            .unwrap_err();
        assert_eq!(bad.kind, ErrorKind::Validation);
        let missing = e
            .handle(
                "ListTagsOfResource",
                &json!({"ResourceArn": "arn:aws:dynamodb:us-east-1:1:table/Other"}),
            )
            .unwrap_err();
        assert_eq!(missing.kind, ErrorKind::AccessDenied);
    }
}
