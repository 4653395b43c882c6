// Two constructors: the one the services call reads the table's name from the
// environment, the other takes it as a parameter and only the tests call it. The
// tests' table is not the table the code names.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const BOX_TABLE_NAME: &str = "box-table";

pub struct BoxStore {
    client: Client,
    table_name: String,
}

impl BoxStore {
    pub async fn new() -> Self {
        let config = aws_config::load_from_env().await;
        let client = Client::new(&config);
        let table_name =
            std::env::var("DYNAMODB_TABLE").unwrap_or_else(|_| BOX_TABLE_NAME.to_string());
        Self { client, table_name }
    }

    pub fn with_client_and_table(client: Client, table_name: String) -> Self {
        Self { client, table_name }
    }

    pub async fn get_box(&self, id: &str) -> Result<Option<Box>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item.map(to_box))
    }
}
