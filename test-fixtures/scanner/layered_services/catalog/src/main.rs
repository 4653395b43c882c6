use proto::catalog::v1::catalog_service_server::CatalogServiceServer;
use store::DynamoCatalog;
use usecase::CatalogUseCase;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = aws_config::load_from_env().await;
    let reader = DynamoCatalog::new(aws_sdk_dynamodb::Client::new(&config));
    let service = server::Service::new(CatalogUseCase::new(reader));
    tonic::transport::Server::builder()
        .add_service(CatalogServiceServer::new(service))
        .serve("0.0.0.0:50051".parse()?)
        .await?;
    Ok(())
}
