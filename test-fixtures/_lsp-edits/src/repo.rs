//! Data access: builders handed out to callers, and helpers that finish them.

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::Serialize;

use crate::names::{BY_STATUS, ORDERS_TABLE};

#[derive(Serialize)]
pub struct Order {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    pub status: Option<String>,
}

pub struct Repo {
    client: Client,
    table: String,
}

impl Repo {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: ORDERS_TABLE.to_string(),
        }
    }

    /// Every order: a scan, on the request path of `/orders`.
    pub async fn all(&self) -> usize {
        let out = self.client.scan().table_name(&self.table).send().await.unwrap();
        out.count() as usize
    }

    pub async fn get_user(&self, id: &str) -> bool {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("PK", AttributeValue::S(format!("USER#{id}")))
            .key("SK", AttributeValue::S("PROFILE".into()))
            .send()
            .await;
        out.is_ok()
    }

    pub async fn save(&self, order: Order) {
        let item = serde_dynamo::to_item(order).unwrap();
        let _ = self
            .client
            .put_item()
            .table_name(ORDERS_TABLE)
            .set_item(Some(item))
            .send()
            .await;
    }
}

/// A query the callers finish: the status index, by status.
pub fn by_status(client: &Client) -> QueryFluentBuilder {
    client
        .query()
        .table_name(ORDERS_TABLE)
        .index_name(BY_STATUS)
        .key_condition_expression("#s = :s")
        .expression_attribute_names("#s", "status")
}

/// Sends a query it is given, with a filter on top.
pub async fn filtered(q: QueryFluentBuilder) -> usize {
    let out = q
        .filter_expression("createdAt > :t")
        .expression_attribute_values(":t", AttributeValue::S("2024".into()))
        .send()
        .await
        .unwrap();
    out.count() as usize
}

/// Counts a table's items: which table is what the callers pass.
pub async fn count_in(client: &Client, table: &str) -> usize {
    let out = client.scan().table_name(table).send().await.unwrap();
    out.count() as usize
}
