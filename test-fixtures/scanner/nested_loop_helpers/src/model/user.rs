use aws_sdk_dynamodb::operation::get_item::GetItemOutput;
use aws_sdk_dynamodb::Client;

pub async fn get_item(username: &str, client: &Client, table_name: &str) -> GetItemOutput {
    let partition = format!("users/{username}");
    crate::dynamodb::get_item(client, table_name, &partition, "user")
        .await
        .unwrap()
}
