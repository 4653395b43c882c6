//! A call has one cost (`facts::call_cost`), whoever prints it: the findings of
//! `scan-in-hot-path` and `filter-instead-of-index`, `simulate`'s estimate and its
//! measurement on generated data, and the editor's hover. And a parallel Scan's
//! segment reads its share of the table, not the table once per segment.
//!
//! The project is `test-fixtures/_cost/events`: an axum handler scanning with
//! `limit(200)` and a filter, and a nightly export in four segments.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod lsp_support;

use common::{dynalint, root};
use dynalint::lsp::ServerOptions;
use lsp_support::{copy_of, position_of, Client};
use serde_json::{json, Value};

fn project() -> std::path::PathBuf {
    root().join("test-fixtures/_cost/events")
}

fn check() -> Vec<Value> {
    let (out, err, _) = dynalint(&project(), &["check", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}\n{err}"));
    v["diagnostics"].as_array().unwrap().clone()
}

fn simulate() -> Value {
    let (out, err, code) = dynalint(
        &project(),
        &["simulate", "--scale", "0.05", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Line (1-based) of the first line of `main.rs` containing `needle`, after `from`.
fn line_of(needle: &str, from: &str) -> usize {
    let text = std::fs::read_to_string(project().join("src/main.rs")).unwrap();
    let start = text.find(from).unwrap();
    text[..start + text[start..].find(needle).unwrap()]
        .lines()
        .count()
}

#[test]
fn a_limited_filtered_scan_has_one_cost_in_every_rule_simulate_and_the_hover() {
    // 200 items of 500 B read by one request: 100,000 B, 25 units of 4 KB, halved for
    // an eventually consistent read.
    let want = 12.5;
    let scan = line_of(".scan()", "async fn open_events");
    let found = check();
    let at = |rule: &str| -> String {
        found
            .iter()
            .find(|d| d["rule"] == rule && d["line"] == scan as u64)
            .unwrap_or_else(|| panic!("no {rule} at line {scan}: {found:#?}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        at("scan-in-hot-path").contains("about 12.5 RCU for 200 items of 500 B"),
        "{}",
        at("scan-in-hot-path")
    );
    // The filter's finding once claimed the whole table: 61,036 RCU.
    let filter = found
        .iter()
        .find(|d| {
            d["rule"] == "filter-instead-of-index"
                && d["message"].as_str().unwrap().contains("`Status`")
        })
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        filter.contains(
            "about 200 items (97.7 KB, 12.5 RCU) read per call to return about 100 (50%)"
        ),
        "{filter}"
    );

    let sim = simulate();
    let op = sim["operations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| {
            o["location"]
                .as_str()
                .unwrap()
                .ends_with(&format!("main.rs:{scan}:10"))
        })
        .unwrap_or_else(|| panic!("{:#}", sim["operations"]));
    assert_eq!(op["estimate"]["read_units"].as_f64(), Some(want));
    assert_eq!(op["estimate"]["items_read"].as_f64(), Some(200.0));
    // Measured on generated items of 500 B: the same read.
    assert_eq!(op["cost"]["full"]["rcu"].as_f64(), Some(want), "{op:#}");
    assert_eq!(op["cost"]["full"]["items_read"].as_f64(), Some(200.0));

    let (_tmp, root) = copy_of("_cost/events");
    let mut c = Client::in_process(ServerOptions::default());
    c.initialize(&root);
    let (u, text) = c.open(&root.join("src/main.rs"), "rust");
    let at = text.find(".scan()").unwrap() + 2;
    let (line, character) = position_of(&text, at);
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }),
    );
    let hover = r.result.unwrap();
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("reads about 200 items (97.7 KB), 12.5 RCU per call"),
        "{md}"
    );
    // 12.5 RRU at $0.125 per million: $1.5625 per million calls; at one a second for
    // 730 hours, $4.11.
    assert!(
        md.contains("$1.562 per million calls on-demand, $4.11 a month on-demand at 1 call/s"),
        "{md}"
    );
    c.shutdown();
}

#[test]
fn a_parallel_scan_reads_a_segment_per_call_and_the_table_once() {
    let found = check();
    // The segments, in `(0..SEGMENTS).map(|segment| ..)` or `for segment in
    // 0..SEGMENTS`, are one read of the table: no loop repeats it.
    for f in ["pub async fn export(", "pub async fn export_spawned("] {
        let scan = line_of(".scan()", f);
        let hits: Vec<&Value> = found.iter().filter(|d| d["line"] == scan as u64).collect();
        assert!(hits.is_empty(), "{f}: {hits:#?}");
    }
    // A loop over tenants around the parallel scan does repeat it, all segments.
    let tenants = line_of(".scan()", "pub async fn export_tenants(");
    let repeated = found
        .iter()
        .find(|d| d["rule"] == "scan-in-hot-path" && d["line"] == tenants as u64)
        .unwrap()["message"]
        .as_str()
        .unwrap();
    assert!(
        repeated.contains(
            "reads every page once per iteration of a loop (about 61,036 RCU for 1,000,000 items of 500 B, eventually consistent, in 4 segments of 15,259 RCU)"
        ),
        "{repeated}"
    );

    // One call is one segment: a quarter of 1,000,000 items of 500 B, paged.
    let sim = simulate();
    let export = line_of(".scan()", "pub async fn export(");
    let op = sim["operations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| {
            o["location"]
                .as_str()
                .unwrap()
                .contains(&format!("main.rs:{export}:"))
        })
        .unwrap();
    let bytes = 250_000.0 * 500.0;
    let full_pages = (bytes / 1_048_576.0_f64).floor();
    let rest_units = ((bytes - full_pages * 1_048_576.0) / 4096.0).ceil();
    let rcu = (full_pages * 256.0 + rest_units) / 2.0;
    assert_eq!(rcu, 15_259.0);
    assert_eq!(op["estimate"]["items_read"].as_f64(), Some(250_000.0));
    assert_eq!(op["estimate"]["read_units"].as_f64(), Some(rcu));
    assert_eq!(op["estimate"]["segments"].as_u64(), Some(4));
    let measured = op["cost"]["full"]["items_read"].as_f64().unwrap();
    assert!(
        (measured - 250_000.0).abs() < 1.0,
        "a segment is a quarter of the table: {op:#}"
    );
}

/// Seconds and hours in a billed month (AWS's 730 hours).
const HOURS: f64 = 730.0;
const SECONDS: f64 = HOURS * 3600.0;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn findings_price_their_units_at_the_bundled_us_east_1_prices() {
    let scan = line_of(".scan()", "async fn open_events");
    let found = check();
    // The filter's finding points at its term, a few lines below the call.
    let cost = |rule: &str| -> Value {
        found
            .iter()
            .find(|d| {
                d["rule"] == rule
                    && (scan..scan + 4).contains(&(d["line"].as_u64().unwrap() as usize))
            })
            .unwrap()["cost"]
            .clone()
    };
    // 12.5 RRU a call, one call a second (no rate is declared): $0.125 per million RRU
    // on-demand; provisioned, 12.5 / 0.7 RCU at $0.00013 an hour.
    let c = cost("scan-in-hot-path");
    assert_eq!(c["rate_per_second"], 1.0);
    assert_eq!(c["rate_from"], Value::Null);
    let od = 12.5 * SECONDS * 0.125 / 1e6;
    let pr = 12.5 / 0.7 * 0.00013 * HOURS;
    assert!(
        close(c["as_written"]["on_demand"].as_f64().unwrap(), od),
        "{c:#}"
    );
    assert!(
        close(c["as_written"]["provisioned"].as_f64().unwrap(), pr),
        "{c:#}"
    );
    assert!(
        c["text"]
            .as_str()
            .unwrap()
            .contains("$4.11 a month on-demand"),
        "{c:#}"
    );
    // Served by a Query of the 100 items it returns: 50,000 B, 13 units of 4 KB, halved.
    let fixed = 6.5 * SECONDS * 0.125 / 1e6;
    assert!(
        close(c["as_fixed"]["on_demand"].as_f64().unwrap(), fixed),
        "{c:#}"
    );

    let c = cost("filter-instead-of-index");
    assert!(
        close(c["as_written"]["on_demand"].as_f64().unwrap(), od),
        "{c:#}"
    );
    assert!(
        close(c["as_fixed"]["on_demand"].as_f64().unwrap(), fixed),
        "{c:#}"
    );
    // A new GSI needs the table's write rate, which the model does not give.
    assert_eq!(c["fix_adds"], Value::Null);
    assert!(
        c["missing"][0]
            .as_str()
            .unwrap()
            .contains("`write-rate` of table `Events`"),
        "{c:#}"
    );
}

/// The bundled example's access patterns priced by hand: RCU per call × rate × the
/// price, on-demand ($0.125 per million RRU) and provisioned (RCU at 70% use, $0.00013
/// an hour), and its table's month as their sum.
#[test]
fn the_demo_prices_its_access_patterns_by_hand() {
    let (out, err, code) = dynalint(
        &root().join("test-fixtures/demo"),
        &["simulate", "--scale", "0.02", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["prices"]["region"], "us-east-1");
    let pattern = |name: &str| -> Value {
        v["patterns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    let od = |rcu: f64, rate: f64| rcu * rate * SECONDS * 0.125 / 1e6;
    let pr = |rcu: f64, rate: f64| rcu * rate / 0.7 * 0.00013 * HOURS;
    // `latest blogs`: 3 blogs of 400 B from `ByFacet`, one 4 KB unit halved, 50/s.
    let latest = pattern("latest blogs");
    assert_eq!(latest["cost"]["full"]["rcu"], 0.5);
    assert!(close(
        latest["spend"]["on_demand"].as_f64().unwrap(),
        od(0.5, 50.0)
    ));
    assert!(close(
        latest["spend"]["on_demand"].as_f64().unwrap(),
        8.2125
    ));
    assert!(close(
        latest["spend"]["provisioned"].as_f64().unwrap(),
        pr(0.5, 50.0)
    ));
    // `published blogs`: 20 of 400 B (8,000 B, two units halved) at 400/s.
    let published = pattern("published blogs");
    assert_eq!(published["cost"]["full"]["rcu"], 1.0);
    assert!(close(
        published["spend"]["on_demand"].as_f64().unwrap(),
        131.4
    ));
    assert!(close(
        published["spend"]["provisioned"].as_f64().unwrap(),
        pr(1.0, 400.0)
    ));
    assert_eq!(published["spend"]["cheaper"], "provisioned");
    // Break-even: provisioned at full use over on-demand, the same for any read load.
    let be = 0.00013 * HOURS / (3600.0 * HOURS * 0.125 / 1e6);
    assert!(close(
        published["spend"]["break_even_utilization"]
            .as_f64()
            .unwrap(),
        be
    ));
    // The table's reads are every rated pattern's, priced together.
    let table = &v["tables"][0];
    let sum_rcu: f64 = v["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["rate"].is_null())
        .map(|p| p["cost"]["full"]["rcu"].as_f64().unwrap() * p["rate"].as_f64().unwrap())
        .sum();
    assert!(close(
        table["cost"]["units"]["read"].as_f64().unwrap(),
        sum_rcu
    ));
    assert!(close(
        table["cost"]["reads"]["on_demand"].as_f64().unwrap(),
        od(sum_rcu, 1.0)
    ));
    assert!(close(
        table["cost"]["reads"]["provisioned"].as_f64().unwrap(),
        pr(sum_rcu, 1.0)
    ));
    // No entity declares a `write-rate`: writes are left out, and said to be.
    assert!(table["cost"]["left_out"][0]
        .as_str()
        .unwrap()
        .contains("write-rate"));
}

/// A CI gate: `--write-baseline` records the monthly estimate; a change that adds a
/// Scan to a request handler raises it by more than `--max-cost-increase`, which fails
/// the run with the delta in the GitHub annotation and in the JSON summary.
#[test]
fn a_change_that_raises_the_monthly_estimate_past_the_limit_fails_the_gate() {
    let (_tmp, root) = copy_of("_cost/events");
    let baseline = root.join("dynalint-baseline.json");
    let b = baseline.to_str().unwrap();
    let (_, err, code) = dynalint(&root, &["check", "--write-baseline", b]);
    assert_eq!(code, 0, "{err}");
    let before: Value = serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    let base = before["cost"]["monthly"].as_f64().unwrap();

    // Unchanged code passes.
    let (out, err, code) = dynalint(
        &root,
        &[
            "check",
            "--baseline",
            b,
            "--max-cost-increase",
            "100",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(close(
        v["summary"]["cost"]["monthly"].as_f64().unwrap(),
        base
    ));
    assert_eq!(v["summary"]["cost"]["baseline"]["exceeded"], false);

    // A handler that scans the whole table on every request: 500,000,000 B, 476 full
    // pages of 256 units and 215 units more, halved: 61,035.5 RRU a call at one call a
    // second, $20,050 a month on-demand more.
    let main = root.join("src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap().replace(
        "/// The open events, one page of up to 200 read.",
        "async fn all_events(State(client): State<Client>) -> Json<usize> {\n    let out = client.scan().table_name(EVENTS_TABLE).into_paginator().items().send().collect::<Vec<_>>().await;\n    Json(out.len())\n}\n\n/// The open events, one page of up to 200 read.",
    ).replace(
        ".route(\"/events/open\", get(open_events))",
        ".route(\"/events/open\", get(open_events))\n        .route(\"/events\", get(all_events))",
    );
    std::fs::write(&main, text).unwrap();
    let whole = (476.0 * 256.0 + 215.0) / 2.0 * SECONDS * 0.125 / 1e6;
    let (out, err, code) = dynalint(
        &root,
        &[
            "check",
            "--baseline",
            b,
            "--max-cost-increase",
            "100",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let gate = &v["summary"]["cost"]["baseline"];
    assert_eq!(gate["exceeded"], true, "{gate:#}");
    assert!(
        close(gate["increase"].as_f64().unwrap(), whole),
        "{gate:#} {whole}"
    );
    assert!(err.contains("over --max-cost-increase $100"), "{err}");
    let (out, _, code) = dynalint(
        &root,
        &[
            "check",
            "--baseline",
            b,
            "--max-cost-increase",
            "100",
            "--format",
            "github",
        ],
    );
    assert_eq!(code, 1);
    let annotation = out
        .lines()
        .find(|l| l.starts_with("::error title=dynalint cost"))
        .unwrap();
    // (GitHub's title escapes its comma.)
    assert!(annotation.contains("+$20%2C050 a month"), "{annotation}");
    assert!(annotation.contains("changed by +$20,050"), "{annotation}");
    // A limit above the increase passes the gate (the new scan's finding still fails
    // the run: it is not in the baseline).
    let (out, err, _) = dynalint(
        &root,
        &[
            "check",
            "--baseline",
            b,
            "--max-cost-increase",
            "30000",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["cost"]["baseline"]["exceeded"], false);
    assert!(!err.contains("--max-cost-increase"), "{err}");
}
