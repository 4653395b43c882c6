// Importing and loading games in batches: the chunk size must fit DynamoDB's limits.
use aws_sdk_dynamodb::types::{
    AttributeValue, KeysAndAttributes, Put, PutRequest, TransactWriteItem, WriteRequest,
};
use aws_sdk_dynamodb::Client;
use futures::future::try_join_all;

const GAMES_TABLE: &str = "Games";
const LOAD_BATCH: usize = 150;

fn game_item(g: &Game) -> HashMap<String, AttributeValue> {
    serde_dynamo::to_item(g).unwrap_or_default()
}

/// 30 writes per call: BatchWriteItem takes 25.
pub async fn import(client: &Client, games: &[Game]) -> Result<(), Error> {
    for chunk in games.chunks(30) {
        //~^ rejected-request
        client
            .batch_write_item()
            .request_items(
                GAMES_TABLE,
                chunk
                    .iter()
                    .map(|g| {
                        WriteRequest::builder()
                            .put_request(PutRequest::builder().set_item(Some(game_item(g))).build()?)
                            .build()
                    })
                    .collect(),
            )
            .send()
            .await?;
    }
    Ok(())
}

/// 150 keys per call, from a constant: BatchGetItem takes 100.
pub async fn load(client: &Client, user: &str, dates: &[String]) -> Result<Vec<Game>, Error> {
    let calls = dates.chunks(LOAD_BATCH).map(|chunk| {
        //~^ rejected-request
        let keys = chunk
            .iter()
            .map(|d| {
                HashMap::from([
                    ("UserId".to_string(), AttributeValue::S(user.to_string())),
                    ("GameDate".to_string(), AttributeValue::S(d.clone())),
                ])
            })
            .collect::<Vec<_>>();
        client
            .batch_get_item()
            .request_items(
                GAMES_TABLE,
                KeysAndAttributes::builder().set_keys(Some(keys)).build().unwrap(),
            )
            .send()
    });
    let out = try_join_all(calls).await?;
    Ok(to_games(out))
}

/// 120 puts per transaction: TransactWriteItems takes 100.
pub async fn import_atomically(client: &Client, games: &[Game]) -> Result<(), Error> {
    for chunk in games.chunks_exact(120) {
        //~^ rejected-request
        let actions: Vec<TransactWriteItem> = chunk
            .iter()
            .map(|g| {
                TransactWriteItem::builder()
                    .put(Put::builder().table_name(GAMES_TABLE).set_item(Some(game_item(g))).build()?)
                    .build()
            })
            .collect();
        client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await?;
    }
    Ok(())
}

// ---- must not be flagged ----

const WRITE_BATCH: usize = 25;

pub async fn import_fixed(client: &Client, games: &[Game]) -> Result<(), Error> {
    for chunk in games.chunks(WRITE_BATCH) {
        let writes: Vec<WriteRequest> = chunk
            .iter()
            .map(|g| {
                WriteRequest::builder()
                    .put_request(PutRequest::builder().set_item(Some(game_item(g))).build()?)
                    .build()
            })
            .collect();
        client
            .batch_write_item()
            .request_items(GAMES_TABLE, writes)
            .send()
            .await?;
    }
    Ok(())
}

pub async fn load_fixed(client: &Client, user: &str, dates: &[String]) -> Result<(), Error> {
    for chunk in dates.chunks(100) {
        let keys: Vec<_> = chunk
            .iter()
            .map(|d| {
                HashMap::from([
                    ("UserId".to_string(), AttributeValue::S(user.to_string())),
                    ("GameDate".to_string(), AttributeValue::S(d.clone())),
                ])
            })
            .collect();
        let wanted = KeysAndAttributes::builder().set_keys(Some(keys)).build()?;
        client.batch_get_item().request_items(GAMES_TABLE, wanted).send().await?;
    }
    Ok(())
}

/// Only the finished games of each chunk of 40 are written: at most 40, perhaps
/// fewer. The count is not the chunk's, so it is not judged.
pub async fn import_finished(client: &Client, games: &[Game]) -> Result<(), Error> {
    for chunk in games.chunks(40) {
        let writes: Vec<WriteRequest> = chunk
            .iter()
            .filter(|g| g.finished)
            .map(|g| {
                WriteRequest::builder()
                    .put_request(PutRequest::builder().set_item(Some(game_item(g))).build()?)
                    .build()
            })
            .collect();
        client
            .batch_write_item()
            .request_items(GAMES_TABLE, writes)
            .send()
            .await?;
    }
    Ok(())
}

/// Two players' games of one day, their keys pushed one by one into the list: every
/// key has both key attributes.
pub async fn head_to_head(client: &Client, a: &str, b: &str, day: &str) -> Result<(), Error> {
    let mut keys = Vec::new();
    let mut first = HashMap::new();
    first.insert("UserId".to_string(), AttributeValue::S(a.to_string()));
    first.insert("GameDate".to_string(), AttributeValue::S(day.to_string()));
    keys.push(first);
    let mut second = HashMap::new();
    second.insert("UserId".to_string(), AttributeValue::S(b.to_string()));
    second.insert("GameDate".to_string(), AttributeValue::S(day.to_string()));
    keys.push(second);
    let mut request_items = HashMap::new();
    request_items.insert(
        GAMES_TABLE.to_string(),
        KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
    );
    client
        .batch_get_item()
        .set_request_items(Some(request_items))
        .send()
        .await?;
    Ok(())
}
