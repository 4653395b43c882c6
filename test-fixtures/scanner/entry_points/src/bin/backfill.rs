// A one-off binary: its `main` starts no server, although it calls functions whose
// names look like one (`run_backfill`, `start_report`, `bind_args`). Its own helpers,
// called only from this `main`, are one-off too.
#[tokio::main]
async fn main() {
    let args = bind_args();
    let client = make_client().await;
    client.put_item().table_name("Jobs").item("PK", AttributeValue::S("backfill".into())).send().await.ok();
    run_backfill(&client).await;
    start_report(&args);
}

async fn run_backfill(client: &Client) {
    let mut start = None;
    loop {
        let page = client.scan().table_name("Orders").set_exclusive_start_key(start).send().await.unwrap();
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
}
