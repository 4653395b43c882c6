use crate::names;
use crate::names::index::BY_EMAIL as EMAIL_INDEX;
use crate::models::Customer;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

pub struct Repo {
    client: aws_sdk_dynamodb::Client,
}

impl Repo {
    pub async fn find_by_email(&self, email: &str) {
        self.client
            .query()
            .table_name(names::TABLE)
            .index_name(EMAIL_INDEX)
            .key_condition_expression("EmailAddress = :e")
            .send()
            .await
            .ok();
    }

    pub async fn save(&self, c: Customer) {
        let item = serde_dynamo::to_item(c).unwrap();
        self.client.put_item().table_name(names::TABLE).set_item(Some(item)).send().await.ok();
    }

    pub async fn everything(&self) {
        self.client.scan().table_name(names::TABLE).send().await.ok();
    }

    pub fn base(&self) -> QueryFluentBuilder {
        self.client.query().table_name(names::TABLE)
    }
}
