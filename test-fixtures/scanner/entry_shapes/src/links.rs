// The crate's own storage trait, named like a gRPC service and implemented with
// `async_trait`: a storage layer, not a generated gRPC server trait. Nothing in this crate calls
// `list`, so its Scan is on no request path.
use async_trait::async_trait;
use aws_sdk_dynamodb::Client;

#[async_trait]
pub trait LinkService: Send + Sync {
    async fn list(&self) -> Result<Vec<Link>, Error>;
}

pub struct DynamoLinks {
    client: Client,
}

#[async_trait]
impl LinkService for DynamoLinks {
    async fn list(&self) -> Result<Vec<Link>, Error> {
        let out = self.client.scan().table_name("Links").send().await?;
        Ok(to_links(out.items()))
    }
}
