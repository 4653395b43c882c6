// A names map filled by `insert`s, some in an `if`, beside an expression the scanner
// cannot read (built on two paths): a placeholder that no path's map defines, in an
// expression every path sets, is undefined whatever path runs and whatever the
// unread expression holds. One that some path defines, or an expression set on some
// paths only, is not judged.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::{Client, Error};
use std::collections::HashMap;

pub async fn latest_game(
    client: &Client,
    user: &str,
    date: Option<&str>,
) -> Result<(), Error> {
    let mut names = HashMap::new();
    let mut values = HashMap::new();
    let mut key_condition = "#user = :user";
    names.insert("#user".to_string(), "UserId".to_string());
    values.insert(":user".to_string(), AttributeValue::S(user.to_string()));
    if let Some(date) = date {
        names.insert("#date".to_string(), "GameDate".to_string());
        values.insert(":date".to_string(), AttributeValue::S(date.to_string()));
        key_condition = "#user = :user AND #date = :date";
    }
    client
        .query()
        .table_name("Games")
        .set_expression_attribute_names(Some(names))
        .set_expression_attribute_values(Some(values))
        .key_condition_expression(key_condition)
        .projection_expression("#rank")
        //~^ rejected-request
        .send()
        .await?;
    Ok(())
}

// ---- must not be flagged ----

/// `#date` is defined on the path that sets the date.
pub async fn latest_game_dated(
    client: &Client,
    user: &str,
    date: Option<&str>,
) -> Result<(), Error> {
    let mut names = HashMap::new();
    let mut values = HashMap::new();
    let mut key_condition = "#user = :user";
    names.insert("#user".to_string(), "UserId".to_string());
    values.insert(":user".to_string(), AttributeValue::S(user.to_string()));
    if let Some(date) = date {
        names.insert("#date".to_string(), "GameDate".to_string());
        values.insert(":date".to_string(), AttributeValue::S(date.to_string()));
        key_condition = "#user = :user AND #date = :date";
    }
    client
        .query()
        .table_name("Games")
        .set_expression_attribute_names(Some(names))
        .set_expression_attribute_values(Some(values))
        .key_condition_expression(key_condition)
        .projection_expression("#user, #date")
        .send()
        .await?;
    Ok(())
}

/// A map the scanner does not read whole (filled from a list): `#rank` may be in it.
pub async fn latest_game_named(
    client: &Client,
    user: &str,
    date: Option<&str>,
    extra: &[(String, String)],
) -> Result<(), Error> {
    let mut names = HashMap::new();
    let mut key_condition = "#user = :user";
    names.insert("#user".to_string(), "UserId".to_string());
    for (k, v) in extra {
        names.insert(k.clone(), v.clone());
    }
    if date.is_some() {
        key_condition = "#user = :user AND begins_with(GameDate, :user)";
    }
    client
        .query()
        .table_name("Games")
        .set_expression_attribute_names(Some(names))
        .expression_attribute_values(":user", AttributeValue::S(user.to_string()))
        .key_condition_expression(key_condition)
        .projection_expression("#rank")
        .send()
        .await?;
    Ok(())
}

/// The projection is set on one path only, where its `#name` may be the caller's.
pub async fn latest_game_projected(
    client: &Client,
    user: &str,
    date: Option<&str>,
    brief: bool,
) -> Result<(), Error> {
    let mut names = HashMap::new();
    let mut key_condition = "#user = :user";
    names.insert("#user".to_string(), "UserId".to_string());
    if let Some(date) = date {
        names.insert("#date".to_string(), "GameDate".to_string());
        key_condition = "#user = :user AND #date = :date";
        let _ = date;
    }
    let mut request = client
        .query()
        .table_name("Games")
        .set_expression_attribute_names(Some(names))
        .expression_attribute_values(":user", AttributeValue::S(user.to_string()))
        .key_condition_expression(key_condition);
    if brief {
        request = request.projection_expression("#rank");
    }
    request.send().await?;
    Ok(())
}
