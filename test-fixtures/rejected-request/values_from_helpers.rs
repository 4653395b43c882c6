// Items from serde structs, converters and the project's own macros: an error rests
// only on a type serde certainly writes.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use chrono::{DateTime, Utc};
use serde::Serialize;

macro_rules! av {
    ($v:expr) => {
        AttributeValue::S($v.to_string())
    };
}

/// `serialize_with` decides what is written: the day number as a date string.
#[derive(Serialize)]
pub struct GameRecord {
    #[serde(rename = "UserId")]
    user_id: String,
    #[serde(rename = "GameDate", serialize_with = "day_to_date")]
    game_date: u32,
}

/// `into` hands serde another type: the numeric id is written as `GameRecord`'s
/// string.
#[derive(Serialize, Clone)]
#[serde(into = "GameRecord")]
pub struct Game {
    #[serde(rename = "UserId")]
    user_id: u64,
    #[serde(rename = "GameDate")]
    game_date: DateTime<Utc>,
}

/// The key as serde writes it, certainly: `UserId` is a number here, a string in the
/// table.
#[derive(Serialize)]
pub struct BadGame {
    #[serde(rename = "UserId")]
    user_id: u64,
    #[serde(rename = "GameDate")]
    game_date: DateTime<Utc>,
}

pub async fn save_record(client: &Client, g: &GameRecord) -> Result<(), Error> {
    let item = serde_dynamo::to_item(g)?;
    client.put_item().table_name("Games").set_item(Some(item)).send().await?;
    Ok(())
}

pub async fn save_game(client: &Client, g: &Game) -> Result<(), Error> {
    let item = serde_dynamo::to_item(g)?;
    client.put_item().table_name("Games").set_item(Some(item)).send().await?;
    Ok(())
}

pub async fn load(client: &Client, user: u64, date: &str) -> Result<(), Error> {
    client
        .get_item()
        .table_name("Games")
        .key("UserId", av!(user))
        .key("GameDate", to_attr(date))
        .send()
        .await?;
    Ok(())
}

pub async fn save_bad(client: &Client, g: &BadGame) -> Result<(), Error> {
    let item = serde_dynamo::to_item(g)?;
    client
        .put_item()
        //~^ rejected-request
        .table_name("Games")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}
