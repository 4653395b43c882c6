// An event store whose writes are transactions begun by one helper: each caller builds
// the items and hands them over (`self.transaction(items)`), then sends the builder the
// helper returns. The items a call passes are that call's transaction's: the event
// `append` puts lands in the aggregate's collection, one more item per version, so
// reading that collection as one page is warned of even though the put that grows it
// is also sent, on some paths only, by a transaction the file builds itself.
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsFluentBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use aws_sdk_dynamodb::Client;

const EVENTS_TABLE: &str = "Events";
const DEVICES_TABLE: &str = "Devices";

pub struct EventStore {
    client: Client,
}

impl EventStore {
    /// Every write of the store: one transaction of the items its caller built.
    fn transaction(&self, items: Vec<TransactWriteItem>) -> TransactWriteItemsFluentBuilder {
        self.client
            .transact_write_items()
            .set_transact_items(Some(items))
    }

    fn put_event(&self, event: &Event) -> Result<Put, Error> {
        Put::builder()
            .table_name(EVENTS_TABLE)
            .item("AggregateId", AttributeValue::S(event.aggregate_id.clone()))
            .item("Version", AttributeValue::N(event.version.to_string()))
            .item("EventType", AttributeValue::S(event.event_type.clone()))
            .condition_expression("attribute_not_exists(Version)")
            .build()
            .map_err(Error::from)
    }

    /// Appends an event: one more item in the aggregate's collection per version.
    pub async fn append(&self, event: &Event) -> Result<(), Error> {
        self.transaction(vec![TransactWriteItem::builder()
            .put(self.put_event(event)?)
            .build()])
            .send()
            .await?;
        Ok(())
    }

    /// Appends a batch of events, the list built in a loop.
    pub async fn append_all(&self, events: &[Event]) -> Result<(), Error> {
        let mut items = Vec::new();
        for event in events {
            items.push(TransactWriteItem::builder().put(self.put_event(event)?).build());
        }
        self.transaction(items).send().await?;
        Ok(())
    }

    /// Moves a device to another owner, and records the event when asked to.
    pub async fn transfer(&self, device: &Device, event: &Event, record: bool) -> Result<(), Error> {
        let mut tx = self.client.transact_write_items().transact_items(
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(DEVICES_TABLE)
                        .item("deviceId", AttributeValue::S(device.id.clone()))
                        .item("ownerId", AttributeValue::S(device.owner_id.clone()))
                        .build()?,
                )
                .build(),
        );
        if record {
            tx = tx.transact_items(TransactWriteItem::builder().put(self.put_event(event)?).build());
        }
        tx.send().await?;
        Ok(())
    }

    /// Replays an aggregate: every event it ever had, from one page.
    pub async fn load(&self, aggregate_id: &str) -> Result<Vec<Event>, Error> {
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

    /// A registration through the same helper: its item is a device's, keyed by a
    /// parameter, which says nothing of how many devices one owner has. The question
    /// is asked, and no other caller's event makes it a warning.
    pub async fn register(&self, device: &Device) -> Result<(), Error> {
        let put = Put::builder()
            .table_name(DEVICES_TABLE)
            .item("deviceId", AttributeValue::S(device.id.clone()))
            .item("ownerId", AttributeValue::S(device.owner_id.clone()))
            .build()?;
        self.transaction(vec![TransactWriteItem::builder().put(put).build()])
            .send()
            .await?;
        Ok(())
    }

    pub async fn devices_of(&self, owner_id: &str) -> Result<Vec<Device>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(DEVICES_TABLE)
            .index_name("ByOwner")
            .key_condition_expression("ownerId = :o")
            .expression_attribute_values(":o", AttributeValue::S(owner_id.to_string()))
            .send()
            .await?;
        out.items().iter().map(Device::from_item_ref).collect()
    }

    // ---- must not be flagged ----

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
        out.items().iter().map(Event::from_item_ref).next().transpose()
    }
}
