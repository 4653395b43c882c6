use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct HashTracker {
    pub hash: String,
    pub file_names: Vec<String>,
}

impl HashTracker {
    pub async fn get(client: &Client, table: &str, hash: String) -> Option<HashTracker> {
        let item = client
            .get_item()
            .table_name(table)
            .key("hash", AttributeValue::S(hash.clone()))
            .send()
            .await
            .ok()?
            .item?;
        let file_names = item.get("file_names")?.as_ss().ok()?.clone();
        Some(HashTracker { hash, file_names })
    }
}
