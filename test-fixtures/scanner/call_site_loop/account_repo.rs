use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

#[derive(Clone)]
pub struct AccountRepo {
    client: Client,
}

impl AccountRepo {
    pub async fn deposit_interest(&self, id: &str, amount: f64) -> Result<f64, Error> {
        let out = self
            .client
            .get_item()
            .table_name("Accounts")
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(balance(out.item) + amount)
    }
}
