// Two storage traits with a method of one name, and two back ends of the entity store:
// only the DynamoDB one sends requests.
use async_trait::async_trait;
use aws_sdk_dynamodb::Client;

#[async_trait]
pub trait LinkService: Send + Sync {
    async fn list(&self) -> Result<Vec<Link>, Error>;
    async fn find_by_source(&self, source: &str) -> Result<Vec<Link>, Error>;
}

#[async_trait]
pub trait DataService<T>: Send + Sync {
    async fn list(&self) -> Result<Vec<T>, Error>;
}

#[async_trait]
pub trait EntityFetcher: Send + Sync {
    async fn list_as_json(&self) -> Result<Vec<serde_json::Value>, Error>;
}

pub struct DynamoLinks {
    client: Client,
}

#[async_trait]
impl LinkService for DynamoLinks {
    // Called by nothing on a request path: `DataService::list(self)` in the Scylla
    // store below is that store's own `list`.
    async fn list(&self) -> Result<Vec<Link>, Error> {
        let out = self.client.scan().table_name("Links").send().await?;
        Ok(to_links(out.items()))
    }

    // On the request path, and reaches this type's `list` through `self`.
    async fn find_by_source(&self, source: &str) -> Result<Vec<Link>, Error> {
        let all = self.list().await?;
        Ok(all.into_iter().filter(|l| l.source == source).collect())
    }
}

pub struct DynamoData<T> {
    client: Client,
    rows: std::marker::PhantomData<T>,
}

#[async_trait]
impl<T: Entity> DataService<T> for DynamoData<T> {
    // Reached by no route: the fetcher's `DataService::list(self)` is Scylla's.
    async fn list(&self) -> Result<Vec<T>, Error> {
        let out = self.client.scan().table_name("Entities").send().await?;
        Ok(from_items(out.items()))
    }
}

pub struct DynamoAudit {
    client: Client,
}

impl DynamoAudit {
    // Reached by no route: `entries` in the handler's match is a binding.
    pub async fn entries(&self) -> Result<Vec<Audit>, Error> {
        let out = self.client.scan().table_name("Audit").send().await?;
        Ok(from_items(out.items()))
    }
}

pub struct ScyllaData<T> {
    session: Session,
    rows: std::marker::PhantomData<T>,
}

#[async_trait]
impl<T: Entity> DataService<T> for ScyllaData<T> {
    async fn list(&self) -> Result<Vec<T>, Error> {
        self.session.query_all("SELECT * FROM entities").await
    }
}

#[async_trait]
impl<T: Entity> EntityFetcher for ScyllaData<T> {
    async fn list_as_json(&self) -> Result<Vec<serde_json::Value>, Error> {
        let all = DataService::list(self).await?;
        Ok(all.iter().map(to_json).collect())
    }
}
