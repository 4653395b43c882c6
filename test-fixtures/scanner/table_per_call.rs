// A table name that is a parameter whose calls pass different tables: one request per
// table. A helper's returned builder takes its parameters from the call it continues.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::Client;

pub struct Store {
    client: Client,
    events_table: String,
}

impl Store {
    /// Sent with the table each caller names: `Events` and `Snapshots`.
    async fn query_table(&self, id: &str, table: &str) -> Result<(), Error> {
        self.create_query(table, id).send().await?;
        Ok(())
    }

    fn create_query(&self, table: &str, id: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(table)
            .key_condition_expression("pk = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(id.to_string()))
    }

    pub async fn events(&self, id: &str) -> Result<(), Error> {
        self.query_table(id, "Events").await
    }

    pub async fn snapshot(&self, id: &str) -> Result<(), Error> {
        self.query_table(id, "Snapshots").await
    }

    /// This call's own table: a field whose name `refs` may list.
    pub async fn first_page(&self, id: &str) -> Result<(), Error> {
        self.create_query(&self.events_table, id).limit(10).send().await?;
        Ok(())
    }
}

/// Five tables: more than dynalint splits a request into, so its table is unknown.
pub async fn delete_in(client: &Client, table: &str, key: Key) -> Result<(), Error> {
    client.delete_item().table_name(table).set_key(Some(key)).send().await?;
    Ok(())
}

pub async fn cleanup(client: &Client, key: Key) -> Result<(), Error> {
    delete_in(client, "A", key.clone()).await?;
    delete_in(client, "B", key.clone()).await?;
    delete_in(client, "C", key.clone()).await?;
    delete_in(client, "D", key.clone()).await?;
    delete_in(client, "E", key).await
}

/// One call passes a table dynalint can follow, one a table it cannot name, one a
/// value it cannot follow: one request of `Orders`, one of an unknown table (the
/// calls' keys, which the request holds too, tell the other two apart no better).
pub async fn get_in(client: &Client, table: &str, key: Key) -> Result<(), Error> {
    client.get_item().table_name(table).set_key(Some(key)).send().await?;
    Ok(())
}

pub async fn lookups(client: &Client, names: &Names, key: Key) -> Result<(), Error> {
    get_in(client, "Orders", key.clone()).await?;
    get_in(client, names.pick().as_str(), key.clone()).await?;
    get_in(client, &names.all[0], key).await
}
