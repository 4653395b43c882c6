// Article 002's games: the game history of a player, by date.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES: &str = "Games";
const IN_PROGRESS: &str = "IN_PROGRESS";

fn history(client: &Client, user: &str) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    client
        .query()
        .table_name(GAMES)
        .key_condition_expression("UserId = :u")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
}

/// A player's games in progress: the whole history is read to keep 10% of it.
pub async fn in_progress(client: &Client, user: &str) -> Result<Vec<Game>, Error> {
    let out = client
        .query()
        .table_name(GAMES)
        .key_condition_expression("UserId = :u")
        .filter_expression("GameStatus = :s")
        //~^ filter-instead-of-index
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":s", AttributeValue::S(IN_PROGRESS.to_string()))
        .send()
        .await?;
    Ok(to_games(out.items()))
}

/// The same through a helper that starts the builder.
pub async fn in_progress_via_helper(client: &Client, user: &str) -> Result<Vec<Game>, Error> {
    let out = history(client, user)
        .filter_expression("GameStatus = :s")
        //~^ filter-instead-of-index
        .expression_attribute_values(":s", AttributeValue::S(IN_PROGRESS.to_string()))
        .send()
        .await?;
    Ok(to_games(out.items()))
}

// ---- must not be flagged ----

/// The recommended design: `StatusDate = IN_PROGRESS#2020-05-10`, read by prefix.
pub async fn in_progress_by_key(client: &Client, user: &str) -> Result<Vec<Game>, Error> {
    let out = client
        .query()
        .table_name(GAMES)
        .index_name("ByStatusDate")
        .key_condition_expression("UserId = :u AND begins_with(StatusDate, :p)")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":p", AttributeValue::S(format!("{IN_PROGRESS}#")))
        .send()
        .await?;
    Ok(to_games(out.items()))
}

/// Finished games are 90% of a history: the filter drops little (0.25 RCU a call).
pub async fn finished(client: &Client, user: &str) -> Result<Vec<Game>, Error> {
    let out = client
        .query()
        .table_name(GAMES)
        .key_condition_expression("UserId = :u")
        .filter_expression("GameStatus = :s")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":s", AttributeValue::S("FINISHED".into()))
        .send()
        .await?;
    Ok(to_games(out.items()))
}
