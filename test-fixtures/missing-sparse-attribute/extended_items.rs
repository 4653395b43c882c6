// A map item extended by a serialised struct: the struct's `Option` without
// `skip_serializing_if` writes NULL unless an insert after the `extend` replaces it on
// every path.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::Serialize;
use serde_dynamo::to_item;

#[derive(Serialize)]
pub struct Post {
    pub title: String,
    pub facet: String,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
}

fn model_attributes<T: Serialize>(value: &T) -> Result<HashMap<String, AttributeValue>, Error> {
    to_item(value).map_err(Error::from)
}

pub async fn put_post(client: &Client, id: &str, post: &Post) -> Result<(), Error> {
    let mut item = HashMap::new();
    item.insert("PK".to_string(), AttributeValue::S(format!("USER#{id}")));
    item.insert("SK".to_string(), AttributeValue::S(format!("BLOG#{}", post.title)));
    item.extend(model_attributes(post)?);
    // Only when there is one: a post without `created_at` keeps the struct's NULL.
    if let Some(created_at) = &post.created_at {
        item.insert("createdAt".to_string(), AttributeValue::S(created_at.clone()));
    }
    client
        .put_item()
        //~^ missing-sparse-attribute
        .table_name("BlogApp")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: the insert after the `extend` replaces the struct's value on
// every path.
pub async fn publish_post(client: &Client, id: &str, post: &Post, now: &str) -> Result<(), Error> {
    let mut item = HashMap::new();
    item.insert("PK".to_string(), AttributeValue::S(format!("USER#{id}")));
    item.insert("SK".to_string(), AttributeValue::S(format!("BLOG#{}", post.title)));
    item.extend(to_item(post)?);
    item.insert("createdAt".to_string(), AttributeValue::S(now.to_string()));
    client
        .put_item()
        .table_name("BlogApp")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}
