use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;
use uuid::Uuid;

pub const TABLE_VERIFICATION_TOKENS: &str = "verification_tokens";
pub const TABLE_SESSIONS: &str = "sessions";

#[derive(Debug, Clone)]
pub struct VerificationToken {
    pub id: Uuid,
    pub user_id: Uuid,
    pub token_hash: String,
    pub expires_at: String,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub id: Uuid,
    pub user_id: Uuid,
    pub expires_at: String,
}

#[derive(Debug)]
pub enum StoreError {
    Database(String),
    Corrupt(&'static str),
}

pub struct VerificationTokenRepository {
    client: Client,
    table_prefix: String,
}

impl VerificationTokenRepository {
    pub fn new(client: Client, table_prefix: String) -> Self {
        Self { client, table_prefix }
    }

    fn table_name(&self) -> String {
        format!("{}{}", self.table_prefix, TABLE_VERIFICATION_TOKENS)
    }

    pub async fn create(&self, token: &VerificationToken) -> Result<(), StoreError> {
        self.client
            .put_item()
            .table_name(self.table_name())
            .item("id", AttributeValue::S(token.id.to_string()))
            .item("user_id", AttributeValue::S(token.user_id.to_string()))
            .item("token_hash", AttributeValue::S(token.token_hash.clone()))
            .item("expires_at", AttributeValue::S(token.expires_at.clone()))
            .send()
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?;
        Ok(())
    }

    pub async fn find_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<VerificationToken>, StoreError> {
        let result = self
            .client
            .query()
            .table_name(self.table_name())
            .index_name("token_hash-index")
            .key_condition_expression("token_hash = :token_hash")
            .expression_attribute_values(":token_hash", AttributeValue::S(token_hash.to_string()))
            .send()
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?;
        match result.items.and_then(|items| items.into_iter().next()) {
            Some(item) => Ok(Some(token_from_item(&item)?)),
            None => Ok(None),
        }
    }

    pub async fn delete(&self, id: Uuid) -> Result<(), StoreError> {
        self.client
            .delete_item()
            .table_name(self.table_name())
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?;
        Ok(())
    }
}

pub struct SessionRepository {
    client: Client,
    table_prefix: String,
}

impl SessionRepository {
    pub fn new(client: Client, table_prefix: String) -> Self {
        Self { client, table_prefix }
    }

    fn table_name(&self) -> String {
        format!("{}{}", self.table_prefix, TABLE_SESSIONS)
    }

    pub async fn find_by_id(&self, id: Uuid) -> Result<Option<Session>, StoreError> {
        let result = self
            .client
            .get_item()
            .table_name(self.table_name())
            .key("id", AttributeValue::S(id.to_string()))
            .send()
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?;
        result.item.map(|item| session_from_item(&item)).transpose()
    }

    /// Every session of a user, for "sign out everywhere".
    pub async fn find_by_user(&self, user_id: Uuid) -> Result<Vec<Session>, StoreError> {
        let result = self
            .client
            .query()
            .table_name(self.table_name())
            .index_name("user_id-index")
            .key_condition_expression("user_id = :user_id")
            .expression_attribute_values(":user_id", AttributeValue::S(user_id.to_string()))
            .send()
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?;
        result
            .items
            .unwrap_or_default()
            .iter()
            .map(session_from_item)
            .collect()
    }
}

fn text<'a>(item: &'a HashMap<String, AttributeValue>, name: &'static str) -> Result<&'a str, StoreError> {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
        .ok_or(StoreError::Corrupt(name))
}

fn uuid(item: &HashMap<String, AttributeValue>, name: &'static str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text(item, name)?).map_err(|_| StoreError::Corrupt(name))
}

fn token_from_item(item: &HashMap<String, AttributeValue>) -> Result<VerificationToken, StoreError> {
    Ok(VerificationToken {
        id: uuid(item, "id")?,
        user_id: uuid(item, "user_id")?,
        token_hash: text(item, "token_hash")?.to_string(),
        expires_at: text(item, "expires_at")?.to_string(),
    })
}

fn session_from_item(item: &HashMap<String, AttributeValue>) -> Result<Session, StoreError> {
    Ok(Session {
        id: uuid(item, "id")?,
        user_id: uuid(item, "user_id")?,
        expires_at: text(item, "expires_at")?.to_string(),
    })
}
