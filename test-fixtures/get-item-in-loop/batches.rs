// A cart service that "batches" one key at a time: a BatchGetItem or TransactGetItems
// per element is the same round trip per element as a GetItem.
use aws_sdk_dynamodb::types::{AttributeValue, Get, KeysAndAttributes, TransactGetItem};
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

const PRODUCTS_TABLE: &str = "Products";

fn product_key(id: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([("productId".to_string(), AttributeValue::S(id.to_string()))])
}

pub struct Cart {
    client: Client,
}

impl Cart {
    pub async fn products(&self, ids: &[String]) -> Result<Vec<Product>, Error> {
        let mut out = Vec::new();
        for id in ids {
            let res = self
                .client
                .batch_get_item()
                //~^ get-item-in-loop
                .request_items(
                    PRODUCTS_TABLE,
                    KeysAndAttributes::builder().keys(product_key(id)).build()?,
                )
                .send()
                .await?;
            out.extend(to_products(res));
        }
        Ok(out)
    }

    pub async fn snapshot(&self, ids: &[String]) -> Result<Vec<Product>, Error> {
        let mut out = Vec::new();
        for id in ids {
            let res = self
                .client
                .transact_get_items()
                //~^ get-item-in-loop
                .transact_items(
                    TransactGetItem::builder()
                        .get(
                            Get::builder()
                                .table_name(PRODUCTS_TABLE)
                                .set_key(Some(product_key(id)))
                                .build()?,
                        )
                        .build(),
                )
                .send()
                .await?;
            out.extend(to_products_tx(res));
        }
        Ok(out)
    }

    // ---- must not be flagged ----

    /// One call per group of keys: already batched.
    pub async fn by_group(&self, groups: &[Vec<String>]) -> Result<(), Error> {
        for group in groups {
            let keys: Vec<_> = group.iter().map(|id| product_key(id)).collect();
            self.client
                .batch_get_item()
                .request_items(
                    PRODUCTS_TABLE,
                    KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
                )
                .send()
                .await?;
        }
        Ok(())
    }

    /// Two products the code names: two round trips, however large the table.
    pub async fn featured(&self) -> Result<(), Error> {
        for id in ["p-coffee", "p-tea"] {
            self.client
                .get_item()
                .table_name(PRODUCTS_TABLE)
                .key("productId", AttributeValue::S(id.to_string()))
                .send()
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reads_both_seeded_products() {
        let client = test_client().await;
        for id in ["p-1", "p-2"] {
            let got = client
                .get_item()
                .table_name(PRODUCTS_TABLE)
                .key("productId", AttributeValue::S(id.into()))
                .send()
                .await
                .unwrap();
            assert!(got.item.is_some());
        }
    }
}
