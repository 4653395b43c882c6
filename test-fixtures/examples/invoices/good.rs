// Invoices as article 003 designs it: big clients' invoices are spread over ten
// partition keys (`121212-1`..`121212-10`) and read back with ten queries; small
// clients live in their own table and are read by their full key. The migrated
// orders are keyed by the order id every read selects by (`good.toml`): one `GetItem`,
// no GSI to keep in step, and the by-day GSI for the other pattern.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn record(client: &Client, invoice: &str, transaction: &str, amount: &str) -> Result<(), Error> {
    let suffix = rand::random_range(1..=10);
    client
        .put_item()
        .table_name(std::env::var("INVOICES_BIG_TABLE")?)
        .item("InvoiceNumber", AttributeValue::S(format!("{invoice}-{suffix}")))
        .item("ClientTransactionId", AttributeValue::S(transaction.into()))
        .item("Amount", AttributeValue::N(amount.into()))
        .send()
        .await?;
    Ok(())
}

pub async fn transactions(client: &Client, invoice: &str) -> Result<Vec<Transaction>, Error> {
    let mut out = Vec::new();
    for suffix in 1..=10 {
        let mut pages = client
            .query()
            .table_name(std::env::var("INVOICES_BIG_TABLE")?)
            .key_condition_expression("InvoiceNumber = :n")
            .expression_attribute_values(":n", AttributeValue::S(format!("{invoice}-{suffix}")))
            .into_paginator()
            .items()
            .send();
        while let Some(item) = pages.next().await {
            out.push(to_transaction(item?));
        }
    }
    Ok(out)
}

pub async fn small_client_transaction(client: &Client, invoice: &str, id: &str) -> Result<Option<Transaction>, Error> {
    let res = client
        .get_item()
        .table_name(std::env::var("INVOICES_SMALL_TABLE")?)
        .key("InvoiceNumber", AttributeValue::S(invoice.into()))
        .key("ClientTransactionId", AttributeValue::S(id.into()))
        .send()
        .await?;
    Ok(res.item.map(to_transaction))
}

pub async fn order(client: &Client, order_id: &str) -> Result<Option<Order>, Error> {
    let res = client
        .get_item()
        .table_name(std::env::var("ORDERS_TABLE")?)
        .key("OrderID", AttributeValue::S(order_id.into()))
        .send()
        .await?;
    Ok(res.item.map(to_order))
}

pub async fn set_status(client: &Client, order_id: &str, status: &str) -> Result<(), Error> {
    client
        .update_item()
        .table_name(std::env::var("ORDERS_TABLE")?)
        .key("OrderID", AttributeValue::S(order_id.into()))
        .update_expression("SET #s = :s")
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":s", AttributeValue::S(status.into()))
        .send()
        .await?;
    Ok(())
}

pub async fn orders_of_day(client: &Client, day: &str) -> Result<Vec<Order>, Error> {
    let mut pages = client
        .query()
        .table_name(std::env::var("ORDERS_TABLE")?)
        .index_name("ByOrderDate")
        .key_condition_expression("Order_Date = :d")
        .expression_attribute_values(":d", AttributeValue::S(day.into()))
        .into_paginator()
        .items()
        .send();
    let mut out = Vec::new();
    while let Some(item) = pages.next().await {
        out.push(to_order(item?));
    }
    Ok(out)
}
