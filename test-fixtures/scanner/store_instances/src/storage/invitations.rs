// A store built by `new` (the env var, else a default) or by a builder whose `build`
// takes the table from the builder's field: one table the code names, and one
// dynalint cannot follow.
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
