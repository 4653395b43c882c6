// Two constructors again, but no call in the crate passes the second one's table: the
// crate's users choose it, so the table a read names is not known.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct ArchiveStore {
    client: Client,
    table_name: String,
}

impl ArchiveStore {
    pub async fn new() -> Self {
        let config = aws_config::load_from_env().await;
        let client = Client::new(&config);
        let table_name = std::env::var("ARCHIVE_TABLE").unwrap_or_default();
        Self { client, table_name }
    }

    pub fn with_table(client: Client, table_name: String) -> Self {
        Self { client, table_name }
    }

    pub async fn get_entry(&self, id: &str) -> Result<Option<Entry>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item.map(to_entry))
    }
}
