//! `dynalint simulate --format html` opened from disk in a real headless Chromium
//! (driven by `tests/html_report/check.mjs`): it renders, fetches nothing, its figures
//! (text and raw `data-value`) equal `simulate --format json`'s, its findings are
//! `check --format json`'s at their source lines, and at 200 tables it stays usable:
//! the tables are folded and the filter box finds one of them.
//!
//! playwright-core and Chromium come from `scripts/install-test-tools.sh`
//! (target/test-tools/code-server/node_modules/playwright-core, Debian's
//! /usr/bin/chromium or `$DYNALINT_CHROMIUM`). Without them the test fails under CI
//! and is skipped, loudly, elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{dynalint, root};
use dynalint::pricing::dollars;
use serde_json::Value;

struct Tools {
    playwright: PathBuf,
    chromium: PathBuf,
}

fn tools() -> Result<Tools, String> {
    let t = Tools {
        playwright: root().join("target/test-tools/code-server/node_modules/playwright-core"),
        chromium: std::env::var_os("DYNALINT_CHROMIUM")
            .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from),
    };
    for p in [&t.playwright, &t.chromium] {
        if !p.exists() {
            return Err(format!("{} not found", p.display()));
        }
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node not found".into());
    }
    Ok(t)
}

fn tools_or_skip(test: &str) -> Option<Tools> {
    match tools() {
        Ok(t) => Some(t),
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{why}: run scripts/install-test-tools.sh"
            );
            let _ = writeln!(
                std::io::stderr().lock(),
                "\n\n  ***** SKIPPED {test}: {why}. *****\n  Run scripts/install-test-tools.sh to test the HTML report in Chromium.\n"
            );
            None
        }
    }
}

/// `simulate` of the project at `dir` in `format`, at a fixed scale and seed.
fn simulate(dir: &Path, format: &str, scale: &str) -> String {
    let (out, err, code) = dynalint(
        dir,
        &[
            "simulate", "--scale", scale, "--seed", "7", "--format", format,
        ],
    );
    assert_eq!(code, 0, "{err}");
    out
}

/// The page as `check.mjs` reads it, after filtering for `filter`.
fn browse(tools: &Tools, html: &Path, filter: &str) -> Value {
    let out = Command::new("node")
        .arg(root().join("tests/html_report/check.mjs"))
        .env("DYNALINT_REPORT", html)
        .env("DYNALINT_FILTER", filter)
        .env("PLAYWRIGHT_CORE", &tools.playwright)
        .env("CHROMIUM", &tools.chromium)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "check.mjs failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn f(v: &Value) -> Option<f64> {
    v.as_f64()
}

#[test]
fn the_report_renders_from_disk_with_the_jsons_figures_and_the_checks_findings() {
    let Some(tools) = tools_or_skip("the_report_renders_from_disk") else {
        return;
    };
    let demo = root().join("test-fixtures/demo");
    let json: Value = serde_json::from_str(&simulate(&demo, "json", "0.002")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("report.html");
    std::fs::write(&html, simulate(&demo, "html", "0.002")).unwrap();
    let page = browse(&tools, &html, "BlogApp");
    let before = &page["before"];

    // Opened from disk: no request besides the file, no script error.
    assert_eq!(page["requests"], Value::Array(vec![]), "{page:#}");
    assert_eq!(page["errors"], Value::Array(vec![]), "{page:#}");
    assert!(before["title"].as_str().unwrap().contains("dynalint.toml"));

    // Each table's row: the JSON's figure in `data-value` and as `dollars` prints it.
    let tables = json["tables"].as_array().unwrap();
    let rows = before["tables"].as_array().unwrap();
    assert_eq!(rows.len(), tables.len());
    for (t, row) in tables.iter().zip(rows) {
        assert_eq!(row["name"], t["name"]);
        let c = &t["cost"];
        // Cells: name, bar, on-demand, provisioned, reads, writes, storage, cheaper, break-even.
        let expect = [
            (2, f(&c["total"]["on_demand"])),
            (3, f(&c["total"]["provisioned"])),
            (4, f(&c["reads"]["on_demand"])),
            (5, f(&c["writes"]["on_demand"])),
            (6, f(&c["storage"])),
        ];
        for (cell, want) in expect {
            assert_eq!(f(&row["values"][cell]), want, "cell {cell} of {row:#}");
            assert_eq!(
                row["cells"][cell].as_str().unwrap(),
                want.map_or("–".to_string(), dollars),
                "cell {cell} of {row:#}"
            );
        }
    }
    let total: f64 = tables
        .iter()
        .map(|t| t["cost"]["total"]["on_demand"].as_f64().unwrap())
        .sum();
    assert_eq!(before["totals"]["onDemand"].as_f64(), Some(total));

    // Each access pattern's month.
    let patterns = json["patterns"].as_array().unwrap();
    let rows = before["patterns"].as_array().unwrap();
    assert_eq!(rows.len(), patterns.len());
    for (p, row) in patterns.iter().zip(rows) {
        assert_eq!(row["name"], p["name"]);
        assert_eq!(f(&row["values"][5]), f(&p["spend"]["on_demand"]), "{row:#}");
        assert_eq!(
            f(&row["values"][6]),
            f(&p["spend"]["provisioned"]),
            "{row:#}"
        );
    }
    // Partition heat: the hottest partition's RCU/s of each pattern with a rate.
    let heat: Vec<f64> = before["readHeat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["values"][3].as_f64().unwrap())
        .collect();
    let want: Vec<f64> = patterns
        .iter()
        .filter_map(|p| p["load"]["hottest_rcu_per_sec"].as_f64())
        .collect();
    assert_eq!(heat, want);

    // The findings are `check`'s, each at its line, which the excerpt marks.
    let (out, _, _) = dynalint(&demo, &["check", "--format", "json"]);
    let check: Value = serde_json::from_str(&out).unwrap();
    let diags = check["diagnostics"].as_array().unwrap();
    let shown = before["findings"].as_array().unwrap();
    assert_eq!(shown.len(), diags.len());
    for (d, s) in diags.iter().zip(shown) {
        assert_eq!(s["rule"], d["rule"]);
        assert_eq!(s["line"], d["line"]);
        assert!(
            s["file"]
                .as_str()
                .unwrap()
                .ends_with(d["file"].as_str().unwrap()),
            "{s} {d}"
        );
        // The page sets backticked names as code.
        if let Some(c) = d["cost"]["text"].as_str() {
            assert_eq!(
                s["cost"].as_str().unwrap(),
                format!("cost: {}", c.replace('`', ""))
            );
        }
        let path = demo.join(d["file"].as_str().unwrap());
        if let Ok(text) = std::fs::read_to_string(&path) {
            let line = d["line"].as_u64().unwrap() as usize;
            let source = text.lines().nth(line - 1).unwrap();
            let marked = s["marked"].as_str().unwrap();
            assert!(
                marked.ends_with(source.trim_end()),
                "{marked:?} marks line {line}: {source:?}"
            );
        }
    }

    // Filtering for the table keeps its row and opens its details.
    assert_eq!(page["after"]["tables"], serde_json::json!(["BlogApp"]));
    assert_eq!(
        page["after"]["openDetails"],
        serde_json::json!(["table-BlogApp"])
    );
}

#[test]
fn the_report_stays_usable_at_200_tables() {
    let Some(tools) = tools_or_skip("the_report_stays_usable_at_200_tables") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut toml = String::new();
    for i in 0..200 {
        toml.push_str(&format!(
            "[[table]]\nname = \"Table{i:03}\"\npartition-key = \"PK\"\nsort-key = \"SK\"\nitem-count = 500\navg-item-size = {}\nwrite-rate = {}\n\n[table.attributes]\nPK = {{ type = \"S\", cardinality = 50 }}\nSK = \"S\"\nGroup = {{ type = \"S\", cardinality = 5 }}\n\n[[table.index]]\nname = \"ByGroup{i:03}\"\npartition-key = \"Group\"\nprojection = \"KEYS_ONLY\"\n\n[[access-pattern]]\nname = \"items of a key in table {i:03}\"\ntable = \"Table{i:03}\"\nkey = {{ PK = \"{{pk}}\" }}\nrate = {}\n\n",
            200 + i * 10,
            1 + i % 7,
            5 + i % 50,
        ));
    }
    std::fs::write(dir.join("dynalint.toml"), toml).unwrap();
    let json: Value = serde_json::from_str(&simulate(dir, "json", "1")).unwrap();
    let html = dir.join("report.html");
    std::fs::write(&html, simulate(dir, "html", "1")).unwrap();
    let page = browse(&tools, &html, "Table137");
    let before = &page["before"];
    assert_eq!(page["errors"], Value::Array(vec![]), "{page:#}");
    let rows = before["tables"].as_array().unwrap();
    assert_eq!(rows.len(), 200);
    for (t, row) in json["tables"].as_array().unwrap().iter().zip(rows) {
        assert_eq!(row["name"], t["name"]);
        assert_eq!(f(&row["values"][2]), f(&t["cost"]["total"]["on_demand"]));
    }
    // Every table's details start folded: the page is its summaries.
    assert_eq!(before["details"], 200);
    assert_eq!(before["detailsOpen"], 0);
    // One table is a filter away: its row, and its details opened.
    assert_eq!(page["after"]["tables"], serde_json::json!(["Table137"]));
    assert_eq!(
        page["after"]["visibleDetails"],
        serde_json::json!(["table-Table137"])
    );
    assert_eq!(
        page["after"]["openDetails"],
        serde_json::json!(["table-Table137"])
    );
}
