// A repository method that builds and sends its Query itself, with a page size its
// callers choose: `u32::MAX as i32` is -1 (`as` wraps), and DynamoDB rejects a Limit
// below 1. Judged per caller: the caller that passes u32::MAX sends a rejected
// request; a caller's page size (unknown) or a literal page says nothing.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

pub struct Game {
    pub id: String,
}

pub struct GameRepository {
    client: Client,
}

impl GameRepository {
    pub fn new(client: Client) -> Self {
        Self { client }
    }

    /// A player's newest games, `limit` at most.
    pub async fn find_by_user(&self, user_id: &str, limit: u32) -> Result<Vec<Game>, String> {
        let out = self
            .client
            .query()
            //~^ rejected-request
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :u")
            .expression_attribute_values(":u", AttributeValue::S(user_id.to_string()))
            .limit(limit as i32)
            .scan_index_forward(false)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        Ok(out
            .items()
            .iter()
            .map(|i| Game {
                id: i.get("GameId").and_then(|v| v.as_s().ok()).cloned().unwrap_or_default(),
            })
            .collect())
    }

    /// Every game of a player: "no limit" written as the largest page.
    pub async fn count_by_user(&self, user_id: &str) -> Result<usize, String> {
        Ok(self.find_by_user(user_id, u32::MAX).await?.len())
    }
}

/// A page of any table the configuration names: the table is unknown, the Limit is not.
pub async fn scan_page(client: &Client, table: &str, page: i32) -> usize {
    client
        .scan()
        .table_name(table)
        .limit(page)
        //~^ rejected-request
        .send()
        .await
        .map(|out| out.items().len())
        .unwrap_or(0)
}

pub async fn peek(client: &Client, config: &Config) -> usize {
    scan_page(client, &config.table, 0).await
}

// ---- must not be flagged ----

/// The page a request asks for: whatever the caller's caller gave.
pub async fn recent_games(repo: &GameRepository, user_id: &str, page: u32) -> usize {
    repo.find_by_user(user_id, page).await.map(|g| g.len()).unwrap_or(0)
}

/// A page of ten, built where it is sent.
pub async fn last_ten(client: Client, user_id: &str) -> usize {
    GameRepository::new(client)
        .find_by_user(user_id, 10)
        .await
        .map(|g| g.len())
        .unwrap_or(0)
}

/// Another type's method of the same name: not a call of the repository's.
pub struct GameCache;

impl GameCache {
    pub async fn find_by_user(&self, _user_id: &str, _limit: u32) -> Result<Vec<Game>, String> {
        Ok(Vec::new())
    }

    pub async fn everything(&self, user_id: &str) -> usize {
        self.find_by_user(user_id, 0).await.map(|g| g.len()).unwrap_or(0)
    }
}
