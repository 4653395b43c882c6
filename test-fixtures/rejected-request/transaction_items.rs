// Items that know how to read and write themselves, as transaction items a client
// wrapper sends: `get` and `save` build the `Get` and the `Put` and hand them back,
// and `Db::read_single` / `Db::write_all` send whatever they are given. The requests
// are where the items are built, not where they are sent.
use aws_sdk_dynamodb::types::{AttributeValue, Get, Put, TransactGetItem, TransactWriteItem};
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";

pub struct Db {
    client: Client,
}

impl Db {
    pub async fn read_single(&self, item: TransactGetItem) -> Result<Option<Item>, Error> {
        let out = self
            .client
            .transact_get_items()
            .transact_items(item)
            .send()
            .await?;
        Ok(out.responses.and_then(|mut r| r.pop()).and_then(|r| r.item))
    }

    pub async fn write_all(&self, items: Vec<TransactWriteItem>) -> Result<(), Error> {
        self.client
            .transact_write_items()
            .set_transact_items(Some(items))
            .send()
            .await?;
        Ok(())
    }
}

pub struct Game {
    pub user_id: String,
    pub game_date: String,
    pub game_id: String,
}

impl Game {
    pub async fn from_db(game_id: &str, db: &Db) -> Result<Option<Item>, Error> {
        db.read_single(Self::get(game_id)?).await
    }

    /// Copied from another item's `get`: Games is keyed by UserId and GameDate, so
    /// DynamoDB rejects every read this builds.
    pub fn get(game_id: &str) -> Result<TransactGetItem, Error> {
        let item = Get::builder()
            //~^ rejected-request
            .table_name(GAMES_TABLE)
            .key("GameId", AttributeValue::S(game_id.to_string()))
            .build()?;
        Ok(TransactGetItem::builder().get(item).build())
    }

    /// The whole key: fine.
    pub fn get_by_key(user_id: &str, game_date: &str) -> Result<TransactGetItem, Error> {
        let item = Get::builder()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(user_id.to_string()))
            .key("GameDate", AttributeValue::S(game_date.to_string()))
            .build()?;
        Ok(TransactGetItem::builder().get(item).build())
    }

    /// Pushed with the others and sent by `Db::write_all`: the key is whole.
    pub fn save_all(games: &[Game]) -> Result<(Vec<TransactWriteItem>, usize), Error> {
        let mut items = Vec::new();
        for g in games {
            let put = Put::builder()
                .table_name(GAMES_TABLE)
                .item("UserId", AttributeValue::S(g.user_id.clone()))
                .item("GameDate", AttributeValue::S(g.game_date.clone()))
                .item("GameId", AttributeValue::S(g.game_id.clone()))
                .build()?;
            items.push(TransactWriteItem::builder().put(put).build());
        }
        Ok((items, games.len()))
    }

    /// A condition on an undefined value: rejected wherever it is sent.
    pub fn claim(&self) -> Result<TransactWriteItem, Error> {
        let put = Put::builder()
            .table_name(GAMES_TABLE)
            .item("UserId", AttributeValue::S(self.user_id.clone()))
            .item("GameDate", AttributeValue::S(self.game_date.clone()))
            .condition_expression("attribute_not_exists(GameId) OR GameId = :game")
            //~^ rejected-request
            .build()?;
        Ok(TransactWriteItem::builder().put(put).build())
    }
}

pub async fn save(db: &Db, games: &[Game]) -> Result<(), Error> {
    let (items, _) = Game::save_all(games)?;
    db.write_all(items).await
}
