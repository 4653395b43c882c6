// Requests built with the dynamodb-expression crate: kind and table kept, the
// expressions it writes recorded as unknown (never checked as text).
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use dynamodb_expression::{Expression, Num, Path};

async fn fluent(client: &Client, id: &str) -> Result<(), Error> {
    Expression::builder()
        .with_key_condition(Path::new_name("pk").key().equal(id))
        .with_filter(Path::new_name("age").greater_than(Num::new(2)))
        .build()
        .query(client)
        .table_name("People")
        .index_name("ByPk")
        .send()
        .await?;
    let expr = Expression::builder()
        .with_condition(Path::new_name("name").attribute_not_exists())
        .build();
    expr.put_item(client)
        .table_name("People")
        .item("pk", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(())
}

async fn input_builders(client: &Client) -> Result<(), Error> {
    let scan = Expression::builder()
        .with_filter(Path::new_name("status").equal("open"))
        .with_projection(["name", "age"])
        .build();
    scan.to_scan_input_builder()
        .table_name("People")
        .send_with(client)
        .await?;
    let upd = Expression::builder()
        .with_update(Path::new_name("age").math().add(1))
        .build();
    upd.to_update_item_fluent_builder(client.update_item())
        .table_name("People")
        .key("pk", AttributeValue::S("p#1".into()))
        .send()
        .await?;
    Ok(())
}

// ---- the Expression comes from elsewhere: only what the request must have ----

async fn from_param(client: &Client, expr: Expression) -> Result<(), Error> {
    expr.query(client).table_name("People").send().await?;
    Ok(())
}

async fn scan_from_param(client: &Client, expr: Expression) -> Result<(), Error> {
    expr.scan(client).table_name("People").send().await?;
    Ok(())
}

// ---- not the crate: a method named `query` on something else ----

async fn not_ours(db: &Pool, sql: &str) {
    db.query(sql).fetch_all().await.ok();
}

// ---- rendered from the builder, or left unknown ----

async fn rendered(client: &Client, id: &str, since: &str) -> Result<(), Error> {
    let by_user = Path::new_name("pk").key().equal(format!("USER#{id}"));
    Expression::builder()
        .with_key_condition(by_user.and("sk".parse::<Path>()?.key().begins_with("ORDER#")))
        .with_filter(
            Path::new_name("Status")
                .not_equal("CLOSED")
                .and(Path::new_name("total").between(Num::new(10), Num::new(100)))
                .or(Path::new_name("gift").attribute_exists().not()),
        )
        .with_projection(["pk", "total"])
        .build()
        .query(client)
        .table_name("Orders")
        .send()
        .await?;
    // A `Ref` value set elsewhere and a dotted path: not rendered.
    Expression::builder()
        .with_key_condition(Path::new_name("pk").key().equal(Ref::new("id")))
        .with_filter("a.b".parse::<Path>()?.greater_than(Num::new(since)))
        .build()
        .query(client)
        .table_name("Orders")
        .send()
        .await?;
    Ok(())
}

// ---- typed builders inside a transaction ----

async fn transaction(client: &Client, id: &str) -> Result<(), Error> {
    let guard = Expression::builder()
        .with_condition(Path::new_name("pk").attribute_not_exists())
        .build();
    client
        .transact_write_items()
        .transact_items(
            TransactWriteItem::builder()
                .put(
                    guard
                        .to_put_builder()
                        .table_name("People")
                        .item("pk", AttributeValue::S(id.to_string()))
                        .build()?,
                )
                .build(),
        )
        .send()
        .await?;
    Ok(())
}

// ---- single update actions are rendered; combined ones stay unknown ----

async fn updates(client: &Client, id: &str, name: &str) -> Result<(), Error> {
    for update in [
        Update::from(Path::new_name("visits").math().add(1)),
        Update::from(Path::new_name("name").set(name)),
    ] {
        let _ = update;
    }
    Expression::builder()
        .with_update(Path::new_name("name").if_not_exists().set(name))
        .build()
        .update_item(client)
        .table_name("People")
        .key("pk", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Expression::builder()
        .with_update(Update::from("tmp".parse::<Path>()?.remove()))
        .build()
        .update_item(client)
        .table_name("People")
        .key("pk", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Expression::builder()
        .with_update(Path::new_name("a").set("x").and(Path::new_name("b").remove()))
        .build()
        .update_item(client)
        .table_name("People")
        .key("pk", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(())
}
