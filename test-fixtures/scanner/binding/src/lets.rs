// let-else and if-let bindings of the table's env var; axum state.
use aws_sdk_dynamodb::Client;
use axum::extract::State;

pub async fn orders(client: &Client) -> Result<(), Error> {
    let Ok(table) = std::env::var("ORDERS_TABLE") else {
        return Err(Error::Config("ORDERS_TABLE"));
    };
    client.scan().table_name(&table).limit(10).send().await?;
    Ok(())
}

pub async fn maybe_orders(client: &Client) -> Result<(), Error> {
    if let Some(table) = std::env::var("ORDERS_TABLE").ok() {
        client.scan().table_name(table).limit(10).send().await?;
    }
    Ok(())
}

#[derive(Clone)]
pub struct AppState {
    pub client: Client,
    pub orders_table: String,
}

pub fn state(client: Client) -> AppState {
    AppState {
        client,
        orders_table: std::env::var("ORDERS_TABLE").unwrap_or_else(|_| "Orders".into()),
    }
}

pub async fn list(State(state): State<AppState>) -> Json<Vec<Order>> {
    let out = state
        .client
        .scan()
        .table_name(state.orders_table.clone())
        .limit(10)
        .send()
        .await
        .unwrap();
    Json(to_orders(out.items()))
}

/// The table copied into a task: what the task reads is the field it copied.
pub async fn list_in_task(State(state): State<AppState>) -> usize {
    let client = state.client.to_owned();
    let table = state.orders_table.to_owned();
    let out = tokio::spawn(async move { client.scan().table_name(&table).limit(10).send().await })
        .await
        .expect("the task runs to its end")
        .unwrap();
    out.count() as usize
}
