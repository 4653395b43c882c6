// A client wrapper the items send through: it forwards a request input and sends
// transaction items, all made by the items themselves.
use aws_sdk_dynamodb::operation::query::{QueryInput, QueryOutput};
use aws_sdk_dynamodb::types::{ItemResponse, TransactGetItem, TransactWriteItem};
use aws_sdk_dynamodb::Client;

pub struct DynamoDbClient {
    client: Client,
}

impl DynamoDbClient {
    pub async fn query(&self, query: QueryInput) -> Result<QueryOutput, Error> {
        let out = self
            .client
            .query()
            .set_table_name(query.table_name)
            .set_index_name(query.index_name)
            .set_key_condition_expression(query.key_condition_expression)
            .set_expression_attribute_values(query.expression_attribute_values)
            .set_exclusive_start_key(query.exclusive_start_key)
            .send()
            .await?;
        Ok(out)
    }

    pub async fn read_single(&self, item: TransactGetItem) -> Result<Option<ItemResponse>, Error> {
        let out = self.client.transact_get_items().transact_items(item).send().await?;
        Ok(out.responses.and_then(|mut r| r.pop()))
    }

    pub async fn write(&self, items: Vec<TransactWriteItem>) -> Result<(), Error> {
        self.client
            .transact_write_items()
            .set_transact_items(Some(items))
            .send()
            .await?;
        Ok(())
    }

    pub async fn write_single(&self, item: TransactWriteItem) -> Result<(), Error> {
        self.write(vec![item]).await
    }
}
