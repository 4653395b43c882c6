// An optional email turned into `""` by `unwrap_or_default()` before it is written
// into the ByEmail GSI's key.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct Signup {
    pub id: String,
    pub email: Option<String>,
}

pub async fn save(client: &Client, s: &Signup) -> Result<(), Error> {
    client
        .put_item()
        .table_name("BlogApp")
        .item("PK", AttributeValue::S(format!("USER#{}", s.id)))
        .item("SK", AttributeValue::S("PROFILE".into()))
        .item("facet", AttributeValue::S("USER".into()))
        .item("userEmail", AttributeValue::S(s.email.clone().unwrap_or_default()))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}

/// Not flagged: the key attribute is only written when there is a value.
pub async fn save_sparse(client: &Client, s: &Signup) -> Result<(), Error> {
    let mut put = client
        .put_item()
        .table_name("BlogApp")
        .item("PK", AttributeValue::S(format!("USER#{}", s.id)))
        .item("SK", AttributeValue::S("PROFILE".into()))
        .item("facet", AttributeValue::S("USER".into()));
    if let Some(email) = &s.email {
        put = put.item("userEmail", AttributeValue::S(email.clone()));
    }
    put.send().await?;
    Ok(())
}
