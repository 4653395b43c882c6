// The DynamoDB calls, each taking its table from its caller.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn stats_for_period(client: &Client, table_name: &str, period: &str) -> Result<Vec<Stat>, Error> {
    let out = client
        .query()
        .table_name(table_name)
        .key_condition_expression("period = :period")
        .expression_attribute_values(":period", AttributeValue::S(period.to_string()))
        .send()
        .await?;
    Ok(out.items().iter().map(Stat::from).collect())
}

pub async fn bot_details(client: &Client, table_name: &str) -> Result<Vec<Bot>, Error> {
    let out = client.scan().table_name(table_name).send().await?;
    Ok(out.items().iter().map(Bot::from).collect())
}
