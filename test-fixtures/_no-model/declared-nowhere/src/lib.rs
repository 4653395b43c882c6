use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const PETS: &str = "Pets";

pub async fn get_pet(client: &Client, id: &str) -> Option<String> {
    let out = client
        .get_item()
        .table_name(PETS)
        .key("petID", AttributeValue::S(id.to_string()))
        .send()
        .await
        .ok()?;
    out.item?.get("name")?.as_s().ok().cloned()
}

pub async fn remove_pet(client: &Client, id: &str) {
    let _ = client
        .delete_item()
        .table_name(PETS)
        .key("petID", AttributeValue::S(id.to_string()))
        .send()
        .await;
}

pub async fn add_pet(client: &Client, id: &str, name: &str) {
    let _ = client
        .put_item()
        .table_name(PETS)
        .item("id", AttributeValue::S(id.to_string()))
        .item("name", AttributeValue::S(name.to_string()))
        .send()
        .await;
}
