// A helper that returns another helper's builder: `create_query` hands back what
// `query_in` builds. Each chain that sends it is the request, with the table and key its
// own call gives (the events table, the snapshots table), never one unknown request
// inside `query_in`.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const EVENTS_TABLE: &str = "Events";
const SNAPSHOTS_TABLE: &str = "Snapshots";

pub struct EventRepository {
    client: Client,
}

impl EventRepository {
    pub async fn events(&self, aggregate_id: &str) -> Result<QueryOutput, Error> {
        self.query_table(EVENTS_TABLE, aggregate_id).await
    }

    pub async fn snapshot(&self, aggregate_id: &str) -> Result<QueryOutput, Error> {
        self.query_table(SNAPSHOTS_TABLE, aggregate_id).await
    }

    async fn query_table(&self, table: &str, aggregate_id: &str) -> Result<QueryOutput, Error> {
        let output = self.create_query(table, aggregate_id).send().await?;
        Ok(output)
    }

    fn create_query(&self, table: &str, aggregate_id: &str) -> QueryFluentBuilder {
        query_in(
            &self.client,
            table,
            AttributeValue::S(format!("order:{aggregate_id}")),
        )
    }
}

fn query_in(client: &Client, table: &str, id: AttributeValue) -> QueryFluentBuilder {
    client
        .query()
        .table_name(table)
        .consistent_read(true)
        .key_condition_expression("#id = :id")
        .expression_attribute_names("#id", "AggregateTypeAndId")
        .expression_attribute_values(":id", id)
}
