// An audit log written through its repository's own `to_item`: `action` is the serde
// name of the entry's `AuditAction`, an enum of data-less variants (else "other"), so
// the index on it files every entry under one of a few dozen values, sign-ins under
// one. `subject` is an enum whose variants carry an id: as many values as ids, and
// its index is not flagged; nor is `batch`, made from the action by a closure that
// ignores it and stamps the time: a new value per write.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::Serialize;

const AUDIT_ENTRIES_TABLE: &str = "AuditEntries";

#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditAction {
    Signup,
    SigninSuccess,
    #[serde(rename = "signin_failed")]
    SigninFailure,
    PasswordChanged,
    SessionRevoked,
}

#[derive(Clone, Serialize)]
pub enum Subject {
    User(String),
    Organization { id: String },
}

pub struct AuditEntry {
    pub id: String,
    pub action: AuditAction,
    pub subject: Subject,
    pub created_at: String,
}

pub struct AuditRepo {
    client: Client,
}

impl AuditRepo {
    fn to_item(entry: &AuditEntry) -> HashMap<String, AttributeValue> {
        let action = serde_json::to_value(entry.action)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_else(|| "other".to_string());
        let subject = serde_json::to_value(&entry.subject)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        let batch = serde_json::to_value(entry.action)
            .ok()
            .map(|_| chrono::Utc::now().to_rfc3339())
            .unwrap_or_default();
        let mut item = HashMap::new();
        item.insert("id".to_string(), AttributeValue::S(entry.id.clone()));
        item.insert("action".to_string(), AttributeValue::S(action));
        item.insert("subject".to_string(), AttributeValue::S(subject));
        item.insert("batch".to_string(), AttributeValue::S(batch));
        item.insert("created_at".to_string(), AttributeValue::S(entry.created_at.clone()));
        item
    }

    pub async fn record(&self, entry: &AuditEntry) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(AUDIT_ENTRIES_TABLE)
            .set_item(Some(Self::to_item(entry)))
            .send()
            .await?;
        Ok(())
    }
}
