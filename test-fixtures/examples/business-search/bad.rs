// dynalint.toml:
// Business search (article 000) the naive way: the type's whole item collection is read
// and narrowed to a state and city by a filter.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn businesses_in(client: &Client, kind: &str, country: &str, state: &str) -> Result<Vec<Business>, Error> {
    let out = client
        .query()
        //~^ unpaginated-query
        .table_name(std::env::var("BUSINESS_TABLE")?)
        .index_name("ByTypeLocation")
        .key_condition_expression("BusinessType = :t")
        .filter_expression("Country = :c AND #st = :s")
        //~^ filter-instead-of-index, unprojected-attribute
        .expression_attribute_names("#st", "State")
        .expression_attribute_values(":t", AttributeValue::S(kind.into()))
        .expression_attribute_values(":c", AttributeValue::S(country.into()))
        .expression_attribute_values(":s", AttributeValue::S(state.into()))
        .send()
        .await?;
    Ok(to_businesses(out.items()))
}
