// Reports and exports that read a whole table page by page: the loop around the scan
// follows `last_evaluated_key`, so it is one paginated read, not a scan per iteration.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

/// A hand-written page loop: `while` the previous page left a key.
pub async fn export(client: &Client) -> Result<usize, Error> {
    let mut count = 0;
    let mut start: Option<HashMap<String, AttributeValue>> = None;
    let mut more = true;
    while more {
        let page = client
            .scan()
            .table_name("Catalog")
            .set_exclusive_start_key(start.take())
            .send()
            .await?;
        count += page.count() as usize;
        start = page.last_evaluated_key().cloned();
        more = start.is_some();
    }
    Ok(count)
}

/// The same with `loop` and `break`, retrying a throttled page.
pub async fn export_retrying(client: &Client) -> Result<usize, Error> {
    let mut count = 0;
    let mut start = None;
    loop {
        let page = match client
            .scan()
            .table_name("Catalog")
            .set_exclusive_start_key(start.clone())
            .send()
            .await
        {
            Ok(p) => p,
            Err(_) => continue,
        };
        count += page.count() as usize;
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(count)
}

/// Every page of the table, once per tenant: the whole scan repeats per element.
pub async fn per_tenant(client: &Client, tenants: &[String]) -> Result<usize, Error> {
    let mut count = 0;
    for _tenant in tenants {
        let pages: Vec<_> = client
            .scan()
            //~^ scan-in-hot-path
            .table_name("Catalog")
            .into_paginator()
            .items()
            .send()
            .collect()
            .await;
        count += pages.len();
    }
    Ok(count)
}
