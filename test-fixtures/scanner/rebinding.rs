// Builders across statements: let, rebinding in branches, shadowing, helpers that
// return or receive a builder, retry closures, manual pagination.
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
