//! CreateTable, DescribeTable, DeleteTable and ListTables.

use serde_json::{json, Map, Value};

use crate::attr::AttributeType;
use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult, ErrorKind};
use crate::engine::schema::{
    IndexKind, IndexSchema, KeyAttribute, KeySchema, Projection, TableSchema,
};
use crate::engine::table::{Billing, StreamState, Table};
use crate::engine::validate::{table_name_at, Constraints, BILLING_MODES};
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

/// A `KeySchema` element as DynamoDB echoes it in a violation.
fn key_element_repr(v: &Value) -> String {
    let field = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or("null")
            .to_string()
    };
    format!(
        "KeySchemaElement(attributeName={}, keyType={})",
        field("AttributeName"),
        field("KeyType")
    )
}

/// The member constraints of a `KeySchema` at `path` (1 or 2 elements, each with a
/// name and a HASH or RANGE key type).
fn key_schema_constraints(c: &mut Constraints, list: Option<&Vec<Value>>, path: &str) {
    let Some(list) = list else {
        c.not_null(false, path);
        return;
    };
    let shown = format!(
        "[{}]",
        list.iter()
            .map(key_element_repr)
            .collect::<Vec<_>>()
            .join(", ")
    );
    c.length(list.len(), &shown, path, 1, Some(2));
    for (i, el) in list.iter().enumerate() {
        let kt = el.get("KeyType").and_then(Value::as_str);
        c.not_null(
            el.get("AttributeName").is_some_and(|v| !v.is_null()),
            &format!("{path}.{}.member.attributeName", i + 1),
        );
        c.not_null(kt.is_some(), &format!("{path}.{}.member.keyType", i + 1));
        c.enumeration(
            kt,
            &format!("{path}.{}.member.keyType", i + 1),
            &["HASH", "RANGE"],
        );
    }
}

/// The names of a `KeySchema`, in order.
fn key_names(list: &[Value]) -> Vec<&str> {
    list.iter()
        .filter_map(|e| e.get("AttributeName").and_then(Value::as_str))
        .collect()
}

fn key_type(list: &[Value], i: usize) -> Option<&str> {
    list.get(i)
        .and_then(|e| e.get("KeyType"))
        .and_then(Value::as_str)
}

/// DynamoDB's checks on one key schema (the table's or an index's) against the
/// attribute definitions, and the schema they describe.
fn key_schema(list: &[Value], defs: &[(String, AttributeType)]) -> DynamoResult<KeySchema> {
    let names = key_names(list);
    let def_names: Vec<&str> = defs.iter().map(|(n, _)| n.as_str()).collect();
    if names.iter().any(|k| !def_names.contains(k)) {
        return Err(invalid(format!(
            "Some index key attributes are not defined in AttributeDefinitions. Keys: [{}], AttributeDefinitions: [{}]",
            names.join(", "),
            def_names.join(", ")
        )));
    }
    if names.len() == 2 && names[0] == names[1] {
        return Err(DynamoError::validation(
            "Both the Hash Key and the Range Key element in the KeySchema have the same name",
        ));
    }
    if key_type(list, 0) != Some("HASH") {
        return Err(DynamoError::validation(
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
        ));
    }
    if list.len() > 1 && key_type(list, 1) != Some("RANGE") {
        return Err(DynamoError::validation(
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
        ));
    }
    let attr = |name: &str| {
        let ty = defs
            .iter()
            .find(|(n, _)| n == name)
            .map_or(AttributeType::S, |(_, t)| *t);
        KeyAttribute::new(name, ty)
    };
    Ok(KeySchema {
        hash: attr(names.first().copied().unwrap_or_default()),
        range: names.get(1).map(|n| attr(n)),
    })
}

fn projection(p: Option<Body<'_>>) -> DynamoResult<Projection> {
    let Some(p) = p else {
        return Err(invalid("Unknown ProjectionType: null"));
    };
    let ty = p.str("ProjectionType")?;
    let non_key = p.list("NonKeyAttributes")?;
    if let (Some(t), Some(_)) = (ty, non_key) {
        if t != "INCLUDE" {
            return Err(invalid(format!(
                "ProjectionType is {t}, but NonKeyAttributes is specified"
            )));
        }
    }
    match ty {
        Some("ALL") => Ok(Projection::All),
        Some("KEYS_ONLY") => Ok(Projection::KeysOnly),
        Some("INCLUDE") => {
            let names = non_key
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    DynamoError::serialization(
                        "Unexpected value type in payload for NonKeyAttributes",
                    )
                })?;
            Ok(Projection::Include(names))
        }
        _ => Err(invalid("Unknown ProjectionType: null")),
    }
}

/// `BillingMode` and `ProvisionedThroughput` of a CreateTable, checked.
fn billing(b: &Body<'_>) -> DynamoResult<Billing> {
    let mode = b.str("BillingMode")?.unwrap_or("PROVISIONED");
    let pt = b.object("ProvisionedThroughput")?;
    if mode == "PAY_PER_REQUEST" {
        if pt.is_some() {
            return Err(invalid(
                "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
            ));
        }
        return Ok(Billing::PayPerRequest);
    }
    let units = |k: &str| -> DynamoResult<Option<i64>> { pt.map_or(Ok(None), |p| p.int(k)) };
    let (Some(read), Some(write)) = (units("ReadCapacityUnits")?, units("WriteCapacityUnits")?)
    else {
        return Err(invalid(
            "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
        ));
    };
    for (name, v) in [("ReadCapacityUnits", read), ("WriteCapacityUnits", write)] {
        if v > 1_000_000_000_000 {
            return Err(DynamoError::validation(format!(
                "Given value {v} for {name} is out of bounds"
            )));
        }
    }
    Ok(Billing::Provisioned { read, write })
}

/// The constraints of a `ProvisionedThroughput` at `path`.
fn throughput_constraints(
    c: &mut Constraints,
    pt: Option<Body<'_>>,
    path: &str,
) -> DynamoResult<()> {
    let Some(pt) = pt else { return Ok(()) };
    for (k, p) in [
        ("ReadCapacityUnits", "readCapacityUnits"),
        ("WriteCapacityUnits", "writeCapacityUnits"),
    ] {
        let v = pt.int(k)?;
        c.not_null(v.is_some(), &format!("{path}.{p}"));
        c.range(v, &format!("{path}.{p}"), Some(1), None);
    }
    Ok(())
}

/// Builds a table from a CreateTable body, in DynamoDB's order of checks: the table
/// name, the members' constraints, then billing, key schema and indexes.
pub fn schema_from_request(body: &Value) -> DynamoResult<(TableSchema, Billing)> {
    let b = Body::new(body)?;
    if !b.has("TableName") {
        return Err(DynamoError::validation(
            "The parameter 'TableName' is required but was not present in the request",
        ));
    }
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
    let def_list = b.list("AttributeDefinitions")?;
    let ks = b.list("KeySchema")?;
    let mut c = Constraints::new();
    c.not_null(def_list.is_some(), "attributeDefinitions");
    for (i, d) in def_list.into_iter().flatten().enumerate() {
        let t = d.get("AttributeType").and_then(Value::as_str);
        let path = format!("attributeDefinitions.{}.member.attributeType", i + 1);
        c.not_null(t.is_some(), &path);
        c.enumeration(t, &path, &["B", "N", "S"]);
    }
    c.enumeration(b.str("BillingMode")?, "billingMode", BILLING_MODES);
    throughput_constraints(
        &mut c,
        b.object("ProvisionedThroughput")?,
        "provisionedThroughput",
    )?;
    key_schema_constraints(&mut c, ks, "keySchema");
    for (field, path) in [
        ("LocalSecondaryIndexes", "localSecondaryIndexes"),
        ("GlobalSecondaryIndexes", "globalSecondaryIndexes"),
    ] {
        for (i, ix) in b.list(field)?.into_iter().flatten().enumerate() {
            let at = format!("{path}.{}.member", i + 1);
            let iname = ix.get("IndexName").and_then(Value::as_str);
            c.not_null(iname.is_some(), &format!("{at}.indexName"));
            c.name(iname, &format!("{at}.indexName"), 3);
            key_schema_constraints(
                &mut c,
                ix.get("KeySchema").and_then(Value::as_array),
                &format!("{at}.keySchema"),
            );
            let pt = ix.get("Projection").and_then(|p| p.get("ProjectionType"));
            c.enumeration(
                pt.and_then(Value::as_str),
                &format!("{at}.projection.projectionType"),
                &["ALL", "INCLUDE", "KEYS_ONLY"],
            );
        }
    }
    c.finish()?;

    let billing = billing(&b)?;
    let mut defs = Vec::new();
    for d in def_list.into_iter().flatten() {
        let d = Body::new(d)?;
        let n = d.str("AttributeName")?.unwrap_or_default();
        let t = d.str("AttributeType")?.unwrap_or_default();
        let ty = AttributeType::parse(t).unwrap_or(AttributeType::S);
        defs.push((n.to_string(), ty));
    }
    let ks = ks.map_or(&[][..], Vec::as_slice);
    if ks.len() > defs.len() {
        return Err(DynamoError::validation(
            "Invalid KeySchema: Some index key attribute have no definition",
        ));
    }
    let keys = key_schema(ks, &defs)?;
    let lsis = b.list("LocalSecondaryIndexes")?;
    let gsis = b.list("GlobalSecondaryIndexes")?;
    if lsis.is_none() && gsis.is_none() && ks.len() != defs.len() {
        return Err(invalid(
            "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
        ));
    }
    let mut indexes: Vec<IndexSchema> = Vec::new();
    for (list, kind) in [(lsis, IndexKind::Local), (gsis, IndexKind::Global)] {
        let Some(list) = list else { continue };
        let what = if kind == IndexKind::Local {
            "LocalSecondaryIndexes"
        } else {
            "GlobalSecondaryIndexes"
        };
        if list.is_empty() {
            return Err(invalid(format!("List of {what} is empty")));
        }
        if kind == IndexKind::Local && keys.range.is_none() {
            return Err(invalid(
                "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
            ));
        }
        for ix in list {
            let ix = Body::new(ix)?;
            let iname = ix.str("IndexName")?.unwrap_or_default();
            let iks = ix.list("KeySchema")?.cloned().unwrap_or_default();
            let ikeys = key_schema(&iks, &defs)?;
            if kind == IndexKind::Local {
                if ikeys.range.is_none() {
                    return Err(invalid(format!(
                        "Index KeySchema does not have a range key for index: {iname}"
                    )));
                }
                if ikeys.hash.name != keys.hash.name {
                    return Err(invalid(format!(
                        "Index KeySchema does not have the same leading hash key as table KeySchema for index: {iname}. index hash key: {}, table hash key: {}",
                        ikeys.hash.name, keys.hash.name
                    )));
                }
            }
            let projection = projection(ix.object("Projection")?)?;
            if kind == IndexKind::Global
                && billing == Billing::PayPerRequest
                && ix.has("ProvisionedThroughput")
            {
                return Err(invalid(format!(
                    "ProvisionedThroughput should not be specified for index: {iname} when BillingMode is PAY_PER_REQUEST"
                )));
            }
            if indexes.iter().any(|i| i.name == iname) {
                return Err(invalid(format!("Duplicate index name: {iname}")));
            }
            indexes.push(IndexSchema {
                name: iname.to_string(),
                kind,
                keys: ikeys,
                projection,
            });
        }
        let count = indexes.iter().filter(|i| i.kind == kind).count();
        if kind == IndexKind::Local && count > MAX_LSIS {
            return Err(invalid(
                "Number of LocalSecondaryIndexes exceeds per-table limit of 5",
            ));
        }
        if kind == IndexKind::Global && count > MAX_GSIS {
            return Err(invalid(
                "GlobalSecondaryIndex count exceeds the per-table limit of 20",
            ));
        }
    }
    let used = |n: &str| keys.contains(n) || indexes.iter().any(|i| i.keys.contains(n));
    if defs.iter().any(|(n, _)| !used(n)) {
        return Err(invalid(
            "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
        ));
    }
    Ok((
        TableSchema {
            name: name.to_string(),
            keys,
            indexes,
        },
        billing,
    ))
}

/// A `StreamSpecification`: `None` when absent, `Some(None)` to disable,
/// `Some(Some(..))` to enable (a new stream, with a new label).
fn stream_spec(
    b: &Body<'_>,
    current: Option<&StreamState>,
    now: f64,
) -> DynamoResult<Option<Option<StreamState>>> {
    let Some(spec) = b.object("StreamSpecification")? else {
        return Ok(None);
    };
    let enabled = spec.bool("StreamEnabled")?;
    let view = spec.str("StreamViewType")?;
    let mut c = Constraints::new();
    c.not_null(enabled.is_some(), "streamSpecification.streamEnabled");
    c.enumeration(
        view,
        "streamSpecification.streamViewType",
        &["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"],
    );
    c.finish()?;
    if enabled != Some(true) {
        if view.is_some() {
            return Err(invalid(
                "StreamViewType can only be specified when StreamEnabled is true",
            ));
        }
        return Ok(Some(None));
    }
    let Some(view) = view else {
        return Err(invalid(
            "StreamViewType is required when StreamEnabled is true",
        ));
    };
    if current.is_some() {
        return Err(DynamoError::validation(
            "Table already has an enabled stream",
        ));
    }
    Ok(Some(Some(StreamState::new(view, format!("{now:.3}")))))
}

/// `CreateTable`: the table is ACTIVE at once (no CREATING phase in memory).
pub fn create_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let (schema, billing) = schema_from_request(body)?;
    if engine.tables.contains_key(&schema.name) {
        return Err(DynamoError::new(
            ErrorKind::ResourceInUse,
            format!("Table already exists: {}", schema.name),
        ));
    }
    let name = schema.name.clone();
    let now = engine.clock().now();
    let mut table = Table::new(schema, now);
    table.billing = billing;
    table.stream = stream_spec(&Body::new(body)?, None, now)?.flatten();
    engine.insert_table(table);
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
    let (mode, read, write) = match t.billing {
        Billing::PayPerRequest => ("PAY_PER_REQUEST", 0, 0),
        Billing::Provisioned { read, write } => ("PROVISIONED", read, write),
    };
    d.insert("BillingModeSummary".into(), json!({"BillingMode": mode}));
    d.insert(
        "ProvisionedThroughput".into(),
        json!({"NumberOfDecreasesToday": 0, "ReadCapacityUnits": read, "WriteCapacityUnits": write}),
    );
    if let (Some(st), Some(arn)) = (&t.stream, super::streams::stream_arn(t)) {
        d.insert(
            "StreamSpecification".into(),
            json!({"StreamEnabled": true, "StreamViewType": st.view_type}),
        );
        d.insert("LatestStreamArn".into(), json!(arn));
        d.insert("LatestStreamLabel".into(), json!(st.label));
    }
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
                    json!({"NumberOfDecreasesToday": 0, "ReadCapacityUnits": read, "WriteCapacityUnits": write}),
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
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
    Ok(json!({ "Table": describe(engine.table(name)?) }))
}

/// `DeleteTable`: gone at once.
pub fn delete_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
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

/// `GlobalSecondaryIndexUpdates` of an UpdateTable: `Create` (its key attributes
/// typed by the request's `AttributeDefinitions` or the table's own keys) and
/// `Delete`; all are checked before any is applied.
fn index_updates(table: &mut Table, b: &Body<'_>, updates: &[Value]) -> DynamoResult<()> {
    let mut defs: Vec<(String, AttributeType)> = Vec::new();
    for d in b.list("AttributeDefinitions")?.into_iter().flatten() {
        let d = Body::new(d)?;
        let n = d.str("AttributeName")?.unwrap_or_default();
        let t = d.str("AttributeType")?.unwrap_or_default();
        let ty = AttributeType::parse(t)
            .filter(|t| t.is_key_type())
            .ok_or_else(|| {
                DynamoError::validation(format!(
                    "1 validation error detected: Value '{t}' at 'attributeDefinitions.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"
                ))
            })?;
        defs.push((n.to_string(), ty));
    }
    for k in table.schema.keys.attributes().chain(
        table
            .schema
            .indexes
            .iter()
            .flat_map(|i| i.keys.attributes()),
    ) {
        if !defs.iter().any(|(n, _)| *n == k.name) {
            defs.push((k.name.clone(), k.ty));
        }
    }
    let mut creates = Vec::new();
    let mut deletes = Vec::new();
    for u in updates {
        let u = Body::new(u)?;
        if let Some(c) = u.object("Create")? {
            let iname = c.str("IndexName")?.unwrap_or_default();
            let iks = c.list("KeySchema")?.cloned().unwrap_or_default();
            let keys = key_schema(&iks, &defs)?;
            if table.schema.index(iname).is_some()
                || creates.iter().any(|i: &IndexSchema| i.name == iname)
            {
                return Err(DynamoError::validation(
                    "Attempting to create an index which already exists",
                ));
            }
            creates.push(IndexSchema {
                name: iname.to_string(),
                kind: IndexKind::Global,
                keys,
                projection: projection(c.object("Projection")?)?,
            });
        } else if let Some(d) = u.object("Delete")? {
            let iname = d.str("IndexName")?.unwrap_or_default();
            if table
                .schema
                .index(iname)
                .is_none_or(|i| i.kind != IndexKind::Global)
            {
                return Err(DynamoError::new(
                    ErrorKind::ResourceNotFound,
                    format!("Requested resource not found: Index: {iname} not found"),
                ));
            }
            deletes.push(iname.to_string());
        } else if let Some(up) = u.object("Update")? {
            let iname = up.str("IndexName")?.unwrap_or_default();
            if table.schema.index(iname).is_none() {
                return Err(DynamoError::new(
                    ErrorKind::ResourceNotFound,
                    format!("Requested resource not found: Index: {iname} not found"),
                ));
            }
        }
    }
    if table
        .schema
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global)
        .count()
        + creates.len()
        - deletes.len()
        > MAX_GSIS
    {
        return Err(invalid(
            "GlobalSecondaryIndex count exceeds the per-table limit of 20",
        ));
    }
    for name in deletes {
        table.remove_index(&name);
    }
    for index in creates {
        table.add_index(index);
    }
    Ok(())
}

/// `UpdateTable`: billing mode and provisioned throughput (index changes are not
/// modelled: a request for them is refused rather than half done).
pub fn update_table(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name_at(&b, "TableName", "tableName", 3)?;
    let mut c = Constraints::new();
    c.enumeration(b.str("BillingMode")?, "billingMode", BILLING_MODES);
    let pt = b.object("ProvisionedThroughput")?;
    throughput_constraints(&mut c, pt, "provisionedThroughput")?;
    c.finish()?;
    let now = engine.clock().now();
    let table = engine.table_mut(name)?;
    if let Some(stream) = stream_spec(&b, table.stream.as_ref(), now)? {
        if stream.is_none() && table.stream.is_none() {
            return Err(DynamoError::validation("Table already has no stream"));
        }
        table.stream = stream;
        if !b.has("BillingMode")
            && !b.has("ProvisionedThroughput")
            && !b.has("GlobalSecondaryIndexUpdates")
        {
            return Ok(json!({ "TableDescription": describe(table) }));
        }
    }
    if b.has("ReplicaUpdates") {
        return Err(DynamoError::validation(
            "UpdateTable of replicas is not supported by dynalint serve",
        ));
    }
    if let Some(updates) = b.list("GlobalSecondaryIndexUpdates")? {
        index_updates(table, &b, updates)?;
        return Ok(json!({ "TableDescription": describe(table) }));
    }
    let units = |k: &str| -> DynamoResult<Option<i64>> { pt.map_or(Ok(None), |p| p.int(k)) };
    let requested = (units("ReadCapacityUnits")?, units("WriteCapacityUnits")?);
    let next = match (b.str("BillingMode")?, table.billing) {
        (Some("PAY_PER_REQUEST"), _) if pt.is_some() => {
            return Err(invalid(
                "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
            ))
        }
        (Some("PAY_PER_REQUEST"), _) => Billing::PayPerRequest,
        (Some("PROVISIONED") | None, current) => match (requested, current) {
            ((Some(read), Some(write)), _) => Billing::Provisioned { read, write },
            ((None, None), Billing::PayPerRequest) if b.has("BillingMode") => {
                return Err(invalid(
                    "ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
                ))
            }
            ((None, None), current) => current,
            _ => {
                return Err(invalid(
                    "ReadCapacityUnits and WriteCapacityUnits must both be specified",
                ))
            }
        },
        (Some(_), current) => current,
    };
    if next == table.billing && matches!(next, Billing::Provisioned { .. }) {
        let Billing::Provisioned { read, write } = next else {
            return Err(invalid(
                "The provisioned throughput for the table will not change",
            ));
        };
        return Err(invalid(format!(
            "The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: {read}. Requested ReadCapacityUnits: {read}. Current WriteCapacityUnits provisioned for the table: {write}. Requested WriteCapacityUnits: {write}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."
        )));
    }
    table.billing = next;
    Ok(json!({ "TableDescription": describe(table) }))
}
