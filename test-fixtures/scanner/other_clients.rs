// Methods named like DynamoDB's on other clients and iterators are not DynamoDB calls;
// the DynamoDB calls among them are.
use aws_sdk_dynamodb::Client;

async fn timestream(client: &aws_sdk_timestreamquery::Client) {
    let _ = client.query().query_string("SELECT 1").send().await;
}

async fn redis_keys(con: &mut redis::aio::MultiplexedConnection) {
    let mut keys = con.scan().await.unwrap();
    let _ = keys.next_item().await;
}

fn running_sum(v: &[i32]) -> Vec<i32> {
    v.iter()
        .scan(0, |acc, x| {
            *acc += x;
            Some(*acc)
        })
        .collect()
}

async fn postgres(client: &tokio_postgres::Client, id: i32) {
    let _ = client.query("SELECT * FROM posts WHERE id = $1", &[&id]).await;
}

// DynamoDB: a table name, or a builder sent bare or handed on.
async fn posts(client: &Client) {
    let _ = client.scan().table_name("Posts").send().await;
}

async fn bare(client: &Client) {
    let _ = client.scan().send().await;
}

async fn handed_on(client: &Client) {
    let q = client.query();
    finish(q).await;
}
