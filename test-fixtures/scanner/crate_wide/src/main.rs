mod handlers;
mod names;
mod repo;

#[tokio::main]
async fn main() {
    let app = Router::new()
        .route("/customers/:email", get(handlers::get_customer))
        .route("/recent", get(handlers::recent));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
