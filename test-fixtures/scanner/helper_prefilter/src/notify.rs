// Chains that look alike but are no DynamoDB request: not parsed for calls.
pub async fn notify(tx: &Sender<String>, msg: &str) {
    let _ = tx.clone().send(msg.to_string()).await;
    let _ = http().post("https://example.com").send().await;
}
