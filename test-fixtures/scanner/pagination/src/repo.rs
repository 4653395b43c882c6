// The repository builds requests; other modules send them.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

pub struct OrdersRepo {
    client: Client,
    table: String,
}

impl OrdersRepo {
    pub fn new(client: Client) -> Result<Self, std::env::VarError> {
        Ok(Self {
            client,
            table: std::env::var("ORDERS_TABLE")?,
        })
    }

    pub fn by_customer(&self, customer_id: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(format!("CUSTOMER#{customer_id}")))
    }

    pub fn everything(&self) -> ScanFluentBuilder {
        self.client.scan().table_name(&self.table)
    }

    /// One page for an API that hands the cursor back to its client.
    pub async fn page(
        &self,
        customer_id: &str,
        cursor: Option<HashMap<String, AttributeValue>>,
    ) -> Result<(Vec<Order>, Option<HashMap<String, AttributeValue>>), Error> {
        let out = self
            .by_customer(customer_id)
            .set_exclusive_start_key(cursor)
            .limit(25)
            .send()
            .await?;
        Ok((to_orders(out.items()), out.last_evaluated_key().cloned()))
    }

    /// Retried until DynamoDB stops throttling: one GetItem.
    pub async fn get_order(&self, id: &str) -> Result<Order, Error> {
        let mut attempt = 0;
        loop {
            let res = self
                .client
                .get_item()
                .table_name(&self.table)
                .key("PK", AttributeValue::S(format!("ORDER#{id}")))
                .send()
                .await;
            match res {
                Ok(out) => return Ok(to_order(out.item.unwrap_or_default())),
                Err(e) if attempt < 3 => {
                    attempt += 1;
                    tokio::time::sleep(backoff(attempt)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
}
