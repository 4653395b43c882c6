// Fetching items one request at a time.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use futures::future::join_all;

pub struct Catalog {
    client: Client,
}

impl Catalog {
    pub async fn products(&self, ids: &[String]) -> Result<Vec<Product>, Error> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let res = self
                .client
                .get_item()
                //~^ get-item-in-loop
                .table_name(std::env::var("PRODUCTS_TABLE")?)
                .key("productId", AttributeValue::S(id.clone()))
                .send()
                .await?;
            if let Some(item) = res.item {
                out.push(to_product(item));
            }
        }
        Ok(out)
    }

    pub async fn lines(&self, order_id: &str, line_ids: Vec<String>) -> Vec<Line> {
        let calls = line_ids.iter().map(|line| async move {
            self.client
                .query()
                //~^ get-item-in-loop
                .table_name("Orders")
                .key_condition_expression("PK = :pk AND SK = :sk")
                .expression_attribute_values(":pk", AttributeValue::S(format!("ORDER#{order_id}")))
                .expression_attribute_values(":sk", AttributeValue::S(format!("LINE#{line}")))
                .send()
                .await
        });
        let results = join_all(calls).await;
        to_lines(results)
    }

    // Must not be flagged: one query per customer returns a whole item collection, a
    // batch per chunk of 100 keys, and a retry loop around a single read.
    pub async fn orders_of(&self, customers: &[String]) -> Result<(), Error> {
        for c in customers {
            self.client
                .query()
                .table_name("Orders")
                .key_condition_expression("PK = :pk AND begins_with(SK, :o)")
                .expression_attribute_values(":pk", AttributeValue::S(format!("CUSTOMER#{c}")))
                .expression_attribute_values(":o", AttributeValue::S("ORDER#".into()))
                .send()
                .await?;
        }
        Ok(())
    }

    pub async fn products_batched(&self, keys: Vec<HashMap<String, AttributeValue>>) -> Result<(), Error> {
        for chunk in keys.chunks(100) {
            let request = KeysAndAttributes::builder().set_keys(Some(chunk.to_vec())).build()?;
            self.client
                .batch_get_item()
                .request_items("Products", request)
                .send()
                .await?;
        }
        Ok(())
    }

    pub async fn product_with_retry(&self, id: &str) -> Result<Product, Error> {
        loop {
            match self
                .client
                .get_item()
                .table_name("Products")
                .key("productId", AttributeValue::S(id.to_string()))
                .send()
                .await
            {
                Ok(res) => return Ok(to_product(res.item.unwrap_or_default())),
                Err(e) if is_throttle(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
}

// The loop is in the caller: `cart_total` asks `Catalog::price_of` once per line, and
// `price_of` sends one GetItem each time.
pub struct Catalog {
    client: Client,
}

impl Catalog {
    pub async fn price_of(&self, sku: &str) -> Result<u64, Error> {
        let res = self
            .client
            .get_item()
            //~^ get-item-in-loop
            .table_name("Products")
            .key("productId", AttributeValue::S(sku.to_string()))
            .send()
            .await?;
        Ok(price(res.item.unwrap_or_default()))
    }
}

pub async fn cart_total(catalog: &Catalog, lines: &[Line]) -> Result<u64, Error> {
    let mut total = 0;
    for line in lines {
        total += catalog.price_of(&line.sku).await? * line.quantity;
    }
    Ok(total)
}
