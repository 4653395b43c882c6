use aws_sdk_dynamodb::types::AttributeValue;

use crate::table::DynamoTable;

pub trait TodoExt {
    async fn scan_todos(&self) -> Result<Vec<Todo>, Error>;
}

impl TodoExt for DynamoTable {
    async fn scan_todos(&self) -> Result<Vec<Todo>, Error> {
        let mut todos = Vec::new();
        let mut pages = self
            .scan()
            .filter_expression("begins_with(SK, :sk)")
            .expression_attribute_values(":sk", AttributeValue::S("todo#".into()))
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            todos.extend(to_todos(page?.items()));
        }
        Ok(todos)
    }
}
