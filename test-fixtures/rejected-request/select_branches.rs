// `select` given by an `if` or a `match`: each branch is a request the code can send,
// judged on its own.
use aws_sdk_dynamodb::types::{AttributeValue, Select};
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

/// A game's leaderboard, or how many players ranked: `ByRank` projects keys only, so
/// the branch asking for every attribute is refused whenever it runs.
pub async fn leaderboard(client: &Client, game: &str, count_only: bool) -> Result<usize, Error> {
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .index_name("ByRank")
        .key_condition_expression("GameId = :g")
        .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
        .select(if count_only {
            //~^ rejected-request
            Select::Count
        } else {
            Select::AllAttributes
        })
        .send()
        .await?;
    Ok(out.count() as usize)
}

// ---- must not be flagged ----

/// Every branch is a `Select` the index serves.
pub async fn ranked(client: &Client, game: &str, count_only: bool) -> Result<usize, Error> {
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .index_name("ByRank")
        .key_condition_expression("GameId = :g")
        .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
        .select(match count_only {
            true => Select::Count,
            false => Select::AllProjectedAttributes,
        })
        .send()
        .await?;
    Ok(out.count() as usize)
}

/// A player's games on the table itself, either way: both are served.
pub async fn history(client: &Client, user: &str, count_only: bool) -> Result<usize, Error> {
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression("UserId = :u")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .select(if count_only { Select::Count } else { Select::AllAttributes })
        .send()
        .await?;
    Ok(out.count() as usize)
}
