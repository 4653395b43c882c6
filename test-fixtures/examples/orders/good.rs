// The orders service as article 000 designs it: the composite sort key
// `Status:OrderDate` answers "pending orders older than 5 days" with a key range, and
// `ByStatus` spreads each status over ten suffixes (`In Transit#1`..`In Transit#10`).
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct Orders {
    client: Client,
    table: String,
}

impl Orders {
    pub fn new(client: Client) -> Self {
        let table = std::env::var("ORDERS_TABLE").expect("ORDERS_TABLE");
        Self { client, table }
    }

    pub async fn place(&self, order_id: &str, customer: &str, status: OrderStatus, date: &str) -> Result<(), Error> {
        let shard = rand::random_range(1..=10);
        self.client
            .put_item()
            .table_name(&self.table)
            .item("OrderId", AttributeValue::S(order_id.into()))
            .item("CustomerId", AttributeValue::S(customer.into()))
            .item("OrderDate", AttributeValue::S(date.into()))
            .item("Status", AttributeValue::S(status.to_string()))
            .item("StatusShard", AttributeValue::S(format!("{}#{}", status.to_string(), shard)))
            .item("StatusOrderDate", AttributeValue::S(format!("{}:{}", status.to_string(), date)))
            .send()
            .await?;
        Ok(())
    }

    pub async fn order(&self, order_id: &str) -> Result<Option<Order>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("OrderId", AttributeValue::S(order_id.into()))
            .send()
            .await?;
        Ok(out.item.map(to_order))
    }

    pub async fn recent_of(&self, customer: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByCustomerDate")
            .key_condition_expression("CustomerId = :c")
            .expression_attribute_values(":c", AttributeValue::S(customer.into()))
            .projection_expression("OrderId, OrderDate, #s")
            .expression_attribute_names("#s", "Status")
            .scan_index_forward(false)
            .limit(20)
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    pub async fn pending_older_than(&self, customer: &str, from: &str, before: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByCustomerStatusDate")
            .key_condition_expression("CustomerId = :c AND StatusOrderDate BETWEEN :from AND :before")
            .expression_attribute_values(":c", AttributeValue::S(customer.into()))
            .expression_attribute_values(":from", AttributeValue::S(format!("Ordered:{from}")))
            .expression_attribute_values(":before", AttributeValue::S(format!("Ordered:{before}")))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    pub async fn in_transit(&self) -> Result<Vec<Order>, Error> {
        let mut out = Vec::new();
        for shard in 1..=10 {
            let mut pages = self
                .client
                .query()
                .table_name(&self.table)
                .index_name("ByStatus")
                .key_condition_expression("StatusShard = :s")
                .expression_attribute_values(":s", AttributeValue::S(format!("In Transit#{shard}")))
                .into_paginator()
                .items()
                .send();
            while let Some(item) = pages.next().await {
                out.push(to_order(item?));
            }
        }
        Ok(out)
    }
}
