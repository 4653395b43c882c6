// A struct's table field set by its constructor from a function of the crate that
// names the table: the request reads what that function returns.
use aws_sdk_dynamodb::Client;

fn products_table() -> String {
    std::env::var("PRODUCTS_TABLE").unwrap_or_else(|_| "products".to_string())
}

fn orders_table() -> &'static str {
    "orders"
}

pub struct Products {
    client: Client,
    table: String,
}

impl Products {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: (products_table()).into(),
        }
    }

    pub async fn list(&self) {
        let _ = self.client.scan().table_name(&self.table).send().await;
    }
}

pub struct Orders {
    client: Client,
    table: String,
}

impl Orders {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: orders_table().to_string(),
        }
    }

    pub async fn list(&self) {
        let _ = self.client.scan().table_name(self.table.clone()).send().await;
    }
}

pub struct Archive {
    client: Client,
    table: String,
}

impl Archive {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: (String::from(orders_table())).into(),
        }
    }

    pub async fn list(&self) {
        let _ = self.client.scan().table_name(self.table.as_str()).send().await;
    }
}
