// A members service (axum) writing the table the way such services do: flags kept as
// the strings "true"/"false", a role from an enum, one constant entity type. The model
// declares no values and no load: the findings say which writes show the few values.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const MEMBERS_TABLE: &str = "Members";

#[derive(Clone, Copy)]
pub enum Role {
    Admin,
    Member,
    Guest,
}

pub struct MemberRepo {
    client: Client,
}

impl MemberRepo {
    pub async fn join(&self, email: &str, role: Role, status: &str, now: &str) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(MEMBERS_TABLE)
            .item("pk", AttributeValue::S(format!("MEMBER#{email}")))
            .item("sk", AttributeValue::S("PROFILE".to_string()))
            .item("email", AttributeValue::S(email.to_string()))
            .item("is_active", AttributeValue::S("true".to_string()))
            .item("role", AttributeValue::S(role.to_string()))
            .item("entity_type", AttributeValue::S("MEMBER".to_string()))
            .item("account_status", AttributeValue::S(status.to_string()))
            .item("joined_at", AttributeValue::S(now.to_string()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn deactivate(&self, email: &str) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name(MEMBERS_TABLE)
            .key("pk", AttributeValue::S(format!("MEMBER#{email}")))
            .key("sk", AttributeValue::S("PROFILE".to_string()))
            .update_expression("SET is_active = :no")
            .expression_attribute_values(":no", AttributeValue::S("false".to_string()))
            .send()
            .await?;
        Ok(())
    }
}
