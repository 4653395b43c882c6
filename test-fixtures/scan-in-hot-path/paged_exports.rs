// Hand-written pagination in library code: one read of the whole table, not a scan
// repeated per loop iteration. A loop around the pager repeats it, though.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

pub struct Exporter {
    client: Client,
}

impl Exporter {
    pub async fn export_all(&self) -> Result<Vec<Row>, Error> {
        let mut rows = Vec::new();
        let mut start: Option<HashMap<String, AttributeValue>> = None;
        loop {
            let out = self
                .client
                .scan()
                .table_name("Catalog")
                .set_exclusive_start_key(start.take())
                .send()
                .await?;
            rows.extend(out.items().iter().map(to_row));
            match out.last_evaluated_key {
                Some(k) => start = Some(k),
                None => break,
            }
        }
        Ok(rows)
    }

    /// `while let` over the key, the request rebuilt from a base builder.
    pub async fn export_category(&self, category: &str) -> Result<Vec<Row>, Error> {
        let base = self
            .client
            .scan()
            .table_name("Catalog")
            .filter_expression("category = :c")
            .expression_attribute_values(":c", AttributeValue::S(category.into()));
        let first = base.clone().send().await?;
        let mut rows: Vec<Row> = first.items().iter().map(to_row).collect();
        let mut next = first.last_evaluated_key().cloned();
        while let Some(key) = next {
            let page = base.clone().set_exclusive_start_key(Some(key)).send().await?;
            rows.extend(page.items().iter().map(to_row));
            next = page.last_evaluated_key().cloned();
        }
        Ok(rows)
    }

    /// Every shop's export reads the whole table once per shop.
    pub async fn export_shops(&self, shops: &[String]) -> Result<usize, Error> {
        let mut n = 0;
        for _shop in shops {
            let mut start = None;
            loop {
                let out = self
                    .client
                    .scan()
                    //~^ scan-in-hot-path
                    .table_name("Catalog")
                    .set_exclusive_start_key(start)
                    .send()
                    .await?;
                n += out.items().len();
                start = out.last_evaluated_key().cloned();
                if start.is_none() {
                    break;
                }
            }
        }
        Ok(n)
    }
}
