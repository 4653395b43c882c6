// A request seen whole is judged whole however it is spread: across `let` bindings,
// a `let mut` builder assigned its setters, a helper that returns the builder the
// caller sends, or a helper that sends the builder its caller built. Where a part
// of the builder goes out of sight, or the call may mean another function that sets
// the table, the request is not judged.
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemOutput;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::{Client, Error};

const GAMES_TABLE: &str = "Games";

pub struct GameStore {
    client: Client,
    pending: Option<DeleteItemFluentBuilder>,
}

impl GameStore {
    /// The builder bound once, then once per setter: still no `table_name`.
    pub async fn forget(&self, user: &str, date: &str) -> Result<(), Error> {
        let request = self.client.delete_item();
        //~^ rejected-request
        let request = request.key("UserId", AttributeValue::S(user.to_string()));
        let request = request.key("GameDate", AttributeValue::S(date.to_string()));
        request.send().await?;
        Ok(())
    }

    /// A `let mut` builder given its keys by assignment, one of them only on a path.
    pub async fn forget_dated(&self, user: &str, date: Option<&str>) -> Result<(), Error> {
        let mut request = self.client.delete_item();
        //~^ rejected-request
        request = request.key("UserId", AttributeValue::S(user.to_string()));
        if let Some(date) = date {
            request = request.key("GameDate", AttributeValue::S(date.to_string()));
        }
        request.send().await?;
        Ok(())
    }

    /// The caller sends what `game_key` returns.
    pub async fn forget_game(&self, user: &str, date: &str) -> Result<(), Error> {
        game_key(&self.client, user, date).send().await?;
        Ok(())
    }

    /// One function builds, another sends.
    pub async fn forget_later(&self, user: &str, date: &str) -> Result<DeleteItemOutput, Error> {
        send_delete(
            self.client
                .delete_item()
                //~^ rejected-request
                .key("UserId", AttributeValue::S(user.to_string()))
                .key("GameDate", AttributeValue::S(date.to_string())),
        )
        .await
    }

    // ---- must not be flagged ----

    /// Bound again to a builder that sets the table on one path: which one is sent
    /// is not known.
    pub async fn forget_rebound(&self, user: &str, archived: bool) -> Result<(), Error> {
        let mut request = self.client.delete_item();
        if archived {
            request = self.client.delete_item().table_name(GAMES_TABLE);
        }
        request = request.key("UserId", AttributeValue::S(user.to_string()));
        request.send().await?;
        Ok(())
    }

    /// Handed to a function that may set the table (by `&mut`).
    pub async fn forget_scoped(&self, user: &str) -> Result<(), Error> {
        let mut request = self.client.delete_item();
        scope_to_games(&mut request);
        request
            .key("UserId", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// Kept for later: sent where the scanner does not follow.
    pub fn queue_forget(&mut self, user: &str) {
        let request = self
            .client
            .delete_item()
            .key("UserId", AttributeValue::S(user.to_string()));
        self.pending = Some(request);
    }

    /// `prepared` may return the pending builder, which the caller set up elsewhere.
    pub async fn forget_prepared(&self, user: &str) -> Result<(), Error> {
        prepared(self)
            .key("UserId", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// `player_request` is defined twice, one of them with the table.
    pub async fn forget_player(&self, user: &str, date: &str) -> Result<(), Error> {
        player_request(&self.client)
            .key("UserId", AttributeValue::S(user.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// The same with half of the key: rejected if it is `scoped`'s builder that is
    /// sent, but which one is not known, so no error rests on its table.
    pub async fn forget_player_games(&self, user: &str) -> Result<(), Error> {
        player_request(&self.client)
            .key("UserId", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(())
    }
}

fn game_key(client: &Client, user: &str, date: &str) -> DeleteItemFluentBuilder {
    client
        .delete_item()
        //~^ rejected-request
        .key("UserId", AttributeValue::S(user.to_string()))
        .key("GameDate", AttributeValue::S(date.to_string()))
}

async fn send_delete(request: DeleteItemFluentBuilder) -> Result<DeleteItemOutput, Error> {
    Ok(request.send().await?)
}

fn scope_to_games(request: &mut DeleteItemFluentBuilder) {
    *request = request.clone().table_name(GAMES_TABLE);
}

fn prepared(store: &GameStore) -> DeleteItemFluentBuilder {
    if let Some(pending) = &store.pending {
        return pending.clone();
    }
    store.client.delete_item()
}

mod plain {
    use super::*;

    pub fn player_request(client: &Client) -> DeleteItemFluentBuilder {
        client.delete_item()
    }
}

mod scoped {
    use super::*;

    pub fn player_request(client: &Client) -> DeleteItemFluentBuilder {
        client.delete_item().table_name(GAMES_TABLE)
    }
}
