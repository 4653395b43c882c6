//! Items as they are stored.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Blog {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "blogID")]
    pub blog_id: String,
    pub title: String,
    pub body: String,
    #[serde(rename = "createdAt")]
    pub created_at: String,
    pub facet: String,
    pub status: String,
}

/// One row per (blog, tag): feeds the ByTagID index.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlogTag {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "blogID")]
    pub blog_id: String,
    // Serialised as NULL when absent: ByTagID rejects the write.
    #[serde(rename = "tagID")]
    pub tag_id: Option<String>,
    pub title: String,
    pub created_at: String,
    pub facet: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub email: String,
    pub name: String,
}
