// Queries over item collections of different sizes.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const BLOG_TABLE: &str = "BlogApp";

/// Every blog of every user, newest first: the `BLOG` partition of `ByFacet` holds
/// about 5,000,000 items (1.9 GB).
pub async fn latest_blogs(client: &Client) -> Result<Vec<Blog>, Error> {
    let req = client
        .query()
        //~^ unpaginated-query
        .table_name(BLOG_TABLE)
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .scan_index_forward(false);
    let out = req.send().await?;
    Ok(to_blogs(out.items()))
}

/// A user's blogs: about 5,000 items of 400 bytes per user, about 1.9 MB.
pub async fn blogs_of(client: &Client, user_id: &str) -> Result<Vec<Blog>, Error> {
    let out = client
        .query()
        //~^ unpaginated-query
        .table_name(BLOG_TABLE)
        .key_condition_expression("PK = :pk AND begins_with(SK, :blog)")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .expression_attribute_values(":blog", AttributeValue::S("BLOG#".into()))
        .send()
        .await?;
    Ok(to_blogs(out.items()))
}

/// `limit` with a filter, on a Query.
pub async fn titled(client: &Client, user_id: &str, title: &str) -> Result<Vec<Blog>, Error> {
    let mut q = client.query().table_name(BLOG_TABLE);
    q = q.key_condition_expression("PK = :pk").limit(5);
    //~^ unpaginated-query
    q = q
        .filter_expression("title = :t")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .expression_attribute_values(":t", AttributeValue::S(title.to_string()));
    let out = q.send().await?;
    Ok(to_blogs(out.items()))
}

// ---- must not be flagged ----

/// The latest three: a bounded page.
pub async fn latest_three(client: &Client) -> Result<Vec<Blog>, Error> {
    let out = client
        .query()
        .table_name(BLOG_TABLE)
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .scan_index_forward(false)
        .limit(3)
        .send()
        .await?;
    Ok(to_blogs(out.items()))
}

/// One user's profile: the `PROFILE` sort key selects one item.
pub async fn profile(client: &Client, user_id: &str) -> Result<Vec<User>, Error> {
    let out = client
        .query()
        .table_name(BLOG_TABLE)
        .key_condition_expression("PK = :pk AND SK = :sk")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .expression_attribute_values(":sk", AttributeValue::S("PROFILE".into()))
        .send()
        .await?;
    Ok(to_users(out.items()))
}

/// Paginated: every page is read.
pub async fn all_blogs_of(client: &Client, user_id: &str) -> Result<Vec<Blog>, Error> {
    let pages = client
        .query()
        .table_name(BLOG_TABLE)
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .into_paginator()
        .send();
    collect_pages(pages).await
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn scans_the_seeded_table() {
        let out = client().scan().table_name("BlogApp").send().await.unwrap();
        assert_eq!(out.items().len(), 3);
    }
}
