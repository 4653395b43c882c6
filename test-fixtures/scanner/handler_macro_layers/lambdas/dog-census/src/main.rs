// The nightly census: a one-off job, not a request path.
use kennel::DynamoKennel;
use lambda_kit::*;

async fn take_census() {
    let config = aws_config::load_from_env().await;
    let kennel = DynamoKennel::new(aws_sdk_dynamodb::Client::new(&config));
    log::info!("census: {:?}", kennel.census().await);
}

batch_main!(async take_census);
