use async_graphql::{Context, Object, Result};

use crate::repo::Repo;

pub struct QueryRoot;

#[Object]
impl QueryRoot {
    /// Resolves `orders(customer)`: the repository's `query` method.
    async fn orders(&self, ctx: &Context<'_>, customer: String) -> Result<Vec<Order>> {
        Ok(ctx.data_unchecked::<Repo>().query(&customer).await?)
    }
}
