// Filters on an attribute a declared sort key template already holds: reported even on
// small item collections, since the key costs nothing to use.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const DONE: &str = "DONE";

const PLAYS_TABLE: &str = "Plays";

fn plays_of(client: &Client, user: &str) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    client
        .query()
        .table_name(PLAYS_TABLE)
        .key_condition_expression("UserId = :u")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
}

/// `StatusDate = "{Status}_{Date}"` on the table: `begins_with(StatusDate, "DONE_")`.
pub async fn finished_games(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = plays_of(client, user)
        .filter_expression("#s = :done")
        //~^ filter-instead-of-index
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":done", AttributeValue::S(DONE.to_string()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

/// `DateMode = "{Date}#{Mode}"`: the mode follows the date, which the filter also fixes.
pub async fn plays_of_day_in_mode(client: &Client, user: &str, day: &str, mode: Mode) -> Result<Vec<Play>, Error> {
    let filter = "#d = :day AND #m = :mode";
    let out = plays_of(client, user)
        .filter_expression(filter)
        //~^ filter-instead-of-index
        .expression_attribute_names("#d", "Date")
        .expression_attribute_names("#m", "Mode")
        .expression_attribute_values(":day", AttributeValue::S(day.to_string()))
        .expression_attribute_values(":mode", AttributeValue::S(mode.to_string()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

pub struct OrderRepo {
    client: Client,
}

impl OrderRepo {
    /// `ByCustomerStatusDate` sorts by `{Status}:{OrderDate}`: the status and the date
    /// range become one `BETWEEN` on it.
    pub async fn pending_older_than(&self, customer: &str, before: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name("CustomerOrders")
            .index_name("ByCustomerDate")
            .key_condition_expression("CustomerId = :c AND OrderDate < :before")
            .filter_expression("#s = :s")
            //~^ filter-instead-of-index
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":c", AttributeValue::S(customer.into()))
            .expression_attribute_values(":before", AttributeValue::S(before.into()))
            .expression_attribute_values(":s", AttributeValue::S("Ordered".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }

    /// A lower bound on the date: `BETWEEN "InTransit:<after>" AND "InTransit;"`.
    pub async fn in_transit_since(&self, customer: &str, after: &str) -> Result<Vec<Order>, Error> {
        let out = self
            .client
            .query()
            .table_name("CustomerOrders")
            .index_name("ByCustomerDate")
            .key_condition_expression("CustomerId = :c AND OrderDate >= :after")
            .filter_expression("#s = :s")
            //~^ filter-instead-of-index
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":c", AttributeValue::S(customer.into()))
            .expression_attribute_values(":after", AttributeValue::S(after.into()))
            .expression_attribute_values(":s", AttributeValue::S("InTransit".into()))
            .send()
            .await?;
        Ok(to_orders(out.items()))
    }
}

/// `DateResult = "{Date}#{Result}"` holds the result after a date the call does not
/// fix: the note says a template starting with `{Result}` would serve it.
pub async fn won_matches(client: &Client, user: &str) -> Result<Vec<Match>, Error> {
    let out = client
        .query()
        .table_name("Matches")
        .key_condition_expression("UserId = :u")
        .filter_expression("#r = :won")
        //~^ filter-instead-of-index
        .expression_attribute_names("#r", "Result")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":won", AttributeValue::S("WON".into()))
        .send()
        .await?;
    Ok(to_matches(out.items()))
}

// ---- must not be flagged ----

/// `ModeDate` holds `{Mode}` on a GSI keyed by `Region`, another item collection, and
/// `DateMode` holds it after a date the call does not fix: no key serves it, and 20
/// plays cost the minimum anyway.
pub async fn solo_plays(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = plays_of(client, user)
        .filter_expression("#m = :solo")
        .expression_attribute_names("#m", "Mode")
        .expression_attribute_values(":solo", AttributeValue::S("solo".into()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

/// `Platform` is in no key template: a small collection, quiet as ever.
pub async fn mobile_plays(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = plays_of(client, user)
        .filter_expression("Platform = :p")
        .expression_attribute_values(":p", AttributeValue::S("mobile".into()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

/// The sort key already carries a condition: the status filter cannot join it.
pub async fn finished_this_year(client: &Client, user: &str, year: &str) -> Result<Vec<Play>, Error> {
    let out = client
        .query()
        .table_name(PLAYS_TABLE)
        .key_condition_expression("UserId = :u AND StatusDate > :d")
        .filter_expression("#s = :done")
        .expression_attribute_names("#s", "Status")
        .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
        .expression_attribute_values(":d", AttributeValue::S(year.to_string()))
        .expression_attribute_values(":done", AttributeValue::S(DONE.to_string()))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}

/// The recommended read: the key condition selects by the template's prefix.
pub async fn finished_games_by_key(client: &Client, user: &str) -> Result<Vec<Play>, Error> {
    let out = plays_of(client, user)
        .key_condition_expression("UserId = :u AND begins_with(StatusDate, :p)")
        .expression_attribute_values(":p", AttributeValue::S(format!("{DONE}_")))
        .send()
        .await?;
    Ok(to_plays(out.items()))
}
