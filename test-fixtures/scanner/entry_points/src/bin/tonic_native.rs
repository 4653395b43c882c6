// tonic 0.13+: service traits use native `async fn`, so the impl carries no attribute;
// the trait is known as a service because it is imported from a generated
// `*_server` module.
use proto::ledger_server::{Ledger, LedgerServer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tonic::transport::Server::builder()
        .add_service(LedgerServer::new(Books::default()))
        .serve("[::1]:50052".parse()?)
        .await?;
    Ok(())
}

impl Ledger for Books {
    async fn balance(&self, req: Request<BalanceRequest>) -> Result<Response<BalanceReply>, Status> {
        CLIENT.get_item().table_name("Ledger").key("PK", AttributeValue::S("A".into())).send().await.ok();
        Ok(Response::new(BalanceReply::default()))
    }
}

// Not a service: a trait of the crate's own.
impl Summary for Books {
    async fn total(&self) {
        CLIENT.get_item().table_name("Ledger").key("PK", AttributeValue::S("T".into())).send().await.ok();
    }
}
