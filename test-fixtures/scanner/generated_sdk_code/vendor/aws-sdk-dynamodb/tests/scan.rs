// The SDK's hand-written tests carry no generator header: scanned like any code.
#[tokio::test]
async fn scan_sends_the_table() {
    let client = test_client();
    let _ = client.scan().table_name("Movies").send().await;
}
