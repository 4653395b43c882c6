//! The web server: `/posts` is served by `handlers::list_posts`.

mod handlers;
mod repo;

use axum::{routing::get, Router};

#[tokio::main]
async fn main() {
    let app = Router::new().route("/posts", get(handlers::list_posts));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
