// An item that builds its own requests: a query input by city, a transaction Get by
// id and a Put, which the client wrapper sends.
use aws_sdk_dynamodb::operation::query::QueryInput;
use aws_sdk_dynamodb::types::{AttributeValue, Get, Put, TransactGetItem, TransactWriteItem};

const HOUSES_TABLE: &str = "Houses";

pub struct House {
    pub id: String,
    pub city_code: String,
}

impl House {
    pub fn query_by_city(city_code: &str) -> Result<QueryInput, Error> {
        let input = QueryInput::builder()
            .table_name(HOUSES_TABLE)
            .index_name("CityCodeIndex")
            .key_condition_expression("CityCode = :c")
            .expression_attribute_values(":c", AttributeValue::S(city_code.to_string()))
            .build()?;
        Ok(input)
    }

    pub fn get(id: &str) -> Result<TransactGetItem, Error> {
        let item = Get::builder()
            .table_name(HOUSES_TABLE)
            .key("HouseId", AttributeValue::S(id.to_string()))
            .build()?;
        Ok(TransactGetItem::builder().get(item).build())
    }

    pub fn save(&self) -> Result<TransactWriteItem, Error> {
        let put = Put::builder()
            .table_name(HOUSES_TABLE)
            .item("HouseId", AttributeValue::S(self.id.clone()))
            .item("CityCode", AttributeValue::S(self.city_code.clone()))
            .build()?;
        Ok(TransactWriteItem::builder().put(put).build())
    }
}
