// lambda_runtime imported by name: `run(service_fn(..))`.
use lambda_runtime::{run, service_fn, Error, LambdaEvent};

#[tokio::main]
async fn main() -> Result<(), Error> {
    CLIENT.get_item().table_name("Warm").key("PK", AttributeValue::S("w".into())).send().await.ok();
    run(service_fn(on_event)).await
}

async fn on_event(event: LambdaEvent<Value>) -> Result<Value, Error> {
    CLIENT.put_item().table_name("Events").item("PK", AttributeValue::S("e".into())).send().await?;
    Ok(Value::Null)
}
