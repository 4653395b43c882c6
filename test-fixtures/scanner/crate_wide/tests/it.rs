#[tokio::test]
async fn roundtrip() {
    client().scan().table_name("Shop").send().await.ok();
}
