//! Query and Scan: key ranges over a table or index, filters applied after reading,
//! projections, Select (incl. COUNT), Limit and the 1 MB page with
//! LastEvaluatedKey/ExclusiveStartKey, parallel Scan segments, and capacity summed
//! over every item read and rounded once.

use std::ops::Bound;

use serde_json::{json, Map, Value};

use crate::engine::capacity::{read_units, Consumed, ReturnCapacity};
use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult};
use crate::engine::eval::{eval_condition, finish_projection, project};
use crate::engine::exprs::{check_forms, prepare, top_level_names, Allowed, Prepared};
use crate::engine::keycond::{key_range, KeyRange};
use crate::engine::keys::{after, before, key_item, Bounded, IndexEntry, PrimaryKey, Sort};
use crate::engine::schema::{IndexKind, IndexSchema, KeySchema, Projection};
use crate::engine::size::item_size;
use crate::engine::table::{project_index, Table};
use crate::engine::validate::{
    java_repr, table_name, Constraints, CONDITIONAL_OPERATORS, RETURN_CAPACITY, SELECT,
};
use crate::engine::value::{Item, KeyValue};
use crate::engine::wire::{item_to_json, Body};

/// A Query or Scan page stops once this many bytes were read.
pub const PAGE_BYTES: u64 = 1024 * 1024;

/// `Select`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    AllAttributes,
    AllProjected,
    Specific,
    Count,
}

/// The options both reads share, read from the body.
struct ReadRequest<'a> {
    table: &'a str,
    index: Option<&'a str>,
    select: Option<Select>,
    limit: Option<usize>,
    consistent: bool,
    mode: ReturnCapacity,
    start: Option<Item>,
    exprs: Prepared,
}

/// The member constraints of a Query or Scan, in DynamoDB's order.
fn read_constraints(b: &Body<'_>, query: bool) -> DynamoResult<()> {
    let mut c = Constraints::new();
    if let Some(list) = b.list("AttributesToGet")? {
        c.length(
            list.len(),
            &java_repr(&Value::Array(list.clone())),
            "attributesToGet",
            1,
            Some(255),
        );
    }
    c.enumeration(b.str("Select")?, "select", SELECT);
    let index = b.str("IndexName")?;
    c.name(index, "indexName", 3);
    c.enumeration(
        b.str("ReturnConsumedCapacity")?,
        "returnConsumedCapacity",
        RETURN_CAPACITY,
    );
    c.enumeration(
        b.str("ConditionalOperator")?,
        "conditionalOperator",
        CONDITIONAL_OPERATORS,
    );
    match b.int("Limit")? {
        // Query words its Limit violation in the older form, without the value.
        Some(l) if query && l < 1 => c.fail_raw(
            "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
        ),
        limit => c.range(limit, "limit", Some(1), None),
    }
    if !query {
        c.range(b.int("Segment")?, "segment", Some(0), Some(999_999));
        c.range(
            b.int("TotalSegments")?,
            "totalSegments",
            Some(1),
            Some(1_000_000),
        );
    }
    c.finish()
}

fn read_request<'a>(b: &Body<'a>, query: bool) -> DynamoResult<ReadRequest<'a>> {
    let table = table_name(b)?;
    read_constraints(b, query)?;
    let allowed = Allowed {
        key_condition: query,
        filter: true,
        projection: true,
        ..Allowed::NONE
    };
    check_forms(b, allowed)?;
    let index = b.str("IndexName")?;
    let select = match b.str("Select")? {
        Some("ALL_ATTRIBUTES") => Some(Select::AllAttributes),
        Some("ALL_PROJECTED_ATTRIBUTES") => Some(Select::AllProjected),
        Some("SPECIFIC_ATTRIBUTES") => Some(Select::Specific),
        Some("COUNT") => Some(Select::Count),
        _ => None,
    };
    let limit = b
        .int("Limit")?
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    let consistent = b.bool("ConsistentRead")?.unwrap_or(false);
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    // A bad attribute value in the starting key is reported as a bad starting key,
    // except the number and set errors, which DynamoDB words alike everywhere.
    let start = b.item("ExclusiveStartKey").map_err(|e| {
        let plain = [
            "contains duplicates",
            "number set",
            "numeric value",
            "significant digits",
            "number with magnitude",
        ];
        if e.kind != crate::engine::ErrorKind::Validation
            || plain.iter().any(|p| e.message.contains(p))
        {
            e
        } else {
            DynamoError::validation(format!(
                "The provided starting key is invalid: {}",
                e.message
            ))
        }
    })?;
    if query && !b.has("KeyConditions") && !b.has("KeyConditionExpression") {
        return Err(DynamoError::validation(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
        ));
    }
    let exprs = prepare(b, allowed)?;
    match (select, exprs.projection.is_some()) {
        (Some(Select::Specific), false) => {
            return Err(DynamoError::validation(
                "1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
            ))
        }
        (Some(s @ (Select::Count | Select::AllAttributes | Select::AllProjected)), true) => {
            let name = match s {
                Select::Count => "only the Count",
                Select::AllAttributes => "ALL_ATTRIBUTES",
                _ => "ALL_PROJECTED_ATTRIBUTES",
            };
            return Err(DynamoError::validation(format!(
                "Cannot specify the ProjectionExpression when choosing to get {name}"
            )));
        }
        _ => {}
    }
    Ok(ReadRequest {
        table,
        index,
        select,
        limit,
        consistent,
        mode,
        start,
        exprs,
    })
}

/// Resolves the index and applies the rules on reading it.
fn index_checks<'t>(
    table: &'t Table,
    req: &ReadRequest<'_>,
) -> DynamoResult<Option<(usize, &'t IndexSchema)>> {
    let Some(name) = req.index else {
        if req.select == Some(Select::AllProjected) {
            return Err(DynamoError::validation(
                "One or more parameter values were invalid: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
            ));
        }
        return Ok(None);
    };
    let (pos, index) = table
        .schema
        .indexes
        .iter()
        .enumerate()
        .find(|(_, i)| i.name == name)
        .ok_or_else(|| {
            DynamoError::validation(format!(
                "The table does not have the specified index: {name}"
            ))
        })?;
    if index.kind == IndexKind::Global {
        if req.consistent {
            return Err(DynamoError::validation(
                "Consistent reads are not supported on global secondary indexes",
            ));
        }
        if req.select == Some(Select::AllAttributes) && index.projection != Projection::All {
            return Err(DynamoError::validation(format!(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index {} because its projection type is not ALL",
                index.name
            )));
        }
    }
    Ok(Some((pos, index)))
}

/// What one read produced.
struct Page {
    items: Vec<Item>,
    count: usize,
    scanned: usize,
    bytes: u64,
    last: Option<Item>,
}

/// Reads entries in order, applying limit, page size, filter and projection.
fn read_entries<'a>(
    table: &'a Table,
    index: Option<&IndexSchema>,
    req: &ReadRequest<'_>,
    entries: impl Iterator<Item = (Item, &'a Item)>,
) -> DynamoResult<Page> {
    let mut page = Page {
        items: Vec::new(),
        count: 0,
        scanned: 0,
        bytes: 0,
        last: None,
    };
    let count_only = req.select == Some(Select::Count);
    // Only ALL_ATTRIBUTES (allowed on an LSI or an ALL index) reads the whole item; a
    // projection on an index sees what the index stores, and an attribute the index
    // does not project is silently missing from the result.
    let whole_item = req.select == Some(Select::AllAttributes);
    for (key, item) in entries {
        let stored = match index {
            Some(i) if i.projection != Projection::All => project_index(&table.schema, i, item),
            _ => item.clone(),
        };
        page.bytes += item_size(&stored);
        page.scanned += 1;
        let visible = if whole_item { item } else { &stored };
        let keep = match &req.exprs.filter {
            Some(f) => eval_condition(f, &req.exprs.ph, visible)?,
            None => true,
        };
        if keep {
            page.count += 1;
            if !count_only {
                let out = match &req.exprs.projection {
                    Some(paths) => finish_projection(project(paths, visible)),
                    None => visible.clone(),
                };
                page.items.push(out);
            }
        }
        if req.limit.is_some_and(|l| page.scanned >= l) || page.bytes >= PAGE_BYTES {
            page.last = Some(key);
            break;
        }
    }
    Ok(page)
}

fn respond(table: &Table, index: Option<&IndexSchema>, req: &ReadRequest<'_>, page: Page) -> Value {
    let mut out = Map::new();
    if req.select != Some(Select::Count) {
        out.insert(
            "Items".into(),
            Value::Array(page.items.iter().map(item_to_json).collect()),
        );
    }
    out.insert("Count".into(), json!(page.count));
    out.insert("ScannedCount".into(), json!(page.scanned));
    if let Some(last) = &page.last {
        out.insert("LastEvaluatedKey".into(), item_to_json(last));
    }
    let mut consumed = Consumed::new(&table.schema.name);
    let units = read_units(page.bytes, req.consistent);
    match index {
        Some(i) => {
            consumed.indexes.insert(i.name.clone(), units);
        }
        None => consumed.table_units = units,
    }
    if let Some(c) = consumed.to_json(Some(&table.schema), req.mode) {
        out.insert("ConsumedCapacity".into(), c);
    }
    Value::Object(out)
}

/// The key attributes of an entry, as LastEvaluatedKey shows them.
fn entry_key(table: &Table, index: Option<&IndexSchema>, pk: &PrimaryKey, item: &Item) -> Item {
    let mut key = key_item(&table.schema.keys, pk);
    if let Some(i) = index {
        for k in i.keys.attributes() {
            if let Some(v) = item.get(&k.name) {
                key.insert(k.name.clone(), v.clone());
            }
        }
    }
    key
}

/// A Query's starting key that lies outside what its key condition reads: DynamoDB
/// names which part is wrong.
fn start_outside(range: &KeyRange, hash: &KeyValue, sort: Option<&KeyValue>) -> DynamoResult<()> {
    let has_sort_condition = !matches!(
        (&range.lower, &range.upper, &range.prefix),
        (Bound::Unbounded, Bound::Unbounded, None)
    );
    if has_sort_condition && !sort.is_some_and(|v| range.contains_sort(v)) {
        return Err(DynamoError::validation(
            "The provided starting key does not match the range key predicate",
        ));
    }
    if *hash != range.hash {
        return Err(DynamoError::validation(if has_sort_condition {
            "The query can return at most one row and cannot be restarted"
        } else {
            "The provided starting key is outside query boundaries based on provided conditions"
        }));
    }
    Ok(())
}

fn bad_start() -> DynamoError {
    DynamoError::validation("The provided starting key is invalid")
}

fn key_part(start: &Item, name: &str, ty: crate::attr::AttributeType) -> DynamoResult<KeyValue> {
    start
        .get(name)
        .filter(|v| v.ty() == ty)
        .and_then(|v| v.as_key())
        .ok_or_else(bad_start)
}

/// The table primary key in an ExclusiveStartKey.
fn start_primary(keys: &KeySchema, start: &Item) -> DynamoResult<PrimaryKey> {
    let hash = key_part(start, &keys.hash.name, keys.hash.ty)?;
    let sort = match &keys.range {
        Some(r) => Sort::Value(key_part(start, &r.name, r.ty)?),
        None => Sort::Absent,
    };
    Ok(PrimaryKey { hash, sort })
}

/// The index entry an ExclusiveStartKey names.
fn start_entry(table: &Table, index: &IndexSchema, start: &Item) -> DynamoResult<IndexEntry> {
    let pk = start_primary(&table.schema.keys, start)?;
    let hash = key_part(start, &index.keys.hash.name, index.keys.hash.ty)?;
    let sort = match &index.keys.range {
        Some(r) => Sort::Value(key_part(start, &r.name, r.ty)?),
        None => Sort::Absent,
    };
    let expected: usize = {
        let mut names: Vec<&str> = table
            .schema
            .keys
            .attributes()
            .map(|k| k.name.as_str())
            .collect();
        for k in index.keys.attributes() {
            if !names.contains(&k.name.as_str()) {
                names.push(&k.name);
            }
        }
        names.len()
    };
    if start.len() != expected {
        return Err(bad_start());
    }
    Ok((hash, sort, Bounded::Val(pk)))
}

fn sort_bound(b: &Bound<KeyValue>) -> Bound<Sort> {
    match b {
        Bound::Included(v) => Bound::Included(Sort::Value(v.clone())),
        Bound::Excluded(v) => Bound::Excluded(Sort::Value(v.clone())),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// `Query`.
pub fn query(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let req = read_request(&b, true)?;
    let forward = b.bool("ScanIndexForward")?.unwrap_or(true);
    let table = engine.table(req.table)?;
    let index = index_checks(table, &req)?;
    let Some(kc) = &req.exprs.key_condition else {
        return Err(DynamoError::validation(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
        ));
    };
    let keys = index.map_or(&table.schema.keys, |(_, i)| &i.keys);
    let range = key_range(kc, &req.exprs.ph, keys)?;
    if let Some(f) = &req.exprs.filter {
        if let Some(k) = top_level_names(f, &req.exprs.ph)
            .into_iter()
            .find(|n| keys.contains(n))
        {
            return Err(DynamoError::validation(format!(
                "Filter Expression can only contain non-primary key attributes: Primary key attribute: {k}"
            )));
        }
    }
    let index_schema = index.map(|(_, i)| i);
    let page = match index {
        None => {
            let mut lower = sort_bound(&range.lower);
            let mut upper = sort_bound(&range.upper);
            if let Some(start) = &req.start {
                if start.len() != table.schema.keys.attributes().count() {
                    return Err(bad_start());
                }
                let s = start_primary(&table.schema.keys, start)?;
                start_outside(&range, &s.hash, s.sort.value())?;
                if forward {
                    lower = after(lower, s.sort);
                } else {
                    upper = before(upper, s.sort);
                }
            }
            let it = table
                .partition_range(&range.hash, lower, upper, forward)
                .filter(|(pk, _)| in_prefix(&range, pk.sort.value()))
                .map(|(pk, item)| (entry_key(table, None, pk, item), item));
            read_entries(table, None, &req, it)?
        }
        Some((pos, ix)) => {
            let wrap = |b: Bound<Sort>, low: bool| match b {
                Bound::Included(s) => {
                    Bound::Included((s, if low { Bounded::Min } else { Bounded::Max }))
                }
                Bound::Excluded(s) => {
                    Bound::Excluded((s, if low { Bounded::Max } else { Bounded::Min }))
                }
                Bound::Unbounded => Bound::Unbounded,
            };
            let mut lower = wrap(sort_bound(&range.lower), true);
            let mut upper = wrap(sort_bound(&range.upper), false);
            if let Some(start) = &req.start {
                let (h, s, p) = start_entry(table, ix, start)?;
                start_outside(&range, &h, s.value())?;
                if forward {
                    lower = after(lower, (s, p));
                } else {
                    upper = before(upper, (s, p));
                }
            }
            let it = table
                .index_partition_range(pos, &range.hash, lower, upper, forward)
                .filter(|(e, _)| in_prefix(&range, e.1.value()))
                .filter_map(|(e, item)| match &e.2 {
                    Bounded::Val(pk) => Some((entry_key(table, Some(ix), pk, item), item)),
                    _ => None,
                });
            read_entries(table, Some(ix), &req, it)?
        }
    };
    Ok(respond(table, index_schema, &req, page))
}

fn in_prefix(range: &KeyRange, sort: Option<&KeyValue>) -> bool {
    match (&range.prefix, sort) {
        (None, _) => true,
        (Some(_), Some(v)) => range.contains_sort(v),
        (Some(_), None) => false,
    }
}

/// A stable hash of a partition key, to deal items to Scan segments.
fn segment_hash(k: &KeyValue) -> u64 {
    let bytes: Vec<u8> = match k {
        KeyValue::S(s) => s.as_bytes().to_vec(),
        KeyValue::N(n) => n.to_string().into_bytes(),
        KeyValue::B(b) => b.clone(),
    };
    // FNV-1a: deterministic across runs and platforms, unlike std's RandomState.
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A parallel Scan's starting key must come from the same segment.
fn start_in_segment(hash: &KeyValue, segments: Option<(u64, u64)>) -> DynamoResult<()> {
    match segments {
        Some((s, t)) if segment_hash(hash) % t != s => Err(DynamoError::validation(format!(
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: {t} Segment: {s}"
        ))),
        _ => Ok(()),
    }
}

/// `Scan`.
pub fn scan(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let req = read_request(&b, false)?;
    let (segment, total) = (b.int("Segment")?, b.int("TotalSegments")?);
    let segments = match (segment, total) {
        (Some(_), None) => {
            return Err(DynamoError::validation(
                "The TotalSegments parameter is required but was not present in the request when Segment parameter is present",
            ))
        }
        (None, Some(_)) => {
            return Err(DynamoError::validation(
                "The Segment parameter is required but was not present in the request when parameter TotalSegments is present",
            ))
        }
        (Some(s), Some(t)) if s >= t => {
            return Err(DynamoError::validation(format!(
                "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: {s} is not less than TotalSegments: {t}"
            )))
        }
        (Some(s), Some(t)) => Some((s as u64, t as u64)),
        (None, None) => None,
    };
    let table = engine.table(req.table)?;
    let index = index_checks(table, &req)?;
    let in_segment = |h: &KeyValue| segments.is_none_or(|(s, t)| segment_hash(h) % t == s);
    let index_schema = index.map(|(_, i)| i);
    let page = match index {
        None => {
            let start = match &req.start {
                Some(s) => {
                    let schema_mismatch = || {
                        DynamoError::validation(
                            "The provided starting key is invalid: The provided key element does not match the schema",
                        )
                    };
                    if s.len() != table.schema.keys.attributes().count() {
                        return Err(schema_mismatch());
                    }
                    let pk = start_primary(&table.schema.keys, s).map_err(|_| schema_mismatch())?;
                    start_in_segment(&pk.hash, segments)?;
                    Some(pk)
                }
                None => None,
            };
            let it = table
                .scan_from(start)
                .filter(|(pk, _)| in_segment(&pk.hash))
                .map(|(pk, item)| (entry_key(table, None, pk, item), item));
            read_entries(table, None, &req, it)?
        }
        Some((pos, ix)) => {
            let start = match &req.start {
                Some(s) => {
                    let entry = start_entry(table, ix, s)?;
                    start_in_segment(&entry.0, segments)?;
                    Some(entry)
                }
                None => None,
            };
            let it = table
                .index_scan_from(pos, start)
                .filter(|(e, _)| in_segment(&e.0))
                .filter_map(|(e, item)| match &e.2 {
                    Bounded::Val(pk) => Some((entry_key(table, Some(ix), pk, item), item)),
                    _ => None,
                });
            read_entries(table, Some(ix), &req, it)?
        }
    };
    Ok(respond(table, index_schema, &req, page))
}
