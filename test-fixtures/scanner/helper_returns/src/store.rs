// Methods returning a field or an associated const, in a file without calls.
pub struct Store {
    client: Client,
    table: String,
}

impl Store {
    const TABLE: &'static str = "Carts";

    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: std::env::var("STORE_TABLE").expect("STORE_TABLE"),
        }
    }

    pub fn table_name(&self) -> &str {
        &self.table
    }

    pub fn table() -> &'static str {
        Self::TABLE
    }
}

/// Table names grouped in a config struct, reached through a field.
pub struct Tables {
    prefix: String,
}

impl Tables {
    pub fn orders(&self) -> String {
        format!("{}-orders", self.prefix)
    }

    pub fn audit(&self) -> &'static str {
        "Audit"
    }
}

pub struct App {
    client: Client,
    tables: Arc<Tables>,
}
