// A function of the crate named like the client's method returns a builder that sets
// the table: a chain on it is not the whole request, and is not judged as one.
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::{Client, Error};

const GAMES_TABLE: &str = "Games";

// ---- must not be flagged ----

pub struct Games {
    client: Client,
}

impl Games {
    /// Named like the client's method, with the table set here.
    fn delete_item(&self) -> DeleteItemFluentBuilder {
        self.client.delete_item().table_name(GAMES_TABLE)
    }

    pub async fn forget(&self, user: &str, date: &str) -> Result<(), Error> {
        self.delete_item()
            .key("UserId", AttributeValue::S(user.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .send()
            .await?;
        Ok(())
    }
}
