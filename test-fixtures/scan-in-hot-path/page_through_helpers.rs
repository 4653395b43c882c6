// A listing endpoint whose page size reaches the Scan through two functions: the
// handler passes 10 to the data layer, which hands it on to the code that builds and
// sends the request. The Scan reads the first 10 items it comes to on every request,
// whether the data layer sends a builder a helper made or calls a reader's method.
use std::collections::HashMap;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder;
use aws_sdk_dynamodb::operation::scan::{ScanError, ScanOutput};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_runtime::{service_fn, Error, LambdaEvent};
use serde_json::Value;

const TABLE: &str = "Catalog";

type Key = Option<HashMap<String, AttributeValue>>;

/// One page of the catalog, built here and sent by the caller.
fn catalog_page(client: &Client, start: Key, limit: i32) -> ScanFluentBuilder {
    client
        .scan()
        //~^ scan-in-hot-path
        .table_name(TABLE)
        .set_exclusive_start_key(start)
        .limit(limit)
}

async fn send_scan(scan: ScanFluentBuilder) -> Result<ScanOutput, SdkError<ScanError>> {
    scan.send().await
}

/// The catalog's categories, read by a reader over a borrowed client.
struct CategoryReader<'a> {
    client: &'a Client,
}

impl<'a> CategoryReader<'a> {
    fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn page(&self, limit: i32) -> Result<ScanOutput, SdkError<ScanError>> {
        self.client
            .scan()
            //~^ scan-in-hot-path
            .table_name(TABLE)
            .index_name("ByCategory")
            .limit(limit)
            .send()
            .await
    }
}

/// The data layer: a page of items from where the last one ended.
async fn get_items(client: &Client, limit: i32, last_key: String) -> Result<usize, Error> {
    let mut start = None;
    if !last_key.is_empty() {
        start = Some(HashMap::from([(
            "PK".to_string(),
            AttributeValue::S(last_key),
        )]));
    }
    let out = send_scan(catalog_page(client, start, limit)).await?;
    Ok(out.items().len())
}

async fn get_categories(client: &Client, limit: i32) -> Result<usize, Error> {
    let out = CategoryReader::new(client).page(limit).await?;
    Ok(out.items().len())
}

async fn handle(event: LambdaEvent<Value>) -> Result<Value, Error> {
    let client = Client::new(&aws_config::load_from_env().await);
    let last_key = event.payload["lk"].as_str().unwrap_or("").to_string();
    let items = get_items(&client, 10, last_key).await?;
    let categories = get_categories(&client, 10).await?;
    Ok(serde_json::json!({ "items": items, "categories": categories }))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(handle)).await
}
