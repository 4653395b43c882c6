// Builders across statements: let, rebinding in branches, shadowing, helpers that
// return or receive a builder, retry closures, manual pagination.
use aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder;
use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

async fn search(client: &Client, pk: String, only_open: bool, newest_first: bool) {
    let mut q = client
        .query()
        .table_name("Orders")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(pk));
    if only_open {
        q = q
            .filter_expression("#s = :open")
            .expression_attribute_names("#s", "status")
            .expression_attribute_values(":open", AttributeValue::S("OPEN".into()));
    }
    let q = if newest_first { q.scan_index_forward(false) } else { q };
    let _ = q.send().await;
}

fn base(client: &Client, table: &str) -> QueryFluentBuilder {
    client.query().table_name("Events").index_name("ByDay")
}

async fn recent(client: &Client) {
    let _ = base(client, "x")
        .key_condition_expression("day = :d")
        .expression_attribute_values(":d", AttributeValue::S("2024-01-01".into()))
        .send()
        .await;
}

fn with_limit(q: QueryFluentBuilder) -> QueryFluentBuilder {
    q.limit(25).consistent_read(true)
}

async fn limited(client: &Client) {
    let q = client.query().table_name("Sessions").key_condition_expression("PK = :pk");
    let _ = with_limit(q).send().await;
}

async fn with_retry(client: &Client, id: String) {
    let out = retry(|| async {
        client
            .get_item()
            .table_name("Users")
            .key("PK", AttributeValue::S(id.clone()))
            .send()
            .await
    })
    .await;
}

async fn page_all(client: &Client) {
    let mut start = None;
    loop {
        let out = client
            .scan()
            .table_name("Logs")
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        start = out.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
}

async fn fan_out(client: &Client, ids: Vec<String>) {
    let futures = ids.iter().map(|id| async move {
        client.get_item().table_name("Users").key("PK", AttributeValue::S(id.clone())).send().await
    });
    futures::future::join_all(futures).await;
}

// Flags set on one path only are conditional: the request may go without them.
async fn maybe_strong(client: &Client, strong: bool, page: Option<i32>) {
    let mut q = client.query().table_name("Sessions").key_condition_expression("PK = :pk");
    if strong {
        q = q.consistent_read(true);
    }
    if let Some(n) = page {
        q = q.limit(n);
    }
    let _ = q.send().await;
}

// A helper's builder bound by the caller, continued on some paths, then sent: one
// request, the helper's setters and the caller's.
async fn recent_open(client: &Client, day: String, only_open: bool) {
    let mut q = base(client, "x");
    if only_open {
        q = q
            .filter_expression("#s = :open")
            .expression_attribute_names("#s", "status")
            .expression_attribute_values(":open", AttributeValue::S("OPEN".into()));
    }
    let out = q
        .key_condition_expression("day = :d")
        .expression_attribute_values(":d", AttributeValue::S(day))
        .send()
        .await;
}

// A channel's sender is no builder: `send` on it adds no request.
async fn notify(day: String) {
    let tx = events_sender();
    tx.send(day).await.ok();
}

// A helper whose item values are its parameters: each chain that continues its builder
// puts what that call passes.
fn put_event(client: &Client, pk: AttributeValue, at: String, kind: &str) -> PutItemFluentBuilder {
    client
        .put_item()
        .table_name("Events")
        .item("PK", pk)
        .item("SK", AttributeValue::S(at))
        .item("kind", AttributeValue::S(kind.to_string()))
}

async fn record(client: &Client, at: String) {
    let pk = AttributeValue::S("EVENT".to_string());
    put_event(client, pk, at, "login").send().await.ok();
    let request = put_event(client, AttributeValue::N("7".into()), "2024".to_string(), "logout");
    request.send().await.ok();
}

// A helper given the whole item, or the key, as a map: the map each chain's call
// passes.
fn put_in(client: &Client, table: &str, item: HashMap<String, AttributeValue>) -> PutItemFluentBuilder {
    client.put_item().table_name(table).set_item(Some(item))
}

fn get_in(client: &Client, key: Option<HashMap<String, AttributeValue>>) -> GetItemFluentBuilder {
    client.get_item().table_name("Users").set_key(key)
}

async fn register(client: &Client, user: String) {
    let mut item = HashMap::new();
    item.insert("PK".to_string(), AttributeValue::S("USER".to_string()));
    item.insert("SK".to_string(), AttributeValue::S(user.clone()));
    put_in(client, "Accounts", item).send().await.ok();
    let key = HashMap::from([("PK".to_string(), AttributeValue::S(user))]);
    let found = get_in(client, Some(key)).send().await;
}

#[derive(serde::Serialize)]
struct Registration {
    pk: String,
    item_type: String,
    login: String,
}

// A helper whose parameter is the `Option` `.set_item` takes, given `Some(item)` of a
// serialised struct: the struct's attributes.
fn put_registration(
    client: &Client,
    item: Option<HashMap<String, AttributeValue>>,
) -> PutItemFluentBuilder {
    client.put_item().table_name("Registrations").set_item(item)
}

async fn save_registration(client: &Client, reg: Registration) -> Result<(), Error> {
    let item = serde_dynamo::to_item(reg)?;
    put_registration(client, Some(item)).send().await?;
    Ok(())
}

#[derive(serde::Serialize)]
struct Profile {
    login: String,
    bio: String,
}

// The helper adds the key to the item it is given: the request holds both.
fn put_keyed(
    client: &Client,
    item: Option<HashMap<String, AttributeValue>>,
    pk: AttributeValue,
) -> PutItemFluentBuilder {
    client.put_item().table_name("Registrations").set_item(item).item("pk", pk)
}

async fn save_keyed(client: &Client, reg: Profile, login: &str) -> Result<(), Error> {
    let item = serde_dynamo::to_item(reg)?;
    put_keyed(client, Some(item), AttributeValue::S(login.to_lowercase())).send().await?;
    Ok(())
}
