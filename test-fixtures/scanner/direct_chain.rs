// Direct builder chains in one function: kind, table (literal and const), index,
// expressions, names and values, flags, the enclosing fn and loops.
use aws_sdk_dynamodb::types::{AttributeValue, Select};
use aws_sdk_dynamodb::Client;

const TABLE: &str = "Orders";
const BY_STATUS: &str = "ByStatus";

pub struct OrderRepo {
    client: Client,
}

impl OrderRepo {
    pub async fn list_for_user(&self, user_id: &str) -> Result<(), Error> {
        let out = self
            .client
            .query()
            .table_name(TABLE)
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
            .expression_attribute_names("#pk", "PK")
            .expression_attribute_names("#sk", "SK")
            .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{}", user_id)))
            .expression_attribute_values(":prefix", AttributeValue::S("ORDER#".to_string()))
            .scan_index_forward(false)
            .limit(20)
            .consistent_read(true)
            .send()
            .await?;
        Ok(())
    }

    pub async fn open_orders(&self, status: OrderStatus) -> Result<(), Error> {
        let items = self
            .client
            .query()
            .table_name("Orders")
            .index_name(BY_STATUS)
            .key_condition_expression("status = :s")
            .expression_attribute_values(":s", AttributeValue::S(status.to_string()))
            .select(Select::Count)
            .into_paginator()
            .items()
            .send()
            .collect::<Result<Vec<_>, _>>()
            .await?;
        Ok(())
    }
}

async fn scan_everything(client: &Client) {
    let _ = client.scan().table_name("Audit").filter_expression("attribute_exists(deleted)").send().await;
}

async fn get_each(client: &Client, ids: Vec<String>) {
    for id in ids {
        let _ = client
            .get_item()
            .table_name("Users")
            .key("PK", AttributeValue::S(id.clone()))
            .key("SK", AttributeValue::S("PROFILE".into()))
            .projection_expression("email")
            .send()
            .await;
    }
}

async fn put_one(client: &Client, n: u64) {
    client
        .put_item()
        .table_name("Counters")
        .item("PK", AttributeValue::S("COUNTER".into()))
        .item("value", AttributeValue::N(n.to_string()))
        .item("active", AttributeValue::Bool(true))
        .item("note", AttributeValue::Null(true))
        .condition_expression("attribute_not_exists(PK)")
        .send()
        .await
        .unwrap();
}

async fn update_and_delete(client: &Client, id: &str) {
    client
        .update_item()
        .table_name("Users")
        .key("PK", AttributeValue::S(id.into()))
        .update_expression("SET #c = #c + :one")
        .expression_attribute_names("#c", "count")
        .expression_attribute_values(":one", AttributeValue::N("1".into()))
        .send()
        .await
        .ok();
    client.delete_item().table_name("Users").key("PK", AttributeValue::S(id.into())).send().await.ok();
}

async fn partiql(client: &Client) {
    client
        .execute_statement()
        .statement("SELECT * FROM \"Orders\" WHERE PK = ?")
        .send()
        .await
        .ok();
}

async fn parallel_scan(client: &Client) {
    client.scan().table_name("Big").segment(0).total_segments(4).send().await.ok();
}

// A select the code picks at run time is no value (not the text of its `else`);
// `set_select(Some(..))` names its variant.
async fn count_or_all(client: &Client, count_only: bool) {
    let _ = client
        .scan()
        .table_name("Audit")
        .select(if count_only {
            Select::Count
        } else {
            Select::AllAttributes
        })
        .send()
        .await;
    let _ = client.scan().table_name("Audit").set_select(Some(Select::Count)).send().await;
}
