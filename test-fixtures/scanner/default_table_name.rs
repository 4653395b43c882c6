// A library's constructor takes an optional table name and falls back to its own
// default: the default is the name (known by the parameter's name too, for `refs`).
use rusoto_dynamodb::{DeleteItemInput, DynamoDb, DynamoDbClient};

static TABLE_NAME: &str = "mutexes";

pub struct Mutex {
    table_name: String,
    client: DynamoDbClient,
}

impl Mutex {
    pub fn new(client: DynamoDbClient, table_name: Option<&str>) -> Self {
        Self {
            table_name: table_name.unwrap_or(TABLE_NAME).to_owned(),
            client,
        }
    }

    pub async fn remove(&self) {
        let input = DeleteItemInput {
            table_name: self.table_name.clone(),
            ..Default::default()
        };
        let _ = self.client.delete_item(input).await;
    }

    // A parameter that is not optional stays a parameter.
    pub async fn remove_from(&self, table: &str, fallback: &str) {
        let input = DeleteItemInput {
            table_name: table.to_string(),
            ..Default::default()
        };
        let _ = self.client.delete_item(input).await;
        let _ = fallback;
    }
}
