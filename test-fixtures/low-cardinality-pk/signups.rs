// A launch: sign-ups are written with the constant `PENDING` as the partition key of
// `SignupsByStatus`, so every write of the day lands on one partition of the index.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const PENDING: &str = "PENDING";

pub struct Signups {
    client: Client,
    table: String,
}

impl Signups {
    pub fn from_env(client: Client) -> Self {
        Self { client, table: std::env::var("SIGNUPS_TABLE").unwrap_or_default() }
    }

    pub async fn sign_up(&self, email: &str, now: &str) -> Result<(), Error> {
        self.client
            .put_item()
            //~^ low-cardinality-pk
            .table_name(&self.table)
            .item("email", AttributeValue::S(email.to_string()))
            .item("status", AttributeValue::S(PENDING.to_string()))
            .item("signedUpAt", AttributeValue::S(now.to_string()))
            .condition_expression("attribute_not_exists(email)")
            .send()
            .await?;
        Ok(())
    }

    // Sharded over 4 suffixes: `hash(email) % 4` covers the 3 partitions needed, so
    // this write is not a finding.
    pub async fn sign_up_sharded(&self, email: &str, now: &str) -> Result<(), Error> {
        let shard = seahash::hash(email.as_bytes()) % 4;
        self.client
            .put_item()
            .table_name(&self.table)
            .item("email", AttributeValue::S(email.to_string()))
            .item("status", AttributeValue::S(format!("{PENDING}#{shard}")))
            .item("signedUpAt", AttributeValue::S(now.to_string()))
            .send()
            .await?;
        Ok(())
    }
}
