// Games as article 002 designs it: the sort key `Status_Date` answers "finished games"
// with `begins_with`, and only the top 3 scores of a game carry `GameRank`, so the
// `UserGameRank` index holds just the leaderboard.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn finished_games(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = client
        .query()
        .table_name("UserPlayGames")
        .key_condition_expression("UserId = :u AND begins_with(StatusDate, :done)")
        .expression_attribute_values(":u", AttributeValue::S(user.into()))
        .expression_attribute_values(":done", AttributeValue::S("DONE_".into()))
        .scan_index_forward(false)
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

pub async fn record_score(client: &Client, user: &str, game: &str, score: u32, rank: Option<u8>) -> Result<(), Error> {
    let mut put = client
        .put_item()
        .table_name("UserGameScores")
        .item("User", AttributeValue::S(user.into()))
        .item("Game", AttributeValue::S(game.into()))
        .item("Score", AttributeValue::N(score.to_string()));
    if let Some(r) = rank {
        put = put.item("GameRank", AttributeValue::S(format!("{game}_No{r}")));
    }
    put.send().await?;
    Ok(())
}

pub async fn leaderboard(client: &Client, game: &str) -> Result<Vec<Score>, Error> {
    let out = client
        .query()
        .table_name("UserGameScores")
        .index_name("UserGameRank")
        .key_condition_expression("GameRank = :r")
        .expression_attribute_values(":r", AttributeValue::S(format!("{game}_No1")))
        .send()
        .await?;
    Ok(to_scores(out.items()))
}
