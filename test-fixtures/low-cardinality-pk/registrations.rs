// A bot's registrations, one struct per kind, written with serde_dynamo. The lookup
// index's partition key is set where each registration is built: always the kind's
// constant, so all lookups of a kind share one partition. `ownerId` comes from the
// caller: many values, nothing to say.
use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use serde_dynamo::to_item;

const REGISTRATIONS_TABLE: &str = "Registrations";
const FEED_LOOKUP: &str = "FEED_LOOKUP";

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct StreamRegistration {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "GSI1PK", skip_serializing_if = "Option::is_none")]
    pub gsi1pk: Option<String>,
    #[serde(rename = "GSI1SK", skip_serializing_if = "Option::is_none")]
    pub gsi1sk: Option<String>,
    #[serde(rename = "ownerId")]
    pub owner_id: String,
    pub access_token: String,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct FeedRegistration {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "GSI1PK", skip_serializing_if = "Option::is_none")]
    pub gsi1pk: Option<String>,
    #[serde(rename = "GSI1SK", skip_serializing_if = "Option::is_none")]
    pub gsi1sk: Option<String>,
    #[serde(rename = "ownerId")]
    pub owner_id: String,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct GuildConfig {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "GSI1PK", skip_serializing_if = "Option::is_none")]
    pub gsi1pk: Option<String>,
    #[serde(rename = "ownerId")]
    pub owner_id: String,
}

pub async fn put_stream(db: &Client, reg: &StreamRegistration) -> anyhow::Result<()> {
    let item = to_item(reg)?;
    db.put_item()
        .table_name(REGISTRATIONS_TABLE)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

pub async fn put_feed(db: &Client, reg: &FeedRegistration) -> anyhow::Result<()> {
    let item = to_item(reg)?;
    db.put_item()
        .table_name(REGISTRATIONS_TABLE)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

pub async fn put_config(db: &Client, config: &GuildConfig) -> anyhow::Result<()> {
    let item = to_item(config)?;
    db.put_item()
        .table_name(REGISTRATIONS_TABLE)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

// The command handlers that build the registrations.
pub async fn register_stream(db: &Client, guild: u64, login: &str, token: String) -> anyhow::Result<()> {
    let reg = StreamRegistration {
        pk: format!("GUILD#{guild}"),
        sk: format!("STREAM#{login}"),
        gsi1pk: Some("STREAM_LOOKUP".to_string()),
        gsi1sk: Some(format!("LOGIN#{login}")),
        owner_id: guild.to_string(),
        access_token: token,
    };
    put_stream(db, &reg).await
}

pub async fn refresh_token(db: &Client, mut reg: StreamRegistration, token: String) -> anyhow::Result<()> {
    reg.access_token = token;
    put_stream(db, &reg).await
}

pub async fn register_feed(db: &Client, guild: u64, url: &str) -> anyhow::Result<()> {
    let reg = FeedRegistration {
        pk: format!("GUILD#{guild}"),
        sk: format!("FEED#{url}"),
        gsi1pk: Some(FEED_LOOKUP.to_string()),
        gsi1sk: Some(format!("URL#{url}")),
        owner_id: guild.to_string(),
    };
    put_feed(db, &reg).await
}

pub async fn configure(db: &Client, guild: u64) -> anyhow::Result<()> {
    let config = GuildConfig {
        pk: format!("GUILD#{guild}"),
        sk: "CONFIG#SETTINGS".to_string(),
        // Not in the lookup index.
        gsi1pk: None,
        owner_id: guild.to_string(),
    };
    put_config(db, &config).await
}

#[cfg(test)]
mod tests {
    use super::*;

    // Sample data: says nothing of what production writes.
    fn sample() -> StreamRegistration {
        StreamRegistration {
            pk: "GUILD#1".into(),
            sk: "STREAM#a".into(),
            gsi1pk: Some(format!("LOOKUP#{}", 7)),
            gsi1sk: None,
            owner_id: "1".into(),
            access_token: "t".into(),
        }
    }
}
