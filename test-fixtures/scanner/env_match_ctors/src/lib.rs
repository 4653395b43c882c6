// A client wrapper built in two binaries, each reading the table's name from the same
// environment variable, one through a `match` whose other arm ends the program: one
// table, not one known beside one unknown.
use aws_sdk_dynamodb::types::AttributeValue;

pub struct Client {
    dynamodb: aws_sdk_dynamodb::Client,
    table: String,
}

impl Client {
    pub fn new(dynamodb: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self { dynamodb, table }
    }

    pub async fn delete_item(&self, pk: &str, sk: &str) -> Result<(), Error> {
        self.dynamodb
            .delete_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(pk.to_string()))
            .key("sk", AttributeValue::S(sk.to_string()))
            .send()
            .await?;
        Ok(())
    }
}

pub struct Archive {
    dynamodb: aws_sdk_dynamodb::Client,
    table: String,
}

impl Archive {
    /// Its constructors' tables differ by the arm taken: each is possible only.
    pub fn new(dynamodb: aws_sdk_dynamodb::Client, cold: bool) -> Self {
        let table = match cold {
            true => std::env::var("COLD_TABLE").unwrap(),
            false => std::env::var("ARCHIVE_TABLE").unwrap(),
        };
        Self { dynamodb, table }
    }

    pub fn with_table(dynamodb: aws_sdk_dynamodb::Client) -> Self {
        let Ok(table) = std::env::var("ARCHIVE_TABLE") else {
            panic!("ARCHIVE_TABLE is not set");
        };
        Self { dynamodb, table }
    }

    pub async fn restore(&self, pk: &str) -> Result<(), Error> {
        self.dynamodb
            .get_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(pk.to_string()))
            .send()
            .await?;
        Ok(())
    }
}
