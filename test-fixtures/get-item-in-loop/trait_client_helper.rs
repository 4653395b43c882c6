// The storage crate of `trait_client.rs` with the transaction started in a helper that
// returns the builder: `read_single` sends what `one_read` builds, still one item per
// call, and a handler that calls it per id still makes one round trip per id.
use std::sync::Arc;

use async_trait::async_trait;
use aws_sdk_dynamodb::operation::transact_get_items::builders::TransactGetItemsFluentBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, Get, TransactGetItem};
use aws_sdk_dynamodb::Client;

#[async_trait]
pub trait StorageClient: Send + Sync {
    async fn read_single(&self, item: TransactGetItem) -> Result<Option<Item>, Error>;
}

pub struct DynamoStorage {
    client: Client,
}

fn one_read(client: &Client, item: TransactGetItem) -> TransactGetItemsFluentBuilder {
    client.transact_get_items().transact_items(item)
    //~^ get-item-in-loop
}

#[async_trait]
impl StorageClient for DynamoStorage {
    async fn read_single(&self, item: TransactGetItem) -> Result<Option<Item>, Error> {
        let result = one_read(&self.client, item).send().await?;
        Ok(first_item(result.responses))
    }
}

pub struct ProductItem {
    pub product_id: String,
}

impl ProductItem {
    fn get_request(product_id: &str) -> Result<TransactGetItem, Error> {
        let get = Get::builder()
            .table_name("Products")
            .key("productId", AttributeValue::S(product_id.to_owned()))
            .build()?;
        Ok(TransactGetItem::builder().get(get).build())
    }

    pub async fn from_db(
        client: &Arc<dyn StorageClient>,
        product_id: &str,
    ) -> Result<Option<Self>, Error> {
        let item = client.read_single(Self::get_request(product_id)?).await?;
        Ok(item.map(Self::from))
    }
}

pub async fn products_of_order(
    client: Arc<dyn StorageClient>,
    order: &Order,
) -> Result<Vec<ProductItem>, Error> {
    let mut products = Vec::new();
    for product_id in &order.product_ids {
        if let Some(p) = ProductItem::from_db(&client, product_id).await? {
            products.push(p);
        }
    }
    Ok(products)
}
