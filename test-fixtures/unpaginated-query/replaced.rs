// A collection every write replaces: the token rotation deletes the user's tokens a
// Query of the index found, then puts the new one, so one user's collection holds one
// item and one page reads it. A user's devices are only ever added: how many there
// can be is a question.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const TOKENS_TABLE: &str = "Tokens";
const DEVICES_TABLE: &str = "Devices";

pub async fn rotate_token(client: &Client, user_id: &str) -> Result<String, Error> {
    let old = client
        .query()
        .table_name(TOKENS_TABLE)
        .index_name("ByUser")
        .key_condition_expression("userId = :u")
        .expression_attribute_values(":u", AttributeValue::S(user_id.to_string()))
        .send()
        .await?;
    for item in old.items() {
        if let Some(token) = item.get("token").and_then(|v| v.as_s().ok()) {
            client
                .delete_item()
                .table_name(TOKENS_TABLE)
                .key("token", AttributeValue::S(token.clone()))
                .send()
                .await?;
        }
    }
    let token = new_token();
    client
        .put_item()
        .table_name(TOKENS_TABLE)
        .item("token", AttributeValue::S(token.clone()))
        .item("userId", AttributeValue::S(user_id.to_string()))
        .send()
        .await?;
    Ok(token)
}

pub async fn token_of(client: &Client, user_id: &str) -> Result<Option<String>, Error> {
    let out = client
        .query()
        .table_name(TOKENS_TABLE)
        .index_name("ByUser")
        .key_condition_expression("userId = :u")
        .expression_attribute_values(":u", AttributeValue::S(user_id.to_string()))
        .send()
        .await?;
    Ok(out
        .items()
        .iter()
        .filter_map(|i| i.get("token")?.as_s().ok().cloned())
        .last())
}

pub async fn add_device(client: &Client, owner_id: &str, device_id: &str) -> Result<(), Error> {
    // Deletes one stale device, not what a Query found: the owner's devices still grow.
    client
        .delete_item()
        .table_name(DEVICES_TABLE)
        .key("deviceId", AttributeValue::S(format!("{device_id}-old")))
        .send()
        .await?;
    client
        .put_item()
        .table_name(DEVICES_TABLE)
        .item("deviceId", AttributeValue::S(device_id.to_string()))
        .item("ownerId", AttributeValue::S(owner_id.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn devices_of(client: &Client, owner_id: &str) -> Result<Vec<String>, Error> {
    let out = client
        .query()
        //~^ unpaginated-query
        .table_name(DEVICES_TABLE)
        .index_name("ByOwner")
        .key_condition_expression("ownerId = :o")
        .expression_attribute_values(":o", AttributeValue::S(owner_id.to_string()))
        .send()
        .await?;
    Ok(out
        .items()
        .iter()
        .filter_map(|i| i.get("deviceId")?.as_s().ok().cloned())
        .collect())
}
