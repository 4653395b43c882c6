//! Large templates: `dynalint check` of a project whose CloudFormation templates
//! declare 10,000 to 60,000 tables (in templates of 5,000 tables each, with a function
//! per table handed its name, as a generated monorepo stack set is), beside a one-file
//! crate that calls one of them; and `import::discover` alone on the same folder.
//! Prints each size's time, its time per table, and the growth from the size before
//! (2.0 for a doubling is linear). Run with `cargo bench --bench templates`;
//! `DYNALINT_BIN=/path/to/dynalint` times another build's `check` (a before/after).

// The `dynalint` binary's allocator (src/main.rs): the library figures are the
// product's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use dynalint::model::import;

/// Tables per template file (each stays far below the 8 MB a template is read up to).
const PER_FILE: usize = 5_000;
const SIZES: [usize; 4] = [10_000, 20_000, 40_000, 60_000];

/// One template of tables `from..to`: each a table with a key and a GSI, and a
/// function whose environment names it (`!Ref`), one in ten naming a table of the
/// file before by its name instead.
fn template(from: usize, to: usize) -> String {
    let mut s = String::from("AWSTemplateFormatVersion: '2010-09-09'\nResources:\n");
    for i in from..to {
        s.push_str(&format!(
            "  T{i}: {{Type: AWS::DynamoDB::Table, Properties: {{TableName: t{i}, \
             KeySchema: [{{AttributeName: pk, KeyType: HASH}}], \
             AttributeDefinitions: [{{AttributeName: pk, AttributeType: S}}, {{AttributeName: g, AttributeType: S}}], \
             GlobalSecondaryIndexes: [{{IndexName: byG, KeySchema: [{{AttributeName: g, KeyType: HASH}}], Projection: {{ProjectionType: KEYS_ONLY}}}}]}}}}\n"
        ));
        let named = if i % 10 == 0 && i >= PER_FILE {
            format!("t{}", i - PER_FILE)
        } else {
            format!("!Ref T{i}")
        };
        s.push_str(&format!(
            "  F{i}: {{Type: AWS::Serverless::Function, Properties: {{Environment: {{Variables: {{TABLE_{i}: {named}}}}}}}}}\n"
        ));
    }
    s
}

/// A project folder with `tables` tables in templates and a crate calling one.
fn project(root: &Path, tables: usize) -> PathBuf {
    let dir = root.join(format!("tables-{tables}"));
    std::fs::create_dir_all(dir.join("src")).expect("project folder");
    std::fs::create_dir_all(dir.join("stacks")).expect("stacks folder");
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"big\"\n").expect("manifest");
    std::fs::write(
        dir.join("src/lib.rs"),
        "pub async fn one(c: &aws_sdk_dynamodb::Client) {\n    let _ = c.query().table_name(std::env::var(\"TABLE_17\").unwrap()).index_name(\"byG\").key_condition_expression(\"g = :g\").send().await;\n}\n",
    )
    .expect("source");
    for (n, from) in (0..tables).step_by(PER_FILE).enumerate() {
        let to = (from + PER_FILE).min(tables);
        std::fs::write(
            dir.join(format!("stacks/stack-{n:03}.yaml")),
            template(from, to),
        )
        .expect("template");
    }
    dir
}

fn best_of(rounds: usize, mut run: impl FnMut() -> Duration) -> Duration {
    (0..rounds).map(|_| run()).min().unwrap_or_default()
}

fn main() {
    let tmp = tempfile::tempdir().expect("temp folder");
    let bin = std::env::var_os("DYNALINT_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_dynalint")),
        PathBuf::from,
    );
    println!("tables    check (s)  µs/table  growth   discover (s)  µs/table  growth");
    let mut last: Option<(usize, Duration, Duration)> = None;
    for tables in SIZES {
        let dir = project(tmp.path(), tables);
        let check = best_of(2, || {
            let started = Instant::now();
            let out = Command::new(&bin)
                .args(["check", "--quiet", "--format", "json", "--exit-zero"])
                .current_dir(&dir)
                .output()
                .expect("run dynalint");
            let took = started.elapsed();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let report: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("a JSON report");
            assert_eq!(
                report["summary"]["model"]["files"].as_array().map(Vec::len),
                Some(tables.div_ceil(PER_FILE)),
                "every template read"
            );
            took
        });
        let discover = best_of(2, || {
            let started = Instant::now();
            let imported = import::discover(&dir);
            let took = started.elapsed();
            assert_eq!(imported.tables.len(), tables);
            took
        });
        let per = |d: Duration| d.as_secs_f64() * 1e6 / tables as f64;
        let growth = |now: Duration, before: Duration| {
            format!("{:.2}x", now.as_secs_f64() / before.as_secs_f64().max(1e-9))
        };
        let (g_check, g_discover) = match last {
            Some((_, c, d)) => (growth(check, c), growth(discover, d)),
            None => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{tables:>6}  {:>10.2}  {:>8.1}  {g_check:>6}  {:>12.2}  {:>8.1}  {g_discover:>6}",
            check.as_secs_f64(),
            per(check),
            discover.as_secs_f64(),
            per(discover),
        );
        last = Some((tables, check, discover));
    }
    println!("(best of 2 rounds; sizes double from 10,000 to 40,000, then 1.5x to 60,000: linear growth is 2.00x, 2.00x, 1.50x)");
}
