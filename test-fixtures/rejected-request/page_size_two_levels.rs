// A page size handed down through two functions before it reaches the request: the
// service's public methods take their caller's page size and pass it on to the code
// that builds, sends or owns the request. `u32::MAX as i32` is -1 (`as` wraps) and
// DynamoDB rejects a Limit below 1, whichever of these forms carries it; a caller's own
// page size (unknown) or a real page says nothing.
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::query::{QueryError, QueryOutput};
use aws_sdk_dynamodb::operation::scan::{ScanError, ScanOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

/// A player's newest games, `limit` at most: built here, sent by the caller.
fn newest_games(client: &Client, user: AttributeValue, limit: i32) -> QueryFluentBuilder {
    client
        .query()
        //~^ rejected-request
        .table_name(GAMES_TABLE)
        .key_condition_expression("UserId = :u")
        .expression_attribute_values(":u", user)
        .limit(limit)
        .scan_index_forward(false)
}

/// Every Query of the service is sent here, its failures logged once.
async fn send_logged(query: QueryFluentBuilder) -> Result<QueryOutput, SdkError<QueryError>> {
    let out = query.send().await;
    if let Err(e) = &out {
        eprintln!("query failed: {e}");
    }
    out
}

/// The leaderboard's queries, over a borrowed client.
struct Leaderboard<'a> {
    client: &'a Client,
}

impl<'a> Leaderboard<'a> {
    fn new(client: &'a Client) -> Self {
        Self { client }
    }

    /// The best ranks of one game, `limit` at most.
    async fn top(&self, game: &str, limit: i32) -> Result<QueryOutput, SdkError<QueryError>> {
        self.client
            .query()
            //~^ rejected-request
            .table_name(GAMES_TABLE)
            .index_name("ByRank")
            .key_condition_expression("GameId = :g")
            .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
            .limit(limit)
            .scan_index_forward(false)
            .send()
            .await
    }
}

pub struct GameHistory {
    client: Client,
}

impl GameHistory {
    /// A player's newest games.
    pub async fn recent(&self, user_id: &str, limit: u32) -> Result<usize, String> {
        let user = AttributeValue::S(user_id.to_string());
        let out = send_logged(newest_games(&self.client, user, limit as i32))
            .await
            .map_err(|e| e.to_string())?;
        Ok(out.items().len())
    }

    /// Every game of a player: "no limit" written as the largest page.
    pub async fn count(&self, user_id: &str) -> Result<usize, String> {
        self.recent(user_id, u32::MAX).await
    }

    /// The best players of a game.
    pub async fn top_players(&self, game: &str, limit: u32) -> usize {
        Leaderboard::new(&self.client)
            .top(game, limit as i32)
            .await
            .map(|out| out.items().len())
            .unwrap_or(0)
    }

    /// Every ranked player of a game, the same way.
    pub async fn all_players(&self, game: &str) -> usize {
        self.top_players(game, u32::MAX).await
    }
}

/// One page of a table, from where the last one ended.
async fn scan_page(
    client: &Client,
    table: &str,
    page: i32,
) -> Result<ScanOutput, SdkError<ScanError>> {
    client
        .scan()
        .table_name(table)
        .limit(page)
        //~^ rejected-request
        .send()
        .await
}

/// The items of a listing: the page size is the handler's.
pub async fn get_items(client: &Client, table: &str, limit: i32) -> usize {
    scan_page(client, table, limit)
        .await
        .map(|out| out.items().len())
        .unwrap_or(0)
}

/// A handler that forgot to read the page size from the request.
pub async fn list_handler(client: &Client, table: &str) -> usize {
    get_items(client, table, 0).await
}

// ---- must not be flagged ----

/// A page of ten, through the same functions.
pub async fn list_ten(client: &Client, table: &str) -> usize {
    get_items(client, table, 10).await
}

/// The page the request asks for: whatever the caller's caller gave.
pub async fn history_page(history: &GameHistory, user_id: &str, page: u32) -> usize {
    history.recent(user_id, page).await.unwrap_or(0)
}

/// The podium: three players.
pub async fn podium(history: &GameHistory, game: &str) -> usize {
    history.top_players(game, 3).await
}
