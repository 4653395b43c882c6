// Queries that read a customer's whole order history and filter it down.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ORDERS_TABLE: &str = "Orders";

pub struct OrderRepo {
    client: Client,
}

impl OrderRepo {
    /// Open orders of a customer: `Status` should prefix the sort key.
    pub async fn open_orders(&self, customer: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(ORDERS_TABLE)
            .key_condition_expression("CustomerId = :c")
            .filter_expression("#s = :s")
            //~^ filter-instead-of-index
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":s", AttributeValue::S("Ordered".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    /// Big orders of a customer: the local index `ByAmount` is sorted by `Amount`.
    pub async fn big_orders(&self, customer: &str, min: u64) -> Result<Vec<Order>, Error> {
        let table = std::env::var("TABLE_NAME")?;
        let mut req = self.client.query().table_name(table);
        req = req.key_condition_expression("CustomerId = :c");
        req = req.filter_expression("attribute_exists(OrderId) AND Amount >= :min");
        //~^ filter-instead-of-index
        req = req
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":min", AttributeValue::N(min.to_string()));
        let out = req.send().await?;
        Ok(to_orders(out.items()))
    }

    // ---- must not be flagged ----

    /// The index already serves the pattern: no filter.
    pub async fn open_orders_by_key(&self, customer: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(ORDERS_TABLE)
            .index_name("ByStatusDate")
            .key_condition_expression("CustomerId = :c AND begins_with(StatusDate, :p)")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":p", AttributeValue::S("Ordered#".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    /// Free text: no key can serve `contains`.
    pub async fn search(&self, customer: &str, word: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(ORDERS_TABLE)
            .key_condition_expression("CustomerId = :c")
            .filter_expression("contains(Notes, :w)")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":w", AttributeValue::S(word.to_string()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    /// Either of two statuses: an `OR` is not one key range.
    pub async fn moving(&self, customer: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(ORDERS_TABLE)
            .key_condition_expression("CustomerId = :c")
            .filter_expression("#s = :a OR #s = :b")
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":a", AttributeValue::S("Ordered".into()))
            .expression_attribute_values(":b", AttributeValue::S("InTransit".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    /// An attribute the model does not describe: its selectivity is unknown.
    pub async fn by_channel(&self, customer: &str, channel: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name(ORDERS_TABLE)
            .key_condition_expression("CustomerId = :c")
            .filter_expression("Channel = :ch")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
            .expression_attribute_values(":ch", AttributeValue::S(channel.to_string()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }
}

/// A tenant's settings are 20 items of 100 bytes: 0.5 RCU whatever the filter keeps.
pub async fn user_settings(client: &Client, tenant: &str) -> Result<Vec<Setting>, Error> {
    let out = client
        .query()
        .table_name("Settings")
        .key_condition_expression("TenantId = :t")
        .filter_expression("Audience = :s")
        .expression_attribute_values(":t", AttributeValue::S(tenant.to_string()))
        .expression_attribute_values(":s", AttributeValue::S("user".into()))
        .send()
        .await?;
    Ok(to_settings(out.items()))
}
