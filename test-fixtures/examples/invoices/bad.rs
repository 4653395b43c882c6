// dynalint.toml: unused-partition-key
// Invoices (article 003) the naive way: the invoice number is hashed before it becomes
// the partition key (DynamoDB hashes it anyway, and the invoice can no longer be read
// by its number), and an invoice's transactions are fetched one `GetItem` at a time.
// The migrated `LegacyOrders` keep their `TransactionID` sequence as the partition key,
// yet every order is read by its `OrderID` through the GSI `ByOrderID`: the finding is
// on the table's `partition-key` in dynalint.toml.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use sha2::{Digest, Sha256};

pub async fn record(client: &Client, invoice: &str, transaction: &str, amount: &str) -> Result<(), Error> {
    let key = format!("{:x}", Sha256::digest(invoice.as_bytes()));
    client
        .put_item()
        .table_name(std::env::var("INVOICES_BIG_TABLE")?)
        .item("InvoiceNumber", AttributeValue::S(key))
        //~^ client-side-key-hashing
        .item("ClientTransactionId", AttributeValue::S(transaction.into()))
        .item("Amount", AttributeValue::N(amount.into()))
        .send()
        .await?;
    Ok(())
}

pub async fn transactions(client: &Client, invoice: &str, ids: &[String]) -> Result<Vec<Transaction>, Error> {
    let mut out = Vec::new();
    for id in ids {
        let res = client
            .get_item()
            //~^ get-item-in-loop
            .table_name(std::env::var("INVOICES_SMALL_TABLE")?)
            .key("InvoiceNumber", AttributeValue::S(invoice.into()))
            .key("ClientTransactionId", AttributeValue::S(id.clone()))
            .send()
            .await?;
        out.extend(res.item.map(to_transaction));
    }
    Ok(out)
}

pub async fn legacy_order(client: &Client, order_id: &str) -> Result<Option<Order>, Error> {
    let res = client
        .query()
        .table_name(std::env::var("LEGACY_ORDERS_TABLE")?)
        .index_name("ByOrderID")
        .key_condition_expression("OrderID = :o")
        .expression_attribute_values(":o", AttributeValue::S(order_id.into()))
        .send()
        .await?;
    Ok(res.items().first().map(to_order))
}

// The sequence number only addresses writes: a write by the key is not a read by it.
pub async fn set_legacy_status(client: &Client, transaction_id: u64, status: &str) -> Result<(), Error> {
    client
        .update_item()
        .table_name(std::env::var("LEGACY_ORDERS_TABLE")?)
        .key("TransactionID", AttributeValue::N(transaction_id.to_string()))
        .update_expression("SET #s = :s")
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":s", AttributeValue::S(status.into()))
        .send()
        .await?;
    Ok(())
}
