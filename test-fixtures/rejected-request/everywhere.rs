// A game service's writes and reads the way services write them: transactions built
// from typed builders, batch writes, items from `to_item()` helpers and serde structs.
// DynamoDB rejects a request wherever it is built, inside a transaction or a batch too.
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, KeysAndAttributes, Put, PutRequest, TransactWriteItem,
    Update, WriteRequest,
};
use aws_sdk_dynamodb::Client;
use serde::Serialize;
use std::collections::HashMap;

const GAMES_TABLE: &str = "Games";

#[derive(Serialize)]
pub struct Game {
    #[serde(rename = "UserId")]
    pub user_id: String,
    #[serde(rename = "GameId")]
    pub game_id: String,
    pub score: u32,
}

pub struct Score {
    pub user: String,
    pub game: String,
    pub date: String,
}

impl Score {
    /// Forgets the sort key: every put of it is rejected.
    pub fn to_item(&self) -> HashMap<String, AttributeValue> {
        HashMap::from([
            ("UserId".to_string(), AttributeValue::S(self.user.clone())),
            ("GameId".to_string(), AttributeValue::S(self.game.clone())),
        ])
    }
}

pub struct GameStore {
    client: Client,
}

impl GameStore {
    /// Moves a game between players atomically.
    pub async fn hand_over(&self, from: &str, to: &str, date: &str) -> Result<(), Error> {
        let take = Update::builder()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(from.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .update_expression("SET Score = :none")
            .condition_expression("GameId = :expected")
            //~^ rejected-request
            .expression_attribute_values(":none", AttributeValue::S("-".into()))
            .build()?;
        let give = Put::builder()
            //~^ rejected-request
            .item("UserId", AttributeValue::S(to.to_string()))
            .item("GameDate", AttributeValue::S(date.to_string()))
            .build()?;
        let receiver_exists = ConditionCheck::builder()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(to.to_string()))
            .key("GameDate", AttributeValue::S("PROFILE".into()))
            .condition_expression("attribute_exists(#user)")
            //~^ rejected-request
            .build()?;
        let forget = Delete::builder()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(from.to_string()))
            .key("GameDate", AttributeValue::S(format!("{date}#cache")))
            .build()?;
        self.client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(take).build())
            .transact_items(TransactWriteItem::builder().put(give).build())
            .transact_items(TransactWriteItem::builder().condition_check(receiver_exists).build())
            .transact_items(TransactWriteItem::builder().delete(forget).build())
            .send()
            .await?;
        Ok(())
    }

    pub async fn record(&self, score: &Score) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .set_item(Some(score.to_item()))
            //~^ rejected-request
            .send()
            .await?;
        Ok(())
    }

    pub async fn save(&self, game: &Game) -> Result<(), Error> {
        let item = serde_dynamo::to_item(game)?;
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .set_item(Some(item))
            //~^ rejected-request
            .condition_expression("attribute_not_exists(UserId)")
            .send()
            .await?;
        Ok(())
    }

    pub async fn import(&self, user: &str, games: &[String]) -> Result<(), Error> {
        let writes: Vec<WriteRequest> = games
            .iter()
            .map(|g| {
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            //~^ rejected-request
                            .item("UserId", AttributeValue::S(user.to_string()))
                            .item("GameId", AttributeValue::S(g.clone()))
                            .build()
                            .unwrap(),
                    )
                    .build()
            })
            .collect();
        self.client
            .batch_write_item()
            .request_items(GAMES_TABLE, writes)
            .send()
            .await?;
        Ok(())
    }

    pub async fn first_played(&self, user: &str, game: &str, date: &str) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .item("UserId", AttributeValue::S(user.to_string()))
            .item("GameDate", AttributeValue::S(date.to_string()))
            .item("GameId", AttributeValue::S(game.to_string()))
            .condition_expression("if_not_exists(GameId, :g) = :g")
            //~^ rejected-request
            .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
            .send()
            .await?;
        Ok(())
    }

    pub async fn rename(&self, user: &str, date: &str, game: &str) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(user.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .update_expression("SET GameId = :game")
            .expression_attribute_values("game", AttributeValue::S(game.to_string()))
            //~^ rejected-request
            .send()
            .await?;
        Ok(())
    }

    pub async fn load(&self, keys: Vec<HashMap<String, AttributeValue>>) -> Result<(), Error> {
        let wanted = KeysAndAttributes::builder()
            .set_keys(Some(keys))
            .projection_expression("UserId, #date")
            //~^ rejected-request
            .build()?;
        self.client
            .batch_get_item()
            .request_items(GAMES_TABLE, wanted)
            .send()
            .await?;
        Ok(())
    }

    /// The archive table is configured per deployment and not in the model: an unused
    /// value is rejected whatever the table is.
    pub async fn archived(&self, user: &str) -> Result<(), Error> {
        let table = std::env::var("ARCHIVE_TABLE")?;
        self.client
            .query()
            .table_name(table)
            .key_condition_expression("UserId = :u")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .expression_attribute_values(":since", AttributeValue::S("2024".into()))
            //~^ rejected-request
            .send()
            .await?;
        Ok(())
    }

    /// Three `?`, two parameters.
    pub async fn insert_partiql(&self, user: &str, date: &str) -> Result<(), Error> {
        self.client
            .execute_statement()
            .statement(format!(
                //~^ rejected-request
                r#"INSERT INTO "{}" VALUE {{ 'UserId': ?, 'GameDate': ?, 'GameId': ? }}"#,
                GAMES_TABLE
            ))
            .set_parameters(Some(vec![
                AttributeValue::S(user.to_string()),
                AttributeValue::S(date.to_string()),
            ]))
            .send()
            .await?;
        Ok(())
    }

    // ---- must not be flagged ----

    /// One `?` per parameter, whatever the quoted names hold.
    pub async fn games_of(&self, user: &str) -> Result<(), Error> {
        self.client
            .execute_statement()
            .statement(format!(r#"SELECT * FROM "{}" WHERE "UserId" = ?"#, GAMES_TABLE))
            .parameters(AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// A parameter added on some paths only: the count is not known.
    pub async fn games_since(&self, user: &str, since: Option<&str>) -> Result<(), Error> {
        let mut s = self
            .client
            .execute_statement()
            .statement(r#"SELECT * FROM "Games" WHERE "UserId" = ? AND "GameDate" > ?"#)
            .parameters(AttributeValue::S(user.to_string()));
        if let Some(since) = since {
            s = s.parameters(AttributeValue::S(since.to_string()));
        }
        s.send().await?;
        Ok(())
    }

    /// The sort key is added by a helper that borrows the map.
    pub async fn record_lent(&self, score: &Score) -> Result<(), Error> {
        let mut item = HashMap::new();
        item.insert("UserId".to_string(), AttributeValue::S(score.user.clone()));
        add_date(&mut item, &score.date);
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .set_item(Some(item))
            .send()
            .await?;
        Ok(())
    }

    /// Attributes from a map the code does not show: any of them may be the key.
    pub async fn record_extra(&self, user: &str, extra: HashMap<String, String>) -> Result<(), Error> {
        let mut item = HashMap::new();
        item.insert("UserId".to_string(), AttributeValue::S(user.to_string()));
        for (k, v) in extra {
            item.insert(k, AttributeValue::S(v));
        }
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .set_item(Some(item))
            .send()
            .await?;
        Ok(())
    }

    /// The table is set on a branch of a builder held in a variable: not seen whole.
    pub async fn hand_over_to(&self, to: &str, date: &str, archive: bool) -> Result<(), Error> {
        let mut give = Put::builder()
            .item("UserId", AttributeValue::S(to.to_string()))
            .item("GameDate", AttributeValue::S(date.to_string()));
        give = if archive {
            give.table_name("GamesArchive")
        } else {
            give.table_name(GAMES_TABLE)
        };
        self.client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(give.build()?).build())
            .send()
            .await?;
        Ok(())
    }

    /// An unknown table with a well-formed request: nothing to say.
    pub async fn archived_fine(&self, user: &str) -> Result<(), Error> {
        let table = std::env::var("ARCHIVE_TABLE")?;
        self.client
            .query()
            .table_name(table)
            .key_condition_expression("UserId = :u")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(())
    }
}

fn add_date(item: &mut HashMap<String, AttributeValue>, date: &str) {
    item.insert("GameDate".to_string(), AttributeValue::S(date.to_string()));
}
