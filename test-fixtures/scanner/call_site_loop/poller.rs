// A scan that reads every page in its own loop, called from a polling `loop`: each
// iteration of the poll reads the whole table again. A scan whose start key is what
// its caller passes, called from the loop that feeds `last_evaluated_key` back: that
// loop reads the pages of one scan.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

pub async fn all_registrations(db: &Client) -> anyhow::Result<usize> {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = db
            .scan()
            .table_name("registrations")
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        count += page.items().len();
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}

pub async fn run_poller(db: &Client) {
    loop {
        match all_registrations(db).await {
            Ok(n) => println!("{n} registrations"),
            Err(e) => println!("{e}"),
        }
        tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    }
}

pub async fn scan_page(
    db: &Client,
    start: Option<HashMap<String, AttributeValue>>,
) -> anyhow::Result<aws_sdk_dynamodb::operation::scan::ScanOutput> {
    Ok(db
        .scan()
        .table_name("sessions")
        .set_exclusive_start_key(start)
        .send()
        .await?)
}

pub async fn count_sessions(db: &Client) -> anyhow::Result<usize> {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = scan_page(db, start).await?;
        count += page.items().len();
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}
