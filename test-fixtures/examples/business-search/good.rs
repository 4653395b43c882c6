// Business search as article 000 designs it: the hierarchical sort key
// `Country:State:City` narrows to a state or a city with `begins_with`.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn business(client: &Client, id: &str) -> Result<Option<Business>, Error> {
    let out = client
        .get_item()
        .table_name(std::env::var("BUSINESS_TABLE")?)
        .key("BusinessId", AttributeValue::S(id.into()))
        .send()
        .await?;
    Ok(out.item.map(to_business))
}

pub async fn businesses_in(client: &Client, kind: &str, country: &str, state: &str) -> Result<Vec<Business>, Error> {
    let prefix = format!("{country}:{state}");
    let out = client
        .query()
        .table_name(std::env::var("BUSINESS_TABLE")?)
        .index_name("ByTypeLocation")
        .key_condition_expression("BusinessType = :t AND begins_with(#loc, :prefix)")
        .expression_attribute_names("#loc", "Location")
        .expression_attribute_values(":t", AttributeValue::S(kind.into()))
        .expression_attribute_values(":prefix", AttributeValue::S(prefix))
        .projection_expression("#n, #loc")
        .expression_attribute_names("#n", "Name")
        .limit(50)
        .send()
        .await?;
    Ok(to_businesses(out.items()))
}
