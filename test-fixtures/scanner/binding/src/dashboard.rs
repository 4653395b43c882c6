// The table's name sits in a config loaded later (`Option<BusConfig>`), opened with
// `.as_ref().unwrap()` where the read is made: the same field as `config.stats_table`.
use aws_sdk_dynamodb::Client;

pub struct BusConfig {
    pub stats_table: String,
}

impl BusConfig {
    pub fn from_env() -> Self {
        BusConfig {
            stats_table: std::env::var("STATS_TABLE").unwrap(),
        }
    }
}

pub struct Dashboard {
    client: Client,
    loaded: Option<BusConfig>,
}

impl Dashboard {
    pub fn new(client: Client) -> Self {
        Dashboard {
            client,
            loaded: Some(BusConfig::from_env()),
        }
    }

    pub async fn stats(&self) -> usize {
        let out = self
            .client
            .scan()
            .table_name(&self.loaded.as_ref().unwrap().stats_table)
            .send()
            .await;
        out.map(|o| o.count() as usize).unwrap_or(0)
    }
}
