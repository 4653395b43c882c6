pub async fn start_server(cfg: Config) {
    let listener = tokio::net::TcpListener::bind(cfg.addr).await.unwrap();
    axum::serve(listener, router()).await.unwrap();
}

pub async fn export_all() {
    CLIENT.scan().table_name("Exports").send().await.ok();
}
