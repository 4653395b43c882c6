// `main` starts the server through a function in another file: still a server.
#[tokio::main]
async fn main() {
    let cfg = load_config();
    CLIENT.scan().table_name("Tenants").send().await.ok();
    app::start_server(cfg).await;
}
