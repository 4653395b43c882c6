// A repository that builds its queries in one method and sends them in another: a
// base builder returned by one helper, sent by a second or handed to a pager.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

type Key = HashMap<String, AttributeValue>;

pub struct BlogRepo {
    client: Client,
}

impl BlogRepo {
    fn blogs_query(&self, user_id: &str) -> QueryFluentBuilder {
        self.client
            .query()
            //~^ unpaginated-query
            .table_name("BlogApp")
            .key_condition_expression("PK = :pk AND begins_with(SK, :blog)")
            .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
            .expression_attribute_values(":blog", AttributeValue::S("BLOG#".into()))
    }

    /// Handed to a sender that reads one page: flagged (at the builder, in this file).
    pub async fn first_blogs(&self, user_id: &str) -> Result<Vec<Blog>, Error> {
        let query = self.blogs_query(user_id);
        send_one(query).await
    }

    /// Handed to a pager that follows `last_evaluated_key`: every page is read.
    pub async fn all_blogs(&self, user_id: &str) -> Result<Vec<Blog>, Error> {
        collect_pages(self.blogs_query(user_id)).await
    }

    /// The cursor comes from the client and goes back to it: one page per request, by
    /// design.
    pub async fn blog_page(&self, user_id: &str, cursor: Option<Key>) -> Result<Page, Error> {
        let out = self
            .blogs_query(user_id)
            .set_exclusive_start_key(cursor)
            .limit(50)
            .send()
            .await?;
        Ok(Page {
            blogs: to_blogs(out.items()),
            next: out.last_evaluated_key().cloned(),
        })
    }

    /// The page method called until the key runs out, under other names.
    pub async fn export(&self, user_id: &str) -> Result<Vec<Blog>, Error> {
        let mut blogs = Vec::new();
        let mut next = None;
        loop {
            let page = self.blog_page(user_id, next).await?;
            blogs.extend(page.blogs);
            match page.next {
                Some(k) => next = Some(k),
                None => break,
            }
        }
        Ok(blogs)
    }
}

async fn send_one(q: QueryFluentBuilder) -> Result<Vec<Blog>, Error> {
    let out = q.send().await?;
    Ok(to_blogs(out.items()))
}

async fn collect_pages(q: QueryFluentBuilder) -> Result<Vec<Blog>, Error> {
    let mut blogs = Vec::new();
    let mut start: Option<Key> = None;
    loop {
        let out = q.clone().set_exclusive_start_key(start).send().await?;
        blogs.extend(to_blogs(out.items()));
        match out.last_evaluated_key {
            Some(k) => start = Some(k),
            None => break,
        }
    }
    Ok(blogs)
}
