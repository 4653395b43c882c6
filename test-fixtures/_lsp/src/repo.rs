//! Data access. Comments in other scripts — « naïve 😀 » — shift UTF-16 columns.

use aws_sdk_dynamodb::Client;

const TABLE: &str = "BlogApp";

pub async fn client() -> Client {
    Client::new(&aws_config::load_from_env().await)
}

/// Called from the `/posts` handler: this scan runs on every request.
pub async fn all_posts(client: &Client) -> Vec<String> {
    let /* « 😀 » */ out = client.scan().table_name(TABLE).send().await.unwrap();
    out.items().iter().map(|i| format!("{i:?}")).collect()
}

pub async fn latest(client: &Client) -> usize {
    let out = client
        .query()
        .table_name(TABLE)
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", aws_sdk_dynamodb::types::AttributeValue::S("BLOG".into()))
        .send()
        .await
        .unwrap();
    out.count() as usize
}

pub async fn nightly(client: &Client, shards: &[u32]) {
    for _shard in shards {
        // « é » 😀
        let _ = client.scan().table_name(TABLE).send().await;
    }
}
