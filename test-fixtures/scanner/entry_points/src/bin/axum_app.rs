// A server: `main` warms a cache once at start-up (neither hot nor cold), the route
// handler runs per request (hot).
use axum::{routing::get, Router};

#[tokio::main]
async fn main() {
    let client = make_client().await;
    warm_cache(&client).await;
    let app = Router::new().route("/users", get(list_users));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

async fn warm_cache(client: &Client) {
    client.scan().table_name("Settings").send().await.ok();
}

async fn list_users(State(client): State<Client>) -> Json<Vec<User>> {
    client.query().table_name("Users").key_condition_expression("PK = :pk").send().await.ok();
    Json(vec![])
}
