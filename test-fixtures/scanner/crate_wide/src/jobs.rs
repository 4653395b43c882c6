pub async fn nightly(client: &Client) {
    client.scan().table_name("Shop").send().await.ok();
}
