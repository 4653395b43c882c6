// A repository whose methods each send one request; whether they run per element is
// decided where they are called.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct Repo {
    client: Client,
}

impl Repo {
    pub async fn get_user(&self, id: &str) -> Option<User> {
        let out = self
            .client
            .get_item()
            .table_name("Users")
            .key("PK", AttributeValue::S(id.to_string()))
            .send()
            .await
            .ok()?;
        out.item.map(User::from)
    }

    pub async fn get_settings(&self, id: &str) -> Option<User> {
        let out = self
            .client
            .get_item()
            .table_name("Settings")
            .key("PK", AttributeValue::S(id.to_string()))
            .send()
            .await
            .ok()?;
        out.item.map(User::from)
    }

    pub async fn get(&self, id: &str) -> Option<User> {
        let out = self
            .client
            .get_item()
            .table_name("Users")
            .key("PK", AttributeValue::S(id.to_string()))
            .send()
            .await
            .ok()?;
        out.item.map(User::from)
    }

    pub async fn log_visit(&self, id: &str) {
        let _ = self
            .client
            .put_item()
            .table_name("Visits")
            .item("PK", AttributeValue::S(id.to_string()))
            .send()
            .await;
    }
}
