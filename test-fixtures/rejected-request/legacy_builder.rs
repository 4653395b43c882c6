// aws-sdk-dynamodb code that still speaks the legacy API: `key_conditions` given
// `Condition` builders, validated like the key condition expression they stand for.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, ComparisonOperator, Condition};
use aws_sdk_dynamodb::Client;

/// A game id alone: `GameId` keys the `ByRank` index, not the table.
pub async fn players_of(client: &Client, game: &str) -> Result<(), Error> {
    client
        .query()
        .table_name("Games")
        .key_conditions(
            //~^ rejected-request
            "GameId",
            Condition::builder()
                .comparison_operator(ComparisonOperator::Eq)
                .attribute_value_list(AttributeValue::S(game.to_string()))
                .build()?,
        )
        .send()
        .await?;
    Ok(())
}

// ---- must not be flagged ----

/// A player's games of a month, the map built first as real code does.
pub async fn games_in(client: &Client, user: &str, month: &str) -> Result<(), Error> {
    let mut conditions = HashMap::new();
    conditions.insert(
        "UserId".to_owned(),
        Condition::builder()
            .attribute_value_list(AttributeValue::S(user.to_owned()))
            .comparison_operator(ComparisonOperator::Eq)
            .build()
            .map_err(|e| anyhow!("bad condition: {e:?}"))?,
    );
    conditions.insert(
        "GameDate".to_owned(),
        Condition::builder()
            .comparison_operator(ComparisonOperator::BeginsWith)
            .attribute_value_list(AttributeValue::S(month.to_owned()))
            .build()?,
    );
    client
        .query()
        .table_name("Games")
        .set_key_conditions(Some(conditions))
        .send()
        .await?;
    Ok(())
}

/// Conditions from elsewhere: what they say is unknown, not missing.
pub async fn games_where(client: &Client, conditions: HashMap<String, Condition>) -> Result<(), Error> {
    client
        .query()
        .table_name("Games")
        .set_key_conditions(Some(conditions))
        .send()
        .await?;
    Ok(())
}
