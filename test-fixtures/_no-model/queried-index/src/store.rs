use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const TABLE: &str = "shop";

pub struct Product {
    pub id: String,
    pub name: String,
}

pub struct Order {
    pub id: String,
    pub customer: String,
}

fn product_item(p: &Product) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("PK".to_string(), AttributeValue::S(format!("PRODUCT#{}", p.id))),
        ("SK".to_string(), AttributeValue::S("META".to_string())),
        ("entity_type".to_string(), AttributeValue::S("PRODUCT".to_string())),
        ("name".to_string(), AttributeValue::S(p.name.clone())),
    ])
}

pub async fn save_product(client: &Client, p: &Product) -> Result<(), aws_sdk_dynamodb::Error> {
    client
        .put_item()
        .table_name(TABLE)
        .set_item(Some(product_item(p)))
        .send()
        .await?;
    Ok(())
}

pub async fn save_order(client: &Client, o: &Order) -> Result<(), aws_sdk_dynamodb::Error> {
    client
        .put_item()
        .table_name(TABLE)
        .item("PK", AttributeValue::S(format!("CUSTOMER#{}", o.customer)))
        .item("SK", AttributeValue::S(format!("ORDER#{}", o.id)))
        .item("entity_type", AttributeValue::S("ORDER".to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn get_product(client: &Client, id: &str) -> Result<Option<HashMap<String, AttributeValue>>, aws_sdk_dynamodb::Error> {
    let out = client
        .get_item()
        .table_name(TABLE)
        .key("PK", AttributeValue::S(format!("PRODUCT#{id}")))
        .key("SK", AttributeValue::S("META".to_string()))
        .send()
        .await?;
    Ok(out.item)
}

pub async fn delete_order(client: &Client, customer: &str, id: &str) -> Result<(), aws_sdk_dynamodb::Error> {
    client
        .delete_item()
        .table_name(TABLE)
        .key("PK", AttributeValue::S(format!("CUSTOMER#{customer}")))
        .key("SK", AttributeValue::S(format!("ORDER#{id}")))
        .send()
        .await?;
    Ok(())
}

/// Every product, for the catalogue page.
pub async fn list_products(client: &Client) -> Result<Vec<HashMap<String, AttributeValue>>, aws_sdk_dynamodb::Error> {
    let out = client
        .query()
        .table_name(TABLE)
        .index_name("by-entity-type")
        .key_condition_expression("entity_type = :t")
        .expression_attribute_values(":t", AttributeValue::S("PRODUCT".to_string()))
        .send()
        .await?;
    Ok(out.items.unwrap_or_default())
}

/// Every order, for the back office: a Scan that keeps the orders.
pub async fn list_orders(client: &Client) -> Result<Vec<HashMap<String, AttributeValue>>, aws_sdk_dynamodb::Error> {
    let out = client
        .scan()
        .table_name(TABLE)
        .filter_expression("entity_type = :t")
        .expression_attribute_values(":t", AttributeValue::S("ORDER".to_string()))
        .send()
        .await?;
    Ok(out.items.unwrap_or_default())
}
