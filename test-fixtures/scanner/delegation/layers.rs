pub struct DocumentService {
    repository: DocumentRepository,
}

impl DocumentService {
    pub async fn list_all(&self) -> Vec<Document> {
        self.repository.list_all().await
    }
}

pub struct DocumentRepository {
    client: aws_sdk_dynamodb::Client,
}

impl DocumentRepository {
    pub async fn list_all(&self) -> Vec<Document> {
        let out = self.client.scan().table_name("Documents").send().await;
        to_documents(out)
    }
}
