// The handler is a closure that keeps the store between invocations.
use lambda_http::{service_fn, Request};
use shop::store::{DynamoDBStore, StoreGetAll};

#[tokio::main]
async fn main() -> Result<(), E> {
    let store = get_store().await;
    lambda_http::run(service_fn(|event: Request| get_products(&store, event))).await?;
    Ok(())
}

async fn get_products(store: &dyn StoreGetAll, event: Request) -> Result<impl IntoResponse, E> {
    let next = event.query_string_parameters().first("next").map(str::to_string);
    let range = store.all(next.as_deref()).await?;
    Ok(response(range))
}
