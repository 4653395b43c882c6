pub async fn dump(client: &aws_sdk_dynamodb::Client) {
    client.scan().table_name(crate::names::TABLE).send().await.ok();
}
