// A session store with two storage adapters behind one trait: SQL through SeaORM and
// DynamoDB. The SQL entity declares `token_hash` unique, so the DynamoDB GSI keyed by
// it holds one item per value and its Query needs no second page. Nothing declares
// how many sessions one user has: that Query is a question.
use async_trait::async_trait;
use aws_sdk_dynamodb::{types::AttributeValue, Client};
use std::collections::HashMap;

pub mod seaorm {
    pub mod session {
        use sea_orm::entity::prelude::*;

        #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
        #[sea_orm(table_name = "sessions")]
        pub struct Model {
            #[sea_orm(primary_key, auto_increment = false)]
            pub id: Uuid,
            pub user_id: Uuid,
            #[sea_orm(unique)]
            pub token_hash: String,
            pub expires_at: DateTimeUtc,
        }

        #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
        pub enum Relation {}

        impl ActiveModelBehavior for ActiveModel {}
    }
}

pub mod dynamodb {
    use super::*;

    const SESSIONS_TABLE: &str = "app_sessions";

    pub struct DynamoDbSessionRepository {
        client: Client,
    }

    impl DynamoDbSessionRepository {
        fn to_item(session: &Session) -> HashMap<String, AttributeValue> {
            let mut item = HashMap::new();
            item.insert("id".to_string(), AttributeValue::S(session.id.to_string()));
            item.insert(
                "user_id".to_string(),
                AttributeValue::S(session.user_id.to_string()),
            );
            item.insert(
                "token_hash".to_string(),
                AttributeValue::S(session.token_hash.clone()),
            );
            item
        }
    }

    #[async_trait]
    impl SessionRepository for DynamoDbSessionRepository {
        async fn create(&self, session: &Session) -> Result<Session> {
            self.client
                .put_item()
                .table_name(SESSIONS_TABLE)
                .set_item(Some(Self::to_item(session)))
                .send()
                .await
                .map_err(|e| TsaError::Database(e.to_string()))?;
            Ok(session.clone())
        }

        async fn find_by_token_hash(&self, token_hash: &str) -> Result<Option<Session>> {
            let result = self
                .client
                .query()
                .table_name(SESSIONS_TABLE)
                .index_name("token_hash-index")
                .key_condition_expression("token_hash = :th")
                .filter_expression("expires_at > :now")
                .expression_attribute_values(":th", AttributeValue::S(token_hash.to_string()))
                .expression_attribute_values(":now", AttributeValue::S(now()))
                .send()
                .await
                .map_err(|e| TsaError::Database(e.to_string()))?;
            match result.items.and_then(|items| items.into_iter().next()) {
                Some(item) => Ok(Some(Self::from_item(&item)?)),
                None => Ok(None),
            }
        }

        async fn find_by_user(&self, user_id: Uuid) -> Result<Vec<Session>> {
            let result = self
                .client
                .query()
                //~^ unpaginated-query
                .table_name(SESSIONS_TABLE)
                .index_name("user_id-index")
                .key_condition_expression("user_id = :uid")
                .expression_attribute_values(":uid", AttributeValue::S(user_id.to_string()))
                .send()
                .await
                .map_err(|e| TsaError::Database(e.to_string()))?;
            result
                .items
                .unwrap_or_default()
                .iter()
                .map(Self::from_item)
                .collect()
        }
    }
}
