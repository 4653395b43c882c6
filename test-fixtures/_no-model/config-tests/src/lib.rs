use aws_sdk_dynamodb::{types::AttributeValue, Client};

const OUTBOX_STATUS_PENDING: &str = "PENDING";

/// DynamoDB table names configuration
#[derive(Debug, Clone)]
pub struct TableNames {
    pub outbox: String,
    pub outbox_status_index: String,
}

impl Default for TableNames {
    fn default() -> Self {
        Self {
            outbox: "outbox".to_string(),
            outbox_status_index: "outbox-status-index".to_string(),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Config {
    pub table_names: TableNames,
}

pub struct Store {
    client: Client,
    config: Config,
}

impl Store {
    pub fn new(client: Client, config: Config) -> Self {
        Self { client, config }
    }

    pub async fn publish(&self, id: &str, payload: &str) -> Result<(), aws_sdk_dynamodb::Error> {
        self.client
            .put_item()
            .table_name(&self.config.table_names.outbox)
            .item("pkey", AttributeValue::S(id.to_string()))
            .item("skey", AttributeValue::S(payload.to_string()))
            .item("status", AttributeValue::S(OUTBOX_STATUS_PENDING.to_string()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn get(&self, id: &str, skey: &str) -> Result<bool, aws_sdk_dynamodb::Error> {
        let out = self
            .client
            .get_item()
            .table_name(&self.config.table_names.outbox)
            .key("pkey", AttributeValue::S(id.to_string()))
            .key("skey", AttributeValue::S(skey.to_string()))
            .send()
            .await?;
        Ok(out.item.is_some())
    }
}
