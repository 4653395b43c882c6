//! Symbolic validation for the linter: checks a request whose placeholder values (and
//! item attributes) are known, known only by type, or not known at all, without data,
//! and says which of DynamoDB's rejections are certain and which depend on a value
//! the code does not show.
//!
//! How: the request runs through the real engine (same checks, same order, same
//! words) against an empty table built from the [`TableSchema`], once with a
//! representative value for every unknown, then once per alternative representative
//! of each unknown (an empty string for a string, another type for an unknown value,
//! a key attribute for an unknown `#name`). The first run's error is decided when no
//! alternative is accepted, nor any combination of the placeholder values'
//! alternatives (two numbers a `BETWEEN` needs are accepted only together); errors
//! only some runs hit depend on an unknown and are reported undecided.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::attr::AttributeType;

use super::db::Engine;
use super::error::ErrorKind;
use super::number::Number;
use super::schema::{KeySchema, Projection, TableSchema};
use super::value::AttributeValue;
use super::wire::value_to_json;

/// What the linter knows about a value.
#[derive(Debug, Clone, PartialEq)]
pub enum SymbolicValue {
    /// The exact value (a literal or constant in the code).
    Known(AttributeValue),
    /// Only its type (`AttributeValue::S(user_id)`).
    Typed(AttributeType),
    /// Nothing.
    Unknown,
}

/// The operation being validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolicOp {
    Query,
    Scan,
    GetItem,
    PutItem,
    UpdateItem,
    DeleteItem,
    /// A `ConditionCheck` item of `TransactWriteItems`, validated as a transaction of
    /// that one item.
    ConditionCheck,
}

impl SymbolicOp {
    fn name(self) -> &'static str {
        match self {
            Self::ConditionCheck => "TransactWriteItems",
            Self::Query => "Query",
            Self::Scan => "Scan",
            Self::GetItem => "GetItem",
            Self::PutItem => "PutItem",
            Self::UpdateItem => "UpdateItem",
            Self::DeleteItem => "DeleteItem",
        }
    }
}

/// A request as far as the code shows it. Expressions are their text.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolicRequest {
    pub op: SymbolicOp,
    pub index: Option<String>,
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub condition: Option<String>,
    pub projection: Option<String>,
    pub update: Option<String>,
    /// `#n` → the attribute name, or `None` when the code does not show it.
    pub names: BTreeMap<String, Option<String>>,
    /// `:v` → what is known of the value.
    pub values: BTreeMap<String, SymbolicValue>,
    /// PutItem: the item's attributes; Get/Update/DeleteItem: the key's.
    pub item: BTreeMap<String, SymbolicValue>,
    pub consistent_read: Option<bool>,
    /// `Select` as written (`COUNT`, ...).
    pub select: Option<String>,
    pub limit: Option<i64>,
}

impl SymbolicRequest {
    /// A request of `op` with nothing else set.
    pub fn new(op: SymbolicOp) -> Self {
        Self {
            op,
            index: None,
            key_condition: None,
            filter: None,
            condition: None,
            projection: None,
            update: None,
            names: BTreeMap::new(),
            values: BTreeMap::new(),
            item: BTreeMap::new(),
            consistent_read: None,
            select: None,
            limit: None,
        }
    }
}

/// One finding: DynamoDB's error, and whether it is certain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub error: ErrorKind,
    /// DynamoDB's message.
    pub message: String,
    /// True when DynamoDB rejects the request whatever the unknown values are; false
    /// when it depends on a value the code does not show.
    pub decided: bool,
}

/// A typical value of `ty`, and the alternatives whose checks differ.
fn representatives(ty: AttributeType) -> Vec<AttributeValue> {
    let one = AttributeValue::N(Number::from_i64(1));
    match ty {
        AttributeType::S => vec![
            AttributeValue::S("x".into()),
            AttributeValue::S(String::new()),
        ],
        AttributeType::N => vec![one],
        AttributeType::B => vec![AttributeValue::B(vec![1]), AttributeValue::B(Vec::new())],
        AttributeType::Bool => vec![AttributeValue::Bool(true)],
        AttributeType::Null => vec![AttributeValue::Null],
        AttributeType::M => vec![AttributeValue::M(BTreeMap::new())],
        AttributeType::L => vec![AttributeValue::L(Vec::new())],
        AttributeType::SS => vec![AttributeValue::string_set(["x".to_string()])],
        AttributeType::NS => vec![AttributeValue::number_set([Number::from_i64(1)])],
        AttributeType::BS => vec![AttributeValue::binary_set([vec![1]])],
    }
}

fn candidates(v: &SymbolicValue) -> Vec<AttributeValue> {
    match v {
        SymbolicValue::Known(v) => vec![v.clone()],
        SymbolicValue::Typed(t) => representatives(*t),
        SymbolicValue::Unknown => vec![
            AttributeValue::S("x".into()),
            AttributeValue::N(Number::from_i64(1)),
            AttributeValue::B(vec![1]),
            AttributeValue::S(String::new()),
        ],
    }
}

/// A name DynamoDB accepts standing for the model's: a table named by a template
/// (`{Stage}-orders`, from `!Sub "${Stage}-orders"`) is one table whatever fills it,
/// and only its keys matter to validation.
fn engine_name(name: &str) -> String {
    let mut n: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    while n.len() < 3 {
        n.push('_');
    }
    n.truncate(255);
    n
}

/// The CreateTable body of a schema.
fn create_body(t: &TableSchema) -> Value {
    let keys = |k: &KeySchema| {
        let mut v = vec![json!({"AttributeName": k.hash.name, "KeyType": "HASH"})];
        if let Some(r) = &k.range {
            v.push(json!({"AttributeName": r.name, "KeyType": "RANGE"}));
        }
        Value::Array(v)
    };
    let mut defs: Vec<(String, AttributeType)> = Vec::new();
    for k in t
        .keys
        .attributes()
        .chain(t.indexes.iter().flat_map(|i| i.keys.attributes()))
    {
        if !defs.iter().any(|(n, _)| *n == k.name) {
            defs.push((k.name.clone(), k.ty));
        }
    }
    let index = |i: &super::schema::IndexSchema| {
        let mut p = json!({"ProjectionType": i.projection.type_name()});
        if let Projection::Include(list) = &i.projection {
            p["NonKeyAttributes"] = json!(list);
        }
        json!({"IndexName": i.name, "KeySchema": keys(&i.keys), "Projection": p})
    };
    let gsis: Vec<Value> = t
        .indexes
        .iter()
        .filter(|i| i.kind == super::schema::IndexKind::Global)
        .map(index)
        .collect();
    let lsis: Vec<Value> = t
        .indexes
        .iter()
        .filter(|i| i.kind == super::schema::IndexKind::Local)
        .map(index)
        .collect();
    let mut body = json!({
        "TableName": engine_name(&t.name),
        "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": keys(&t.keys),
        "AttributeDefinitions": defs.iter().map(|(n, ty)| json!({"AttributeName": n, "AttributeType": ty.as_str()})).collect::<Vec<_>>(),
    });
    if !gsis.is_empty() {
        body["GlobalSecondaryIndexes"] = Value::Array(gsis);
    }
    if !lsis.is_empty() {
        body["LocalSecondaryIndexes"] = Value::Array(lsis);
    }
    body
}

/// One concrete choice for every unknown.
#[derive(Clone)]
struct Choice {
    names: BTreeMap<String, String>,
    values: BTreeMap<String, AttributeValue>,
    item: BTreeMap<String, AttributeValue>,
}

fn request_body(table: &TableSchema, req: &SymbolicRequest, c: &Choice) -> Value {
    let mut b = Map::new();
    b.insert("TableName".into(), json!(engine_name(&table.name)));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            b.insert(k.into(), v);
        }
    };
    put("IndexName", req.index.as_ref().map(|s| json!(s)));
    put(
        "KeyConditionExpression",
        req.key_condition.as_ref().map(|s| json!(s)),
    );
    put("FilterExpression", req.filter.as_ref().map(|s| json!(s)));
    put(
        "ConditionExpression",
        req.condition.as_ref().map(|s| json!(s)),
    );
    put(
        "ProjectionExpression",
        req.projection.as_ref().map(|s| json!(s)),
    );
    put("UpdateExpression", req.update.as_ref().map(|s| json!(s)));
    put("ConsistentRead", req.consistent_read.map(|x| json!(x)));
    put("Select", req.select.as_ref().map(|s| json!(s)));
    put("Limit", req.limit.map(|x| json!(x)));
    if !c.names.is_empty() {
        put("ExpressionAttributeNames", Some(json!(c.names)));
    }
    if !c.values.is_empty() {
        let m: Map<String, Value> = c
            .values
            .iter()
            .map(|(k, v)| (k.clone(), value_to_json(v)))
            .collect();
        put("ExpressionAttributeValues", Some(Value::Object(m)));
    }
    let item: Map<String, Value> = c
        .item
        .iter()
        .map(|(k, v)| (k.clone(), value_to_json(v)))
        .collect();
    match req.op {
        SymbolicOp::PutItem => put("Item", Some(Value::Object(item))),
        SymbolicOp::GetItem
        | SymbolicOp::UpdateItem
        | SymbolicOp::DeleteItem
        | SymbolicOp::ConditionCheck => put("Key", Some(Value::Object(item))),
        SymbolicOp::Query | SymbolicOp::Scan => {}
    }
    if req.op == SymbolicOp::ConditionCheck {
        return json!({ "TransactItems": [{ "ConditionCheck": Value::Object(b) }] });
    }
    Value::Object(b)
}

/// Errors an update gets from the item it finds, not from the request: against the
/// empty table every `SET a = a + :n` would fail, against the team's data it works.
const ITEM_DEPENDENT: &[&str] = &[
    "The provided expression refers to an attribute that does not exist in the item",
    "The document path provided in the update expression is invalid for update",
];

/// The validation error a concrete choice gets, if any. Data-dependent outcomes
/// (a failed condition, an update operand the stored item lacks) are not validation
/// and are left out.
/// An engine holding only `table`, made once per request and cloned per choice (making
/// the table is most of a small request's cost), or CreateTable's refusal.
/// An engine holding only `table`. Made once per table and thread, then copied: a
/// file of 40,000 requests to one table created the same table 40,000 times.
fn with_table(table: &TableSchema) -> Result<Engine, (ErrorKind, String)> {
    type Empty = Result<Engine, (ErrorKind, String)>;
    /// Tables remembered per thread: a model's tables, with a bound for huge ones.
    const MAX_KEPT: usize = 64;
    thread_local! {
        static EMPTY: std::cell::RefCell<Vec<(TableSchema, Empty)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    EMPTY.with(|kept| {
        if let Some((_, empty)) = kept.borrow().iter().find(|(t, _)| t == table) {
            return empty.clone();
        }
        let mut engine = Engine::new();
        let empty = match engine.handle("CreateTable", &create_body(table)) {
            Ok(_) => Ok(engine),
            Err(e) => Err((e.kind, e.message)),
        };
        let mut kept = kept.borrow_mut();
        if kept.len() < MAX_KEPT {
            kept.push((table.clone(), empty.clone()));
        }
        empty
    })
}

fn outcome(
    table: &TableSchema,
    empty: &Result<Engine, (ErrorKind, String)>,
    req: &SymbolicRequest,
    c: &Choice,
) -> Option<(ErrorKind, String)> {
    let mut engine = match empty {
        Ok(engine) => engine.clone(),
        Err(refused) => return Some(refused.clone()),
    };
    match engine.handle(req.op.name(), &request_body(table, req, c)) {
        Ok(_) => None,
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::ConditionalCheckFailed | ErrorKind::TransactionCanceled
            ) || ITEM_DEPENDENT.contains(&e.message.as_str()) =>
        {
            None
        }
        Err(e) => Some((e.kind, e.message)),
    }
}

/// `req` with every value that cannot change [`validate`]'s verdicts made one fixed
/// value, so that requests differing only in such values share a remembered verdict
/// (40,000 `get_item`s that differ only in a literal sort key ran the engine 40,000
/// times). Only what is certain: a GetItem's or DeleteItem's key attribute (of the
/// table's primary key, no index named) given as a string the schema declares it,
/// non-empty and no longer than a sort key may be (the smaller limit). Against the
/// empty table `validate` builds, such a value is read only by the key's checks
/// (type, emptiness, size: `keys::request_primary_key`), which it passes whatever it
/// is, and then finds no item (a DeleteItem's condition is evaluated against none).
/// An empty string, a longer one, another type, a number (checked digit by digit), a
/// non-key attribute or any other operation keeps its own value. `None` when nothing
/// is replaced.
pub fn same_verdict_form(table: &TableSchema, req: &SymbolicRequest) -> Option<SymbolicRequest> {
    /// The one string such key values become.
    const FILL: &str = "x";
    if !matches!(req.op, SymbolicOp::GetItem | SymbolicOp::DeleteItem) || req.index.is_some() {
        return None;
    }
    let replaceable = |name: &str, v: &SymbolicValue| match v {
        SymbolicValue::Known(AttributeValue::S(s)) => {
            s != FILL
                && !s.is_empty()
                && s.len() <= super::keys::MAX_RANGE_KEY_BYTES
                && table
                    .keys
                    .attributes()
                    .any(|k| k.name == name && k.ty == AttributeType::S)
        }
        _ => false,
    };
    if !req.item.iter().any(|(k, v)| replaceable(k, v)) {
        return None;
    }
    let mut form = req.clone();
    for (k, v) in form.item.iter_mut() {
        if replaceable(k, v) {
            *v = SymbolicValue::Known(AttributeValue::S(FILL.to_string()));
        }
    }
    Some(form)
}

/// The most combinations of key attributes for a request's unknown `#names` tried (and
/// of its placeholder values' candidates, [`values_accepted_together`]).
const MAX_NAME_COMBINATIONS: usize = 256;

/// Validates `req` against `table` without data: DynamoDB's rejections, each marked
/// decided or not. An empty list means DynamoDB accepts the request for every value
/// the unknowns could take (as far as the representatives explore).
pub fn validate(table: &TableSchema, req: &SymbolicRequest) -> Vec<Verdict> {
    // A name the table does not use, for `#names` the code does not show: one for
    // each, since two names the code does not show need not be one attribute.
    const UNKNOWN_NAME: &str = "dynalint_unknown_attribute";
    let unknown: Vec<&String> = req
        .names
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| k)
        .collect();
    let base = Choice {
        names: req
            .names
            .iter()
            .map(|(k, v)| {
                let stand_in = || {
                    let i = unknown.iter().position(|u| *u == k).unwrap_or(0);
                    format!("{UNKNOWN_NAME}_{i}")
                };
                (k.clone(), v.clone().unwrap_or_else(stand_in))
            })
            .collect(),
        values: req
            .values
            .iter()
            .filter_map(|(k, v)| candidates(v).into_iter().next().map(|c| (k.clone(), c)))
            .collect(),
        item: req
            .item
            .iter()
            .filter_map(|(k, v)| {
                // An unknown item attribute that is a key takes the key's type first.
                let first = match (v, table.key_type(k)) {
                    (SymbolicValue::Unknown, Some(t)) => representatives(t).into_iter().next(),
                    _ => candidates(v).into_iter().next(),
                };
                first.map(|c| (k.clone(), c))
            })
            .collect(),
    };
    let mut variants = Vec::new();
    let mut keys: Vec<&str> = table
        .keys
        .attributes()
        .chain(table.indexes.iter().flat_map(|i| i.keys.attributes()))
        .map(|k| k.name.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    // Each unknown `#name` is one of the key attributes or none of them. Every
    // combination, while few enough: `#pk = :p AND begins_with(#sk, :s)` is accepted
    // only when both name the key, together.
    let options = keys.len() + 1;
    let combinations = u32::try_from(unknown.len())
        .ok()
        .and_then(|n| options.checked_pow(n))
        .filter(|n| *n <= MAX_NAME_COMBINATIONS);
    match combinations {
        Some(n) => {
            for code in 1..n {
                let mut c = base.clone();
                let mut rest = code;
                for k in &unknown {
                    let o = rest % options;
                    rest /= options;
                    if o > 0 {
                        c.names.insert((*k).clone(), keys[o - 1].to_string());
                    }
                }
                variants.push(c);
            }
        }
        // Too many to try: one name at a time.
        None => {
            for k in &unknown {
                for key in &keys {
                    let mut c = base.clone();
                    c.names.insert((*k).clone(), key.to_string());
                    variants.push(c);
                }
            }
        }
    }
    for (k, v) in &req.values {
        for alt in candidates(v).into_iter().skip(1) {
            let mut c = base.clone();
            c.values.insert(k.clone(), alt);
            variants.push(c);
        }
    }
    for (k, v) in &req.item {
        for alt in candidates(v) {
            if base.item.get(k) != Some(&alt) {
                let mut c = base.clone();
                c.item.insert(k.clone(), alt);
                variants.push(c);
            }
        }
    }
    let empty = with_table(table);
    let first = outcome(table, &empty, req, &base);
    let others: Vec<Option<(ErrorKind, String)>> = variants
        .iter()
        .map(|c| outcome(table, &empty, req, c))
        .collect();
    let mut verdicts = Vec::new();
    if let Some((kind, message)) = &first {
        // Rejected whatever the unknowns are when no alternative is accepted (another
        // alternative may be rejected for another reason first, still a rejection),
        // nor any combination of the values' alternatives: `:start` and `:end` both
        // compared with a number are accepted only when both are numbers.
        let decided = others.iter().all(Option::is_some)
            && !values_accepted_together(table, &empty, req, &base);
        verdicts.push(Verdict {
            error: *kind,
            message: message.clone(),
            decided,
        });
    }
    for (kind, message) in others.into_iter().flatten() {
        if !verdicts.iter().any(|v| v.message == message) {
            verdicts.push(Verdict {
                error: kind,
                message,
                decided: false,
            });
        }
    }
    verdicts
}

/// Whether some combination of the placeholder values' candidates, two or more
/// changed from `base` at once, is accepted (the single changes are `validate`'s own
/// variants): every value's same-rank candidate together, then every combination
/// while there are at most [`MAX_NAME_COMBINATIONS`]; past that, the single changes
/// and the same-rank ones decide.
fn values_accepted_together(
    table: &TableSchema,
    empty: &Result<Engine, (ErrorKind, String)>,
    req: &SymbolicRequest,
    base: &Choice,
) -> bool {
    let open: Vec<(&String, Vec<AttributeValue>)> = req
        .values
        .iter()
        .map(|(k, v)| (k, candidates(v)))
        .filter(|(_, c)| c.len() > 1)
        .collect();
    if open.len() < 2 {
        return false;
    }
    // Every value its `i`th candidate at once: seven unknown numbers of one update
    // are too many combinations to try, and are all numbers together.
    let widest = open.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
    let uniform = (1..widest).any(|i| {
        let mut c = base.clone();
        for (k, cands) in &open {
            if let Some(v) = cands.get(i) {
                c.values.insert((*k).clone(), v.clone());
            }
        }
        outcome(table, empty, req, &c).is_none()
    });
    if uniform {
        return true;
    }
    let total = open
        .iter()
        .try_fold(1usize, |n, (_, c)| n.checked_mul(c.len()))
        .filter(|n| *n <= MAX_NAME_COMBINATIONS);
    let Some(total) = total else {
        return false;
    };
    (0..total).any(|code| {
        let mut c = base.clone();
        let mut rest = code;
        let mut changed = 0;
        for (k, cands) in &open {
            let i = rest % cands.len();
            rest /= cands.len();
            if i > 0 {
                changed += 1;
                c.values.insert((*k).clone(), cands[i].clone());
            }
        }
        changed > 1 && outcome(table, empty, req, &c).is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::schema::{IndexKind, IndexSchema, KeyAttribute};

    fn table() -> TableSchema {
        TableSchema {
            name: "Orders".into(),
            keys: KeySchema {
                hash: KeyAttribute::new("customer", AttributeType::S),
                range: Some(KeyAttribute::new("orderId", AttributeType::S)),
            },
            indexes: vec![IndexSchema {
                name: "ByStatus".into(),
                kind: IndexKind::Global,
                keys: KeySchema {
                    hash: KeyAttribute::new("status", AttributeType::S),
                    range: Some(KeyAttribute::new("createdAt", AttributeType::S)),
                },
                projection: Projection::KeysOnly,
            }],
        }
    }

    fn query(kc: &str) -> SymbolicRequest {
        let mut r = SymbolicRequest::new(SymbolicOp::Query);
        r.key_condition = Some(kc.into());
        r
    }

    #[test]
    fn decided_errors_need_no_values() {
        let mut r = query("#s = :s");
        r.index = Some("ByStatus".into());
        r.consistent_read = Some(true);
        r.names.insert("#s".into(), Some("status".into()));
        r.values.insert(":s".into(), SymbolicValue::Unknown);
        let v = validate(&table(), &r);
        assert_eq!(
            v[0].message,
            "Consistent reads are not supported on global secondary indexes"
        );
        assert!(v[0].decided);

        let mut r = query("orderId = :o");
        r.values
            .insert(":o".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &r);
        assert_eq!(
            v[0].message,
            "Query condition missed key schema element: customer"
        );
        assert!(v[0].decided);
    }

    #[test]
    fn two_unknown_names_may_be_the_partition_and_the_sort_key_together() {
        // A helper handed both key names: `#pk` and `#sk` are unknown, and one
        // condition per key is what they are when they name the key.
        let mut r = query("#pk = :pk AND begins_with(#sk, :prefix)");
        r.names.insert("#pk".into(), None);
        r.names.insert("#sk".into(), None);
        r.values
            .insert(":pk".into(), SymbolicValue::Typed(AttributeType::S));
        r.values
            .insert(":prefix".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &r);
        assert!(v.iter().all(|x| !x.decided), "{v:?}");
        // The same names on one attribute twice stay a certain rejection.
        let mut r = query("#a = :pk AND #a = :prefix");
        r.names.insert("#a".into(), None);
        r.values
            .insert(":pk".into(), SymbolicValue::Typed(AttributeType::S));
        r.values
            .insert(":prefix".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &r);
        assert!(v.first().is_some_and(|x| x.decided), "{v:?}");
    }

    #[test]
    fn an_update_of_an_attribute_the_item_may_hold_is_no_rejection() {
        let mut r = SymbolicRequest::new(SymbolicOp::UpdateItem);
        r.update = Some("SET #c = #c + :n, tags = list_append(tags, :t)".into());
        r.names.insert("#c".into(), Some("count".into()));
        r.values
            .insert(":n".into(), SymbolicValue::Typed(AttributeType::N));
        r.values
            .insert(":t".into(), SymbolicValue::Typed(AttributeType::L));
        r.item
            .insert("customer".into(), SymbolicValue::Typed(AttributeType::S));
        r.item
            .insert("orderId".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &r);
        assert!(v.iter().all(|x| !x.decided), "{v:?}");
        assert!(
            !v.iter().any(|x| x.message.contains("does not exist")),
            "{v:?}"
        );
    }

    #[test]
    fn unknown_values_are_tried_together() {
        // `:from` and `:to` are both compared with a number: accepted only when both
        // are numbers, which no single change from the first candidates shows.
        let mut t = table();
        t.keys.range = Some(KeyAttribute::new("placedAt", AttributeType::N));
        let mut r = query("customer = :c AND placedAt BETWEEN :from AND :to");
        r.values.insert(
            ":c".into(),
            SymbolicValue::Known(AttributeValue::S("c1".into())),
        );
        r.values.insert(":from".into(), SymbolicValue::Unknown);
        r.values.insert(":to".into(), SymbolicValue::Unknown);
        let v = validate(&t, &r);
        assert!(v.iter().all(|x| !x.decided), "{v:?}");

        // Five counters added to at once: too many combinations to try one by one,
        // accepted when all are numbers.
        let mut u = SymbolicRequest::new(SymbolicOp::UpdateItem);
        let adds: Vec<String> = (0..5)
            .map(|i| format!("c{i} = if_not_exists(c{i}, :zero) + :v{i}"))
            .collect();
        u.update = Some(format!("SET {}", adds.join(", ")));
        u.values.insert(
            ":zero".into(),
            SymbolicValue::Known(AttributeValue::N(Number::from_i64(0))),
        );
        for i in 0..5 {
            u.values.insert(format!(":v{i}"), SymbolicValue::Unknown);
        }
        u.item
            .insert("customer".into(), SymbolicValue::Typed(AttributeType::S));
        u.item
            .insert("orderId".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &u);
        assert!(v.iter().all(|x| !x.decided), "{v:?}");

        // Both known by type and wrong: decided.
        r.values
            .insert(":from".into(), SymbolicValue::Typed(AttributeType::S));
        r.values
            .insert(":to".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&t, &r);
        assert!(v.iter().any(|x| x.decided), "{v:?}");
    }

    #[test]
    fn value_dependent_errors_are_undecided() {
        let mut r = query("customer = :c");
        r.values.insert(":c".into(), SymbolicValue::Unknown);
        let v = validate(&table(), &r);
        assert!(!v.is_empty());
        assert!(v.iter().all(|x| !x.decided));
        assert!(v.iter().any(|x| x
            .message
            .contains("Condition parameter type does not match schema type")));

        // Known by type and right: nothing to say, except that an empty string would fail.
        let mut r = query("customer = :c");
        r.values
            .insert(":c".into(), SymbolicValue::Typed(AttributeType::S));
        let v = validate(&table(), &r);
        assert!(v.iter().all(|x| !x.decided), "{v:?}");

        // Known and right: accepted.
        let mut r = query("customer = :c");
        r.values.insert(
            ":c".into(),
            SymbolicValue::Known(AttributeValue::S("c1".into())),
        );
        assert!(validate(&table(), &r).is_empty());

        // Known type, wrong: decided.
        let mut r = query("customer = :c");
        r.values
            .insert(":c".into(), SymbolicValue::Typed(AttributeType::N));
        let v = validate(&table(), &r);
        assert!(v[0].decided);
    }

    /// A GetItem or DeleteItem of `table()`'s item (`customer`, `orderId`).
    fn by_key(op: SymbolicOp, customer: SymbolicValue, order: SymbolicValue) -> SymbolicRequest {
        let mut r = SymbolicRequest::new(op);
        r.item.insert("customer".into(), customer);
        r.item.insert("orderId".into(), order);
        r
    }

    fn s(v: &str) -> SymbolicValue {
        SymbolicValue::Known(AttributeValue::S(v.into()))
    }

    /// Key strings that cannot change the verdict are made one, and the verdict of
    /// that form is the request's own, for every such string.
    #[test]
    fn key_strings_that_cannot_change_the_verdict_are_made_one() {
        let t = table();
        let typed = || SymbolicValue::Typed(AttributeType::S);
        let mut conditional = by_key(SymbolicOp::DeleteItem, s("c"), s("o"));
        conditional.condition = Some("attribute_exists(orderId) AND orderId = :o".into());
        conditional.values.insert(":o".into(), s("o"));
        let longest = "é".repeat(512);
        let mut forms = Vec::new();
        for r in [
            by_key(SymbolicOp::GetItem, s("c1"), s("v17")),
            by_key(SymbolicOp::GetItem, typed(), s(&longest)),
            by_key(SymbolicOp::GetItem, s("ünï"), typed()),
            by_key(SymbolicOp::DeleteItem, s("c2"), s("o2")),
            conditional,
        ] {
            let form = same_verdict_form(&t, &r).expect("made one");
            assert_eq!(validate(&t, &form), validate(&t, &r), "{r:?}");
            forms.push(form);
        }
        assert_eq!(forms[0], by_key(SymbolicOp::GetItem, s("x"), s("x")));
        assert_eq!(
            same_verdict_form(&t, &by_key(SymbolicOp::GetItem, s("x"), s("x"))),
            None
        );
    }

    /// Values that can change the verdict keep their own: an empty key, one longer
    /// than a sort key may be, another type than the key's, a non-key attribute, an
    /// index, and operations whose item is stored (its size, index keys) or absent.
    #[test]
    fn values_that_can_change_the_verdict_keep_their_own() {
        let t = table();
        let n = SymbolicValue::Known(AttributeValue::N(Number::from_i64(1)));
        let too_long = "k".repeat(1025);
        let get = |c, o| by_key(SymbolicOp::GetItem, c, o);
        assert!(validate(&t, &get(s("c"), s("o"))).is_empty());
        for (r, deciding) in [
            (get(s(""), s("o")), "customer"),
            (get(s("c"), s(&too_long)), "orderId"),
            (get(s("c"), n), "orderId"),
        ] {
            assert!(!validate(&t, &r).is_empty(), "{r:?}");
            // The value that decides is kept as it is, whatever else is made one.
            let form = same_verdict_form(&t, &r).unwrap_or_else(|| r.clone());
            assert_eq!(form.item.get(deciding), r.item.get(deciding));
            assert_eq!(validate(&t, &form), validate(&t, &r), "{r:?}");
        }
        let mut extra = get(s("c"), s("o"));
        extra.item.insert("status".into(), s("open"));
        let form = same_verdict_form(&t, &extra).expect("keys made one");
        assert_eq!(form.item.get("status"), Some(&s("open")));
        let mut indexed = get(s("c"), s("o"));
        indexed.index = Some("ByStatus".into());
        assert_eq!(same_verdict_form(&t, &indexed), None);
        for op in [
            SymbolicOp::PutItem,
            SymbolicOp::UpdateItem,
            SymbolicOp::Query,
        ] {
            assert_eq!(same_verdict_form(&t, &by_key(op, s("c"), s("o"))), None);
        }
    }

    #[test]
    fn writes_check_index_keys() {
        let mut r = SymbolicRequest::new(SymbolicOp::PutItem);
        r.item
            .insert("customer".into(), SymbolicValue::Typed(AttributeType::S));
        r.item.insert(
            "orderId".into(),
            SymbolicValue::Known(AttributeValue::S("o".into())),
        );
        r.item.insert(
            "status".into(),
            SymbolicValue::Known(AttributeValue::S(String::new())),
        );
        let v = validate(&table(), &r);
        assert!(
            v.iter()
                .any(|x| x.decided && x.message.contains("IndexName: ByStatus, IndexKey: status")),
            "{v:?}"
        );
    }
}
