use envmatch::Client;

async fn create_client() -> Result<Client, Error> {
    let config = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
    let dynamodb = aws_sdk_dynamodb::Client::new(&config);
    let table_name = match std::env::var("TABLE_NAME") {
        Ok(name) => name,
        Err(_) => {
            eprintln!("TABLE_NAME environment variable not set");
            std::process::exit(1);
        }
    };
    Ok(Client::new(dynamodb, table_name))
}
