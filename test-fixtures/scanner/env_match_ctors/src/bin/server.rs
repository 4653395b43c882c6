use envmatch::Client;

async fn create_client() -> anyhow::Result<Client> {
    let config = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
    let dynamodb = aws_sdk_dynamodb::Client::new(&config);
    let table_name = if let Ok(name) = std::env::var("TABLE_NAME") {
        name
    } else {
        return Err(anyhow::anyhow!("TABLE_NAME environment variable not set"));
    };
    Ok(Client::new(dynamodb, table_name))
}
