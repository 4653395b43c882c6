mod storage;

use storage::dynamo::{DefaultDynamoStore, DynamoStore};

#[tokio::main]
async fn main() {
    let apps = storage::dynamo::DynamoStore::new("apps").await;
    let flags: DefaultDynamoStore<String> = DynamoStore::new("flags").await;
    let users = DefaultDynamoStore::<String>::new("users").await;
    serve(apps, flags, users).await;
}
