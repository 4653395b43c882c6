// dynalint.toml:
// Games (article 002) the naive way: finished games are found by filtering a user's
// plays on `Status`, and scores outside the top 3 are written with an empty
// `GameRank`, which DynamoDB refuses for an index key.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

// The article's first anti-pattern: a user has only about 20 plays (10,000,000 /
// 500,000), a read that costs the minimum anyway, but the model's `StatusDate` already
// holds `{Status}_{Date}`, so `begins_with(StatusDate, "DONE_")` reads only the finished
// games for free.
pub async fn finished_games(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = client
        .query()
        .table_name("UserPlayGames")
        .key_condition_expression("UserId = :u")
        .filter_expression("#s = :done")
        //~^ filter-instead-of-index
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":u", AttributeValue::S(user.into()))
        .expression_attribute_values(":done", AttributeValue::S("DONE".into()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

// Ranks are assigned later by a batch job; until then the score is "unranked".
pub async fn record_score(client: &Client, user: &str, game: &str, score: u32) -> Result<(), Error> {
    client
        .put_item()
        .table_name("UserGameScores")
        .item("User", AttributeValue::S(user.into()))
        .item("Game", AttributeValue::S(game.into()))
        .item("Score", AttributeValue::N(score.to_string()))
        .item("GameRank", AttributeValue::S("".into()))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}
