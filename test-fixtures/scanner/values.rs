// Value resolution: LazyLock, OnceLock, lazy_static, format!, concat!, env::var,
// constructor fields, push_str and +; and what must stay unknown.
use std::sync::{LazyLock, OnceLock};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

static TABLE_FROM_ENV: LazyLock<String> = LazyLock::new(|| std::env::var("ORDERS_TABLE").unwrap());
static CACHED: OnceLock<String> = OnceLock::new();
const PREFIX: &str = "prod";
const FULL: &str = concat!("prod", "-", "users");

lazy_static::lazy_static! {
    static ref AUDIT_TABLE: String = env::var("AUDIT_TABLE").unwrap_or_else(|_| "audit".into());
}

pub struct Repo {
    client: Client,
    table: String,
    index: String,
}

impl Repo {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            table: std::env::var("TABLE_NAME").expect("TABLE_NAME"),
            index: "GSI1".to_string(),
        }
    }

    async fn by_field(&self) {
        self.client.query().table_name(&self.table).index_name(&self.index).send().await.ok();
    }
}

async fn many(client: &Client, tenant: &str, name: String) {
    client.scan().table_name(TABLE_FROM_ENV.as_str()).send().await.ok();
    client.scan().table_name(CACHED.get_or_init(|| "Cache".to_string())).send().await.ok();
    client.scan().table_name(&*AUDIT_TABLE).send().await.ok();
    client.scan().table_name(format!("{}-orders", PREFIX)).send().await.ok();
    client.scan().table_name(format!("{PREFIX}-{}", tenant)).send().await.ok();
    client.scan().table_name(FULL).send().await.ok();
    let mut t = String::from(PREFIX);
    t.push_str("-carts");
    client.scan().table_name(t).send().await.ok();
    let plus = PREFIX.to_string() + "-wish";
    client.scan().table_name(plus).send().await.ok();
    // Unknown, honestly: a parameter, a call, a branch.
    client.scan().table_name(name).send().await.ok();
    client.scan().table_name(table_for(tenant)).send().await.ok();
    client.scan().table_name(if tenant.is_empty() { "A" } else { "B" }).send().await.ok();
    client.scan().table_name(MISSING_CONST).send().await.ok();
}
