// A setter's argument chosen by an `if` or a `match`: each branch's value when every
// branch gives one the scanner knows, else the value is unknown. Never the text of the
// argument.
use aws_sdk_dynamodb::types::{AttributeValue, Select};
use aws_sdk_dynamodb::Client;

pub struct Inventory {
    client: Client,
    table: String,
}

#[derive(Clone, Copy)]
pub enum Projection {
    Everything,
    Keys,
    Tally,
}

impl Inventory {
    /// Counts or lists a warehouse's items with one request.
    pub async fn in_warehouse(&self, warehouse: &str, count_only: bool) -> Result<usize, Error> {
        let out = self
            .client
            .query()
            .table_name("inventory")
            .key_condition_expression("warehouse = :w")
            .expression_attribute_values(":w", AttributeValue::S(warehouse.to_owned()))
            .select(if count_only {
                Select::Count
            } else {
                Select::AllAttributes
            })
            .send()
            .await?;
        Ok(out.count() as usize)
    }

    /// Three shapes of the same read, by `match`.
    pub async fn scan_as(&self, how: Projection) -> Result<usize, Error> {
        let out = self
            .client
            .scan()
            .table_name("inventory")
            .select(match how {
                Projection::Everything => Select::AllAttributes,
                Projection::Keys => aws_sdk_dynamodb::types::Select::SpecificAttributes,
                Projection::Tally => Select::Count,
            })
            .send()
            .await?;
        Ok(out.count() as usize)
    }

    /// Both branches give the same value: that value.
    pub async fn count(&self, fast: bool) -> Result<usize, Error> {
        let out = self
            .client
            .scan()
            .table_name("inventory")
            .select(if fast { Select::Count } else { Select::from("COUNT") })
            .send()
            .await?;
        Ok(out.count() as usize)
    }

    /// A branch the scanner cannot read (a value handed in): unknown, not a guess.
    pub async fn scan_with(&self, select: Option<Select>) -> Result<usize, Error> {
        let out = self
            .client
            .scan()
            .table_name("inventory")
            .select(match select {
                Some(s) => s,
                None => Select::AllAttributes,
            })
            .send()
            .await?;
        Ok(out.count() as usize)
    }
}
