// One generic store type behind a type alias, built once per table: `self.table` is
// one of the tables its constructors' calls give (apps, flags, users), each possible.
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct DynamoStore<T, C> {
    client: C,
    table: String,
    item: PhantomData<T>,
}

pub type DefaultDynamoStore<T> = DynamoStore<T, Client>;

impl<T> DefaultDynamoStore<T> {
    pub async fn new<S: Into<String>>(table: S) -> DefaultDynamoStore<T> {
        let config = aws_config::load_from_env().await;
        DynamoStore::new_with_client(table, Client::new(&config))
    }
}

impl<T, C> DynamoStore<T, C> {
    pub fn new_with_client<S: Into<String>>(table: S, client: C) -> DynamoStore<T, C> {
        DynamoStore {
            client,
            table: table.into(),
            item: PhantomData,
        }
    }
}

impl<T> DynamoStore<T, Client> {
    pub async fn get(&self, path: &str, key: &str) -> Result<(), Error> {
        self.client
            .get_item()
            .table_name(&self.table)
            .key("key", AttributeValue::S(format!("{path}/{key}")))
            .send()
            .await?;
        Ok(())
    }

    pub async fn get_all(&self, path: &str) -> Result<(), Error> {
        self.client
            .query()
            .table_name(self.table.clone())
            .index_name("key_path-index")
            .key_condition_expression("key_path = :key_path")
            .expression_attribute_values(":key_path", AttributeValue::S(path.into()))
            .send()
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A test's store: not one of the service's tables.
    #[tokio::test]
    async fn reads_back() {
        let store: DefaultDynamoStore<String> = DynamoStore::new("test").await;
        store.get("p", "k").await.unwrap();
    }
}
