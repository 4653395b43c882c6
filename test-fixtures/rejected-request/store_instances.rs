// One store type built per table (`Games`, `Orders`) behind a type alias: `self.table`
// is either. `Orders` has no `ByRank` index, but the orders store may never run
// `ranked`: a request only some instance may send is no certain rejection. One that
// every table rejects is.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct DynamoStore<C> {
    client: C,
    table: String,
}

pub type DefaultStore = DynamoStore<Client>;

impl DefaultStore {
    pub fn new(client: Client, table: &str) -> DefaultStore {
        DynamoStore {
            client,
            table: table.to_string(),
        }
    }
}

impl DynamoStore<Client> {
    // Must not be flagged: `Games` has `ByRank`.
    pub async fn ranked(&self, game: &str) -> Result<(), Error> {
        self.client
            .query()
            .table_name(&self.table)
            .index_name("ByRank")
            .key_condition_expression("GameId = :g")
            .expression_attribute_values(":g", AttributeValue::S(game.into()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn newest(&self, user: &str) -> Result<(), Error> {
        self.client
            .query()
            .table_name(&self.table)
            .key_condition_expression("UserId = :u AND GameDate > :since")
            //~^ rejected-request
            .expression_attribute_values(":u", AttributeValue::S(user.into()))
            .send()
            .await?;
        Ok(())
    }
}

pub async fn stores(client: Client) -> (DefaultStore, DefaultStore) {
    let games = DynamoStore::new(client.clone(), "Games");
    let orders = DefaultStore::new(client, "Orders");
    (games, orders)
}
