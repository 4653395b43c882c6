// One repository for every entity: the table and key come from `T`.
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct Repository<T: Entity> {
    client: Client,
    _entity: PhantomData<T>,
}

impl<T: Entity> Repository<T> {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            _entity: PhantomData,
        }
    }

    pub async fn get(&self, id: &str) -> Result<Option<T>, Error> {
        let out = self
            .client
            .get_item()
            .table_name(T::TABLE)
            .key(T::KEY, AttributeValue::S(id.to_owned()))
            .send()
            .await?;
        Ok(out.item.map(serde_dynamo::from_item).transpose()?)
    }

    /// The Query every listing starts from: the caller writes the key condition.
    pub fn listing(&self) -> QueryFluentBuilder {
        self.client.query().table_name(T::TABLE)
    }

    pub async fn all(&self) -> Result<Vec<T>, Error> {
        let out = self.client.scan().table_name(T::table_name()).send().await?;
        Ok(serde_dynamo::from_items(out.items.unwrap_or_default())?)
    }
}

/// A free function generic over the entity, given it by a turbofish.
pub async fn delete_entity<T: Entity>(client: &Client, id: &str) -> Result<(), Error> {
    client
        .delete_item()
        .table_name(T::TABLE)
        .key(T::KEY, AttributeValue::S(id.to_owned()))
        .send()
        .await?;
    Ok(())
}

/// A Scan of the entity's table, for the caller to finish and send.
pub fn scan_of<T: Entity>(client: &Client) -> ScanFluentBuilder {
    client.scan().table_name(T::TABLE)
}
