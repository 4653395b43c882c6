// Item and key contents and value provenance.
use std::collections::HashMap;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Order {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    order_id: String,
    total_cents: u64,
    paid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    coupon: Option<String>,
    gift_note: Option<String>,
    #[serde(flatten)]
    meta: Meta,
    #[serde(skip)]
    cache: Vec<u8>,
}

#[derive(Serialize)]
struct Meta {
    created_at: String,
}

async fn put_order(client: &Client, order: Order) {
    let item = serde_dynamo::to_item(order).unwrap();
    client.put_item().table_name("Orders").set_item(Some(item)).send().await.ok();
}

async fn put_maps(client: &Client, user_id: &str, status: OrderStatus, flag: bool, email: String) {
    let shard = rand::thread_rng().gen_range(0..10);
    let mut item = HashMap::new();
    item.insert("PK".to_string(), AttributeValue::S(format!("USER#{}", user_id)));
    item.insert("SK".to_string(), AttributeValue::S(format!("SHARD#{}", shard)));
    item.insert("status".to_string(), AttributeValue::S(status.to_string()));
    item.insert("flag".to_string(), AttributeValue::Bool(flag));
    if !email.is_empty() {
        item.insert("email".to_string(), AttributeValue::S(email.clone()));
    }
    item.insert("hash".to_string(), AttributeValue::S(format!("{:x}", md5::compute(&email))));
    item.insert("id".to_string(), AttributeValue::S(uuid::Uuid::new_v4().to_string()));
    client.put_item().table_name("Users").set_item(Some(item)).send().await.ok();

    let key = HashMap::from([
        ("PK".to_string(), AttributeValue::S(format!("BUCKET#{}", hash(user_id) % 16))),
        ("SK".to_string(), AttributeValue::S("".into())),
    ]);
    client.get_item().table_name("Users").set_key(Some(key)).send().await.ok();

    let macro_key = hashmap! {
        "PK".to_string() => AttributeValue::S(user_id.to_string()),
        "SK".to_string() => AttributeValue::N("0".into()),
    };
    client.delete_item().table_name("Users").set_key(Some(macro_key)).send().await.ok();
}

async fn from_elsewhere(client: &Client, item: HashMap<String, AttributeValue>) {
    client.put_item().table_name("Users").set_item(Some(item)).send().await.ok();
}

// A key's text chosen by a `match` or an `if`: one of few constants (an enum's), the
// one constant every branch gives, or unknown when a branch is not a constant.
async fn put_rule(client: &Client, rule: &IpRule, note: Option<String>) {
    let rule_type = match rule.rule_type {
        IpRuleType::Allow => "allow",
        IpRuleType::Block => "block",
    };
    let scope = if rule.global { "ALL" } else { "ALL" };
    let label = match &note {
        Some(n) => n.clone(),
        None => "none".to_string(),
    };
    let source = match rule.source {
        Source::Admin => "admin",
        Source::Import => "import",
        Source::Unknown => return,
    };
    client
        .put_item()
        .table_name("IpRules")
        .item("id", AttributeValue::S(rule.id.to_string()))
        .item("rule_type", AttributeValue::S(rule_type.to_string()))
        .item("scope", AttributeValue::S(scope.into()))
        .item("label", AttributeValue::S(label))
        .item("source", AttributeValue::S(source.into()))
        .send()
        .await
        .ok();
}

// The serialised item copied into a task: still the `Order` serde writes.
async fn put_order_in_task(client: &Client, order: Order) -> Result<(), Error> {
    let item = serde_dynamo::to_item(&order)?;
    let client = client.to_owned();
    let owned = item.to_owned();
    tokio::spawn(async move {
        client.put_item().table_name("Orders").set_item(Some(owned)).send().await
    })
    .await
    .expect("the task runs to its end")?;
    Ok(())
}
