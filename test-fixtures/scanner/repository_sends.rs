// A repository built where it is used (`StatsRepo::new(client).query(..)`) whose method
// builds and sends the request with what the call passes: a table its caller was
// given by its own callers, and a key condition the caller grew with `push_str` on
// some paths. The request is the one each call makes.
use std::collections::HashMap;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::query::{QueryError, QueryOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct StatsRepo<'a> {
    client: &'a Client,
}

impl<'a> StatsRepo<'a> {
    pub fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn query_period(
        &self,
        table: &str,
        period: AttributeValue,
        start: AttributeValue,
    ) -> Result<QueryOutput, SdkError<QueryError>> {
        self.client
            .query()
            .table_name(table)
            .index_name("period-time-index")
            .key_condition_expression("#period = :period AND #time >= :start")
            .expression_attribute_names("#period", "period")
            .expression_attribute_names("#time", "time")
            .expression_attribute_values(":period", period)
            .expression_attribute_values(":start", start)
            .send()
            .await
    }

    async fn query_keyed(
        &self,
        table: &str,
        key_condition: String,
        values: HashMap<String, AttributeValue>,
    ) -> Result<QueryOutput, SdkError<QueryError>> {
        self.client
            .query()
            .table_name(table)
            .key_condition_expression(key_condition)
            .set_expression_attribute_values(Some(values))
            .send()
            .await
    }
}

/// The stats of one period since `start`, from the table the caller names.
pub async fn stats_since(
    client: &Client,
    table_name: &str,
    period: &str,
    start: i64,
) -> Result<usize, SdkError<QueryError>> {
    let out = StatsRepo::new(client)
        .query_period(
            table_name,
            AttributeValue::S(period.to_string()),
            AttributeValue::N(start.to_string()),
        )
        .await?;
    Ok(out.items().len())
}

pub async fn live_stats(client: &Client, start: i64) -> usize {
    stats_since(client, "LiveStats", "minute", start).await.unwrap_or(0)
}

pub async fn archived_stats(client: &Client, start: i64) -> usize {
    stats_since(client, "ArchivedStats", "day", start).await.unwrap_or(0)
}

pub enum SortKey {
    Prefix(String),
    After(String),
}

/// One partition's items, all of them or those whose sort key matches.
pub async fn items(client: &Client, pk: &str, sk: Option<SortKey>) -> usize {
    let mut key_condition = "pk = :pk".to_owned();
    let mut values = HashMap::new();
    values.insert(":pk".to_owned(), AttributeValue::S(pk.to_owned()));
    match sk {
        Some(SortKey::Prefix(p)) => {
            key_condition.push_str(" AND begins_with(sk, :sk)");
            values.insert(":sk".to_owned(), AttributeValue::S(p));
        }
        Some(SortKey::After(a)) => {
            key_condition.push_str(" AND sk > :sk");
            values.insert(":sk".to_owned(), AttributeValue::S(a));
        }
        None => (),
    }
    StatsRepo::new(client)
        .query_keyed("Items", key_condition, values)
        .await
        .map(|out| out.items().len())
        .unwrap_or(0)
}
