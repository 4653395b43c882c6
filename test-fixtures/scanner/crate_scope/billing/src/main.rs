// An unrelated one-off binary with the same function names as the store: the orders
// handler cannot call these, and this binary's loop cannot call the store's.
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

async fn fetch_all(c: &Client) -> Vec<Invoice> {
    c.scan().table_name("Invoices").send().await
}

fn recent_orders(c: &Client) -> QueryFluentBuilder {
    c.query()
        .table_name("Invoices")
        .key_condition_expression("pk = :pk")
}

async fn load_order(c: &Client, id: &str) -> Invoice {
    c.get_item().table_name("Invoices").key("pk", id).send().await
}

async fn audit(c: &Client) {
    c.put_item().table_name("BillingAudit").send().await;
}

#[tokio::main]
async fn main() {
    let c = client().await;
    audit(&c).await;
    fetch_all(&c).await;
    let latest = recent_orders(&c).limit(5).send().await;
    for id in ids {
        load_order(&c, id).await;
    }
}
