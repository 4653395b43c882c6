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

pub struct BlogRepository {
    client: Client,
}

impl BlogRepository {
    // The repository's own `to_item`, not serde_dynamo's: `createdAt` goes in only
    // when it is `Some`, so nothing says the write carries a NULL.
    fn to_item(blog: &Blog) -> HashMap<String, AttributeValue> {
        let mut item = HashMap::new();
        item.insert("PK".to_string(), AttributeValue::S(blog.pk.clone()));
        item.insert("SK".to_string(), AttributeValue::S(blog.sk.clone()));
        item.insert("facet".to_string(), AttributeValue::S(blog.facet.clone()));
        if let Some(ref created_at) = blog.created_at {
            item.insert("createdAt".to_string(), AttributeValue::S(created_at.clone()));
        }
        item
    }

    pub async fn save(&self, blog: &Blog) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name("BlogApp")
            .set_item(Some(Self::to_item(blog)))
            .send()
            .await?;
        Ok(())
    }
}
