// rusoto-era code: a Query with the legacy `key_conditions` map is validated like the
// key condition expression it stands for.
use rusoto_dynamodb::{AttributeValue, Condition, DynamoDb, DynamoDbClient, QueryInput};
use std::collections::HashMap;

/// The sort key alone: DynamoDB needs the partition key in every Query.
pub async fn games_on(client: &DynamoDbClient, date: String) {
    let input = QueryInput {
        table_name: "Games".to_string(),
        key_conditions: Some(HashMap::from([(
            //~^ rejected-request
            "GameDate".to_string(),
            Condition {
                comparison_operator: "EQ".to_string(),
                attribute_value_list: Some(vec![AttributeValue {
                    s: Some(date),
                    ..Default::default()
                }]),
            },
        )])),
        ..Default::default()
    };
    let _ = client.query(input).await;
}

/// The partition key by equality and a prefix on the sort key: accepted.
pub async fn games_of(client: &DynamoDbClient, user: String) {
    let input = QueryInput {
        table_name: "Games".to_string(),
        key_conditions: Some(HashMap::from([
            (
                "UserId".to_string(),
                Condition {
                    comparison_operator: "EQ".to_string(),
                    attribute_value_list: Some(vec![AttributeValue {
                        s: Some(user),
                        ..Default::default()
                    }]),
                },
            ),
            (
                "GameDate".to_string(),
                Condition {
                    comparison_operator: "BEGINS_WITH".to_string(),
                    attribute_value_list: Some(vec![AttributeValue {
                        s: Some("2024-".to_string()),
                        ..Default::default()
                    }]),
                },
            ),
        ])),
        ..Default::default()
    };
    let _ = client.query(input).await;
}
