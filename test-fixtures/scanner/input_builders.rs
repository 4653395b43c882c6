// Input builders sent with `send_with`, `customize()`, and PartiQL parameters.
use aws_sdk_dynamodb::operation::get_item::GetItemInput;
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::AttributeValue;

async fn with_input(client: &aws_sdk_dynamodb::Client) -> Result<(), Error> {
    GetItemInput::builder()
        .table_name("Profiles")
        .key("PK", AttributeValue::S("USER#1".into()))
        .send_with(client)
        .await?;
    let _ = QueryInput::builder()
        .table_name("Profiles")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("USER#2".into()))
        .send_with(client)
        .await?;
    client
        .query()
        .table_name("Profiles")
        .key_condition_expression("PK = :pk".to_string())
        .customize()
        .mutate_request(|r| r.headers_mut().insert("x", "y"))
        .send()
        .await?;
    Ok(())
}
