// Queries over key ranges the model cannot size (no `item-count`/`avg-item-size`):
// one page silently drops what lies past 1 MB, unless the read is bounded another way.
// Where the code shows the collection grows (the store appends an event per version,
// a function lists the collection), each read is warned of; elsewhere it is a
// question, asked once per table and index.
use aws_sdk_dynamodb::types::{AttributeValue, Select};
use aws_sdk_dynamodb::Client;

const EVENTS_TABLE: &str = "Events";
const ACCOUNTS_TABLE: &str = "Accounts";

pub struct EventStore {
    client: Client,
}

impl EventStore {
    /// Appends an event: one more item in the aggregate's collection per version.
    pub async fn append(&self, event: &Event) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(EVENTS_TABLE)
            .item("AggregateId", AttributeValue::S(event.aggregate_id.clone()))
            .item("Version", AttributeValue::N(event.version.to_string()))
            .item("EventType", AttributeValue::S(event.event_type.clone()))
            .condition_expression("attribute_not_exists(Version)")
            .send()
            .await?;
        Ok(())
    }

    /// Replays an aggregate: every event it ever had, from one page.
    pub async fn load(&self, aggregate_id: &str) -> Result<Vec<Event>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(EVENTS_TABLE)
            .key_condition_expression("#id = :id")
            .expression_attribute_names("#id", "AggregateId")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .send()
            .await?;
        let mut events = Vec::new();
        for item in out.items.unwrap_or_default() {
            events.push(Event::from_item(item)?);
        }
        Ok(events)
    }

    /// The events after a version: an open range of the same collection.
    pub async fn since(&self, aggregate_id: &str, version: u64) -> Result<Vec<Event>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(EVENTS_TABLE)
            .key_condition_expression("AggregateId = :id AND Version > :v")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .expression_attribute_values(":v", AttributeValue::N(version.to_string()))
            .send()
            .await?;
        out.items().iter().map(Event::from_item_ref).collect()
    }

    /// The latest event of a type: only the first item is read, but after a filter,
    /// which the first page may hold no match of. Nothing shows how many events share
    /// a type: a question.
    pub async fn latest_of(&self, event_type: &str, after: &str) -> Result<Option<Event>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(EVENTS_TABLE)
            .index_name("ByType")
            .key_condition_expression("EventType = :t")
            .filter_expression("Version > :after")
            .expression_attribute_values(":t", AttributeValue::S(event_type.to_string()))
            .expression_attribute_values(":after", AttributeValue::N(after.to_string()))
            .send()
            .await?;
        Ok(out.items().first().map(Event::from_item_ref).transpose()?)
    }

    // ---- must not be flagged ----

    /// One event by its whole key.
    pub async fn event(&self, aggregate_id: &str, version: u64) -> Result<Option<Event>, Error> {
        let out = self
            .client
            .query()
            .table_name(EVENTS_TABLE)
            .key_condition_expression("AggregateId = :id AND Version = :v")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .expression_attribute_values(":v", AttributeValue::N(version.to_string()))
            .send()
            .await?;
        out.items().iter().map(Event::from_item_ref).next().transpose()
    }

    /// Any event of a type: the code reads the first item of the page.
    pub async fn any_of(&self, event_type: &str) -> Result<Option<Event>, Error> {
        let res = self
            .client
            .query()
            .table_name(EVENTS_TABLE)
            .index_name("ByType")
            .key_condition_expression("EventType = :t")
            .expression_attribute_values(":t", AttributeValue::S(event_type.to_string()))
            .send()
            .await
            .map_err(Error::from)?;
        let item = res.items.and_then(|items| items.into_iter().next());
        item.map(Event::from_item).transpose()
    }

    /// The newest event: `limit(1)` bounds the page.
    pub async fn newest(&self, aggregate_id: &str) -> Result<Option<Event>, Error> {
        let out = self
            .client
            .query()
            .table_name(EVENTS_TABLE)
            .key_condition_expression("AggregateId = :id")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .scan_index_forward(false)
            .limit(1)
            .send()
            .await?;
        out.items().first().map(Event::from_item_ref).transpose()
    }
}

/// An account by email on a GSI keyed by an attribute the model declares `unique`.
pub async fn account_by_email(client: &Client, email: &str) -> Result<Vec<Account>, Error> {
    let out = client
        .query()
        .table_name(ACCOUNTS_TABLE)
        .index_name("email-index")
        .key_condition_expression("email = :e")
        .expression_attribute_values(":e", AttributeValue::S(email.to_string()))
        .send()
        .await?;
    out.items().iter().map(Account::from_item).collect()
}

/// An owner's accounts and how many there are: one question about `owner-index`, at
/// the first of the two reads.
pub async fn accounts_of(client: &Client, owner: &str) -> Result<Vec<Account>, Error> {
    let out = client
        .query()
        //~^ unpaginated-query
        .table_name(ACCOUNTS_TABLE)
        .index_name("owner-index")
        .key_condition_expression("#o = :o")
        .expression_attribute_names("#o", "owner")
        .expression_attribute_values(":o", AttributeValue::S(owner.to_string()))
        .send()
        .await?;
    out.items().iter().map(Account::from_item).collect()
}

pub async fn count_accounts_of(client: &Client, owner: &str) -> Result<usize, Error> {
    let out = client
        .query()
        .table_name(ACCOUNTS_TABLE)
        .index_name("owner-index")
        .key_condition_expression("#o = :o")
        .expression_attribute_names("#o", "owner")
        .expression_attribute_values(":o", AttributeValue::S(owner.to_string()))
        .select(Select::Count)
        .send()
        .await?;
    Ok(out.count() as usize)
}

/// An owner's first account, as a handler written with `match` and `if let` reads it.
pub async fn first_account_of(client: &Client, owner: String) -> Json<Value> {
    match client
        .query()
        .table_name(ACCOUNTS_TABLE)
        .index_name("owner-index")
        .key_condition_expression("#o = :o")
        .expression_attribute_names("#o", "owner")
        .expression_attribute_values(":o", AttributeValue::S(owner))
        .send()
        .await
    {
        Ok(result) => {
            if let Some(items) = result.items {
                if !items.is_empty() {
                    return Json(to_json(items[0].clone()));
                }
            }
            Json(not_found())
        }
        Err(e) => Json(error(e)),
    }
}
