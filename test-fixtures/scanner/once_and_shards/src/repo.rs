// Reads of OnceLock statics, and write-sharded keys.
use aws_sdk_dynamodb::types::AttributeValue;
use crate::config::{self, AUDIT, ORDERS, SHARDS};

static LOCAL: OnceLock<String> = OnceLock::new();

async fn reads(client: &Client) {
    client.scan().table_name(ORDERS.get().unwrap()).send().await.ok();
    client.scan().table_name(AUDIT.get().expect("init")).send().await.ok();
    client.scan().table_name(config::TOKIO.get().unwrap()).send().await.ok();
    client.scan().table_name(LOCAL.get_or_init(|| "Local".to_string())).send().await.ok();
    client.scan().table_name(LOCAL.get().unwrap().as_str()).send().await.ok();
    // ---- must stay unknown ----
    client.scan().table_name(config::TWICE.get().unwrap()).send().await.ok();
    client.scan().table_name(config::NEVER.get().unwrap()).send().await.ok();
}

async fn sharded(client: &Client, day: &str, id: u64, n: u64, rng: &mut ThreadRng) {
    let a = rng.random_range(0..=14);
    let b = rng.gen_range(0..15);
    let c = rng.gen_range(1..=10);
    let d = id % SHARDS;
    let e = rng.random_range(0..=config::LAST_SHARD);
    let f = (id % config::SHARDS) as u8;
    let g = rng.gen_range(0, 8);
    // ---- unknown modulus ----
    let h = id % n;
    let i = rng.gen_range(0..n);
    client
        .put_item()
        .table_name("Events")
        .item("a", AttributeValue::S(format!("{day}#{a}")))
        .item("b", AttributeValue::S(format!("{day}#{b}")))
        .item("c", AttributeValue::S(format!("{day}#{c}")))
        .item("d", AttributeValue::S(format!("{day}#{d}")))
        .item("e", AttributeValue::S(format!("{day}#{e}")))
        .item("f", AttributeValue::N(f.to_string()))
        .item("g", AttributeValue::S(format!("{day}#{g}")))
        .item("h", AttributeValue::S(format!("{day}#{h}")))
        .item("i", AttributeValue::S(format!("{day}#{i}")))
        .send()
        .await
        .ok();
}

pub struct Counter {
    client: Client,
    shards: u64,
}

impl Counter {
    async fn bump(&self, day: &str, id: u64) {
        // A shard count only known at run time: a shard, modulus unknown.
        let s = id % self.shards;
        self.client
            .update_item()
            .table_name("Counters")
            .key("pk", AttributeValue::S(format!("{day}#{s}")))
            .send()
            .await
            .ok();
    }
}
