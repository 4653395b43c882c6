// No SDK call here: the set-up reads the environment and builds the store.
use crate::store::DynamoDBStore;

pub async fn get_store() -> DynamoDBStore {
    let config = aws_config::load_from_env().await;
    let table_name = std::env::var("TABLE_NAME").expect("TABLE_NAME must be set");
    let client = aws_sdk_dynamodb::Client::new(&config);
    DynamoDBStore::new(client, &table_name)
}
