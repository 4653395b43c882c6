// The repository: it alone names the SDK. `find_by_user` sends its Query itself, with
// the page size its caller gives.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub type Handle = Client;

pub const AUDIT_TABLE: &str = "AuditLogs";

pub struct AuditLog {
    pub id: String,
}

pub struct AuditLogRepository {
    client: Client,
}

impl AuditLogRepository {
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    pub async fn find_by_user(
        &self,
        user_id: &str,
        limit: u32,
        _offset: u32,
    ) -> Result<Vec<AuditLog>, String> {
        let out = self
            .client
            .query()
            .table_name(AUDIT_TABLE)
            .index_name("user_id-index")
            .key_condition_expression("user_id = :user_id")
            .expression_attribute_values(":user_id", AttributeValue::S(user_id.to_string()))
            .limit(limit as i32)
            .scan_index_forward(false)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        Ok(out
            .items()
            .iter()
            .filter_map(|i| i.get("id")?.as_s().ok().cloned())
            .map(|id| AuditLog { id })
            .collect())
    }
}
