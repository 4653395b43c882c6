// A storage trait with a DynamoDB implementation in the same crate, and two
// repositories whose methods share their names. Which method a loop calls is told by
// the type of its receiver.
use std::sync::Arc;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

#[async_trait]
pub trait Storage: Send + Sync {
    async fn get(&self, id: &str) -> Result<Option<Product>, Error>;
}

pub struct DynamoStorage {
    client: Client,
    table_name: String,
}

#[async_trait]
impl Storage for DynamoStorage {
    async fn get(&self, id: &str) -> Result<Option<Product>, Error> {
        let res = self
            .client
            .get_item()
            .table_name(&self.table_name)
            .key("id", AttributeValue::S(id.to_owned()))
            .send()
            .await?;
        Ok(res.item.map(Product::from))
    }
}

pub trait UserRepository {
    async fn find_by_id(&self, id: &str) -> Result<Option<User>, Error>;
}

pub trait OrderRepository {
    async fn find_by_id(&self, id: &str) -> Result<Option<Order>, Error>;
    async fn remove(&self, id: &str) -> Result<(), Error>;
}

pub struct DynamoUsers {
    client: Client,
}

impl UserRepository for DynamoUsers {
    async fn find_by_id(&self, id: &str) -> Result<Option<User>, Error> {
        let res = self
            .client
            .get_item()
            .table_name("users")
            .key("user_id", AttributeValue::S(id.to_owned()))
            .send()
            .await?;
        Ok(res.item.map(User::from))
    }
}

pub struct DynamoOrders {
    client: Client,
}

impl OrderRepository for DynamoOrders {
    async fn find_by_id(&self, id: &str) -> Result<Option<Order>, Error> {
        let res = self
            .client
            .get_item()
            .table_name("orders")
            .key("order_id", AttributeValue::S(id.to_owned()))
            .send()
            .await?;
        Ok(res.item.map(Order::from))
    }

    /// Reads the order through its own `find_by_id` first: a call on `self`.
    async fn remove(&self, id: &str) -> Result<(), Error> {
        if self.find_by_id(id).await?.is_some() {
            self.client
                .delete_item()
                .table_name("orders")
                .key("order_id", AttributeValue::S(id.to_owned()))
                .send()
                .await?;
        }
        Ok(())
    }
}

pub trait Backend {
    type Users: UserRepository;
    type Orders: OrderRepository;
    fn users(&self) -> &Self::Users;
    fn orders(&self) -> &Self::Orders;
}

pub struct AppState {
    pub storage: Arc<dyn Storage>,
}
