// An order repository: the status GSI is written and read with the bare status, so
// every OPEN order shares one partition of `ByStatus`.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub enum OrderStatus {
    Open,
    Paid,
    Void,
}

pub struct OrderRepo {
    client: Client,
    table: String,
}

impl OrderRepo {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: std::env::var("ORDERS_TABLE").unwrap(),
        }
    }

    pub async fn create(&self, customer_id: &str, status: OrderStatus, at: &str) -> Result<(), Error> {
        let id = uuid::Uuid::new_v4().to_string();
        self.client
            .put_item()
            //~^ low-cardinality-pk
            .table_name(&self.table)
            .item("orderId", AttributeValue::S(id))
            .item("customerId", AttributeValue::S(customer_id.to_string()))
            .item("status", AttributeValue::S(status.to_string()))
            .item("createdAt", AttributeValue::S(at.to_string()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn open_orders(&self) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            //~^ low-cardinality-pk
            .table_name(&self.table)
            .index_name("ByStatus")
            .key_condition_expression("#s = :s")
            .expression_attribute_names("#s", "status")
            .expression_attribute_values(":s", AttributeValue::S("OPEN".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    // Must not be flagged: `customerId` has 200,000 values.
    pub async fn orders_of(&self, customer_id: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByCustomer")
            .key_condition_expression("customerId = :c")
            .expression_attribute_values(":c", AttributeValue::S(customer_id.to_string()))
            .limit(20)
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }
}
