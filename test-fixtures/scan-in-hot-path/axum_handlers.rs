use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

mod names {
    pub const CATALOG: &str = "Catalog";
}

struct Catalog {
    client: Client,
    table: String,
}

impl Catalog {
    fn from_env(client: Client) -> Self {
        Self { client, table: std::env::var("CATALOG_TABLE").unwrap_or_default() }
    }

    async fn count(&self) -> usize {
        let req = self.client.scan().table_name(&self.table);
        //~^ scan-in-hot-path
        let out = req.send().await.unwrap_or_default();
        out.count() as usize
    }

    async fn in_category(&self, category: &str) -> usize {
        // Not flagged: a Query on the category GSI.
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByCategory")
            .key_condition_expression("category = :c")
            .expression_attribute_values(":c", AttributeValue::S(category.into()))
            .send()
            .await
            .unwrap_or_default();
        out.count() as usize
    }
}

async fn count_products(State(catalog): State<Catalog>) -> Json<usize> {
    Json(catalog.count().await)
}

async fn category(State(catalog): State<Catalog>, Path(c): Path<String>) -> Json<usize> {
    Json(catalog.in_category(&c).await)
}

async fn all_products(State(client): State<Client>) -> Json<usize> {
    let out = client.scan().table_name(names::CATALOG).send().await.unwrap_or_default();
    //~^ scan-in-hot-path
    Json(out.count() as usize)
}

pub fn router(catalog: Catalog) -> Router {
    Router::new()
        .route("/products/count", get(count_products))
        .route("/products/all", get(all_products))
        .route("/categories/:c", get(category))
        .with_state(catalog)
}
