// A dependency of `orders` (renamed there): its functions are reached from the handler.
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;

pub async fn fetch_all(c: &Client) -> Vec<Order> {
    c.scan().table_name("Orders").send().await
}

pub fn recent_orders(c: &Client) -> QueryFluentBuilder {
    c.query()
        .table_name("Orders")
        .key_condition_expression("pk = :pk")
}

pub async fn load_order(c: &Client, id: &str) -> Order {
    c.get_item().table_name("Orders").key("pk", id).send().await
}

pub async fn count_orders(c: &Client, day: &str) -> usize {
    c.query().table_name("Orders").key_condition_expression("pk = :d").send().await
}
