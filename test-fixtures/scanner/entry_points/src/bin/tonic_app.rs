// tonic: `Server::builder().add_service(..).serve(..)`; the service impl is the entry.
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    CLIENT.query().table_name("Peers").key_condition_expression("PK = :pk").send().await.ok();
    tonic::transport::Server::builder()
        .add_service(InventoryServer::new(Stock::default()))
        .serve("[::1]:50051".parse()?)
        .await?;
    Ok(())
}

#[tonic::async_trait]
impl Inventory for Stock {
    async fn count(&self, req: Request<CountRequest>) -> Result<Response<CountReply>, Status> {
        CLIENT.query().table_name("Stock").key_condition_expression("PK = :pk").send().await.ok();
        Ok(Response::new(CountReply::default()))
    }
}
