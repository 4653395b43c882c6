// An event store's commit: the journal's events and the outbox's messages are built as
// transaction items, pushed into one list, handed back with the last sequence number,
// and sent by `commit_transactions`, which only forwards the list. Every outbox message
// is written as PENDING, so the status index holds them all under one key. The
// journal's aggregate index is keyed by the caller's ids: many values, nothing to say.
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use aws_sdk_dynamodb::Client;

const JOURNAL_TABLE: &str = "Journal";
const OUTBOX_TABLE: &str = "Outbox";
const OUTBOX_STATUS_PENDING: &str = "PENDING";

pub struct Event {
    pub aggregate_id: String,
    pub seq_nr: usize,
    pub event_type: String,
}

pub async fn commit_transactions(
    client: &Client,
    transactions: Vec<TransactWriteItem>,
) -> Result<(), Error> {
    if transactions.len() > 100 {
        return Err(Error::TooMany(transactions.len()));
    }
    client
        .transact_write_items()
        .set_transact_items(Some(transactions))
        .send()
        .await?;
    Ok(())
}

fn journal_puts(events: &[Event]) -> Result<(Vec<TransactWriteItem>, usize), Error> {
    let mut transactions = Vec::default();
    let mut seq_nr = 0;
    for event in events {
        seq_nr = event.seq_nr;
        let put = Put::builder()
            .table_name(JOURNAL_TABLE)
            .item("pkey", AttributeValue::S(event.aggregate_id.clone()))
            .item("skey", AttributeValue::S(format!("{:020}", event.seq_nr)))
            .item("aid", AttributeValue::S(event.aggregate_id.clone()))
            .item("event_type", AttributeValue::S(event.event_type.clone()))
            .build()?;
        transactions.push(TransactWriteItem::builder().put(put).build());
    }
    Ok((transactions, seq_nr))
}

fn outbox_puts(events: &[Event]) -> Result<Vec<TransactWriteItem>, Error> {
    let mut transactions = Vec::default();
    for event in events {
        let put_outbox = Put::builder()
            .table_name(OUTBOX_TABLE)
            .item("pkey", AttributeValue::S(event.aggregate_id.clone()))
            .item("skey", AttributeValue::S(format!("{:020}", event.seq_nr)))
            .item("status", AttributeValue::S(OUTBOX_STATUS_PENDING.to_string()))
            .build()?;
        let outbox_item = TransactWriteItem::builder().put(put_outbox).build();
        transactions.push(outbox_item);
    }
    Ok(transactions)
}

pub async fn insert_events(client: &Client, events: &[Event]) -> Result<(), Error> {
    let (mut transactions, _) = journal_puts(events)?;
    transactions.extend(outbox_puts(events)?);
    commit_transactions(client, transactions).await
}
