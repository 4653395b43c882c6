// dynalint.toml:
// Invoices (article 003) the naive way: the invoice number is hashed before it becomes
// the partition key (DynamoDB hashes it anyway, and the invoice can no longer be read
// by its number), and an invoice's transactions are fetched one `GetItem` at a time.
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
