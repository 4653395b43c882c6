//! Monthly figures of three real-world corpus repositories checked by hand: their
//! models (`realworld/<name>/dynalint.toml`, with an item count, an item size, a
//! `write-rate` and rated access patterns) simulated, every access pattern's and the
//! table's writes priced as units × price × rate, on-demand ($0.125 per million RRU,
//! $0.625 per million WRU) and provisioned (at 70% use, $0.00013 per RCU-hour and
//! $0.00065 per WCU-hour) at the bundled us-east-1 prices.
//!
//! When `scripts/realworld-fetch` has put the repositories' code under
//! `/tmp/dynalint-realworld` (`DYNALINT_REALWORLD_DIR`), `check`'s estimate of their
//! calls is checked by hand too; CI has no such trees, and checks the models alone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

use common::{dynalint, root};
use serde_json::Value;

const HOURS: f64 = 730.0;
const SECONDS: f64 = HOURS * 3600.0;

fn on_demand(read: f64, write: f64) -> f64 {
    (read * 0.125 + write * 0.625) * SECONDS / 1e6
}

fn provisioned(read: f64, write: f64) -> f64 {
    (read * 0.00013 + write * 0.00065) / 0.7 * HOURS
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn model(name: &str) -> PathBuf {
    root().join("realworld").join(name).join("dynalint.toml")
}

/// `simulate` of a corpus model alone, every item generated.
fn simulate(name: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let m = model(name);
    let (out, err, code) = dynalint(
        dir.path(),
        &[
            "simulate",
            "--config",
            m.to_str().unwrap(),
            "--scale",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn pattern<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern {name}"))
}

/// A pattern's month: `rcu` per call (checked) at `rate` a second.
fn check_pattern(v: &Value, name: &str, rcu: f64, rate: f64) {
    let p = pattern(v, name);
    assert_eq!(p["cost"]["full"]["rcu"].as_f64(), Some(rcu), "{p:#}");
    assert_eq!(p["rate"].as_f64(), Some(rate));
    let s = &p["spend"];
    assert!(
        close(s["on_demand"].as_f64().unwrap(), on_demand(rcu * rate, 0.0)),
        "{s:#}"
    );
    assert!(
        close(
            s["provisioned"].as_f64().unwrap(),
            provisioned(rcu * rate, 0.0)
        ),
        "{s:#}"
    );
}

/// The table's writes: `rate` a second, each the WCU one put costs on the table and
/// its indexes (`wcu`, checked when given: the generated items' average otherwise).
fn check_writes(v: &Value, rate: f64, wcu: Option<f64>) {
    let t = &v["tables"][0];
    let per_put = t["entities"][0]["write"]["total_wcu"].as_f64().unwrap();
    if let Some(w) = wcu {
        assert_eq!(per_put, w, "{t:#}");
    }
    let c = &t["cost"];
    assert!(close(c["units"]["write"].as_f64().unwrap(), rate * per_put));
    let w = &c["writes"];
    assert!(
        close(
            w["on_demand"].as_f64().unwrap(),
            on_demand(0.0, rate * per_put)
        ),
        "{w:#}"
    );
    assert!(
        close(
            w["provisioned"].as_f64().unwrap(),
            provisioned(0.0, rate * per_put)
        ),
        "{w:#}"
    );
    // Storage: the bytes the report counts, at $0.25 per GB of 2^30 bytes.
    let bytes = c["storage_bytes"].as_f64().unwrap();
    assert!(close(
        c["storage"].as_f64().unwrap(),
        bytes / 1_073_741_824.0 * 0.25
    ));
}

#[test]
fn kids_bank_by_hand() {
    let v = simulate("kids-bank");
    // Accounts of 200 B: a GetItem by id and a Query of one by a unique email each read
    // one 4 KB unit, halved.
    check_pattern(&v, "account by id", 0.5, 20.0);
    assert!(close(
        pattern(&v, "account by id")["spend"]["on_demand"]
            .as_f64()
            .unwrap(),
        3.285
    ));
    check_pattern(&v, "account by email", 0.5, 5.0);
    // 2 writes a second of 1 WCU on the table and 1 on `email-index` (ALL).
    check_writes(&v, 2.0, Some(2.0));
    assert!(close(
        v["tables"][0]["cost"]["writes"]["on_demand"]
            .as_f64()
            .unwrap(),
        6.57
    ));
}

#[test]
fn serverless_rust_demo_by_hand() {
    let v = simulate("serverless-rust-demo");
    check_pattern(&v, "product by id", 0.5, 50.0);
    assert!(close(
        pattern(&v, "product by id")["spend"]["on_demand"]
            .as_f64()
            .unwrap(),
        8.2125
    ));
    check_writes(&v, 1.0, Some(1.0));
    assert!(close(
        v["tables"][0]["cost"]["writes"]["on_demand"]
            .as_f64()
            .unwrap(),
        1.6425
    ));
}

#[test]
fn rust_ddb_full_crud_api_by_hand() {
    let v = simulate("rust-ddb-full-crud-api");
    // Items of about 1,800 B: one 4 KB unit to read, halved, 100 times a second.
    check_pattern(&v, "item by id", 0.5, 100.0);
    assert!(close(
        pattern(&v, "item by id")["spend"]["on_demand"]
            .as_f64()
            .unwrap(),
        16.425
    ));
    // The generated items' sizes spread around 1,800 B: each put's WCU is theirs.
    check_writes(&v, 5.0, None);
}

/// `check`'s estimate of each repository's calls, when its code is at hand: a GetItem
/// that implements a rated pattern at that rate, a put of the declared size at one a
/// second.
#[test]
fn the_corpus_code_is_priced_at_its_patterns_rates() {
    let trees = std::env::var_os("DYNALINT_REALWORLD_DIR")
        .map_or_else(|| PathBuf::from("/tmp/dynalint-realworld"), PathBuf::from);
    let cases = [
        // (repository, the GetItem's rate, its RCU, the put's WCU)
        ("serverless-rust-demo", 50.0, 0.5, 1.0),
        ("rust-ddb-full-crud-api", 100.0, 0.5, 2.0),
    ];
    for (name, rate, rcu, wcu) in cases {
        let tree = trees.join(name);
        if !tree.is_dir() {
            eprintln!(
                "{name}: no tree at {} (scripts/realworld-fetch), only its model is checked",
                tree.display()
            );
            continue;
        }
        let m = model(name);
        let (out, _, _) = dynalint(
            &tree,
            &["check", "--config", m.to_str().unwrap(), "--format", "json"],
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        let calls = v["summary"]["cost"]["calls"].as_array().unwrap();
        let get = calls.iter().find(|c| c["kind"] == "GetItem").unwrap();
        assert_eq!(
            get["rate_per_second"].as_f64(),
            Some(rate),
            "{name}: {get:#}"
        );
        assert!(close(
            get["monthly_on_demand"].as_f64().unwrap(),
            on_demand(rcu * rate, 0.0)
        ));
        assert!(close(
            get["monthly_provisioned"].as_f64().unwrap(),
            provisioned(rcu * rate, 0.0)
        ));
        let put = calls.iter().find(|c| c["kind"] == "PutItem").unwrap();
        assert_eq!(
            put["rate_per_second"].as_f64(),
            Some(1.0),
            "{name}: {put:#}"
        );
        assert!(
            close(
                put["monthly_on_demand"].as_f64().unwrap(),
                on_demand(0.0, wcu)
            ),
            "{name}: {put:#}"
        );
    }
}
