// Findings with mechanical fixes: reserved words in a filter (two, whose names setters
// both go after the filter: the second waits for the next round), an unused value, and
// a consistent read of a GSI.
use aws_sdk_dynamodb::{types::AttributeValue, Client};

pub async fn finished(client: &Client, user: &str) {
    let _ = client
        .query()
        .table_name("Games")
        .key_condition_expression("PK = :pk")
        .filter_expression("status = :done AND name = :n")
        .expression_attribute_values(":pk", AttributeValue::S(user.into()))
        .expression_attribute_values(":done", AttributeValue::S("DONE".into()))
        .expression_attribute_values(":n", AttributeValue::S("x".into()))
        .expression_attribute_values(":unused", AttributeValue::S("x".into()))
        .send()
        .await;
}

pub async fn top(client: &Client) {
    let q = client.query().table_name("Games").index_name("ByRank");
    let _ = q
        .key_condition_expression("#r = :r")
        .expression_attribute_names("#r", "Rank")
        .expression_attribute_values(":r", AttributeValue::S("1".into()))
        .consistent_read(true)
        .send()
        .await;
}
