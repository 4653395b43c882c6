// A `workspace = true` dependency of `orders`, renamed in the workspace's table.
use aws_sdk_dynamodb::Client;

pub async fn audit(c: &Client) {
    c.put_item().table_name("Audit").send().await;
}
