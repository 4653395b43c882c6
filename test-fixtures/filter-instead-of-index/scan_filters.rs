// Scans that filter by something a key could find directly.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

/// The table's name, from the environment (followed through the helper).
fn orders_table() -> String {
    std::env::var("ORDERS_TABLE").expect("ORDERS_TABLE is set")
}

/// The GSI `ByOrderId` finds one order by id.
pub async fn find_order(client: &Client, order_id: &str) -> Result<Option<Order>, Error> {
    let out = client
        .scan()
        .table_name(orders_table())
        .filter_expression("OrderId = :id")
        //~^ filter-instead-of-index
        .expression_attribute_values(":id", AttributeValue::S(order_id.to_string()))
        .send()
        .await?;
    Ok(out.items().first().map(to_order))
}

/// The filter fixes the table's own partition key: this is a Query.
pub async fn customer_orders(client: &Client, customer: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("Orders")
        .filter_expression("CustomerId = :c AND OrderDate > :since")
        //~^ filter-instead-of-index
        .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
        .expression_attribute_values(":since", AttributeValue::S("2024-01-01".into()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

/// Orders by status in a date range: a new GSI `Status` / `OrderDate`, sharded.
pub async fn orders_in_status(client: &Client, status: Status, from: &str, to: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("Orders")
        .filter_expression("#st = :st AND OrderDate BETWEEN :from AND :to")
        //~^ filter-instead-of-index
        .expression_attribute_names("#st", "Status")
        .expression_attribute_values(":st", AttributeValue::S(status.to_string()))
        .expression_attribute_values(":from", AttributeValue::S(from.to_string()))
        .expression_attribute_values(":to", AttributeValue::S(to.to_string()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

/// A boolean flag cannot be a key: a sparse index holds only the gift orders.
pub async fn gift_orders(client: &Client) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("Orders")
        .filter_expression("Gift = :yes")
        //~^ filter-instead-of-index
        .expression_attribute_values(":yes", AttributeValue::Bool(true))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

// ---- must not be flagged ----

/// A range over the whole table: no key makes it cheap without a sharded design.
pub async fn expensive_orders(client: &Client, min: u64) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("Orders")
        .filter_expression("Amount > :min")
        .expression_attribute_values(":min", AttributeValue::N(min.to_string()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

/// An existence test selects no key value.
pub async fn without_total(client: &Client) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("Orders")
        .filter_expression("attribute_not_exists(Amount)")
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

/// A table the model does not know: nothing is guessed.
pub async fn legacy(client: &Client, id: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        .table_name("LegacyOrders")
        .filter_expression("OrderId = :id")
        .expression_attribute_values(":id", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}
