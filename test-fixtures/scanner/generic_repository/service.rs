// Each caller picks its entity: a turbofish, or the type of the repository it holds.
use aws_sdk_dynamodb::Client;

pub async fn statement(client: Client, customer: &str, invoices: &[String]) -> Result<(), Error> {
    let customers = Repository::<Customer>::new(client.clone());
    let invoice_repo: Repository<Invoice> = Repository::new(client.clone());
    customers.get(customer).await?;
    for id in invoices {
        invoice_repo.get(id).await?;
    }
    invoice_repo.all().await?;
    Ok(())
}

pub async fn forget(client: &Client, customer: &str) -> Result<(), Error> {
    delete_entity::<Customer>(client, customer).await
}
