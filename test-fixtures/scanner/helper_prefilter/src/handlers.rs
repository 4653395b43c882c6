// No SDK name in this file: every request here is a builder a helper in another file
// returns, sent as is or with a limit.
use crate::db::builders::{profile, recent_orders};

pub async fn orders(client: &Client, user: &str) -> Result<usize, Error> {
    let out = recent_orders(client, user).limit(10).send().await?;
    Ok(out.count() as usize)
}

pub async fn me(client: &Client, id: &str) {
    let _ = profile(client, id).send().await;
}

impl Repo {
    pub async fn audit(&self) {
        let _ = self.everything().send().await;
    }
}
