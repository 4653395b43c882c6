// rusoto requests filled field by field after `Default::default()`, the way its docs
// and many services build them.
use rusoto_dynamodb::{AttributeValue, DynamoDb, DynamoDbClient, QueryInput, ScanInput};
use std::collections::HashMap;

pub fn by_path(client: &DynamoDbClient, table: String, path: &str) -> Vec<Item> {
    let mut values: HashMap<String, AttributeValue> = HashMap::new();
    values.insert(
        ":key_path".into(),
        AttributeValue {
            s: Some(path.to_string()),
            ..Default::default()
        },
    );

    let mut query = QueryInput::default();
    query.index_name = Some("key_path-index".into());
    query.key_condition_expression = Some("key_path = :key_path".into());
    query.expression_attribute_values = Some(values);
    query.table_name = table;

    let response = client.query(query).sync().unwrap().items;
    response.unwrap_or_default()
}

// Every page: the loop feeds the last key back.
pub fn everything(client: &DynamoDbClient) -> Vec<Item> {
    let mut scan = ScanInput::default();
    scan.table_name = "apps".to_string();
    let mut out = Vec::new();
    loop {
        let page = client.scan(scan.clone()).sync().unwrap();
        out.extend(page.items.unwrap_or_default());
        match page.last_evaluated_key {
            Some(key) => scan.exclusive_start_key = Some(key),
            None => break,
        }
    }
    out
}

// A field set on one path only: not judged as if it were always (or never) set.
pub fn maybe_filtered(client: &DynamoDbClient, only_active: bool) -> Vec<Item> {
    let mut scan = ScanInput::default();
    scan.table_name = "flags".to_string();
    if only_active {
        scan.filter_expression = Some("active = :yes".into());
    }
    client.scan(scan).sync().unwrap().items.unwrap_or_default()
}
