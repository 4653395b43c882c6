//! Request handlers. None builds a request itself: they continue the repository's.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::repo::{self, Repo};

pub async fn list_orders(repo: Repo) -> usize {
    // Every order, on every request.
    repo.all().await
}

pub async fn open_orders(client: aws_sdk_dynamodb::Client) -> usize {
    let q = repo::by_status(&client)
        .expression_attribute_values(":s", AttributeValue::S("OPEN".into()));
    let shipped = repo::by_status(&client)
        .expression_attribute_values(":s", AttributeValue::S("SHIPPED".into()))
        .send()
        .await
        .map(|o| o.count() as usize)
        .unwrap_or(0);
    repo::filtered(q).await + shipped
}

pub async fn users(repo: Repo, ids: Vec<String>) -> usize {
    let mut n = 0;
    for id in &ids {
        if repo.get_user(id).await {
            n += 1;
        }
    }
    n
}

/// Counts the orders twice over: once naming the table, once through a helper that
/// is handed it (its parameter is followed to what its calls pass).
pub async fn audit(client: aws_sdk_dynamodb::Client) -> usize {
    repo::count_in(&client, "Orders").await + tally(&client, crate::names::ORDERS_TABLE).await
}

async fn tally(client: &aws_sdk_dynamodb::Client, table: &str) -> usize {
    repo::count_in(client, table).await
}
