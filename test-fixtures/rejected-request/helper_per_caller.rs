// A helper whose expression attribute names are its parameters, called with two
// attributes: each caller's request is the one DynamoDB receives, judged with what that
// caller passes.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::{Client, Error};

const GAMES_TABLE: &str = "Games";

/// A player's games whose `field` attribute contains `text`, filtered after the read.
async fn games_matching(
    client: &Client,
    user: &str,
    field: &str,
    text: &str,
) -> Result<usize, Error> {
    let out = client
        .query()
        //~^ rejected-request
        .table_name(GAMES_TABLE)
        .key_condition_expression("#user = :user")
        .filter_expression("contains(#field, :text)")
        .expression_attribute_names("#user", "UserId")
        .expression_attribute_names("#field", field)
        .expression_attribute_values(":user", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":text", AttributeValue::S(text.to_string()))
        .send()
        .await?;
    Ok(out.items().len())
}

/// Games of a month: `GameDate` is the table's sort key, which a filter may not name.
pub async fn games_of_month(client: &Client, user: &str, month: &str) -> Result<usize, Error> {
    games_matching(client, user, "GameDate", month).await
}

// ---- must not be flagged ----

/// Games by title: `Title` is no key of the table.
pub async fn games_titled(
    client: &Client,
    user: &str,
    title: &str,
) -> Result<usize, Error> {
    games_matching(client, user, "Title", title).await
}

/// One game by a key attribute the caller names: both callers pass the table's keys.
async fn game_by(client: &Client, pk: &str, sk: &str, user: &str, date: &str) -> Result<(), Error> {
    client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression("#pk = :pk AND #sk = :sk")
        .expression_attribute_names("#pk", pk)
        .expression_attribute_names("#sk", sk)
        .expression_attribute_values(":pk", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":sk", AttributeValue::S(date.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn first_game(client: &Client, user: &str, date: &str) -> Result<(), Error> {
    game_by(client, "UserId", "GameDate", user, date).await
}

pub async fn last_game(client: &Client, user: &str, date: &str) -> Result<(), Error> {
    game_by(client, "UserId", "GameDate", user, date).await
}
