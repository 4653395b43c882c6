//! Runs every recorded DynamoDB case in `test-fixtures/conformance/golden-shared.json`
//! through the engine's wire-level entry point and compares the answers by the rules
//! of that folder's README. Prints the pass rate; fails unless every failing request
//! is listed with a reason in `allow-list.toml`, and when a listed one now passes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use dynalint::engine::{DynamoError, Engine, Number};
use serde_json::{json, Value};
use sha1::{Digest, Sha1};

const FIXTURES: &str = "test-fixtures/conformance";

/// Expands the fixture's templates: `$repeat`/`$count`, `$for`/`$range`/`$each` (in
/// lists), `$var` with `$add`/`$pad`, `$concat`.
fn expand(v: &Value, vars: &BTreeMap<String, i64>) -> Value {
    match v {
        Value::Object(o) if o.contains_key("$repeat") => {
            let s = o["$repeat"].as_str().unwrap();
            Value::String(s.repeat(o["$count"].as_u64().unwrap() as usize))
        }
        Value::Object(o) if o.contains_key("$var") => {
            let mut n = vars[o["$var"].as_str().unwrap()];
            if let Some(add) = o.get("$add") {
                n += add.as_i64().unwrap();
            }
            match o.get("$pad") {
                Some(w) => {
                    Value::String(format!("{n:0width$}", width = w.as_u64().unwrap() as usize))
                }
                None => Value::String(n.to_string()),
            }
        }
        Value::Object(o) if o.contains_key("$concat") => {
            let parts = o["$concat"].as_array().unwrap();
            Value::String(
                parts
                    .iter()
                    .map(|p| match expand(p, vars) {
                        Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect(),
            )
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), expand(v, vars)))
                .collect(),
        ),
        Value::Array(a) => {
            let mut out = Vec::new();
            for el in a {
                match el.as_object() {
                    Some(o) if o.contains_key("$for") => {
                        let var = o["$for"].as_str().unwrap().to_string();
                        let range = o["$range"].as_array().unwrap();
                        let (lo, hi) = (range[0].as_i64().unwrap(), range[1].as_i64().unwrap());
                        for i in lo..hi {
                            let mut vars = vars.clone();
                            vars.insert(var.clone(), i);
                            out.push(expand(&o["$each"], &vars));
                        }
                    }
                    _ => out.push(expand(el, vars)),
                }
            }
            Value::Array(out)
        }
        other => other.clone(),
    }
}

fn outcome(r: Result<Value, DynamoError>) -> Value {
    match r {
        Ok(body) => json!({ "body": body }),
        Err(e) => json!({ "error": { "type": e.kind.name(), "message": e.message } }),
    }
}

/// `<<len=N sha1=HEX>>` digests of long strings.
fn digest_matches(expected: &str, actual: &str) -> Option<bool> {
    let inner = expected.strip_prefix("<<len=")?.strip_suffix(">>")?;
    let (len, hex) = inner.split_once(" sha1=")?;
    let len: usize = len.parse().ok()?;
    let full = hex::encode(Sha1::digest(actual.as_bytes()));
    Some(actual.chars().count() == len && full.starts_with(hex))
}

mod hex {
    pub fn encode(bytes: impl AsRef<[u8]>) -> String {
        bytes.as_ref().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Compares an expected and an actual JSON value under the README's rules.
fn same(expected: &Value, actual: &Value, key: &str, unordered_items: bool) -> bool {
    match (expected, actual) {
        (Value::String(e), Value::String(a)) => {
            if let Some(m) = digest_matches(e, a) {
                return m;
            }
            if key == "N" {
                return match (Number::parse(e), Number::parse(a)) {
                    (Ok(x), Ok(y)) => x == y,
                    _ => e == a,
                };
            }
            e == a
        }
        (Value::Number(e), Value::Number(a)) => e.as_f64() == a.as_f64(),
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return false;
            }
            // Sets are unordered; with `order = unordered`, so are item lists (`Items`, the
            // per-table lists of BatchGetItem's `Responses`), though never an `L`.
            let as_set = matches!(key, "SS" | "NS" | "BS") || (unordered_items && key != "L");
            if as_set {
                let mut used = vec![false; a.len()];
                e.iter().all(|x| {
                    let elem_key = if key == "NS" { "N" } else { "" };
                    match (0..a.len())
                        .find(|&i| !used[i] && same(x, &a[i], elem_key, unordered_items))
                    {
                        Some(i) => {
                            used[i] = true;
                            true
                        }
                        None => false,
                    }
                })
            } else {
                e.iter()
                    .zip(a)
                    .all(|(x, y)| same(x, y, key, unordered_items))
            }
        }
        (Value::Object(e), Value::Object(a)) => {
            e.len() == a.len()
                && e.iter()
                    .all(|(k, v)| a.get(k).is_some_and(|w| same(v, w, k, unordered_items)))
        }
        (e, a) => e == a,
    }
}

/// Item identity for union checks.
fn item_ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| serde_json::to_string(i).unwrap())
        .collect()
}

/// A union group: item ids seen, errors seen, the expectation, the request indexes.
type UnionGroup = (Vec<String>, Vec<Value>, Value, Vec<usize>);

struct Verdict {
    id: String,
    pass: bool,
    detail: String,
}

fn run_case(case: &Value) -> Vec<Verdict> {
    let name = case["name"].as_str().unwrap();
    let vars = BTreeMap::new();
    let mut engine = Engine::new();
    for t in case["tables"].as_array().unwrap() {
        engine.handle("CreateTable", &expand(t, &vars)).unwrap();
    }
    for (table, items) in case["items"].as_object().unwrap() {
        for item in expand(items, &vars).as_array().unwrap() {
            let r = engine.handle("PutItem", &json!({"TableName": table, "Item": item}));
            assert!(r.is_ok(), "{name}: seeding {table} failed: {r:?}");
        }
    }
    let mut verdicts = Vec::new();
    // Union groups collect across requests; judged once all have run.
    let mut groups: BTreeMap<String, UnionGroup> = BTreeMap::new();
    for req in case["requests"].as_array().unwrap() {
        let i = req["i"].as_u64().unwrap() as usize;
        let id = format!("{name}#{i}");
        let op = req["op"].as_str().unwrap();
        let body = expand(&req["body"], &vars);
        let expect = &req["expect"];
        let mode = req["match"].as_str().unwrap();
        if mode == "union" {
            let group = req["union"].as_str().unwrap_or("pages").to_string();
            let entry = groups
                .entry(group)
                .or_insert_with(|| (Vec::new(), Vec::new(), expect.clone(), Vec::new()));
            entry.3.push(i);
            let pages = req["paginate"].as_u64().unwrap_or(1);
            let mut body = body.clone();
            for _ in 0..pages {
                match engine.handle(op, &body) {
                    Ok(resp) => {
                        if let Some(items) = resp["Items"].as_array() {
                            entry.0.extend(item_ids(items));
                        }
                        match resp.get("LastEvaluatedKey") {
                            Some(lek) if req.get("paginate").is_some() => {
                                body["ExclusiveStartKey"] = lek.clone();
                            }
                            _ => break,
                        }
                    }
                    Err(e) => {
                        entry.1.push(json!(e.kind.name()));
                        break;
                    }
                }
            }
            continue;
        }
        // `paginate` with an exact `pages` expectation: follow LastEvaluatedKey.
        let actual = match (
            req.get("paginate").and_then(Value::as_u64),
            expect.get("pages"),
        ) {
            (Some(max), Some(_)) => {
                let mut pages = Vec::new();
                let mut body = body.clone();
                for _ in 0..max {
                    let page = outcome(engine.handle(op, &body));
                    let next = page["body"].get("LastEvaluatedKey").cloned();
                    pages.push(page);
                    match next {
                        Some(lek) => body["ExclusiveStartKey"] = lek,
                        None => break,
                    }
                }
                json!({ "pages": pages })
            }
            _ => outcome(engine.handle(op, &body)),
        };
        let (pass, detail) = match mode {
            "exact" => {
                let unordered = req["order"].as_str() == Some("unordered");
                let ok = same(expect, &actual, "", unordered);
                (
                    ok,
                    format!("expected {expect}\n      actual {}", short(&actual)),
                )
            }
            "error_type" => {
                let want = expect["error"]["type"].as_str().unwrap_or("");
                let got = actual["error"]["type"].as_str().unwrap_or("");
                let msg = actual["error"]["message"].as_str().unwrap_or("");
                let phrases: Vec<&str> = req["message_contains"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let ok = want == got && phrases.iter().all(|p| msg.contains(p));
                (
                    ok,
                    format!(
                        "expected {want} containing {phrases:?}\n      actual {}",
                        short(&actual)
                    ),
                )
            }
            other => (false, format!("unknown match mode {other}")),
        };
        verdicts.push(Verdict { id, pass, detail });
    }
    for (group, (ids, errors, expect, requests)) in groups {
        let distinct: BTreeSet<&String> = ids.iter().collect();
        let duplicates = ids.len() - distinct.len();
        let want_count = expect["union_count"].as_u64().unwrap_or(0) as usize;
        let want_dups = expect["duplicates"].as_u64().unwrap_or(0) as usize;
        let want_errors = expect["errors"].as_array().map_or(0, Vec::len);
        let pass =
            distinct.len() == want_count && duplicates == want_dups && errors.len() == want_errors;
        for i in requests {
            verdicts.push(Verdict {
                id: format!("{name}#{i}"),
                pass,
                detail: format!(
                    "union {group}: expected {want_count} items, {want_dups} duplicates, {want_errors} errors; got {}, {duplicates}, {errors:?}",
                    distinct.len()
                ),
            });
        }
    }
    verdicts
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 600 {
        format!(
            "{}...",
            &s[..s.char_indices().nth(600).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

#[derive(serde::Deserialize)]
struct AllowList {
    #[serde(default)]
    allow: Vec<Allowed>,
}

#[derive(serde::Deserialize)]
struct Allowed {
    /// `group/case#request-index`.
    id: String,
    reason: String,
}

#[test]
fn conformance() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURES);
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("golden-shared.json")).unwrap())
            .unwrap();
    let allow: AllowList =
        toml::from_str(&std::fs::read_to_string(root.join("allow-list.toml")).unwrap()).unwrap();
    let allowed: BTreeMap<&str, &str> = allow
        .allow
        .iter()
        .map(|a| (a.id.as_str(), a.reason.as_str()))
        .collect();
    for (id, reason) in &allowed {
        assert!(
            !reason.trim().is_empty(),
            "allow-list entry {id} has no reason"
        );
    }
    let only = std::env::var("CONFORMANCE_ONLY").ok();
    let mut verdicts = Vec::new();
    for case in data["cases"].as_array().unwrap() {
        if only
            .as_ref()
            .is_some_and(|o| !case["name"].as_str().unwrap().starts_with(o.as_str()))
        {
            continue;
        }
        verdicts.extend(run_case(case));
    }
    let passed = verdicts.iter().filter(|v| v.pass).count();
    let mut by_group: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for v in &verdicts {
        let g = v.id.split('/').next().unwrap_or("");
        let e = by_group.entry(g).or_default();
        e.1 += 1;
        if v.pass {
            e.0 += 1;
        }
    }
    println!(
        "conformance: {passed}/{} requests pass ({:.1}%)",
        verdicts.len(),
        100.0 * passed as f64 / verdicts.len().max(1) as f64
    );
    for (g, (p, t)) in &by_group {
        println!("  {g:<16} {p}/{t}");
    }
    let mut problems = Vec::new();
    for v in &verdicts {
        match (v.pass, allowed.get(v.id.as_str())) {
            (false, None) => problems.push(format!("FAIL {}\n      {}", v.id, v.detail)),
            (true, Some(_)) => problems.push(format!(
                "PASSES but allow-listed (remove it from allow-list.toml): {}",
                v.id
            )),
            (false, Some(reason)) => println!("  allowed {}: {reason}", v.id),
            (true, None) => {}
        }
    }
    if only.is_none() {
        let ids: BTreeSet<&str> = verdicts.iter().map(|v| v.id.as_str()).collect();
        for id in allowed.keys() {
            if !ids.contains(id) {
                problems.push(format!("allow-list names an unknown request: {id}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
