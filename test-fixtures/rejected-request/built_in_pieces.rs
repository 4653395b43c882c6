// Update expressions and their placeholders built in pieces, as services write them:
// each request is judged only where all of it is known.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

pub struct GameStore {
    client: Client,
}

impl GameStore {
    /// One path SETs the rank, the other REMOVEs it: the string differs per path.
    pub async fn set_rank(&self, user: &str, date: &str, rank: Option<u32>) -> Result<(), Error> {
        let mut update = String::from("SET GameId = :g");
        let mut values = HashMap::new();
        values.insert(":g".to_string(), AttributeValue::S("g-1".into()));
        if let Some(r) = rank {
            update.push_str(", GameRank = :r");
            values.insert(":r".to_string(), AttributeValue::N(r.to_string()));
        } else {
            update.push_str(" REMOVE GameRank");
        }
        self.client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression(update)
            .set_expression_attribute_values(Some(values))
            .send()
            .await?;
        Ok(())
    }

    /// A patch endpoint: every field of the body becomes `#k = :k`.
    pub async fn patch(
        &self,
        user: &str,
        date: &str,
        fields: HashMap<String, AttributeValue>,
    ) -> Result<(), Error> {
        let mut sets = Vec::new();
        let mut names = HashMap::new();
        let mut values = HashMap::new();
        for (k, v) in fields {
            sets.push(format!("#{k} = :{k}"));
            names.insert(format!("#{k}"), k.clone());
            values.insert(format!(":{k}"), v);
        }
        self.client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression(format!("SET {}", sets.join(", ")))
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(values))
            .send()
            .await?;
        Ok(())
    }

    /// The expression is fixed, its names and values come from a map built in a loop.
    pub async fn rename(
        &self,
        user: &str,
        date: &str,
        attrs: &HashMap<String, String>,
    ) -> Result<(), Error> {
        let mut req = self
            .client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression("SET #a = :a, #b = :b");
        for (i, (k, v)) in attrs.iter().enumerate() {
            req = req
                .expression_attribute_names(format!("#{}", ["a", "b"][i]), k)
                .expression_attribute_values(
                    format!(":{}", ["a", "b"][i]),
                    AttributeValue::S(v.clone()),
                );
        }
        req.send().await?;
        Ok(())
    }

    /// Values from a helper the scanner cannot read.
    pub async fn bump(&self, user: &str, date: &str, by: u32) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression("SET GameRank = GameRank + :by, StatusDate = :now")
            .set_expression_attribute_values(Some(values_of(by)))
            .send()
            .await?;
        Ok(())
    }

    /// A counter: fails only on an item without `GameRank`, which the data decides.
    pub async fn incr(&self, user: &str, date: &str) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression("SET GameRank = GameRank + :one")
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .send()
            .await?;
        Ok(())
    }

    /// Fully known and wrong: `:when` is used but never defined.
    pub async fn finish(&self, user: &str, date: &str) -> Result<(), Error> {
        let mut update = String::from("SET StatusDate = :when");
        update.push_str(", GameId = :g");
        self.client
            .update_item()
            .table_name("Games")
            .key("UserId", AttributeValue::S(user.into()))
            .key("GameDate", AttributeValue::S(date.into()))
            .update_expression(update)
            //~^ rejected-request
            .expression_attribute_values(":g", AttributeValue::S("g-2".into()))
            .send()
            .await?;
        Ok(())
    }
}
