// A journal whose transactions are begun by a free function that adds each item of the
// list its caller builds (`for item in items { tx = tx.transact_items(item) }`), the
// caller mapping its events to items. Each event `record` writes is one more item in
// the aggregate's collection, so its one-page read is warned of; the same put also
// travels, on some paths only, in a transaction the file builds itself.
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsFluentBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use aws_sdk_dynamodb::Client;

const EVENTS_TABLE: &str = "Events";

pub fn begin(
    client: &Client,
    items: impl IntoIterator<Item = TransactWriteItem>,
) -> TransactWriteItemsFluentBuilder {
    let mut tx = client.transact_write_items();
    for item in items {
        tx = tx.transact_items(item);
    }
    tx
}

pub struct Journal {
    client: Client,
}

impl Journal {
    fn put_event(&self, event: &Event) -> Result<Put, Error> {
        Put::builder()
            .table_name(EVENTS_TABLE)
            .item("AggregateId", AttributeValue::S(event.aggregate_id.clone()))
            .item("Version", AttributeValue::N(event.version.to_string()))
            .condition_expression("attribute_not_exists(Version)")
            .build()
            .map_err(Error::from)
    }

    /// Records a command's events in one transaction.
    pub async fn record(&self, events: &[Event]) -> Result<(), Error> {
        let items = events
            .iter()
            .map(|e| Ok(TransactWriteItem::builder().put(self.put_event(e)?).build()))
            .collect::<Result<Vec<_>, Error>>()?;
        begin(&self.client, items).send().await?;
        Ok(())
    }

    /// Closes an aggregate, recording its last event when there is one.
    pub async fn close(&self, aggregate_id: &str, last: Option<&Event>) -> Result<(), Error> {
        let mut tx = self.client.transact_write_items().transact_items(
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(EVENTS_TABLE)
                        .item("AggregateId", AttributeValue::S(aggregate_id.to_string()))
                        .item("Version", AttributeValue::N("0".into()))
                        .build()?,
                )
                .build(),
        );
        if let Some(event) = last {
            tx = tx.transact_items(TransactWriteItem::builder().put(self.put_event(event)?).build());
        }
        tx.send().await?;
        Ok(())
    }

    /// Replays an aggregate from one page.
    pub async fn replay(&self, aggregate_id: &str) -> Result<Vec<Event>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(EVENTS_TABLE)
            .key_condition_expression("AggregateId = :id")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .send()
            .await?;
        out.items().iter().map(Event::from_item_ref).collect()
    }

    // ---- must not be flagged ----

    /// Whether an aggregate has any event: one item read.
    pub async fn exists(&self, aggregate_id: &str) -> Result<bool, Error> {
        let out = self
            .client
            .query()
            .table_name(EVENTS_TABLE)
            .key_condition_expression("AggregateId = :id")
            .expression_attribute_values(":id", AttributeValue::S(aggregate_id.to_string()))
            .limit(1)
            .send()
            .await?;
        Ok(!out.items().is_empty())
    }
}
