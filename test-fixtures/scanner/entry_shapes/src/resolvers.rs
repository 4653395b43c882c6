// An AppSync Lambda on lambda_appsync: `appsync_lambda_main!` (in main.rs) dispatches
// each GraphQL field to the function its attribute names.
use lambda_appsync::{appsync_operation, AppsyncError};

use crate::repo::Repo;

#[appsync_operation(query(players))]
pub async fn players() -> Result<Vec<Player>, AppsyncError> {
    Ok(list_players().await?)
}

async fn list_players() -> Result<Vec<Player>, Error> {
    let out = repo().client.scan().table_name("Players").send().await?;
    Ok(to_players(out.items()))
}
