// The table name travels: env var → set-up function → constructor → field.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct DynamoDBStore {
    client: Client,
    table_name: String,
}

impl Clone for DynamoDBStore {
    fn clone(&self) -> Self {
        DynamoDBStore {
            client: self.client.clone(),
            table_name: self.table_name.clone(),
        }
    }
}

impl DynamoDBStore {
    pub fn new(client: Client, table_name: &str) -> DynamoDBStore {
        DynamoDBStore {
            client,
            table_name: table_name.to_string(),
        }
    }

    pub async fn get(&self, id: &str) -> Result<Option<Product>, Error> {
        let res = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("id", AttributeValue::S(id.to_owned()))
            .send()
            .await?;
        Ok(res.item.map(to_product))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn get_reads_the_table() {
        let store = DynamoDBStore::new(local_client().await, "test");
        store.get("1").await.unwrap();
    }
}
