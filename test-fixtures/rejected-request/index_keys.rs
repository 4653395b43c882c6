// Saving games: an empty table key is this rule's; an empty index key is
// `missing-sparse-attribute`'s (reported there, once).
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

pub async fn save_draft(client: &Client, user: &str, game: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(GAMES_TABLE)
        .item("UserId", AttributeValue::S(user.to_string()))
        .item("GameDate", AttributeValue::S("".into()))
        //~^ rejected-request
        .item("GameId", AttributeValue::S(game.to_string()))
        .send()
        .await?;
    Ok(())
}

// ---- must not be flagged (by this rule) ----

/// `StatusDate` is the sort key of the local index `ByStatusDate`: DynamoDB rejects
/// the empty string, and `missing-sparse-attribute` says so.
pub async fn save_unfinished(client: &Client, user: &str, date: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(GAMES_TABLE)
        .item("UserId", AttributeValue::S(user.to_string()))
        .item("GameDate", AttributeValue::S(date.to_string()))
        .item("StatusDate", AttributeValue::S("".into()))
        .send()
        .await?;
    Ok(())
}
