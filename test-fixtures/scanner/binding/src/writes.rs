// Table names passed as arguments.
use aws_sdk_dynamodb::Client;

const AUDIT_TABLE: &str = "Audit";

pub async fn put_in(client: &Client, table: &str, item: Item) -> Result<(), Error> {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

pub async fn audit(client: &Client, item: Item) -> Result<(), Error> {
    put_in(client, AUDIT_TABLE, item).await
}

pub async fn audit_again(client: &Client, item: Item) -> Result<(), Error> {
    put_in(client, "Audit", item).await
}

/// Called with two tables: linked as one request per table.
pub async fn delete_from(client: &Client, table: String, key: Key) -> Result<(), Error> {
    client
        .delete_item()
        .table_name(table)
        .set_key(Some(key))
        .send()
        .await?;
    Ok(())
}

pub async fn cleanup(client: &Client, key: Key) -> Result<(), Error> {
    delete_from(client, "Audit".to_string(), key.clone()).await?;
    delete_from(client, "Orders".to_string(), key).await
}
