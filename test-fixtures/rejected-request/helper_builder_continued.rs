// A helper returns a half-built request; its caller binds it, adds setters on some
// paths and sends it. The request DynamoDB receives is the helper's setters and the
// caller's together, judged as one.
use std::collections::HashMap;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::{Client, Error};

const GAMES_TABLE: &str = "Games";

pub struct GameStore {
    client: Client,
}

impl GameStore {
    /// The key and the values every update of a game's rank shares; the caller writes
    /// the expression.
    fn rank_update(&self, user: &str, date: &str, rank: u32) -> UpdateItemFluentBuilder {
        self.client
            .update_item()
            .table_name(GAMES_TABLE)
            .key("UserId", AttributeValue::S(user.to_string()))
            .key("GameDate", AttributeValue::S(date.to_string()))
            .expression_attribute_values(":rank", AttributeValue::N(rank.to_string()))
    }

    fn games_of(&self, user: &str) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(GAMES_TABLE)
            .key_condition_expression("UserId = :user")
            .expression_attribute_values(":user", AttributeValue::S(user.to_string()))
    }

    /// Every write of a game goes through here; each caller builds its own item (a
    /// finding on one caller's item points here, at the setter of the item).
    fn save(&self, item: HashMap<String, AttributeValue>) -> PutItemFluentBuilder {
        self.client
            .put_item()
            .table_name(GAMES_TABLE)
            .set_item(Some(item))
            //~^ rejected-request
    }

    /// A draft has no date yet: the item lacks the table's sort key.
    pub async fn save_draft(&self, user: &str, title: &str) -> Result<(), Error> {
        let mut item = HashMap::new();
        item.insert("UserId".to_string(), AttributeValue::S(user.to_string()));
        item.insert("Title".to_string(), AttributeValue::S(title.to_string()));
        self.save(item).send().await?;
        Ok(())
    }

    /// Games after a date, filtered instead of keyed: `GameDate` is the sort key.
    pub async fn games_after(&self, user: &str, date: &str) -> Result<usize, Error> {
        let mut query = self.games_of(user);
        query = query
            .filter_expression("GameDate > :date")
            //~^ rejected-request
            .expression_attribute_values(":date", AttributeValue::S(date.to_string()));
        let out = query.send().await?;
        Ok(out.items().len())
    }

    // ---- must not be flagged ----

    /// The update expression is the caller's, grown on one path with its values.
    pub async fn set_rank(
        &self,
        user: &str,
        date: &str,
        rank: u32,
        retired: bool,
    ) -> Result<(), Error> {
        let mut update = "SET GameRank = :rank".to_string();
        let mut request = self.rank_update(user, date, rank);
        if retired {
            update.push_str(", GameStatus = :retired");
            request = request.expression_attribute_values(":retired", AttributeValue::Bool(true));
        }
        request.update_expression(update).send().await?;
        Ok(())
    }

    /// The same request, named once and finished in one chain.
    pub async fn set_rank_only(&self, user: &str, date: &str, rank: u32) -> Result<(), Error> {
        let request = self.rank_update(user, date, rank);
        request
            .update_expression("SET GameRank = :rank")
            .send()
            .await?;
        Ok(())
    }

    /// A played game, keyed on both key attributes.
    pub async fn save_played(&self, user: &str, date: &str) -> Result<(), Error> {
        let item = HashMap::from([
            ("UserId".to_string(), AttributeValue::S(user.to_string())),
            ("GameDate".to_string(), AttributeValue::S(date.to_string())),
        ]);
        self.save(item).send().await?;
        Ok(())
    }

    /// Newest games first, paged by the caller.
    pub async fn all_games(&self, user: &str) -> Result<usize, Error> {
        let query = self.games_of(user).scan_index_forward(false);
        let pages: Vec<_> = query.into_paginator().items().send().collect().await;
        Ok(pages.len())
    }
}
