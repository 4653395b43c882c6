// A table read from a field of a value built by a constructor call: the field holds
// what that call passes, not what every construction of the type agrees on.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct TableNames {
    table: String,
}

impl TableNames {
    pub fn new(table: impl Into<String>) -> Self {
        Self {
            table: table.into(),
        }
    }
}

/// Called with `Orders` and `Invoices`: one request per table, each in the loop.
pub async fn fetch(client: &Client, table: &str, id: &str) -> Result<(), Error> {
    let names = TableNames::new(table);
    client
        .get_item()
        .table_name(&names.table)
        .key("pk", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn fetch_all(client: &Client, ids: &[String]) -> Result<(), Error> {
    for id in ids {
        fetch(client, "Orders", id).await?;
        fetch(client, "Invoices", id).await?;
    }
    Ok(())
}

pub struct Archive {
    client: Client,
    archive_table: String,
}

impl Archive {
    /// A literal through the local: `Archive`, whatever other instances hold.
    pub async fn archived(&self, id: &str) -> Result<(), Error> {
        let names = TableNames::new("Archive");
        self.client
            .get_item()
            .table_name(names.table.clone())
            .key("pk", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// A field no constructor sets to a value dynalint can follow: unknown, written
    /// as `&self.archive_table`, which a table's `refs` may list.
    pub async fn restore(&self, id: &str) -> Result<(), Error> {
        let names = TableNames::new(&self.archive_table);
        self.client
            .delete_item()
            .table_name(&names.table)
            .key("pk", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(())
    }
}
