// Values copied into a spawned task before it sends the request (`let x =
// self.x.clone()`, `.to_owned()`): a copy holds what it copies, so its methods, its
// fields and the item it is are those of the original.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::Serialize;

#[derive(Clone)]
pub struct Tables {
    audit: String,
}

impl Tables {
    pub fn new() -> Self {
        Self {
            audit: "AuditLog".to_string(),
        }
    }

    pub fn sessions(&self) -> &str {
        "Sessions"
    }
}

#[derive(Serialize, Clone)]
pub struct Session {
    pub session_id: String,
    pub request_id: Option<String>,
}

pub struct Store {
    client: Client,
    tables: Tables,
}

impl Store {
    /// The table from a method of a copy of a field.
    pub async fn touch(&self, id: &str) {
        let client = self.client.clone();
        let tables = self.tables.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            client
                .update_item()
                .table_name(tables.sessions())
                .key("session_id", AttributeValue::S(id))
                .update_expression("SET touched = :t")
                .expression_attribute_values(":t", AttributeValue::N("1".into()))
                .send()
                .await
        });
    }

    /// The table from a field of a copy; the item a copy of one extended by a struct.
    pub async fn record(&self, session: &Session) -> Result<(), Error> {
        let mut item = HashMap::new();
        item.insert("kind".to_string(), AttributeValue::S("session".into()));
        item.extend(serde_dynamo::to_item(session)?);
        let client = self.client.to_owned();
        let tables = self.tables.to_owned();
        let owned = item.to_owned();
        tokio::spawn(async move {
            client
                .put_item()
                .table_name(&tables.audit)
                .set_item(Some(owned))
                .send()
                .await
        })
        .await??;
        Ok(())
    }
}
