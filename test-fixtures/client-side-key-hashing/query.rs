// A query by a hashed key, through a helper that builds the key.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

fn hashed(id: &str) -> String {
    format!("{:x}", md5::compute(id))
}

pub async fn by_email(client: &Client, email: &str) -> Result<(), Error> {
    let h = format!("{:x}", md5::compute(email));
    client
        .query()
        .table_name("Users")
        .index_name("ByEmail")
        .key_condition_expression("emailHash = :h")
        .expression_attribute_values(":h", AttributeValue::S(h))
        //~^ client-side-key-hashing
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: the user's own id.
pub async fn profile(client: &Client, user_id: &str) -> Result<(), Error> {
    client
        .query()
        .table_name("Users")
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .send()
        .await?;
    Ok(())
}
