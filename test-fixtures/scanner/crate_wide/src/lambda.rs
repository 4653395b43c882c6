async fn handler(event: LambdaEvent<Value>) -> Result<Value, Error> {
    process(&event).await
}

async fn process(event: &LambdaEvent<Value>) -> Result<Value, Error> {
    CLIENT.scan().table_name("Events").send().await?;
    Ok(Value::Null)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(handler)).await
}
