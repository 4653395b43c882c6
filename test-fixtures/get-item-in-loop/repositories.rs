// Repositories behind traits, read in loops through the trait's method. A call by a
// method name means the implementations of one trait; a name that methods of several
// traits define (`find_by_id` of every repository) says which one runs only through the
// receiver's type.
use async_trait::async_trait;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;
use std::sync::Arc;

#[async_trait]
pub trait ProductStore: Send + Sync {
    async fn load_product(&self, id: &str) -> Result<Option<Product>, Error>;
}

pub struct DynamoProductStore {
    client: Client,
}

#[async_trait]
impl ProductStore for DynamoProductStore {
    async fn load_product(&self, id: &str) -> Result<Option<Product>, Error> {
        let res = self
            .client
            .get_item()
            //~^ get-item-in-loop
            .table_name("Products")
            .key("productId", AttributeValue::S(id.to_string()))
            .send()
            .await?;
        Ok(res.item.map(to_product))
    }
}

/// The store the tests use: the same trait, so the loop below means either.
pub struct MemoryProductStore {
    products: HashMap<String, Product>,
}

#[async_trait]
impl ProductStore for MemoryProductStore {
    async fn load_product(&self, id: &str) -> Result<Option<Product>, Error> {
        Ok(self.products.get(id).cloned())
    }
}

pub struct Basket {
    store: Arc<dyn ProductStore>,
}

impl Basket {
    pub async fn products(&self, ids: &[String]) -> Result<Vec<Product>, Error> {
        let mut out = Vec::new();
        for id in ids {
            if let Some(p) = self.store.load_product(id).await? {
                out.push(p);
            }
        }
        Ok(out)
    }
}

// ---- must not be flagged ----

#[async_trait]
pub trait OrderRepository: Send + Sync {
    async fn find_by_id(&self, id: &str) -> Result<Option<Order>, Error>;
}

#[async_trait]
pub trait CustomerRepository: Send + Sync {
    async fn find_by_id(&self, id: &str) -> Result<Option<Customer>, Error>;
}

pub struct DynamoOrderRepository {
    client: Client,
}

#[async_trait]
impl OrderRepository for DynamoOrderRepository {
    async fn find_by_id(&self, id: &str) -> Result<Option<Order>, Error> {
        let res = self
            .client
            .get_item()
            .table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .send()
            .await?;
        Ok(res.item.map(to_order))
    }
}

pub struct DynamoCustomerRepository {
    client: Client,
}

#[async_trait]
impl CustomerRepository for DynamoCustomerRepository {
    async fn find_by_id(&self, id: &str) -> Result<Option<Customer>, Error> {
        let res = self
            .client
            .get_item()
            //~^ get-item-in-loop
            .table_name("Orders")
            .key("PK", AttributeValue::S(format!("CUSTOMER#{id}")))
            .key("SK", AttributeValue::S("PROFILE".into()))
            .send()
            .await?;
        Ok(res.item.map(to_customer))
    }
}

/// One order read, then one customer per line: the order's read is not repeated. Which
/// `find_by_id` runs in the loop is the receiver's type, `C: CustomerRepository`: the
/// customers' read is the N+1, the orders' is not.
pub async fn order_with_buyers<R: OrderRepository, C: CustomerRepository>(
    orders: &R,
    customers: &C,
    id: &str,
) -> Result<Vec<Customer>, Error> {
    let order = orders.find_by_id(id).await?;
    let mut out = Vec::new();
    for line in order.map(|o| o.lines).unwrap_or_default() {
        if let Some(c) = customers.find_by_id(&line.buyer).await? {
            out.push(c);
        }
    }
    Ok(out)
}
