use async_trait::async_trait;
use aws_sdk_dynamodb::Client;

#[async_trait]
pub trait StoreGetAll: Send + Sync {
    async fn all(&self, next: Option<&str>) -> Result<ProductRange, Error>;
}

pub struct DynamoDBStore {
    client: Client,
    table_name: String,
}

#[async_trait]
impl StoreGetAll for DynamoDBStore {
    async fn all(&self, next: Option<&str>) -> Result<ProductRange, Error> {
        let mut req = self.client.scan().table_name(&self.table_name).limit(20);
        if let Some(next) = next {
            req = req.exclusive_start_key("id", AttributeValue::S(next.to_owned()));
        }
        let res = req.send().await?;
        Ok(to_range(res))
    }
}
