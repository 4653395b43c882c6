// The same trait over the archive table, for a nightly export no server links.
use aws_sdk_dynamodb::Client;
use kernel::{CatalogReader, Product, Result};

pub struct ArchivedCatalog {
    client: Client,
}

impl CatalogReader for ArchivedCatalog {
    async fn list_products(&self) -> Result<Vec<Product>> {
        let out = self.client.scan().table_name("ProductsArchive").send().await?;
        Ok(out.items().iter().map(|_| unimplemented!()).collect())
    }

    async fn product(&self, _id: &str) -> Result<Option<Product>> {
        Ok(None)
    }
}
