// Requests issued once per element through futures: `.map(..)` builds one future per
// element (no `.await` inside the closure) and a combinator runs them all. The
// combinator is the loop: its name is the kind, its call the span.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use futures::future::{join_all, try_join_all};
use futures::stream::{self, FuturesOrdered, FuturesUnordered, StreamExt, TryStreamExt};

async fn joined_later(client: &Client, ids: &[String]) {
    let futs = ids
        .iter()
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id.clone())).send());
    let _ = join_all(futs).await;
}

async fn joined_inline(client: &Client, ids: &[String]) -> Result<(), Error> {
    try_join_all(ids.iter().map(|id| {
        client
            .get_item()
            .table_name("Users")
            .key("PK", AttributeValue::S(id.clone()))
            .send()
    }))
    .await?;
    Ok(())
}

async fn unordered_from_iter(client: &Client, ids: Vec<String>) {
    let mut pending = FuturesUnordered::from_iter(
        ids.into_iter().map(|id| client.delete_item().table_name("Users").key("PK", AttributeValue::S(id)).send()),
    );
    while let Some(_done) = pending.next().await {}
}

async fn unordered_collect(client: &Client, ids: Vec<String>) {
    let mut pending = ids
        .into_iter()
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send())
        .collect::<FuturesUnordered<_>>();
    while let Some(_done) = pending.next().await {}
}

async fn ordered_by_let_type(client: &Client, ids: Vec<String>) {
    let pending: FuturesOrdered<_> = ids
        .into_iter()
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send())
        .collect();
    let _all: Vec<_> = pending.collect().await;
}

async fn buffered_stream(client: &Client, ids: Vec<String>) {
    let _out: Vec<_> = stream::iter(ids)
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send())
        .buffer_unordered(16)
        .collect()
        .await;
}

async fn buffered_stream_of_iter(client: &Client, ids: Vec<String>) {
    let _out: Vec<_> = futures::stream::iter(
        ids.into_iter()
            .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send()),
    )
    .buffered(4)
    .collect()
    .await;
}

async fn collected_then_joined(client: &Client, ids: Vec<String>) {
    let futs: Vec<_> = ids
        .into_iter()
        .map(|id| client.put_item().table_name("Users").item("PK", AttributeValue::S(id)).send())
        .collect();
    futures::future::join_all(futs).await;
}

async fn awaited_one_by_one(client: &Client, ids: Vec<String>) {
    let futs: Vec<_> = ids
        .into_iter()
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send())
        .collect();
    for f in futs {
        let _ = f.await;
    }
}

async fn stream_for_each(client: &Client, ids: Vec<String>) {
    stream::iter(ids)
        .for_each(|id| async move {
            let _ = client.delete_item().table_name("Users").key("PK", AttributeValue::S(id)).send().await;
        })
        .await;
}

async fn stream_for_each_concurrent(client: &Client, ids: Vec<String>) {
    stream::iter(ids)
        .for_each_concurrent(8, |id| {
            let req = client.delete_item().table_name("Users").key("PK", AttributeValue::S(id));
            async move {
                let _ = req.send().await;
            }
        })
        .await;
}

async fn stream_then(client: &Client, ids: Vec<String>) {
    let _got: Vec<_> = stream::iter(ids)
        .then(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send())
        .collect()
        .await;
}

async fn stream_try_for_each(client: &Client, ids: Vec<String>) -> Result<(), Error> {
    stream::iter(ids.into_iter().map(Ok))
        .try_for_each_concurrent(4, |id| async move {
            client.get_item().table_name("Users").key("PK", AttributeValue::S(id)).send().await?;
            Ok(())
        })
        .await
}

// Not loops of requests: the futures are built and never driven, a single future's
// `then`, and a `map` that builds request builders sent once as a batch.
async fn built_never_driven(client: &Client, ids: Vec<String>) {
    let futs: Vec<_> = ids
        .iter()
        .map(|id| client.get_item().table_name("Users").key("PK", AttributeValue::S(id.clone())).send())
        .collect();
    println!("{} requests prepared", futs.len());
}

async fn one_future_then(client: &Client) {
    let _ = client
        .get_item()
        .table_name("Users")
        .key("PK", AttributeValue::S("one".into()))
        .send()
        .then(|r| async move { r })
        .await;
}

async fn keys_mapped_then_batched(client: &Client, ids: Vec<String>) {
    let keys: Vec<_> = ids
        .iter()
        .map(|id| HashMap::from([("PK".to_string(), AttributeValue::S(id.clone()))]))
        .collect();
    let ka = KeysAndAttributes::builder().set_keys(Some(keys)).build();
    let _ = client.batch_get_item().request_items("Users", ka.unwrap()).send().await;
}

async fn sync_for_each_drops(client: &Client, ids: Vec<String>) {
    // `Iterator::for_each` drops each future unpolled: no request at all.
    ids.iter().for_each(|id| {
        let _ = client.get_item().table_name("Users").key("PK", AttributeValue::S(id.clone())).send();
    });
}
