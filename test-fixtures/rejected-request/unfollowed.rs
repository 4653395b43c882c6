// What a verdict rests on must be what the code certainly sends: a request whose chain
// is seen whole without a table name is rejected; a part the scanner does not follow
// (a legacy parameter set through the SDK's setter, keys pushed onto a list) leaves
// the request unjudged, or is followed element by element.
use aws_sdk_dynamodb::types::{AttributeValue, ComparisonOperator, Condition, KeysAndAttributes};
use aws_sdk_dynamodb::{Client, Error};
use std::collections::HashMap;

const GAMES_TABLE: &str = "Games";

/// The whole chain, from the client's method to `send()`, and no `table_name`.
pub async fn forget_game(client: &Client, user: &str, date: &str) -> Result<(), Error> {
    client
        .delete_item()
        //~^ rejected-request
        .key("UserId", AttributeValue::S(user.to_string()))
        .key("GameDate", AttributeValue::S(date.to_string()))
        .send()
        .await?;
    Ok(())
}

/// Two keys in a `vec!`, each without the sort key: every `KeysAndAttributes` key
/// misses `GameDate`.
pub async fn two_players(client: &Client, a: &str, b: &str) -> Result<(), Error> {
    let keys = vec![
        HashMap::from([("UserId".to_string(), AttributeValue::S(a.to_string()))]),
        HashMap::from([("UserId".to_string(), AttributeValue::S(b.to_string()))]),
    ];
    client
        .batch_get_item()
        .request_items(
            GAMES_TABLE,
            KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
            //~^ rejected-request
        )
        .send()
        .await?;
    Ok(())
}

// ---- must not be flagged ----

/// The legacy `KeyConditions` map through the SDK's setter, built by `insert`: the
/// key condition is there, `UserId = :value`.
pub async fn games_of_legacy(client: &Client, user: &str) -> Result<(), Error> {
    let mut conditions = HashMap::new();
    conditions.insert(
        "UserId".to_owned(),
        Condition::builder()
            .attribute_value_list(AttributeValue::S(user.to_string()))
            .comparison_operator(ComparisonOperator::Eq)
            .build()?,
    );
    client
        .query()
        .table_name(GAMES_TABLE)
        .set_key_conditions(Some(conditions))
        .send()
        .await?;
    Ok(())
}

/// Each key built by `insert`s and pushed onto a list: both keys are whole.
pub async fn two_games(client: &Client, user: &str, first: &str, second: &str) -> Result<(), Error> {
    let mut keys = Vec::new();

    let mut first_key = HashMap::new();
    first_key.insert("UserId".to_string(), AttributeValue::S(user.to_string()));
    first_key.insert("GameDate".to_string(), AttributeValue::S(first.to_string()));
    keys.push(first_key);

    let mut second_key = HashMap::new();
    second_key.insert("UserId".to_string(), AttributeValue::S(user.to_string()));
    second_key.insert("GameDate".to_string(), AttributeValue::S(second.to_string()));
    keys.push(second_key);

    let mut request_items = HashMap::new();
    request_items.insert(
        GAMES_TABLE.to_string(),
        KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
    );
    client
        .batch_get_item()
        .set_request_items(Some(request_items))
        .send()
        .await?;
    Ok(())
}

/// A list filled where the scanner does not look: its keys are unknown.
pub async fn games_listed(client: &Client, wanted: Vec<(String, String)>) -> Result<(), Error> {
    let mut keys = Vec::new();
    keys.extend(wanted.into_iter().map(|(u, d)| {
        HashMap::from([
            ("UserId".to_string(), AttributeValue::S(u)),
            ("GameDate".to_string(), AttributeValue::S(d)),
        ])
    }));
    client
        .batch_get_item()
        .request_items(
            GAMES_TABLE,
            KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
        )
        .send()
        .await?;
    Ok(())
}
