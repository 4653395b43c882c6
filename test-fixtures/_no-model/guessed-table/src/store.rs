// A store whose table is a constructor argument no call in the crate fills: the model
// is inferred from how it is used (keyed by `id`), and says nothing of its indexes.
use aws_sdk_dynamodb::{types::AttributeValue, Client};

pub struct Store {
    client: Client,
    table_name: String,
}

impl Store {
    pub fn new(client: Client, table_name: String) -> Self {
        Self { client, table_name }
    }

    pub async fn invitation(&self, id: &str) -> Result<Option<Item>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item)
    }

    pub async fn by_code(&self, code: &str) -> Result<Vec<Item>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table_name)
            .index_name("invite_code-index")
            .key_condition_expression("invite_code = :code")
            .expression_attribute_values(":code", AttributeValue::S(code.to_string()))
            .send()
            .await?;
        Ok(out.items.unwrap_or_default())
    }
}
