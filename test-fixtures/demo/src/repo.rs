//! All DynamoDB access of the blog service.

use std::collections::HashMap;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use aws_sdk_dynamodb::Client;
use sha2::{Digest, Sha256};

use crate::model::{Blog, BlogTag, User};

type Error = Box<dyn std::error::Error + Send + Sync>;

const BY_FACET: &str = "ByFacet";
const BY_EMAIL: &str = "ByEmail";

#[derive(Clone)]
pub struct BlogRepo {
    client: Client,
    table: String,
}

impl BlogRepo {
    pub fn new(client: Client) -> Self {
        let table = std::env::var("TABLE_NAME").unwrap_or_else(|_| "BlogApp".to_string());
        Self { client, table }
    }

    /// Correct: the sparse ByFacet GSI answers "latest blogs" with one small Query.
    pub async fn latest_blogs(&self) -> Result<Vec<Blog>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(BY_FACET)
            .key_condition_expression("facet = :facet")
            .expression_attribute_values(":facet", AttributeValue::S("BLOG".into()))
            .scan_index_forward(false)
            .limit(3)
            .send()
            .await?;
        Ok(serde_dynamo::from_items(out.items().to_vec())?)
    }

    /// Correct: a user's blogs are one item collection, read with begins_with.
    pub async fn blogs_of_user(&self, user_id: &str, only_published: bool) -> Result<Vec<Blog>, Error> {
        let mut query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :blog)")
            .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
            .expression_attribute_values(":blog", AttributeValue::S("BLOG#".into()));
        if only_published {
            // Reserved word without a #name: DynamoDB rejects this request.
            query = query
                .filter_expression("status = :published")
                .expression_attribute_values(":published", AttributeValue::S("PUBLISHED".into()));
        }
        let mut items = Vec::new();
        let mut pages = query.into_paginator().items().send();
        while let Some(item) = pages.next().await {
            items.push(item?);
        }
        Ok(serde_dynamo::from_items(items)?)
    }

    /// Anti-pattern: two partition key values for 3.5M blogs, and one page only.
    pub async fn published_blogs(&self) -> Result<Vec<Blog>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByStatus")
            .key_condition_expression("#status = :published")
            .expression_attribute_names("#status", "status")
            .expression_attribute_values(":published", AttributeValue::S("PUBLISHED".into()))
            .scan_index_forward(false)
            .send()
            .await?;
        Ok(serde_dynamo::from_items(out.items().to_vec())?)
    }

    /// Anti-pattern: a Scan of every page on every search request, filtered after reading.
    pub async fn search_titles(&self, needle: &str) -> Result<Vec<Blog>, Error> {
        let items = self
            .client
            .scan()
            .table_name(&self.table)
            .filter_expression("facet = :blog AND contains(title, :needle)")
            .expression_attribute_values(":blog", AttributeValue::S("BLOG".into()))
            .expression_attribute_values(":needle", AttributeValue::S(needle.to_string()))
            .into_paginator()
            .items()
            .send()
            .collect::<Result<Vec<_>, _>>()
            .await?;
        Ok(serde_dynamo::from_items(items)?)
    }

    /// Anti-pattern: one GetItem round trip per tag row.
    pub async fn blogs_with_tag(&self, tag: &str) -> Result<Vec<Blog>, Error> {
        let rows = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByTagID")
            .key_condition_expression("tagID = :tag")
            .expression_attribute_values(":tag", AttributeValue::S(tag.to_string()))
            .into_paginator()
            .items()
            .send()
            .collect::<Result<Vec<_>, _>>()
            .await?;
        let mut blogs = Vec::new();
        for row in rows {
            let Some(AttributeValue::S(blog_id)) = row.get("blogID") else { continue };
            let out = self
                .client
                .get_item()
                .table_name(&self.table)
                .key("PK", AttributeValue::S(format!("BLOG#{blog_id}")))
                .key("SK", AttributeValue::S("META".into()))
                .send()
                .await?;
            if let Some(item) = out.item {
                blogs.push(serde_dynamo::from_item(item)?);
            }
        }
        Ok(blogs)
    }

    /// Correct: one BatchGetItem for a known set of users.
    pub async fn users(&self, ids: &[String]) -> Result<Vec<User>, Error> {
        let keys = ids
            .iter()
            .map(|id| {
                HashMap::from([
                    ("PK".to_string(), AttributeValue::S(format!("USER#{id}"))),
                    ("SK".to_string(), AttributeValue::S("PROFILE".into())),
                ])
            })
            .collect::<Vec<_>>();
        let request = KeysAndAttributes::builder().set_keys(Some(keys)).build()?;
        let out = self.client.batch_get_item().request_items(&self.table, request).send().await?;
        let items = out.responses.and_then(|mut r| r.remove(&self.table)).unwrap_or_default();
        Ok(serde_dynamo::from_items(items)?)
    }

    /// Anti-pattern: strongly consistent reads are not supported on a GSI.
    pub async fn user_by_email(&self, email: &str) -> Result<Option<User>, Error> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(BY_EMAIL)
            .key_condition_expression("userEmail = :email")
            .expression_attribute_values(":email", AttributeValue::S(email.to_string()))
            .consistent_read(true)
            .send()
            .await?;
        Ok(out.items().first().cloned().map(serde_dynamo::from_item).transpose()?)
    }

    /// Anti-pattern: the partition key is a digest of the email, so no one can Query it.
    pub async fn register(&self, user: &User) -> Result<(), Error> {
        let digest = hex(&Sha256::digest(user.email.as_bytes()));
        self.client
            .put_item()
            .table_name(&self.table)
            .item("PK", AttributeValue::S(format!("USER#{digest}")))
            .item("SK", AttributeValue::S("PROFILE".into()))
            .item("userEmail", AttributeValue::S(user.email.clone()))
            .item("name", AttributeValue::S(user.name.clone()))
            .item("facet", AttributeValue::S("USER".into()))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(SdkError::into_service_error)?;
        Ok(())
    }

    /// Correct: a blog and its tag rows in one transaction...
    pub async fn put_blog(&self, blog: &Blog) -> Result<(), Error> {
        let item = serde_dynamo::to_item(blog)?;
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await?;
        Ok(())
    }

    /// ...but the tag row serialises `tag_id: None` as NULL into ByTagID's key.
    pub async fn tag_blog(&self, row: &BlogTag) -> Result<(), Error> {
        let item = serde_dynamo::to_item(row)?;
        self.client.put_item().table_name(&self.table).set_item(Some(item)).send().await?;
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl BlogRepo {
    /// Anti-pattern: the review job reads every draft through one partition key value.
    pub async fn drafts(&self) -> Result<Vec<Blog>, Error> {
        let mut drafts = Vec::new();
        let mut pages = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByStatus")
            .key_condition_expression("#s = :draft")
            .expression_attribute_names("#s", "status")
            .expression_attribute_values(":draft", AttributeValue::S("DRAFT".into()))
            .into_paginator()
            .items()
            .send();
        while let Some(item) = pages.next().await {
            drafts.push(serde_dynamo::from_item(item?)?);
        }
        Ok(drafts)
    }
}
