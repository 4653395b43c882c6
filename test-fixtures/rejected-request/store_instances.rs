// One store type built per table (`Games`, `Orders`) behind a type alias: `self.table`
// is either. `Orders` has no `ByRank` index, but the orders store may never run
// `ranked`: a request only some instance may send is no certain rejection. One that
// every table rejects is, on every path or on one path of an expression built in
// branches.
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

impl DynamoStore<Client> {
    /// A user's rows from a date, or those whose sort key starts with a prefix.
    /// `UserId` is no key of `Orders`, which the orders store may never query; but
    /// DynamoDB's function names are lower case, so the prefix path is rejected on
    /// either table.
    pub async fn from(&self, user: &str, day: Option<&str>, prefix: Option<&str>) -> Result<(), Error> {
        let mut key_condition = "UserId = :u".to_string();
        let mut values = vec![(":u", AttributeValue::S(user.into()))];
        if let Some(day) = day {
            key_condition.push_str(" AND GameDate >= :d");
            values.push((":d", AttributeValue::S(day.into())));
        } else if let Some(prefix) = prefix {
            key_condition.push_str(" AND BEGINS_WITH(GameDate, :d)");
            values.push((":d", AttributeValue::S(prefix.into())));
        }
        let mut query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression(key_condition);
            //~^ rejected-request
        for (name, value) in values {
            query = query.expression_attribute_values(name, value);
        }
        query.send().await?;
        Ok(())
    }
}

pub async fn stores(client: Client) -> (DefaultStore, DefaultStore) {
    let games = DynamoStore::new(client.clone(), "Games");
    let orders = DefaultStore::new(client, "Orders");
    (games, orders)
}
