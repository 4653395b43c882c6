// Entities name their own table and key: the repository is written once for all.
use serde::de::DeserializeOwned;
use serde::Serialize;

pub trait Entity: Serialize + DeserializeOwned + Send + Sync {
    const TABLE: &'static str;
    const KEY: &'static str;

    fn table_name() -> &'static str {
        Self::TABLE
    }
}

#[derive(Serialize, Deserialize)]
pub struct Customer {
    pub customer_id: String,
    pub name: String,
}

impl Entity for Customer {
    const TABLE: &'static str = "customers";
    const KEY: &'static str = "customer_id";
}

#[derive(Serialize, Deserialize)]
pub struct Invoice {
    pub invoice_id: String,
    pub total: u64,
}

impl Entity for Invoice {
    const TABLE: &'static str = "invoices";
    const KEY: &'static str = "invoice_id";

    fn table_name() -> &'static str {
        "invoices-v2"
    }
}
