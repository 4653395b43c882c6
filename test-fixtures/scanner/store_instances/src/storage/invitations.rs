// A store built by `new` (the env var, else a default) or by a builder whose `build`
// takes the table from the builder's field: one table the code names, and one
// dynalint cannot follow. The same holds when `&self.table_name` is handed to a
// helper: one request per table the instance may have, each possible.
use std::collections::HashMap;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const TABLE_NAME: &str = "invitations";

pub struct InvitationStore {
    client: Client,
    table_name: String,
}

impl InvitationStore {
    pub async fn new() -> Self {
        let config = aws_config::load_from_env().await;
        let client = Client::new(&config);
        let table_name =
            std::env::var("INVITATION_TABLE").unwrap_or_else(|_| TABLE_NAME.to_string());
        Self { client, table_name }
    }

    pub fn builder() -> InvitationStoreBuilder {
        InvitationStoreBuilder { table_name: None }
    }

    pub async fn by_code(&self, code: &str) -> Result<(), Error> {
        self.client
            .query()
            .table_name(&self.table_name)
            .index_name("invite_code-index")
            .key_condition_expression("invite_code = :code")
            .expression_attribute_values(":code", AttributeValue::S(code.to_string()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn put(&self, item: HashMap<String, AttributeValue>) -> Result<(), Error> {
        put_in(&self.client, &self.table_name, item).send().await?;
        Ok(())
    }

    pub async fn by_box(&self, box_id: &str) -> Result<(), Error> {
        query_by_box(&self.client, &self.table_name, box_id).await
    }
}

fn put_in(client: &Client, table: &str, item: HashMap<String, AttributeValue>) -> PutItemFluentBuilder {
    client.put_item().table_name(table).set_item(Some(item))
}

async fn query_by_box(client: &Client, table: &str, box_id: &str) -> Result<(), Error> {
    client
        .query()
        .table_name(table)
        .index_name("box_id-index")
        .key_condition_expression("box_id = :box_id")
        .expression_attribute_values(":box_id", AttributeValue::S(box_id.to_string()))
        .send()
        .await?;
    Ok(())
}

pub struct InvitationStoreBuilder {
    table_name: Option<String>,
}

impl InvitationStoreBuilder {
    pub fn table_name(mut self, table_name: String) -> Self {
        self.table_name = Some(table_name);
        self
    }

    pub async fn build(self) -> InvitationStore {
        let config = aws_config::load_from_env().await;
        let client = Client::new(&config);
        let table_name = self.table_name.unwrap_or_else(|| TABLE_NAME.to_string());
        InvitationStore { client, table_name }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A test's own store: its table is no instance the service builds.
    fn local(client: Client) -> InvitationStore {
        InvitationStore {
            client,
            table_name: "invitations-test".to_string(),
        }
    }
}
