// dynalint.toml: low-cardinality-pk
// The orders service of article 000 before its redesign: "pending orders older than
// 5 days" filters a customer's orders on `Status`, and every order is filed under its
// bare status in `ByStatus`, so the hottest status lands on one partition.
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
        self.client
            .put_item()
            //~^ low-cardinality-pk
            .table_name(&self.table)
            .item("OrderId", AttributeValue::S(order_id.into()))
            .item("CustomerId", AttributeValue::S(customer.into()))
            .item("OrderDate", AttributeValue::S(date.into()))
            .item("Status", AttributeValue::S(status.to_string()))
            .item("StatusShard", AttributeValue::S(status.to_string()))
            .item("StatusOrderDate", AttributeValue::S(format!("{}:{}", status.to_string(), date)))
            .send()
            .await?;
        Ok(())
    }

    // The article's filter on `Status`: a customer has only about 15 orders (3,000,000 /
    // 200,000), but the model's `ByCustomerStatusDate` already sorts them by
    // `{Status}:{OrderDate}`, so `StatusOrderDate BETWEEN "Ordered:" AND "Ordered:<before>"`
    // reads only the pending ones.
    pub async fn pending_older_than(&self, customer: &str, before: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByCustomerDate")
            .key_condition_expression("CustomerId = :c AND OrderDate < :before")
            .filter_expression("#s = :ordered")
            //~^ filter-instead-of-index
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":c", AttributeValue::S(customer.into()))
            .expression_attribute_values(":before", AttributeValue::S(before.into()))
            .expression_attribute_values(":ordered", AttributeValue::S("Ordered".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }
}
