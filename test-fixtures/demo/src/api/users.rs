//! User endpoints.

use axum::extract::{Path, State};
use axum::Json;

use crate::model::{Blog, User};
use crate::repo::BlogRepo;

pub async fn blogs_of_user(State(repo): State<BlogRepo>, Path(id): Path<String>) -> Json<Vec<Blog>> {
    Json(repo.blogs_of_user(&id, true).await.unwrap_or_default())
}

pub async fn by_email(State(repo): State<BlogRepo>, Path(email): Path<String>) -> Json<Option<User>> {
    Json(repo.user_by_email(&email).await.ok().flatten())
}

pub async fn register(State(repo): State<BlogRepo>, Json(user): Json<User>) -> Json<User> {
    repo.register(&user).await.ok();
    Json(user)
}
