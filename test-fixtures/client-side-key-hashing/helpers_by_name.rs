// Keys built by functions called by their bare name: a hashing library's function
// (the `sha256` crate's `digest`) is a digest; a function of the crate whose name
// merely starts like one is judged by its body.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use sha256::digest;

const DIGEST_PREFIX: &str = "DIGEST";

/// The daily news digest of one kind: a readable key.
fn digest_pk(kind: &str) -> String {
    format!("{}#{}", DIGEST_PREFIX, kind)
}

pub async fn save_user(client: &Client, email: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name("Users")
        .item("pk", AttributeValue::S(digest(email)))
        //~^ client-side-key-hashing
        .item("sk", AttributeValue::S("PROFILE".into()))
        .send()
        .await?;
    Ok(())
}

// ---- must not be flagged ----

pub async fn save_digest(client: &Client, kind: &str, day: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name("Users")
        .item("pk", AttributeValue::S(digest_pk(kind)))
        .item("sk", AttributeValue::S(day.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn fetch_digest(client: &Client, kind: &str, day: &str) -> Result<(), Error> {
    client
        .get_item()
        .table_name("Users")
        .key("pk", AttributeValue::S(digest_pk(kind)))
        .key("sk", AttributeValue::S(day.to_string()))
        .send()
        .await?;
    Ok(())
}
