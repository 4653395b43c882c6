// dynalint.toml:
// The blog service of article 001 written the naive way: the home page scans the
// whole table for the latest blogs, a user is saved with a NULL `createdAt`, and the
// blogs of a tag are fetched one `GetItem` at a time.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

async fn latest_blogs(State(client): State<Client>) -> Json<Vec<Blog>> {
    let out = client
        .scan()
        //~^ scan-in-hot-path, unpaginated-query
        .table_name(std::env::var("BLOG_TABLE").unwrap())
        .filter_expression("facet = :blog")
        //~^ filter-instead-of-index
        .expression_attribute_values(":blog", AttributeValue::S("BLOG".into()))
        .send()
        .await
        .unwrap();
    Json(to_blogs(out.items()))
}

async fn blogs_with_tag(State(client): State<Client>, Path(tag): Path<String>) -> Json<Vec<Blog>> {
    let relations = client
        .query()
        .table_name("BlogService")
        .index_name("ByTagID")
        .key_condition_expression("tagID = :t")
        .expression_attribute_values(":t", AttributeValue::S(tag))
        .limit(10)
        .send()
        .await
        .unwrap();
    let mut blogs = Vec::new();
    for rel in relations.items() {
        let blog = client
            .get_item()
            //~^ get-item-in-loop
            .table_name("BlogService")
            .key("PK", AttributeValue::S(format!("USER#{}", user_of(rel))))
            .key("SK", AttributeValue::S(format!("BLOG#{}", blog_of(rel))))
            .send()
            .await
            .unwrap();
        blogs.extend(blog.item.map(to_blog));
    }
    Json(blogs)
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
        .item("createdAt", AttributeValue::Null(true))
        //~^ missing-sparse-attribute
        .send()
        .await?;
    Ok(())
}

pub fn router() -> Router<Client> {
    Router::new()
        .route("/blogs", get(latest_blogs))
        .route("/tags/:tag", get(blogs_with_tag))
}
