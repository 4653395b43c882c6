// In the workspace's folder but in no package: no manifest says what it can call, so it
// sees every crate.
use aws_sdk_dynamodb::Client;

async fn nightly(c: &Client, days: &[&str]) {
    for d in days {
        count_orders(c, d).await;
    }
}
