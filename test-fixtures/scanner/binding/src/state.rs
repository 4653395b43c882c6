// The table's name read through a helper of the file that names the variable it reads
// (`required_env("STATE_TABLE")`), as `env::var("STATE_TABLE")` would.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::env;

pub struct StateStore {
    client: Client,
    table_name: String,
}

impl StateStore {
    pub async fn from_env() -> Result<Self, Error> {
        let config = aws_config::load_from_env().await;
        Ok(StateStore {
            client: Client::new(&config),
            table_name: required_env("STATE_TABLE")?,
        })
    }

    pub async fn session(&self, id: &str) -> Result<Option<Session>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("session_id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item.map(to_session))
    }
}

fn required_env(name: &str) -> Result<String, Error> {
    env::var(name).map_err(|_| Error::MissingEnvVar {
        reason: name.to_string(),
    })
}
