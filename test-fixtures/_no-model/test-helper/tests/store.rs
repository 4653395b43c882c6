mod support;

use support::{setup, Config};

#[tokio::test]
async fn reads_what_it_wrote() {
    let config = Config::local();
    let client = aws_sdk_dynamodb::Client::new(&aws_config::load_from_env().await);
    setup(&client, &config.table_name).await;
    client
        .put_item()
        .table_name(&config.table_name)
        .item("id", aws_sdk_dynamodb::types::AttributeValue::S("a".into()))
        .send()
        .await
        .unwrap();
    let got = client
        .get_item()
        .table_name(&config.table_name)
        .key("id", aws_sdk_dynamodb::types::AttributeValue::S("a".into()))
        .send()
        .await
        .unwrap();
    assert!(got.item.is_some());
}
