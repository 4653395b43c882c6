use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

/// Reads one hash tracker back: called once per restore run.
pub async fn restore(client: &Client, hash: &str) -> Result<(), Error> {
    client
        .get_item()
        .table_name("Hashes")
        .key("hash", AttributeValue::S(hash.to_string()))
        .send()
        .await?;
    Ok(())
}
