//! `dynalint simulate` on a 1M-item model with three GSIs and ten access patterns:
//! time and peak memory (VmHWM) at full scale and at the default item budget, and
//! the cost of the model-only figures rules call during `dynalint check`.
//!
//! Run with `cargo bench --bench simulate`; prints figures, asserts nothing timed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;
use support::peak_kb;

use std::path::Path;
use std::time::Instant;

use dynalint::simulate::{self, figures, SimulateOptions};

const MODEL: &str = r#"
[[table]]
name = "Shop"
partition-key = "PK"
sort-key = "SK"
avg-item-size = 300

[table.attributes]
PK = "S"
SK = "S"
status = { type = "S", values = { NEW = 0.1, PAID = 0.6, SHIPPED = 0.3 } }
customer = { type = "S", cardinality = 50_000 }
sku = { type = "S", cardinality = 5_000 }
createdAt = "S"
qty = "N"

[[table.index]]
name = "ByStatus"
partition-key = "status"
sort-key = "createdAt"
projection = "ALL"

[[table.index]]
name = "ByCustomer"
partition-key = "customer"
sort-key = "createdAt"
projection = "KEYS_ONLY"

[[table.index]]
name = "BySku"
partition-key = "sku"
sort-key = "createdAt"
projection = { include = ["qty"] }

[[table.entity]]
name = "Customer"
count = 50_000
keys = { PK = "CUST#{customerID}", SK = "PROFILE" }
attributes = ["name", "email"]

[[table.entity]]
name = "Order"
count = 600_000
keys = { PK = "CUST#{customerID}", SK = "ORDER#{orderID}" }
attributes = ["status", "customer", "createdAt", "total", "address"]

[[table.entity]]
name = "Line"
count = 350_000
keys = { PK = "ORDER#{orderID}", SK = "LINE#{lineNo}" }
attributes = ["sku", "qty", "createdAt", "note"]

[[access-pattern]]
name = "customer profile"
table = "Shop"
key = { PK = "CUST#{customerID}", SK = "PROFILE" }
rate = 400

[[access-pattern]]
name = "orders of a customer"
table = "Shop"
key = { PK = "CUST#{customerID}", SK = "ORDER#" }
order = "desc"
limit = 20
rate = 150

[[access-pattern]]
name = "lines of an order"
table = "Shop"
key = { PK = "ORDER#{orderID}", SK = "LINE#" }
rate = 150

[[access-pattern]]
name = "one line"
table = "Shop"
key = { PK = "ORDER#{orderID}", SK = "LINE#{lineNo}" }
rate = 50

[[access-pattern]]
name = "newest orders"
table = "Shop"
index = "ByStatus"
key = { status = "NEW" }
order = "desc"
limit = 50
rate = 20

[[access-pattern]]
name = "every paid order"
table = "Shop"
index = "ByStatus"
key = { status = "PAID" }
rate = 1

[[access-pattern]]
name = "shipped orders"
table = "Shop"
index = "ByStatus"
key = { status = "SHIPPED" }
limit = 100
rate = 5

[[access-pattern]]
name = "orders of a customer by date"
table = "Shop"
index = "ByCustomer"
key = { customer = "{customer}" }
order = "desc"
limit = 10
rate = 60

[[access-pattern]]
name = "recent sales of a sku"
table = "Shop"
index = "BySku"
key = { sku = "{sku}" }
order = "desc"
limit = 100
rate = 30

[[access-pattern]]
name = "all sales of a sku"
table = "Shop"
index = "BySku"
key = { sku = "{sku}" }
rate = 2
"#;

fn main() {
    let model = dynalint::model::load_str(Path::new("bench.toml"), MODEL).unwrap();
    assert_eq!(simulate::run::model_items(&model), 1_000_000);

    // What `dynalint check` pays: the model-only figures a rule asks for.
    let table = model.table("Shop").unwrap();
    let start = Instant::now();
    let rounds = 10_000;
    for _ in 0..rounds {
        std::hint::black_box(
            figures::key_value_shards(table, table.index("ByStatus"), None).unwrap(),
        );
    }
    println!(
        "model-only shard figure: {:.2} µs per call",
        start.elapsed().as_secs_f64() * 1e6 / rounds as f64
    );

    // Generation alone, at full scale: the bulk of a run's time and memory.
    let start = Instant::now();
    let generated = simulate::generate::generate_table(
        table,
        &model.access_patterns,
        1.0,
        simulate::run::DEFAULT_SEED,
        &mut Vec::new(),
    );
    println!(
        "generate 1M items into the engine (3 GSIs): {:.2} s; peak RSS {} MB",
        start.elapsed().as_secs_f64(),
        peak_kb().unwrap_or(0) / 1024
    );
    drop(generated);

    let before = peak_kb().unwrap_or(0);
    for (label, scale) in [("default budget", None), ("full scale", Some(1.0))] {
        let options = SimulateOptions {
            scale,
            ..SimulateOptions::default()
        };
        let start = Instant::now();
        let report = simulate::run(&model, &[], &[], &options).unwrap();
        let elapsed = start.elapsed();
        let items: u64 = report.tables.iter().map(|t| t.simulated_items).sum();
        println!(
            "simulate, {label} (scale {}): {} items, 3 GSIs, {} access patterns in {:.2} s; peak RSS {} MB (before: {} MB)",
            report.scale,
            items,
            report.patterns.len(),
            elapsed.as_secs_f64(),
            peak_kb().unwrap_or(0) / 1024,
            before / 1024,
        );
        for p in &report.patterns {
            if let Some(e) = &p.error {
                println!("  pattern `{}` failed: {e}", p.name);
            }
        }
        if scale.is_some() {
            println!("{}", simulate::render_human(&report));
        }
    }
}
