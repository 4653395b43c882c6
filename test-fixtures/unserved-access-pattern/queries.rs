// Queries that can never find an item.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const FACET_INDEX: &str = "ByFacet";

pub async fn newest_users(client: &Client) -> Result<(), Error> {
    client
        .query()
        .table_name("BlogApp")
        .index_name(FACET_INDEX)
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("USER".into()))
        //~^ unserved-access-pattern
        .scan_index_forward(false)
        .limit(10)
        .send()
        .await?;
    Ok(())
}

pub async fn drafts(client: &Client) -> Result<(), Error> {
    let draft = "DRAFT";
    client
        .query()
        .table_name("BlogApp")
        .index_name(FACET_INDEX)
        .key_condition_expression("#f = :f")
        .expression_attribute_names("#f", "facet")
        .expression_attribute_values(":f", AttributeValue::S(draft.to_string()))
        //~^ unserved-access-pattern
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: blogs carry `createdAt` and land in `ByFacet`; a facet from a
// parameter could be any value.
pub async fn latest_blogs(client: &Client) -> Result<(), Error> {
    client
        .query()
        .table_name("BlogApp")
        .index_name(FACET_INDEX)
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .scan_index_forward(false)
        .limit(3)
        .send()
        .await?;
    Ok(())
}

pub async fn by_facet(client: &Client, facet: &str) -> Result<(), Error> {
    client
        .query()
        .table_name("BlogApp")
        .index_name(FACET_INDEX)
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S(facet.to_string()))
        .send()
        .await?;
    Ok(())
}
