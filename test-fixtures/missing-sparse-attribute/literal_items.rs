// Items built attribute by attribute: NULL, "" and a placeholder in index keys.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const TABLE: &str = "BlogApp";

// Users belong in `ByEmail` too (the model lists `userEmail` for them): this is their
// only put, and it never sets it.
pub async fn register(client: &Client, id: &str) -> Result<(), Error> {
    client
        .put_item()
        //~^ missing-sparse-attribute
        .table_name(TABLE)
        .item("PK", AttributeValue::S(format!("USER#{id}")))
        .item("SK", AttributeValue::S("PROFILE".into()))
        .item("facet", AttributeValue::S("USER".into()))
        .item("createdAt", AttributeValue::Null(true))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}

pub async fn draft(client: &Client, user: &str, blog: &str, title: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(TABLE)
        .item("PK", AttributeValue::S(format!("USER#{user}")))
        .item("SK", AttributeValue::S(format!("BLOG#{blog}")))
        .item("facet", AttributeValue::S("BLOG".into()))
        .item("title", AttributeValue::S(title.into()))
        .item("createdAt", AttributeValue::S("".into()))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}

pub async fn unpublish(client: &Client, user: &str, blog: &str) -> Result<(), Error> {
    client
        .update_item()
        .table_name(TABLE)
        .key("PK", AttributeValue::S(format!("USER#{user}")))
        .key("SK", AttributeValue::S(format!("BLOG#{blog}")))
        .update_expression("SET createdAt = :none")
        .expression_attribute_values(":none", AttributeValue::S("__NULL__".into()))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: the attribute is only set when there is a value, and a blog
// carries its `createdAt`.
pub async fn publish(client: &Client, user: &str, blog: &str, at: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name(TABLE)
        .item("PK", AttributeValue::S(format!("USER#{user}")))
        .item("SK", AttributeValue::S(format!("BLOG#{blog}")))
        .item("facet", AttributeValue::S("BLOG".into()))
        .item("createdAt", AttributeValue::S(at.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn unpublish_properly(client: &Client, user: &str, blog: &str) -> Result<(), Error> {
    client
        .update_item()
        .table_name(TABLE)
        .key("PK", AttributeValue::S(format!("USER#{user}")))
        .key("SK", AttributeValue::S(format!("BLOG#{blog}")))
        .update_expression("REMOVE createdAt")
        .send()
        .await?;
    Ok(())
}
