// Flags kept as text, as a key attribute must be (a key cannot be a BOOL): a `const`
// bool written with `to_string()` or `format!` is its text, `"false"` or `"true"`.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ARCHIVED: bool = false;
pub const FEATURED: bool = true;

pub async fn save_document(client: &Client, id: &str) -> Result<(), aws_sdk_dynamodb::Error> {
    client
        .put_item()
        .table_name("Documents")
        .item("id", AttributeValue::S(id.to_string()))
        .item("archived", AttributeValue::S(ARCHIVED.to_string()))
        .item("featured", AttributeValue::S(format!("{}", FEATURED)))
        .send()
        .await?;
    Ok(())
}
