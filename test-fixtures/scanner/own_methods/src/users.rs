use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub trait UsersExt {
    async fn user(&self, id: &str) -> Result<Option<User>, Error>;
}

impl UsersExt for Client {
    async fn user(&self, id: &str) -> Result<Option<User>, Error> {
        let out = self
            .get_item()
            .table_name("Users")
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(out.item().map(to_user))
    }
}
