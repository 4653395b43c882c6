// rusoto with dynomite's DynamoDbExt: `scan_pages` streams every page.
use dynomite::DynamoDbExt;
use futures::TryStreamExt;
use rusoto_dynamodb::{DynamoDb, DynamoDbClient, ScanInput};

pub async fn drafts(client: &DynamoDbClient) -> Result<Vec<Blog>, Error> {
    let mut out = Vec::new();
    client
        .clone()
        .scan_pages(ScanInput {
            limit: Some(25),
            table_name: "BlogApp".to_string(),
            filter_expression: Some("attribute_not_exists(publishedAt)".into()),
            ..ScanInput::default()
        })
        .try_for_each(|item| {
            out.push(to_blog(item));
            futures::future::ready(Ok(()))
        })
        .await?;
    Ok(out)
}

pub async fn first_drafts(client: &DynamoDbClient) -> Result<Vec<Blog>, Error> {
    let page = client
        .scan(ScanInput {
            limit: Some(25),
            //~^ unpaginated-query
            table_name: "BlogApp".to_string(),
            filter_expression: Some("attribute_not_exists(publishedAt)".into()),
            ..ScanInput::default()
        })
        .await?;
    Ok(to_blogs(page.items.unwrap_or_default()))
}
