use aws_sdk_dynamodb::types::Select;
use aws_sdk_dynamodb::Client;

pub struct DynamoKennel {
    client: Client,
    table_name: String,
}

impl DynamoKennel {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table_name: "Kennel".to_string(),
        }
    }

    async fn full_table_scan(&self, count_only: bool) -> Result<usize, String> {
        let mut count = 0;
        let mut exclusive_start_key = None;
        loop {
            let page = self
                .client
                .scan()
                .table_name(&self.table_name)
                .set_exclusive_start_key(exclusive_start_key)
                .select(if count_only { Select::Count } else { Select::AllAttributes })
                .send()
                .await
                .map_err(|e| e.to_string())?;
            count += page.count as usize;
            exclusive_start_key = page.last_evaluated_key;
            if exclusive_start_key.is_none() {
                break;
            }
        }
        Ok(count)
    }

    async fn dog_count_impl(&self) -> Result<usize, String> {
        self.full_table_scan(true).await
    }

    /// The census runs on a blocking thread, as the kennel's callers are sync.
    pub fn dog_count(&self) -> Result<usize, String> {
        tokio::runtime::Handle::current().block_on(self.dog_count_impl())
    }

    pub async fn census(&self) -> Result<usize, String> {
        self.client
            .scan()
            .table_name("KennelCensus")
            .send()
            .await
            .map(|out| out.count as usize)
            .map_err(|e| e.to_string())
    }
}
