// lambda_http by path.
#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_http::run(service_fn(http_fn)).await
}

async fn http_fn(req: Request) -> Result<Response<Body>, Error> {
    CLIENT.query().table_name("Http").key_condition_expression("PK = :pk").send().await?;
    Ok(Response::default())
}
