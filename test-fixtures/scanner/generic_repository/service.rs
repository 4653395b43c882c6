// Each caller picks its entity: a turbofish, or the type of the repository it holds.
use aws_sdk_dynamodb::types::AttributeValue;
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

/// Builders returned by generic helpers: each chain is its caller's entity's request.
pub async fn export(client: &Client, invoice_repo: &Repository<Invoice>, id: &str) -> Result<(), Error> {
    scan_of::<Customer>(client).send().await?;
    scan_of::<Invoice>(client).limit(100).send().await?;
    invoice_repo
        .listing()
        .key_condition_expression("invoice_id = :id")
        .expression_attribute_values(":id", AttributeValue::S(id.to_owned()))
        .send()
        .await?;
    Ok(())
}
