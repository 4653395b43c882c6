//! CreateTable, DescribeTable, DeleteTable and ListTables.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use crate::attr::AttributeType;
use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult, ErrorKind};
use crate::engine::schema::{
    IndexKind, IndexSchema, KeyAttribute, KeySchema, Projection, TableSchema,
};
use crate::engine::table::Table;
use crate::engine::wire::Body;

/// Most global secondary indexes per table (DynamoDB's default quota).
pub const MAX_GSIS: usize = 20;
/// Most local secondary indexes per table.
pub const MAX_LSIS: usize = 5;

fn invalid(msg: impl Into<String>) -> DynamoError {
    DynamoError::validation(format!(
        "One or more parameter values were invalid: {}",
        msg.into()
    ))
}

/// Reads a `KeySchema` list against the declared attribute definitions.
fn key_schema(
    list: &[Value],
    defs: &[(String, AttributeType)],
    what: &str,
) -> DynamoResult<KeySchema> {
    let mut hash = None;
    let mut range = None;
    for (i, el) in list.iter().enumerate() {
        let el = Body::new(el)?;
        let name = el.required_str("AttributeName", "keySchema.member.attributeName")?;
        let kind = el.required_str("KeyType", "keySchema.member.keyType")?;
        let ty = defs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| {
                invalid(format!(
                    "Some index key attributes are not defined in AttributeDefinitions. Keys: [{name}], AttributeDefinitions: [{}]",
                    defs.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
                ))
            })?;
        let attr = KeyAttribute::new(name, ty);
        match (kind, i) {
            ("HASH", 0) => hash = Some(attr),
            ("RANGE", 1) => range = Some(attr),
            ("HASH" | "RANGE", _) => {
                return Err(invalid(format!(
                    "Invalid KeySchema: The first KeySchemaElement is not a HASH key type ({what})"
                )))
            }
            (other, _) => {
                return Err(DynamoError::validation(format!(
                    "1 validation error detected: Value '{other}' at 'keySchema.{}.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
                    i + 1
                )))
            }
        }
    }
    let hash = hash.ok_or_else(|| {
        invalid(format!(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type ({what})"
        ))
    })?;
    if range.as_ref().is_some_and(|r| r.name == hash.name) {
        return Err(invalid(
            "Both the Hash Key and the Range Key element in the KeySchema have the same name",
        ));
    }
    Ok(KeySchema { hash, range })
}

fn projection(body: Option<Body<'_>>) -> DynamoResult<Projection> {
    let Some(p) = body else {
        return Err(invalid("Projection is required for secondary indexes"));
    };
    match p.str("ProjectionType")? {
        Some("ALL") | None => Ok(Projection::All),
        Some("KEYS_ONLY") => Ok(Projection::KeysOnly),
        Some("INCLUDE") => {
            let list = p.list("NonKeyAttributes")?.cloned().unwrap_or_default();
            let names = list
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| DynamoError::serialization("NonKeyAttributes must be strings"))?;
            Ok(Projection::Include(names))
        }
        Some(other) => Err(DynamoError::validation(format!(
            "1 validation error detected: Value '{other}' at 'projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]"
        ))),
    }
}

/// Builds a table schema from a CreateTable body.
pub fn schema_from_request(body: &Value) -> DynamoResult<TableSchema> {
    let b = Body::new(body)?;
    let name = b.required_str("TableName", "tableName")?;
    if name.len() < 3 || name.len() > 255 {
        return Err(DynamoError::validation(
            "TableName must be at least 3 characters long and at most 255 characters long",
        ));
    }
    let mut defs = Vec::new();
    for d in b.list("AttributeDefinitions")?.cloned().unwrap_or_default() {
        let d = Body::new(&d)?;
        let n = d.required_str("AttributeName", "attributeDefinitions.member.attributeName")?;
        let t = d.required_str("AttributeType", "attributeDefinitions.member.attributeType")?;
        let ty = AttributeType::parse(t).filter(|t| t.is_key_type()).ok_or_else(|| {
            DynamoError::validation(format!(
                "1 validation error detected: Value '{t}' at 'attributeDefinitions.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"
            ))
        })?;
        defs.push((n.to_string(), ty));
    }
    let ks = b
        .list("KeySchema")?
        .ok_or_else(|| DynamoError::missing_member("keySchema"))?;
    let keys = key_schema(ks, &defs, "table")?;
    let mut indexes = Vec::new();
    for (field, kind) in [
        ("GlobalSecondaryIndexes", IndexKind::Global),
        ("LocalSecondaryIndexes", IndexKind::Local),
    ] {
        for ix in b.list(field)?.cloned().unwrap_or_default() {
            let ix = Body::new(&ix)?;
            let iname = ix.required_str("IndexName", "indexName")?;
            let iks = ix.list("KeySchema")?.cloned().unwrap_or_default();
            let ikeys = key_schema(&iks, &defs, iname)?;
            if kind == IndexKind::Local {
                if ikeys.hash != keys.hash {
                    return Err(invalid(format!(
                        "Index KeySchema does not have the same leading hash key as table KeySchema for index: {iname}. index hash key: {}, table hash key: {}",
                        ikeys.hash.name, keys.hash.name
                    )));
                }
                if ikeys.range.is_none() || keys.range.is_none() {
                    return Err(invalid(
                        "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
                    ));
                }
            }
            if indexes.iter().any(|i: &IndexSchema| i.name == iname) {
                return Err(invalid(format!("Duplicate index name: {iname}")));
            }
            indexes.push(IndexSchema {
                name: iname.to_string(),
                kind,
                keys: ikeys,
                projection: projection(ix.object("Projection")?)?,
            });
        }
    }
    let count = |k| indexes.iter().filter(|i| i.kind == k).count();
    if count(IndexKind::Global) > MAX_GSIS {
        return Err(DynamoError::validation(
            "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20",
        ));
    }
    if count(IndexKind::Local) > MAX_LSIS {
        return Err(DynamoError::validation(
            "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5",
        ));
    }
    let used = |n: &str| keys.contains(n) || indexes.iter().any(|i| i.keys.contains(n));
    if let Some((unused, _)) = defs.iter().find(|(n, _)| !used(n)) {
        return Err(invalid(format!(
            "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions ({unused})"
        )));
    }
    Ok(TableSchema {
        name: name.to_string(),
        keys,
        indexes,
    })
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// `CreateTable`: the table is ACTIVE at once (no CREATING phase in memory).
pub fn create_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let schema = schema_from_request(body)?;
    if engine.tables.contains_key(&schema.name) {
        return Err(DynamoError::new(
            ErrorKind::ResourceInUse,
            format!("Table already exists: {}", schema.name),
        ));
    }
    let name = schema.name.clone();
    engine
        .tables
        .insert(name.clone(), Table::new(schema, now()));
    let table = engine.table(&name)?;
    Ok(json!({ "TableDescription": describe(table) }))
}

fn key_schema_json(k: &KeySchema) -> Value {
    let mut out = vec![json!({"AttributeName": k.hash.name, "KeyType": "HASH"})];
    if let Some(r) = &k.range {
        out.push(json!({"AttributeName": r.name, "KeyType": "RANGE"}));
    }
    Value::Array(out)
}

/// DynamoDB's `TableDescription` of a table.
pub fn describe(t: &Table) -> Value {
    let s = &t.schema;
    let mut defs: Vec<(&str, AttributeType)> = Vec::new();
    for k in s
        .keys
        .attributes()
        .chain(s.indexes.iter().flat_map(|i| i.keys.attributes()))
    {
        if !defs.iter().any(|(n, _)| *n == k.name) {
            defs.push((&k.name, k.ty));
        }
    }
    let mut d = Map::new();
    d.insert("TableName".into(), json!(s.name));
    d.insert("TableStatus".into(), json!("ACTIVE"));
    d.insert("CreationDateTime".into(), json!(t.created));
    d.insert(
        "AttributeDefinitions".into(),
        Value::Array(
            defs.iter()
                .map(|(n, ty)| json!({"AttributeName": n, "AttributeType": ty.as_str()}))
                .collect(),
        ),
    );
    d.insert("KeySchema".into(), key_schema_json(&s.keys));
    d.insert("ItemCount".into(), json!(t.item_count()));
    d.insert("TableSizeBytes".into(), json!(t.size_bytes()));
    d.insert(
        "TableArn".into(),
        json!(format!(
            "arn:aws:dynamodb:local:000000000000:table/{}",
            s.name
        )),
    );
    d.insert(
        "BillingModeSummary".into(),
        json!({"BillingMode": "PAY_PER_REQUEST"}),
    );
    d.insert(
        "ProvisionedThroughput".into(),
        json!({"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0}),
    );
    let mut gsis = Vec::new();
    let mut lsis = Vec::new();
    for (i, ix) in s.indexes.iter().enumerate() {
        let mut p = Map::new();
        p.insert("ProjectionType".into(), json!(ix.projection.type_name()));
        if let Projection::Include(list) = &ix.projection {
            p.insert("NonKeyAttributes".into(), json!(list));
        }
        let mut o = Map::new();
        o.insert("IndexName".into(), json!(ix.name));
        o.insert("KeySchema".into(), key_schema_json(&ix.keys));
        o.insert("Projection".into(), Value::Object(p));
        o.insert("IndexSizeBytes".into(), json!(t.index_size_bytes(i)));
        o.insert("ItemCount".into(), json!(t.index_item_count(i)));
        o.insert(
            "IndexArn".into(),
            json!(format!(
                "arn:aws:dynamodb:local:000000000000:table/{}/index/{}",
                s.name, ix.name
            )),
        );
        match ix.kind {
            IndexKind::Global => {
                o.insert("IndexStatus".into(), json!("ACTIVE"));
                o.insert(
                    "ProvisionedThroughput".into(),
                    json!({"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0}),
                );
                gsis.push(Value::Object(o));
            }
            IndexKind::Local => lsis.push(Value::Object(o)),
        }
    }
    if !gsis.is_empty() {
        d.insert("GlobalSecondaryIndexes".into(), Value::Array(gsis));
    }
    if !lsis.is_empty() {
        d.insert("LocalSecondaryIndexes".into(), Value::Array(lsis));
    }
    Value::Object(d)
}

/// `DescribeTable`.
pub fn describe_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = b.required_str("TableName", "tableName")?;
    Ok(json!({ "Table": describe(engine.table(name)?) }))
}

/// `DeleteTable`: gone at once.
pub fn delete_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = b.required_str("TableName", "tableName")?;
    let table = engine
        .tables
        .remove(name)
        .ok_or_else(DynamoError::not_found)?;
    let mut d = describe(&table);
    if let Some(o) = d.as_object_mut() {
        o.insert("TableStatus".into(), json!("DELETING"));
    }
    Ok(json!({ "TableDescription": d }))
}

/// `ListTables`, with `ExclusiveStartTableName` and `Limit` (1..=100).
pub fn list_tables(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let start = b.str("ExclusiveStartTableName")?;
    let limit = b.int("Limit")?.unwrap_or(100);
    if !(1..=100).contains(&limit) {
        return Err(DynamoError::validation(format!(
            "1 validation error detected: Value '{limit}' at 'limit' failed to satisfy constraint: Member must have value {} 100",
            if limit < 1 { "greater than or equal to 1, less than or equal to" } else { "less than or equal to" }
        )));
    }
    let names: Vec<&String> = engine
        .table_names()
        .filter(|n| start.is_none_or(|s| n.as_str() > s))
        .collect();
    let limit = limit as usize;
    let page: Vec<&String> = names.iter().take(limit).copied().collect();
    let mut out = Map::new();
    out.insert("TableNames".into(), json!(page));
    if names.len() > limit {
        if let Some(last) = page.last() {
            out.insert("LastEvaluatedTableName".into(), json!(last));
        }
    }
    Ok(Value::Object(out))
}
