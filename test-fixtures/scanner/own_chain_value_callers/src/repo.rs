// The repository: `find_by_user` sends its Query itself, with the page size its
// caller gives.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct AuditLogRepository {
    client: Client,
}

impl AuditLogRepository {
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    pub async fn find_by_user(&self, user_id: &str, limit: u32) -> Result<usize, Error> {
        let out = self
            .client
            .query()
            .table_name("AuditLogs")
            .key_condition_expression("user_id = :user_id")
            .expression_attribute_values(":user_id", AttributeValue::S(user_id.to_string()))
            .limit(limit as i32)
            .send()
            .await?;
        Ok(out.items().len())
    }
}
