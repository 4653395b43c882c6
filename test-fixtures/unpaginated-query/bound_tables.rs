// Table names the code builds or reads in ways that still name one table of the
// model: a deployment's prefix around a table's name, a getter named like an entry of
// `refs`, and a parameter every call passes the same config field as. Each read is
// bound, so its finding names the table.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const AUDIT_LOG: &str = "AuditLog";

pub struct AuditRepository {
    client: Client,
    table_prefix: String,
}

impl AuditRepository {
    pub fn new(client: Client, table_prefix: &str) -> Self {
        Self { client, table_prefix: table_prefix.to_string() }
    }

    fn table_name(&self) -> String {
        format!("{}{}", self.table_prefix, AUDIT_LOG)
    }

    pub async fn everything(&self) -> Vec<Entry> {
        let out = self
            .client
            .scan()
            //~^ unpaginated-query
            .table_name(self.table_name())
            .send()
            .await
            .unwrap_or_default();
        to_entries(out.items())
    }
}

pub struct Settings {
    accounts: String,
    events: String,
}

pub struct Db {
    client: Client,
    settings: Settings,
}

impl Db {
    pub fn accounts_table(&self) -> &str {
        &self.settings.accounts
    }
}

pub async fn owned_by(db: &Db, owner: &str) -> Vec<Account> {
    let out = db
        .client
        .query()
        //~^ unpaginated-query
        .table_name(db.accounts_table())
        .index_name("owner-index")
        .key_condition_expression("#o = :o")
        .expression_attribute_names("#o", "owner")
        .expression_attribute_values(":o", AttributeValue::S(owner.to_string()))
        .send()
        .await
        .unwrap_or_default();
    to_accounts(out.items())
}

pub struct EventStore {
    client: Client,
    config: StoreConfig,
}

pub struct StoreConfig {
    pub events_table: String,
}

impl EventStore {
    pub async fn history(&self, id: &str) -> Vec<Event> {
        self.events_of(&self.config.events_table, id).await
    }

    async fn events_of(&self, table: &str, id: &str) -> Vec<Event> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(table)
            .key_condition_expression("AggregateId = :id")
            .expression_attribute_values(":id", AttributeValue::S(id.to_string()))
            .send()
            .await
            .unwrap_or_default();
        to_events(out.items())
    }
}

impl EventStore {
    /// The read runs in a task, which owns copies of what it reads: the table is still
    /// the config's `events_table` (the question above lists this call too).
    pub async fn history_in_task(&self, id: &str) -> Vec<Event> {
        let client = self.client.to_owned();
        let table = self.config.events_table.to_owned();
        let id = id.to_owned();
        let out = tokio::spawn(async move {
            client
                .query()
                .table_name(&table)
                .key_condition_expression("AggregateId = :id")
                .expression_attribute_values(":id", AttributeValue::S(id))
                .send()
                .await
        })
        .await
        .expect("the task runs to its end")
        .unwrap_or_default();
        to_events(out.items())
    }
}
