//! `aws-sdk-dynamodb` against the engine's HTTP endpoint (in-process, ephemeral
//! loopback port): create a table with a GSI, put items, query the GSI, and get
//! DynamoDB's ValidationException for a rejected request, as any SDK user would.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::thread;

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, ScalarAttributeType,
};
use dynalint::engine::server::Server;

fn client(endpoint: String) -> aws_sdk_dynamodb::Client {
    let http = aws_smithy_http_client::Builder::new().build_http();
    let creds = aws_credential_types::Credentials::new("dummy", "dummy", None, None, "static");
    let conf = aws_sdk_dynamodb::Config::builder()
        .http_client(http)
        .credentials_provider(creds)
        .region(aws_sdk_dynamodb::config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .build();
    aws_sdk_dynamodb::Client::from_conf(conf)
}

fn attr(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ty)
        .build()
        .unwrap()
}

fn key(name: &str, ty: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(ty)
        .build()
        .unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn sdk_drives_the_endpoint() {
    let server = Server::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.stop_handle();
    let join = thread::spawn(move || server.serve());
    let db = client(format!("http://{addr}"));

    db.create_table()
        .table_name("Orders")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attr("customer", ScalarAttributeType::S))
        .attribute_definitions(attr("orderId", ScalarAttributeType::S))
        .attribute_definitions(attr("status", ScalarAttributeType::S))
        .key_schema(key("customer", KeyType::Hash))
        .key_schema(key("orderId", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByStatus")
                .key_schema(key("status", KeyType::Hash))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();

    for (customer, order, status) in [
        ("c1", "o1", "OPEN"),
        ("c1", "o2", "DONE"),
        ("c2", "o1", "OPEN"),
    ] {
        db.put_item()
            .table_name("Orders")
            .item("customer", AttributeValue::S(customer.into()))
            .item("orderId", AttributeValue::S(order.into()))
            .item("status", AttributeValue::S(status.into()))
            .item("amount", AttributeValue::N("12.50".into()))
            .send()
            .await
            .unwrap();
    }

    let open = db
        .query()
        .table_name("Orders")
        .index_name("ByStatus")
        .key_condition_expression("#s = :s")
        .expression_attribute_names("#s", "status")
        .expression_attribute_values(":s", AttributeValue::S("OPEN".into()))
        .send()
        .await
        .unwrap();
    assert_eq!(open.count(), 2);
    let items = open.items();
    assert!(items
        .iter()
        .all(|i| i.get("status") == Some(&AttributeValue::S("OPEN".into()))));
    assert!(items
        .iter()
        .all(|i| i.get("amount") == Some(&AttributeValue::N("12.5".into()))));

    let rejected = db
        .query()
        .table_name("Orders")
        .index_name("ByStatus")
        .consistent_read(true)
        .key_condition_expression("#s = :s")
        .expression_attribute_names("#s", "status")
        .expression_attribute_values(":s", AttributeValue::S("OPEN".into()))
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    assert_eq!(rejected.code(), Some("ValidationException"));
    assert_eq!(
        rejected.message(),
        Some("Consistent reads are not supported on global secondary indexes")
    );

    let missing = db
        .get_item()
        .table_name("Nope")
        .key("customer", AttributeValue::S("c1".into()))
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    assert!(missing.is_resource_not_found_exception());

    stop.stop();
    join.join().unwrap().unwrap();
}

/// A test suite's worth of clients at once: 500 SDK clients, each with its own
/// connection pool, against a server with its defaults; none is refused.
#[tokio::test(flavor = "current_thread")]
async fn five_hundred_sdk_clients_with_the_defaults() {
    let server = Server::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.stop_handle();
    let open = server.connections();
    let join = thread::spawn(move || server.serve());
    let endpoint = format!("http://{addr}");
    client(endpoint.clone())
        .create_table()
        .table_name("Runs")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attr("id", ScalarAttributeType::S))
        .key_schema(key("id", KeyType::Hash))
        .send()
        .await
        .unwrap();
    let clients: Vec<_> = (0..500).map(|_| client(endpoint.clone())).collect();
    let mut tasks = tokio::task::JoinSet::new();
    for (i, db) in clients.iter().cloned().enumerate() {
        tasks.spawn(async move {
            db.put_item()
                .table_name("Runs")
                .item("id", AttributeValue::S(format!("run-{i}")))
                .item("n", AttributeValue::N(i.to_string()))
                .send()
                .await
                .unwrap();
            let got = db
                .get_item()
                .table_name("Runs")
                .key("id", AttributeValue::S(format!("run-{i}")))
                .consistent_read(true)
                .send()
                .await
                .unwrap();
            assert_eq!(got.item().unwrap()["n"], AttributeValue::N(i.to_string()));
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    // Every client kept its connection open, and the server kept them all.
    let kept = open.load(std::sync::atomic::Ordering::SeqCst);
    assert!(kept >= 500, "{kept} connections open");
    let scanned = client(endpoint)
        .scan()
        .table_name("Runs")
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap();
    assert_eq!(scanned.count(), 500);
    drop(clients);
    stop.stop();
    join.join().unwrap().unwrap();
}
