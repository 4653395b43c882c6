// Tables held by a small struct built where the request is: the field holds what that
// constructor call passes. A parameter passed on is each caller's table, and a
// config field passed on is named as the config names it.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ORDERS_TABLE: &str = "Orders";
const PRODUCTS_TABLE: &str = "Products";

struct TableRef {
    name: String,
}

impl TableRef {
    fn new(name: impl Into<String>) -> Self {
        Self { name: name.into() }
    }
}

async fn lookup(client: &Client, table: &str, key: &str, id: &str) -> Result<(), Error> {
    let table = TableRef::new(table);
    client
        .get_item()
        //~^ get-item-in-loop
        .table_name(&table.name)
        .key(key, AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(())
}

pub async fn order_lines(client: &Client, order_ids: &[String], product_ids: &[String]) -> Result<(), Error> {
    for id in order_ids {
        lookup(client, ORDERS_TABLE, "PK", id).await?;
    }
    for id in product_ids {
        lookup(client, PRODUCTS_TABLE, "productId", id).await?;
    }
    Ok(())
}

pub struct Config {
    pub products_table: String,
}

pub struct Catalog {
    client: Client,
    config: Config,
}

impl Catalog {
    pub async fn prices(&self, ids: &[String]) -> Result<(), Error> {
        for id in ids {
            let table = TableRef::new(&self.config.products_table);
            self.client
                .get_item()
                //~^ get-item-in-loop
                .table_name(table.name.clone())
                .key("productId", AttributeValue::S(id.clone()))
                .send()
                .await?;
        }
        Ok(())
    }
}
