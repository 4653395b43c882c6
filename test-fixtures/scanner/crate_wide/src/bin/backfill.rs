#[tokio::main]
async fn main() {
    let client = make_client().await;
    client.scan().table_name("Shop").send().await.ok();
}
