// Helpers that return builders; their callers elsewhere only `.send()` them.
use aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

pub fn recent_orders(client: &Client, user: &str) -> QueryFluentBuilder {
    client
        .query()
        .table_name("Orders")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user}")))
        .scan_index_forward(false)
}

pub fn profile(client: &Client, id: &str) -> GetItemFluentBuilder {
    client.get_item().table_name("Users").key("PK", AttributeValue::S(id.to_string()))
}

impl Repo {
    fn everything(&self) -> ScanFluentBuilder {
        self.client.scan().table_name("Audit")
    }
}
