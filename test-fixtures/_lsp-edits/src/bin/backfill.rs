//! A one-off job: scans the table once, far from any request.

use aws_sdk_dynamodb::Client;

const TABLE: &str = "Orders";

#[tokio::main]
async fn main() {
    let client = Client::new(&aws_config::load_from_env().await);
    for _pass in 0..3 {
        let _ = client.scan().table_name(TABLE).send().await;
    }
}
