// Whole-table reads sent once.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn export_blogs(client: &Client) -> Result<Vec<Blog>, Error> {
    let table = std::env::var("TABLE_NAME")?;
    let out = client.scan().table_name(table).send().await?;
    //~^ unpaginated-query
    Ok(to_blogs(out.items()))
}

/// The model has no size for the audit log: flagged, saying what was assumed.
pub async fn audit_entries(client: &Client) -> Result<Vec<Entry>, Error> {
    let out = client
        .scan()
        //~^ unpaginated-query
        .table_name(std::env::var("AUDIT_TABLE")?)
        .send()
        .await?;
    Ok(to_entries(out.items()))
}

/// `limit(25)` with a filter: 25 items read, some or none of them returned.
pub async fn first_drafts(client: &Client) -> Result<Vec<Blog>, Error> {
    let out = client
        .scan()
        .table_name("BlogApp")
        .filter_expression("attribute_not_exists(publishedAt)")
        .limit(25)
        //~^ unpaginated-query
        .send()
        .await?;
    Ok(to_blogs(out.items()))
}

// ---- must not be flagged ----

pub async fn all_blogs(client: &Client) -> Result<Vec<Blog>, Error> {
    let items: Vec<_> = client
        .scan()
        .table_name("BlogApp")
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await?;
    Ok(to_blogs(&items))
}

pub async fn all_blogs_by_hand(client: &Client) -> Result<Vec<Blog>, Error> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let out = client
            .scan()
            .table_name("BlogApp")
            .set_exclusive_start_key(start)
            .send()
            .await?;
        items.extend(out.items().iter().cloned());
        start = out.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(to_blogs(&items))
}

/// 200 settings of 300 bytes are 59 KB: one page holds them all.
pub async fn all_settings(client: &Client) -> Result<Vec<Setting>, Error> {
    let out = client.scan().table_name("Settings").send().await?;
    Ok(to_settings(out.items()))
}

/// A sample of ten: one bounded page is the point.
pub async fn sample(client: &Client) -> Result<Vec<Blog>, Error> {
    let out = client.scan().table_name("BlogApp").limit(10).send().await?;
    Ok(to_blogs(out.items()))
}

pub struct ScanOpts {
    pub index: Option<String>,
    pub limit: Option<i32>,
}

/// A CLI's `scan` subcommand: the index and the limit are the user's flags. Without
/// `--limit` it prints one page, whichever the index.
pub async fn scan_command(client: &Client, opts: ScanOpts) -> Result<(), Error> {
    let out = client
        .scan()
        //~^ unpaginated-query
        .table_name("AuditLog")
        .set_index_name(opts.index)
        .set_limit(opts.limit)
        .send()
        .await?;
    print_items(out.items());
    Ok(())
}

/// The caller's page size, always set: one bounded page is what it asks for.
pub async fn audit_page(client: &Client, page_size: i32) -> Result<Vec<Entry>, Error> {
    let out = client
        .scan()
        .table_name("AuditLog")
        .set_limit(Some(page_size))
        .send()
        .await?;
    Ok(to_entries(out.items()))
}
