use kennel::DynamoKennel;
use lambda_kit::*;

async fn bark_count(_req: SimpleRequest<'_>) -> SimpleResult {
    let kennel = DynamoKennel::new(dynamo());
    let count = tokio::runtime::Handle::current()
        .spawn_blocking(move || kennel.dog_count())
        .await
        .unwrap()?;
    Ok(format!("{{\"count\": {count}}}"))
}

lambda_main!(async bark_count, dynamo = aws_sdk_dynamodb::Client);
