// The blog service of article 001 as the article designs it: one table keyed
// `USER#id`/`BLOG#id`, the sparse `ByFacet` index for the latest blogs (users carry no
// `createdAt`, so they stay out of it), `ByUserEmail` for log-in, and `ByTagID` over
// the tag relation items, which carry the blog's title.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

async fn latest_blogs(State(client): State<Client>) -> Json<Vec<Blog>> {
    let out = client
        .query()
        .table_name(std::env::var("BLOG_TABLE").unwrap())
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .scan_index_forward(false)
        .limit(3)
        .send()
        .await
        .unwrap();
    Json(to_blogs(out.items()))
}

async fn blogs_with_tag(State(client): State<Client>, Path(tag): Path<String>) -> Json<Vec<Title>> {
    let out = client
        .query()
        .table_name("BlogService")
        .index_name("ByTagID")
        .key_condition_expression("tagID = :t")
        .expression_attribute_values(":t", AttributeValue::S(tag))
        .projection_expression("title, createdAt")
        .scan_index_forward(false)
        .limit(10)
        .send()
        .await
        .unwrap();
    Json(to_titles(out.items()))
}

async fn blogs_of_user(State(client): State<Client>, Path(user): Path<String>) -> Json<Vec<Blog>> {
    let out = client
        .query()
        .table_name("BlogService")
        .key_condition_expression("PK = :pk AND begins_with(SK, :blog)")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user}")))
        .expression_attribute_values(":blog", AttributeValue::S("BLOG#".into()))
        .scan_index_forward(false)
        .limit(20)
        .send()
        .await
        .unwrap();
    Json(to_blogs(out.items()))
}

pub async fn user_by_email(client: &Client, email: &str) -> Result<Option<String>, Error> {
    let out = client
        .query()
        .table_name("BlogService")
        .index_name("ByUserEmail")
        .key_condition_expression("userEmail = :e")
        .expression_attribute_values(":e", AttributeValue::S(email.into()))
        .send()
        .await?;
    Ok(first_pk(out.items()))
}

pub async fn sign_up(client: &Client, user_id: &str, name: &str, email: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name("BlogService")
        .item("PK", AttributeValue::S(format!("USER#{user_id}")))
        .item("SK", AttributeValue::S(format!("USER#{user_id}")))
        .item("facet", AttributeValue::S("USER".into()))
        .item("userName", AttributeValue::S(name.into()))
        .item("userEmail", AttributeValue::S(email.into()))
        .send()
        .await?;
    Ok(())
}

pub async fn post(client: &Client, user_id: &str, blog_id: &str, title: &str, at: &str) -> Result<(), Error> {
    client
        .put_item()
        .table_name("BlogService")
        .item("PK", AttributeValue::S(format!("USER#{user_id}")))
        .item("SK", AttributeValue::S(format!("BLOG#{blog_id}")))
        .item("facet", AttributeValue::S("BLOG".into()))
        .item("blogID", AttributeValue::S(blog_id.into()))
        .item("title", AttributeValue::S(title.into()))
        .item("createdAt", AttributeValue::S(at.into()))
        .send()
        .await?;
    Ok(())
}

pub fn router() -> Router<Client> {
    Router::new()
        .route("/blogs", get(latest_blogs))
        .route("/tags/:tag", get(blogs_with_tag))
        .route("/users/:user/blogs", get(blogs_of_user))
}
