// A range query whose comparison the caller picks: the key condition is a `format!` of
// an operator, which dynalint cannot read. Its other expressions still can be: a
// placeholder they use that no map defines is rejected whatever the operator is.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

pub struct Range<'a> {
    pub from: Option<&'a str>,
    pub ascending: bool,
}

fn operator(range: &Range<'_>) -> &'static str {
    if range.ascending {
        ">"
    } else {
        "<"
    }
}

/// `#rank` is used by the projection and never defined.
pub async fn games(client: &Client, user: &str, range: &Range<'_>) -> Result<usize, Error> {
    let date = range.from.unwrap_or("0000");
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression(format!("#u = :u AND #d {} :d", operator(range)))
        .projection_expression("GameId, #rank")
        //~^ rejected-request
        .expression_attribute_names("#u", "UserId")
        .expression_attribute_names("#d", "GameDate")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":d", AttributeValue::S(date.to_string()))
        .scan_index_forward(range.ascending)
        .send()
        .await?;
    Ok(out.count() as usize)
}

// ---- must not be flagged ----

/// `#g` is defined; whether the unread key condition uses `#d` is not known, so an
/// unused name is no finding.
pub async fn game_ids(client: &Client, user: &str, range: &Range<'_>) -> Result<usize, Error> {
    let date = range.from.unwrap_or("0000");
    let out = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression(format!("UserId = :u AND GameDate {} :d", operator(range)))
        .projection_expression("#g")
        .expression_attribute_names("#g", "GameId")
        .expression_attribute_names("#d", "GameDate")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":d", AttributeValue::S(date.to_string()))
        .send()
        .await?;
    Ok(out.count() as usize)
}

/// Names from a map the code fills in a loop: the projection's `#rank` may be among
/// them.
pub async fn with_names(
    client: &Client,
    user: &str,
    range: &Range<'_>,
    names: Vec<(String, String)>,
) -> Result<usize, Error> {
    let mut query = client
        .query()
        .table_name(GAMES_TABLE)
        .key_condition_expression(format!("UserId = :u AND GameDate {} :d", operator(range)))
        .projection_expression("GameId, #rank")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":d", AttributeValue::S("0000".to_string()));
    for (k, v) in names {
        query = query.expression_attribute_names(k, v);
    }
    Ok(query.send().await?.count() as usize)
}
