// Reads through the GSIs of `Orders`.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ORDERS_TABLE: &str = "Orders";
const BY_CUSTOMER: &str = "ByCustomer";

/// The address is not in `ByCustomer`: every order comes back without it.
pub async fn shipping_labels(client: &Client, customer: &str) -> Result<Vec<Label>, Error> {
    let out = client
        .query()
        .table_name(ORDERS_TABLE)
        .index_name(BY_CUSTOMER)
        .key_condition_expression("CustomerId = :c")
        .projection_expression("OrderId, #addr.city, #addr.zip")
        //~^ unprojected-attribute
        .expression_attribute_names("#addr", "ShippingAddress")
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
        .send()
        .await?;
    Ok(to_labels(out.items()))
}

/// `ByStatus` is KEYS_ONLY: the filter never sees `CustomerId`.
pub async fn customer_orders_in_status(client: &Client, status: &str, customer: &str) -> Result<Vec<Order>, Error> {
    let req = client
        .query()
        .table_name(ORDERS_TABLE)
        .index_name("ByStatus")
        .key_condition_expression("#s = :s")
        .filter_expression("CustomerId = :c")
        //~^ unprojected-attribute
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":s", AttributeValue::S(status.to_string()))
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()));
    let out = req.send().await?;
    Ok(to_orders(out.items()))
}

// ---- must not be flagged ----

/// Only projected attributes.
pub async fn order_dates(client: &Client, customer: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .query()
        .table_name(ORDERS_TABLE)
        .index_name(BY_CUSTOMER)
        .key_condition_expression("CustomerId = :c")
        .projection_expression("OrderId, OrderDate, #s")
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

/// The table holds everything.
pub async fn order(client: &Client, id: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .query()
        .table_name(ORDERS_TABLE)
        .key_condition_expression("OrderId = :id")
        .projection_expression("OrderId, ShippingAddress")
        .expression_attribute_values(":id", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}
