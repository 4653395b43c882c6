// `main` comes from the crate's own macro.
use lambda_runtime::LambdaEvent;
use shop::repo::Repo;

async fn list_orders(event: LambdaEvent<Value>) -> Result<Value, Error> {
    let repo = Repo::from_env().await;
    Ok(json!(repo.scan().await?))
}

shop::lambda_main!(list_orders);
