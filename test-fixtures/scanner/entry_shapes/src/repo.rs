use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

/// Methods named like the DynamoDB calls they wrap.
#[derive(Clone)]
pub struct Repo {
    client: Client,
}

impl Repo {
    pub async fn scan(&self) -> Result<Vec<Order>, Error> {
        let out = self.client.scan().table_name("Orders").send().await?;
        Ok(to_orders(out.items()))
    }

    pub async fn query(&self, customer: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name("Orders")
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(customer.into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    pub async fn export_all(&self) -> Result<Vec<Order>, Error> {
        let out = self.client.scan().table_name("Archive").send().await?;
        Ok(to_orders(out.items()))
    }
}

impl Repo {
    pub async fn recent(&self) -> Result<Vec<Order>, Error> {
        let out = self.client.scan().table_name("Recent").limit(50).send().await?;
        Ok(to_orders(out.items()))
    }
}
