//! The domain: what the application needs from storage.
use std::future::Future;

pub type Result<T> = core::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

#[derive(Debug, Clone)]
pub struct Product {
    pub id: String,
    pub name: String,
}

pub trait CatalogReader {
    fn list_products(&self) -> impl Future<Output = Result<Vec<Product>>> + Send;
    fn product(&self, id: &str) -> impl Future<Output = Result<Option<Product>>> + Send;
}
