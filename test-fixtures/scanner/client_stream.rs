// Loops over the messages of a tonic client stream walk messages that arrive one at a
// time: no collection to batch, so a request in them is not repeated per element.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status, Streaming};

pub struct Uploads {
    client: Client,
}

#[tonic::async_trait]
impl upload_server::Upload for Uploads {
    // `request.into_inner()` of a `Request<Streaming<_>>`: the client's messages.
    async fn put(
        &self,
        request: Request<Streaming<PutRequest>>,
    ) -> Result<Response<PutResponse>, Status> {
        let mut in_stream = request.into_inner();
        while let Some(message) = in_stream.next().await {
            let message = message?;
            let _ = self
                .client
                .get_item()
                .table_name("Blobs")
                .key("hash", AttributeValue::S(message.hash))
                .send()
                .await;
        }
        Ok(Response::new(PutResponse::default()))
    }

    // A `Streaming<_>` parameter read with `message()`.
    async fn log(&self, mut stream: Streaming<LogRequest>) -> Result<(), Status> {
        while let Some(entry) = stream.message().await? {
            let _ = self
                .client
                .get_item()
                .table_name("Logs")
                .key("id", AttributeValue::S(entry.id))
                .send()
                .await;
        }
        Ok(())
    }
}

impl Uploads {
    // Reached from a client stream's loop through a call: still once per message.
    async fn find_blob(&self, hash: &str) {
        let _ = self
            .client
            .get_item()
            .table_name("Blobs")
            .key("hash", AttributeValue::S(hash.to_string()))
            .send()
            .await;
    }

    pub async fn put_all(&self, request: Request<Streaming<PutRequest>>) {
        let mut in_stream = request.into_inner();
        while let Some(Ok(message)) = in_stream.next().await {
            self.find_blob(&message.hash).await;
        }
    }

    // The same function called per element of a list: repeated.
    pub async fn check_all(&self, hashes: Vec<String>) {
        for hash in hashes {
            self.find_blob(&hash).await;
        }
    }
}

// A stream of a read's items is a collection: one GetItem per item is repeated.
pub async fn owners(client: &Client, ids: Vec<String>) {
    let mut items = tokio_stream::iter(ids);
    while let Some(id) = items.next().await {
        let _ = client
            .get_item()
            .table_name("Owners")
            .key("id", AttributeValue::S(id))
            .send()
            .await;
    }
}
