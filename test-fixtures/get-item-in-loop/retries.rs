// Loops that send one request again until it succeeds: a retry is no walk over keys.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::time::Duration;

const MAX_ATTEMPTS: u32 = 5;

pub struct Sessions {
    client: Client,
}

impl Sessions {
    /// `for attempt in 0..N` with a backoff: one GetItem, retried.
    pub async fn load(&self, id: &str) -> Result<Session, Error> {
        let mut last_err = None;
        for attempt in 0..MAX_ATTEMPTS {
            match self
                .client
                .get_item()
                .table_name("Products")
                .key("productId", AttributeValue::S(id.to_string()))
                .send()
                .await
            {
                Ok(out) => return Ok(to_session(out.item.unwrap_or_default())),
                Err(e) => {
                    last_err = Some(e);
                    tokio::time::sleep(Duration::from_millis(50 * 2u64.pow(attempt))).await;
                }
            }
        }
        Err(Error::from(last_err))
    }

    /// `while retries < N`: the same.
    pub async fn load_while(&self, id: &str) -> Result<Session, Error> {
        let mut retries = 0;
        while retries < 3 {
            let res = self
                .client
                .get_item()
                .table_name("Products")
                .key("productId", AttributeValue::S(id.to_string()))
                .send()
                .await;
            if let Ok(out) = res {
                return Ok(to_session(out.item.unwrap_or_default()));
            }
            retries += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(Error::Exhausted)
    }

    /// A walk over ids that backs off between reads is still one GetItem per id.
    pub async fn load_each(&self, ids: &[String]) -> Result<Vec<Session>, Error> {
        let mut out = Vec::new();
        for id in ids {
            match self
                .client
                .get_item()
                //~^ get-item-in-loop
                .table_name("Products")
                .key("productId", AttributeValue::S(id.clone()))
                .send()
                .await
            {
                Ok(res) => out.push(to_session(res.item.unwrap_or_default())),
                Err(e) => return Err(e.into()),
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Ok(out)
    }
}

/// The retry is in the caller: `fetch` is called again until it succeeds.
pub async fn fetch(client: &Client, id: &str) -> Result<Session, Error> {
    let out = client
        .get_item()
        .table_name("Products")
        .key("productId", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(to_session(out.item.unwrap_or_default()))
}

pub async fn fetch_with_backoff(client: &Client, id: &str) -> Result<Session, Error> {
    for attempt in 1..=MAX_ATTEMPTS {
        match fetch(client, id).await {
            Ok(s) => return Ok(s),
            Err(e) if attempt < MAX_ATTEMPTS => tokio::time::sleep(backoff(attempt)).await,
            Err(e) => return Err(e),
        }
    }
    unreachable!()
}
