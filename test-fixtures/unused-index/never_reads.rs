// The service reads users by id only: `ByEmail` is written on every
// put and read by nothing (the findings are on `dynalint.toml`).
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn user(client: &Client, id: &str) -> Result<(), Error> {
    client
        .get_item()
        .table_name(std::env::var("USERS_TABLE")?)
        .key("userId", AttributeValue::S(id.into()))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged in this file: the call itself is fine.
pub async fn save(client: &Client, id: &str, email: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(std::env::var("USERS_TABLE")?)
        .item("userId", AttributeValue::S(id.into()))
        .item("email", AttributeValue::S(email.into()))
        .send()
        .await?;
    Ok(())
}
