// A key condition grown with `push_str` on some paths, handed to a helper that builds
// the request around it: the request has the caller's text on each path, named as the
// caller names it.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct UsageRepo {
    client: Client,
    table: String,
}

impl UsageRepo {
    fn usage_query(&self, key_condition: impl Into<String>) -> QueryFluentBuilder {
        self.client
            .query()
            .table_name(&self.table)
            .key_condition_expression(key_condition)
            .scan_index_forward(false)
    }

    pub async fn usage(
        &self,
        api_key: &str,
        since: Option<&str>,
    ) -> Result<Vec<Record>, Error> {
        let mut key_condition = "api_key = :api_key".to_string();
        let mut values = vec![(":api_key", AttributeValue::S(api_key.to_string()))];
        if let Some(start) = since {
            key_condition.push_str(" AND created_at >= :start");
            values.push((":start", AttributeValue::S(start.to_string())));
        }
        let mut query = self.usage_query(key_condition);
        for (name, value) in values {
            query = query.expression_attribute_values(name, value);
        }
        let out = query.send().await?;
        Ok(records(out))
    }
}
