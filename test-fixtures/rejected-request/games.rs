// Game history and leaderboards: requests DynamoDB refuses, and their fixed forms.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const GAMES_TABLE: &str = "Games";
const BY_RANK: &str = "ByRank";

pub struct GameRepo {
    client: Client,
}

impl GameRepo {
    /// `Status` is a reserved word.
    pub async fn finished(&self, user: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :u")
            .filter_expression("Status = :done")
            //~^ rejected-request
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .expression_attribute_values(":done", AttributeValue::S("DONE".into()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// A GSI cannot be read strongly consistently.
    pub async fn top_three(&self, game: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .index_name(BY_RANK)
            .key_condition_expression("GameId = :g")
            .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
            .scan_index_forward(false)
            .limit(3)
            .consistent_read(true)
            //~^ rejected-request
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// `GameRank` is a number: no `begins_with`.
    pub async fn ranks_starting(&self, game: &str) -> Result<Vec<Game>, Error> {
        let mut q = self.client.query().table_name(GAMES_TABLE).index_name(BY_RANK);
        q = q.key_condition_expression("GameId = :g AND begins_with(GameRank, :p)");
        //~^ rejected-request
        q = q
            .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
            .expression_attribute_values(":p", AttributeValue::N("1".into()));
        let out = q.send().await?;
        Ok(to_games(out.items()))
    }

    /// The key condition must fix the partition key.
    pub async fn on_date(&self, date: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("GameDate = :d")
            //~^ rejected-request
            .expression_attribute_values(":d", AttributeValue::S(date.to_string()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// There is no such index.
    pub async fn by_status(&self, user: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .index_name("ByStatus")
            //~^ rejected-request
            .key_condition_expression("UserId = :u")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// `:limit` is defined and never used.
    pub async fn recent(&self, user: &str, since: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :u AND GameDate >= :since")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .expression_attribute_values(":since", AttributeValue::S(since.to_string()))
            .expression_attribute_values(":limit", AttributeValue::N("10".into()))
            //~^ rejected-request
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// A key attribute cannot be updated.
    pub async fn reschedule(&self, user: &str, date: &str, new_date: &str) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(user.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .update_expression("SET GameDate = :nd")
            //~^ rejected-request
            .expression_attribute_values(":nd", AttributeValue::S(new_date.to_string()))
            .send()
            .await?;
        Ok(())
    }

    /// A Query's filter may not name the key attributes it queries.
    pub async fn since(&self, user: &str, since: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :u")
            .filter_expression("GameDate >= :since")
            //~^ rejected-request
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .expression_attribute_values(":since", AttributeValue::S(since.to_string()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    // ---- must not be flagged ----

    pub async fn finished_fixed(&self, user: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .index_name("ByStatusDate")
            .key_condition_expression("UserId = :u AND begins_with(StatusDate, :done)")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .expression_attribute_values(":done", AttributeValue::S("DONE#".into()))
            .consistent_read(true)
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    pub async fn top_three_fixed(&self, game: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .index_name(BY_RANK)
            .key_condition_expression("GameId = :g AND GameRank <= :top")
            .expression_attribute_values(":g", AttributeValue::S(game.to_string()))
            .expression_attribute_values(":top", AttributeValue::N("3".into()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// The user id could be empty, which DynamoDB would reject: that depends on a
    /// value the code does not show, so it is not reported.
    pub async fn history(&self, user: String) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("#u = :u")
            .expression_attribute_names("#u", "UserId")
            .expression_attribute_values(":u", AttributeValue::S(user))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }

    /// An expression built at run time: nothing to judge.
    pub async fn dynamic(&self, user: &str, attr: &str) -> Result<Vec<Game>, Error> {
        let out = self
            .client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :u")
            .filter_expression(format!("{attr} = :v"))
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(to_games(out.items()))
    }
}
