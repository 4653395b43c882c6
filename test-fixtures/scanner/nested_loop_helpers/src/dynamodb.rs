use aws_sdk_dynamodb::operation::get_item::{GetItemError, GetItemOutput};
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub const PARTITION_KEY_NAME: &str = "pk";
pub const SORT_KEY_NAME: &str = "sk";

pub async fn get_item(
    client: &Client,
    table_name: &str,
    partition: &str,
    sort_value: &str,
) -> Result<GetItemOutput, SdkError<GetItemError>> {
    client
        .get_item()
        .table_name(table_name)
        .key(PARTITION_KEY_NAME, AttributeValue::S(partition.to_owned()))
        .key(SORT_KEY_NAME, AttributeValue::S(sort_value.to_owned()))
        .send()
        .await
}
