// A repository built where it is used sends the Query with the key condition its
// caller grew with `push_str` in `match` arms: each path is a request the code can
// send, judged at the repository's call. DynamoDB's function names are case-sensitive:
// `BEGINS_WITH` is refused on the path that builds it.
use std::collections::HashMap;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::query::{QueryError, QueryOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

pub struct GameStore<'a> {
    client: &'a Client,
}

impl<'a> GameStore<'a> {
    pub fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn query_games(
        &self,
        key_condition: String,
        values: HashMap<String, AttributeValue>,
    ) -> Result<QueryOutput, SdkError<QueryError>> {
        self.client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression(key_condition)
            //~^ rejected-request
            .set_expression_attribute_values(Some(values))
            .send()
            .await
    }
}

pub enum Dates {
    Prefix(String),
    Between(String, String),
}

/// A player's games, all of them or those of some dates.
pub async fn games(client: &Client, user: &str, dates: Option<Dates>) -> usize {
    let mut key_condition = "UserId = :u".to_owned();
    let mut values = HashMap::new();
    values.insert(":u".to_owned(), AttributeValue::S(user.to_owned()));
    match dates {
        Some(Dates::Prefix(p)) => {
            key_condition.push_str(" AND BEGINS_WITH(GameDate, :a)");
            values.insert(":a".to_owned(), AttributeValue::S(p));
        }
        Some(Dates::Between(a, b)) => {
            key_condition.push_str(" AND GameDate BETWEEN :a AND :b");
            values.insert(":a".to_owned(), AttributeValue::S(a));
            values.insert(":b".to_owned(), AttributeValue::S(b));
        }
        None => (),
    }
    GameStore::new(client)
        .query_games(key_condition, values)
        .await
        .map(|out| out.items().len())
        .unwrap_or(0)
}

// ---- must not be flagged ----

/// The same repository, every path's function spelt as DynamoDB spells it.
pub async fn recent_games(client: &Client, user: &str, since: Option<String>) -> usize {
    let mut key_condition = "UserId = :u".to_owned();
    let mut values = HashMap::new();
    values.insert(":u".to_owned(), AttributeValue::S(user.to_owned()));
    if let Some(since) = since {
        key_condition.push_str(" AND begins_with(GameDate, :a)");
        values.insert(":a".to_owned(), AttributeValue::S(since));
    }
    GameStore::new(client)
        .query_games(key_condition, values)
        .await
        .map(|out| out.items().len())
        .unwrap_or(0)
}
