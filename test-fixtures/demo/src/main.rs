//! The blog service's HTTP API.

mod api;
mod model;
mod repo;

use axum::routing::{get, post};
use axum::Router;

use crate::repo::BlogRepo;

#[tokio::main]
async fn main() {
    let config = aws_config::load_from_env().await;
    let repo = BlogRepo::new(aws_sdk_dynamodb::Client::new(&config));
    let app = Router::new()
        .route("/blogs", get(api::blogs::latest).post(api::blogs::create))
        .route("/blogs/published", get(api::blogs::published))
        .route("/blogs/search", get(api::blogs::search))
        .route("/users/:id/blogs", get(api::users::blogs_of_user))
        .route("/users/by-email/:email", get(api::users::by_email))
        .route("/users", post(api::users::register))
        .route("/tags/:tag/blogs", get(api::blogs::with_tag))
        .with_state(repo);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await.expect("port 8080 is free");
    axum::serve(listener, app).await.expect("server runs");
}
