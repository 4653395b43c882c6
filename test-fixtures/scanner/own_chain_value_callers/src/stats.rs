// A file that sends its own requests, one on a builder its own helper returns (so it
// is folded in full when indexed), and calls the repository's helper with the page
// size it wants: what each call passes is read for that helper's request.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

use crate::repo::AuditLogRepository;

fn recent(client: &Client) -> QueryFluentBuilder {
    client
        .query()
        .table_name("Events")
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("EVENT".into()))
}

pub async fn latest(client: &Client) -> Result<(), Error> {
    recent(client).limit(5).send().await?;
    Ok(())
}

pub async fn count_by_user(client: &Client, user_id: &str) -> usize {
    let repo = AuditLogRepository::new(client.clone());
    repo.find_by_user(user_id, u32::MAX).await.unwrap_or(0)
}

pub async fn page(client: &Client, user_id: &str) -> usize {
    let repo = AuditLogRepository::new(client.clone());
    repo.find_by_user(user_id, 25).await.unwrap_or(0)
}
