use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use kernel::{CatalogReader, Product, Result};

const TABLE: &str = "Products";

#[derive(Debug, Clone)]
pub struct DynamoCatalog {
    client: Client,
}

impl DynamoCatalog {
    pub fn new(client: Client) -> Self {
        Self { client }
    }
}

impl CatalogReader for DynamoCatalog {
    async fn list_products(&self) -> Result<Vec<Product>> {
        let out = self.client.scan().table_name(TABLE).send().await?;
        Ok(out.items().iter().filter_map(to_product).collect())
    }

    async fn product(&self, id: &str) -> Result<Option<Product>> {
        let out = self
            .client
            .get_item()
            .table_name(TABLE)
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item().and_then(to_product))
    }
}

fn to_product(item: &std::collections::HashMap<String, AttributeValue>) -> Option<Product> {
    Some(Product {
        id: item.get("id")?.as_s().ok()?.clone(),
        name: item.get("name")?.as_s().ok()?.clone(),
    })
}
