// Expressions a repository builds with `push_str` in `if`s and `match`es: each path is a
// request the code can send, judged on its own.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

/// A player's games, from a date on or between two dates. `#d` is defined on every
/// path, but with neither date the key condition never uses it: DynamoDB refuses the
/// unused name whenever `since` is `None`.
pub async fn games(
    client: &Client,
    user: &str,
    since: Option<&str>,
    until: Option<&str>,
) -> Result<usize, Error> {
    let mut key_condition = "UserId = :u".to_string();
    let mut values = vec![(":u", AttributeValue::S(user.to_string()))];
    if let (Some(from), Some(to)) = (since, until) {
        key_condition.push_str(" AND #d BETWEEN :from AND :to");
        values.push((":from", AttributeValue::S(from.to_string())));
        values.push((":to", AttributeValue::S(to.to_string())));
    } else if let Some(from) = since {
        key_condition.push_str(" AND #d >= :from");
        values.push((":from", AttributeValue::S(from.to_string())));
    }
    let mut query = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression(key_condition)
        //~^ rejected-request
        .expression_attribute_names("#d", "GameDate");
    for (name, value) in values {
        query = query.expression_attribute_values(name, value);
    }
    let out = query.send().await?;
    Ok(out.count() as usize)
}

// ---- must not be flagged ----

/// The name and the value go in the same branch as the text that uses them.
pub async fn rank(client: &Client, user: &str, date: &str, rank: Option<i64>) -> Result<(), Error> {
    let mut update = "SET GameId = :g".to_string();
    let mut request = client
        .update_item()
        .table_name(GAMES_TABLE)
        .key("UserId", AttributeValue::S(user.to_string()))
        .key("GameDate", AttributeValue::S(date.to_string()))
        .expression_attribute_values(":g", AttributeValue::S("g-1".into()));
    if let Some(rank) = rank {
        update.push_str(", #r = :r");
        request = request
            .expression_attribute_names("#r", "GameRank")
            .expression_attribute_values(":r", AttributeValue::N(rank.to_string()));
    }
    request.update_expression(update).send().await?;
    Ok(())
}

/// Every arm uses the name; the arm that returns sends nothing.
pub async fn by_window(client: &Client, user: &str, window: Window) -> Result<usize, Error> {
    let mut key_condition = String::from("UserId = :u");
    match window {
        Window::Since(_) => key_condition.push_str(" AND #d >= :from"),
        Window::Before(_) => key_condition.push_str(" AND #d < :from"),
        Window::Never => return Ok(0),
    }
    let from = match window {
        Window::Since(d) | Window::Before(d) => d,
        Window::Never => String::new(),
    };
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression(key_condition)
        .expression_attribute_names("#d", "GameDate")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":from", AttributeValue::S(from))
        .send()
        .await?;
    Ok(out.count() as usize)
}

pub enum Window {
    Since(String),
    Before(String),
    Never,
}

/// Names and values in maps filled in the same branches as the text.
pub async fn retitle(
    client: &Client,
    user: &str,
    date: &str,
    rank: Option<i64>,
) -> Result<(), Error> {
    let mut update = String::from("SET GameId = :g");
    let mut names = std::collections::HashMap::new();
    let mut values = std::collections::HashMap::new();
    values.insert(":g".to_string(), AttributeValue::S("g-1".into()));
    if let Some(rank) = rank {
        update.push_str(", #r = :r");
        names.insert("#r".to_string(), "GameRank".to_string());
        values.insert(":r".to_string(), AttributeValue::N(rank.to_string()));
    }
    client
        .update_item()
        .table_name(GAMES_TABLE)
        .key("UserId", AttributeValue::S(user.to_string()))
        .key("GameDate", AttributeValue::S(date.to_string()))
        .update_expression(update)
        .set_expression_attribute_names(Some(names))
        .set_expression_attribute_values(Some(values))
        .send()
        .await?;
    Ok(())
}
