//! Blog endpoints: thin handlers over the repository.

use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;

use crate::model::Blog;
use crate::repo::BlogRepo;

#[derive(Deserialize)]
pub struct Search {
    pub q: String,
}

pub async fn latest(State(repo): State<BlogRepo>) -> Json<Vec<Blog>> {
    Json(repo.latest_blogs().await.unwrap_or_default())
}

pub async fn published(State(repo): State<BlogRepo>) -> Json<Vec<Blog>> {
    Json(repo.published_blogs().await.unwrap_or_default())
}

pub async fn search(State(repo): State<BlogRepo>, Query(s): Query<Search>) -> Json<Vec<Blog>> {
    Json(repo.search_titles(&s.q).await.unwrap_or_default())
}

pub async fn with_tag(State(repo): State<BlogRepo>, Path(tag): Path<String>) -> Json<Vec<Blog>> {
    Json(repo.blogs_with_tag(&tag).await.unwrap_or_default())
}

pub async fn create(State(repo): State<BlogRepo>, Json(blog): Json<Blog>) -> Json<Blog> {
    repo.put_blog(&blog).await.ok();
    Json(blog)
}
