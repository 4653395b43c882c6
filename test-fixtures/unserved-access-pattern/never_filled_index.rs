// `Invitation` serialises `invite_code` as `inviteCode`, and no other write sets
// `invite_code`: `invite_code-index` stays empty and a lookup by code never finds the
// invitation. `box_id` is written as it is, so reading `box_id-index` is fine.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use serde_dynamo::{from_item, to_item};

#[derive(Serialize, Deserialize, Clone)]
pub struct Invitation {
    pub id: String,
    #[serde(rename = "inviteCode")]
    pub invite_code: String,
    pub box_id: String,
}

pub async fn create(client: &Client, invitation: &Invitation) -> Result<(), Error> {
    client
        .put_item()
        .table_name("Invitations")
        .set_item(Some(to_item(invitation)?))
        .send()
        .await?;
    Ok(())
}

pub async fn by_code(client: &Client, code: &str) -> Result<Option<Invitation>, Error> {
    let out = client
        .query()
        //~^ unserved-access-pattern
        .table_name("Invitations")
        .index_name("invite_code-index")
        .key_condition_expression("invite_code = :code")
        .expression_attribute_values(":code", AttributeValue::S(code.to_string()))
        .send()
        .await?;
    Ok(out.items().first().map(|i| from_item(i.clone())).transpose()?)
}

// Must not be flagged: every invitation carries `box_id`.
pub async fn for_box(client: &Client, box_id: &str) -> Result<Vec<Invitation>, Error> {
    let out = client
        .query()
        .table_name("Invitations")
        .index_name("box_id-index")
        .key_condition_expression("box_id = :b")
        .expression_attribute_values(":b", AttributeValue::S(box_id.to_string()))
        .send()
        .await?;
    Ok(out.items().iter().map(|i| from_item(i.clone())).collect::<Result<_, _>>()?)
}
