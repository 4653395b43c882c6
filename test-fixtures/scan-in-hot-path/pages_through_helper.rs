// A page loop whose scan is built by a helper: the helper sets `exclusive_start_key`
// from what the loop passes it, so the loop around the call reads page by page, as
// one around a chain that sets the key itself does. A helper that sets no start key
// repeats the whole scan in the loop.
use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder;
use aws_sdk_dynamodb::operation::scan::ScanOutput;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

type Key = Option<HashMap<String, AttributeValue>>;

fn catalog_page(client: &Client, start: Key) -> ScanFluentBuilder {
    client
        .scan()
        .table_name("Catalog")
        .set_exclusive_start_key(start)
}

fn catalog_scan(client: &Client) -> ScanFluentBuilder {
    client.scan().table_name("Catalog")
    //~^ scan-in-hot-path
}

async fn send_scan(request: ScanFluentBuilder) -> Result<ScanOutput, Error> {
    Ok(request.send().await?)
}

/// Every page, through the helper, until the last leaves no key.
pub async fn export(client: &Client) -> Result<usize, Error> {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = catalog_page(client, start.clone()).send().await?;
        count += page.count() as usize;
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}

/// The same, the builder sent by another function.
pub async fn export_sent_apart(client: &Client) -> Result<usize, Error> {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = send_scan(catalog_page(client, start.take())).await?;
        count += page.count() as usize;
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}

/// The helper sets no start key: each pass reads the first page again.
pub async fn export_first_page_again(client: &Client) -> Result<usize, Error> {
    let mut count = 0;
    let mut start: Key = None;
    loop {
        let page = catalog_scan(client).send().await?;
        count += page.count() as usize;
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}
