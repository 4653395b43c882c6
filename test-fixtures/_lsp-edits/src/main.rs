//! The service: routes to the handlers, which reach the repository in other files.

mod handlers;
mod names;
mod repo;

use axum::{routing::get, Router};

#[tokio::main]
async fn main() {
    let app = Router::new()
        .route("/orders", get(handlers::list_orders))
        .route("/open", get(handlers::open_orders))
        .route("/users", get(handlers::users))
        .route("/audit", get(handlers::audit));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
