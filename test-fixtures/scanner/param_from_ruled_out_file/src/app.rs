// The application: it never names the SDK, only the helpers above, and passes each
// its table: one from its loaded configuration, one a constant.
use crate::dynamo::{bot_details, stats_for_period};

const CRON_TABLE: &str = "LeoCron";

pub struct App {
    client: Client,
    loaded_config: Option<LeoConfig>,
}

impl App {
    pub async fn refresh(&mut self) -> Result<(), Error> {
        let stats = stats_for_period(
            &self.client,
            &self.loaded_config.as_ref().unwrap().leo_stats,
            "minute_15",
        ).await?;
        let bots = bot_details(&self.client, CRON_TABLE).await?;
        self.show(stats, bots);
        Ok(())
    }
}
