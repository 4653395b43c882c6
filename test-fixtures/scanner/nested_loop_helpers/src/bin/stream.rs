// The table's stream handler: up to 100 records per event.
use std::collections::HashMap;

use aws_lambda_events::dynamodb::Event;
use lambda_runtime::{service_fn, Error, LambdaEvent};
use relay::{cache, dynamodb, model};

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(func)).await
}

async fn func(event: LambdaEvent<Event>) -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = aws_sdk_dynamodb::Client::new(&config);
    let table_name = std::env::var("TABLE_NAME")?;
    let aliases: HashMap<String, String> = HashMap::new();
    for record in event.payload.records {
        let Some(username) = record.change.new_image.get(dynamodb::PARTITION_KEY_NAME) else {
            continue;
        };
        let username = format!("{username:?}");
        let name = cache::get_item(&aliases, &username).cloned().unwrap_or(username);
        let user = model::user::get_item(&name, &client, &table_name).await;
        notify(user.item);
    }
    Ok(())
}

fn notify<T>(_: T) {}
