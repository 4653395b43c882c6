// The token rotation of `replaced.rs` through a repository built where it is used: each
// method sends one request, made where `rotate_token` calls it. The rotation still
// deletes the user's tokens its Query found before it puts the new one, so one user's
// collection holds one item and one page reads it.
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::delete_item::{DeleteItemError, DeleteItemOutput};
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemOutput};
use aws_sdk_dynamodb::operation::query::{QueryError, QueryOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const TOKENS_TABLE: &str = "Tokens";

pub struct TokenRepo<'a> {
    client: &'a Client,
}

impl<'a> TokenRepo<'a> {
    pub fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn tokens_of_user(
        &self,
        user_id: AttributeValue,
    ) -> Result<QueryOutput, SdkError<QueryError>> {
        self.client
            .query()
            .table_name(TOKENS_TABLE)
            .index_name("ByUser")
            .key_condition_expression("userId = :u")
            .expression_attribute_values(":u", user_id)
            .send()
            .await
    }

    async fn delete_token(
        &self,
        token: AttributeValue,
    ) -> Result<DeleteItemOutput, SdkError<DeleteItemError>> {
        self.client
            .delete_item()
            .table_name(TOKENS_TABLE)
            .key("token", token)
            .send()
            .await
    }

    async fn put_token(
        &self,
        token: AttributeValue,
        user_id: AttributeValue,
    ) -> Result<PutItemOutput, SdkError<PutItemError>> {
        self.client
            .put_item()
            .table_name(TOKENS_TABLE)
            .item("token", token)
            .item("userId", user_id)
            .send()
            .await
    }
}

// ---- must not be flagged ----

pub async fn rotate_token(client: &Client, user_id: &str) -> Result<String, Error> {
    let tokens = TokenRepo::new(client);
    let old = tokens
        .tokens_of_user(AttributeValue::S(user_id.to_string()))
        .await?;
    for item in old.items() {
        if let Some(token) = item.get("token").and_then(|v| v.as_s().ok()) {
            tokens.delete_token(AttributeValue::S(token.clone())).await?;
        }
    }
    let token = new_token();
    tokens
        .put_token(
            AttributeValue::S(token.clone()),
            AttributeValue::S(user_id.to_string()),
        )
        .await?;
    Ok(token)
}
