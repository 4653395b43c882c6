// Blogs belong in the sparse `ByFacet` index (the model lists `createdAt` for them), but
// this service never writes `createdAt`: no blog ever shows up in "latest blogs".
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

pub async fn post(client: &Client, user: &str, blog: &str, title: &str) -> Result<(), Error> {
    let mut item = HashMap::new();
    item.insert("PK".to_string(), AttributeValue::S(format!("USER#{user}")));
    item.insert("SK".to_string(), AttributeValue::S(format!("BLOG#{blog}")));
    item.insert("facet".to_string(), AttributeValue::S("BLOG".into()));
    item.insert("title".to_string(), AttributeValue::S(title.into()));
    client
        .put_item()
        //~^ missing-sparse-attribute
        .table_name(std::env::var("BLOG_TABLE")?)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: users are meant to stay out of `ByFacet`.
pub async fn sign_up(client: &Client, user: &str, email: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(std::env::var("BLOG_TABLE")?)
        .item("PK", AttributeValue::S(format!("USER#{user}")))
        .item("SK", AttributeValue::S("PROFILE".into()))
        .item("facet", AttributeValue::S("USER".into()))
        .item("userEmail", AttributeValue::S(email.into()))
        .send()
        .await?;
    Ok(())
}
