// Items written through serde: an `Option` index key without `skip_serializing_if`
// becomes NULL, which DynamoDB rejects for an index key.
use aws_sdk_dynamodb::Client;
use serde::Serialize;

#[derive(Serialize)]
pub struct Blog {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    pub facet: String,
    pub title: String,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    pub facet: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_email: Option<String>,
}

pub async fn save_blog(client: &Client, blog: &Blog) -> Result<(), Error> {
    let item = serde_dynamo::to_item(blog)?;
    client
        .put_item()
        //~^ missing-sparse-attribute
        .table_name("BlogApp")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: `user_email` is left out when it is `None`.
pub async fn save_user(client: &Client, user: &User) -> Result<(), Error> {
    let item = serde_dynamo::to_item(user)?;
    client
        .put_item()
        .table_name("BlogApp")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}
