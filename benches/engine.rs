//! Engine throughput on a large table with two GSIs: puts per second, queried items
//! per second (table and GSI), and memory per item from the process's resident set
//! (`/proc/self/status`; a counting allocator would need `unsafe`, forbidden here).
//! Then durable puts (`serve --data-dir`'s `Database`, each answered once synced) by
//! 1, 16 and 128 threads at once: what group commit gives as writers grow.
//!
//! `cargo bench --bench engine` (1M items); `ENGINE_BENCH_ITEMS=N` for another size,
//! `ENGINE_BENCH_DURABLE_SECS=S` for the seconds each durable run lasts (2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dynalint::engine::clock::Clock;
use dynalint::engine::database::Database;
use dynalint::engine::persist::StoreOptions;
use dynalint::engine::Engine;
use serde_json::json;

fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() {
    let n: usize = std::env::var("ENGINE_BENCH_ITEMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut e = Engine::new();
    e.handle(
        "CreateTable",
        &json!({
            "TableName": "Bench",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"},
                {"AttributeName": "status", "AttributeType": "S"},
                {"AttributeName": "email", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [
                {"IndexName": "ByStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                                                        {"AttributeName": "sk", "KeyType": "RANGE"}],
                 "Projection": {"ProjectionType": "KEYS_ONLY"}},
                {"IndexName": "ByEmail", "KeySchema": [{"AttributeName": "email", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "ALL"}}]
        }),
    )
    .unwrap();
    let partitions = (n / 100).max(1);
    let before = rss_bytes();
    let start = Instant::now();
    for i in 0..n {
        let status = ["OPEN", "DONE", "HELD", "LOST"][i % 4];
        let item = json!({
            "pk": {"S": format!("USER#{:07}", i % partitions)},
            "sk": {"N": (i / partitions).to_string()},
            "status": {"S": status},
            "email": {"S": format!("user{i}@example.com")},
            "amount": {"N": format!("{}.{:02}", i % 1000, i % 100)},
            "title": {"S": "a typical order line with a short title"}
        });
        e.handle("PutItem", &json!({"TableName": "Bench", "Item": item}))
            .unwrap();
    }
    let put_secs = start.elapsed().as_secs_f64();
    let after = rss_bytes();
    println!("items: {n}, two GSIs (KEYS_ONLY by status+sk, ALL by email)");
    println!("puts: {:.0} items/s ({put_secs:.2} s)", n as f64 / put_secs);
    if let (Some(b), Some(a)) = (before, after) {
        println!(
            "memory: {:.0} bytes/item (resident set growth)",
            a.saturating_sub(b) as f64 / n as f64
        );
    }

    // Table queries: whole partitions of ~100 items.
    let queries = 2_000.min(partitions.max(1) * 20);
    let start = Instant::now();
    let mut items = 0u64;
    for q in 0..queries {
        let r = e
            .handle(
                "Query",
                &json!({"TableName": "Bench", "KeyConditionExpression": "pk = :p",
                        "ExpressionAttributeValues": {":p": {"S": format!("USER#{:07}", (q * 7919) % partitions)}}}),
            )
            .unwrap();
        items += r["Count"].as_u64().unwrap();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "table query: {:.0} items/s ({queries} queries, {items} items)",
        items as f64 / secs
    );

    // GSI queries: 1,000-item pages of one status.
    let start = Instant::now();
    let mut items = 0u64;
    let mut body = json!({"TableName": "Bench", "IndexName": "ByStatus", "KeyConditionExpression": "#s = :s",
                          "ExpressionAttributeNames": {"#s": "status"},
                          "ExpressionAttributeValues": {":s": {"S": "OPEN"}}, "Limit": 1000});
    for _ in 0..200 {
        let r = e.handle("Query", &body).unwrap();
        items += r["Count"].as_u64().unwrap();
        match r.get("LastEvaluatedKey") {
            Some(k) => body["ExclusiveStartKey"] = k.clone(),
            None => break,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "gsi query: {:.0} items/s ({items} items)",
        items as f64 / secs
    );

    durable_puts();
}

/// Durable PutItems per second with 1, 16 and 128 writers, each waiting for its sync.
fn durable_puts() {
    let secs: f64 = std::env::var("ENGINE_BENCH_DURABLE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    for writers in [1usize, 16, 128] {
        let dir = tempfile::tempdir().unwrap();
        let (db, _) = Database::open(dir.path(), Clock::system(), StoreOptions::default()).unwrap();
        let db = Arc::new(db);
        db.handle(
            "CreateTable",
            &json!({"TableName": "Durable", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}),
        )
        .unwrap();
        let done = Arc::new(AtomicUsize::new(0));
        let until = Instant::now() + Duration::from_secs_f64(secs);
        let start = Instant::now();
        let threads: Vec<_> = (0..writers)
            .map(|w| {
                let (db, done) = (Arc::clone(&db), Arc::clone(&done));
                std::thread::spawn(move || {
                    let mut i = 0;
                    while Instant::now() < until {
                        db.handle(
                            "PutItem",
                            &json!({"TableName": "Durable", "Item": {
                                "pk": {"S": format!("w{w}-{i}")},
                                "title": {"S": "a typical order line with a short title"}}}),
                        )
                        .unwrap();
                        done.fetch_add(1, Ordering::Relaxed);
                        i += 1;
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let n = done.load(Ordering::Relaxed);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "durable puts, {writers} writers: {:.0} items/s ({n} in {secs:.2} s, each answered once synced)",
            n as f64 / secs
        );
    }
}
