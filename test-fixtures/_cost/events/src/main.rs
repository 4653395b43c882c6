use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use futures::future::try_join_all;

const EVENTS_TABLE: &str = "Events";
const SEGMENTS: i32 = 4;

/// The open events, one page of up to 200 read.
async fn open_events(State(client): State<Client>) -> Json<usize> {
    let out = client
        .scan()
        .table_name(EVENTS_TABLE)
        .filter_expression("#s = :open")
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":open", AttributeValue::S("OPEN".into()))
        .limit(200)
        .send()
        .await
        .unwrap();
    Json(out.count() as usize)
}

/// A nightly export: the table read once, in four segments at a time.
pub async fn export(client: &Client) -> Result<usize, aws_sdk_dynamodb::Error> {
    let segments = (0..SEGMENTS).map(|segment| {
        let client = client.clone();
        async move {
            let mut items = Vec::new();
            let mut pages = client
                .scan()
                .table_name(EVENTS_TABLE)
                .segment(segment)
                .total_segments(SEGMENTS)
                .into_paginator()
                .items()
                .send();
            while let Some(item) = pages.next().await {
                items.push(item?);
            }
            Ok::<_, aws_sdk_dynamodb::Error>(items.len())
        }
    });
    Ok(try_join_all(segments).await?.into_iter().sum())
}

/// The same export with a task per segment.
pub async fn export_spawned(client: &Client) -> usize {
    let mut tasks = Vec::new();
    for segment in 0..SEGMENTS {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            let out = client
                .scan()
                .table_name(EVENTS_TABLE)
                .segment(segment)
                .total_segments(SEGMENTS)
                .into_paginator()
                .send()
                .collect::<Vec<_>>()
                .await;
            out.len()
        }));
    }
    let mut n = 0;
    for t in tasks {
        n += t.await.unwrap();
    }
    n
}

/// Every tenant's events: the whole parallel scan again for each tenant.
pub async fn export_tenants(client: &Client, tenants: &[String]) {
    for tenant in tenants {
        let segments = (0..SEGMENTS).map(|segment| {
            client
                .scan()
                .table_name(EVENTS_TABLE)
                .filter_expression("Tenant = :t")
                .expression_attribute_values(":t", AttributeValue::S(tenant.clone()))
                .segment(segment)
                .total_segments(SEGMENTS)
                .into_paginator()
                .send()
                .collect::<Vec<_>>()
        });
        let _ = futures::future::join_all(segments).await;
    }
}

#[tokio::main]
async fn main() {
    let client = Client::new(&aws_config::load_from_env().await);
    let app = Router::new()
        .route("/events/open", get(open_events))
        .with_state(client);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
