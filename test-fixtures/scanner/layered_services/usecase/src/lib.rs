use std::future::Future;

use kernel::{CatalogReader, Product, Result};
use tracing::instrument;

/// What the API layer asks of the application.
pub trait CatalogQueries {
    fn list_products(&self) -> impl Future<Output = Result<Vec<Product>>> + Send;
    fn product(&self, id: String) -> impl Future<Output = Result<Option<Product>>> + Send;
}

#[derive(Debug, Clone)]
pub struct CatalogUseCase<R: CatalogReader> {
    reader: R,
}

impl<R: CatalogReader> CatalogUseCase<R> {
    pub fn new(reader: R) -> Self {
        Self { reader }
    }
}

impl<R> CatalogQueries for CatalogUseCase<R>
where
    R: CatalogReader + Send + Sync + 'static,
{
    #[instrument(skip(self), err)]
    async fn list_products(&self) -> Result<Vec<Product>> {
        let mut products = self.reader.list_products().await?;
        products.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(products)
    }

    #[instrument(skip(self), err)]
    async fn product(&self, id: String) -> Result<Option<Product>> {
        self.reader.product(&id).await
    }
}
