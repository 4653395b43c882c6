// Shapes the scanner cannot resolve: each must come out unknown, with a reason.
use aws_sdk_dynamodb::Client;

pub struct Store {
    client: Client,
    table: String,
}

impl Store {
    pub fn new(client: Client, table: String) -> Self {
        Self { client, table }
    }

    pub fn for_tests(client: Client) -> Self {
        Self { client, table: "Fixed".into() }
    }

    async fn read(&self, key: HashMap<String, AttributeValue>) {
        // Two constructors disagree: a parameter in one, a literal in the other.
        self.client.get_item().table_name(&self.table).set_key(Some(key)).send().await.ok();
    }
}

pub struct Settings {
    table: String,
}

async fn external(client: &Client, cfg: &Settings, rec: ThirdParty, region: &str) {
    // `TABLE` is defined in two modules with different values and not imported here.
    client.scan().table_name(TABLE).send().await.ok();
    // No constructor of `Settings` is in the crate.
    client.scan().table_name(&cfg.table).send().await.ok();
    // A struct from another crate: its serialised attributes are unknown.
    let item = serde_dynamo::to_item(rec).unwrap();
    client.put_item().table_name(format!("orders-{}", region)).set_item(Some(item)).send().await.ok();
    // A value from a closure's result and a match.
    let t = match region { "eu" => "EuOrders", _ => "Orders" };
    client.scan().table_name(t).index_name(pick_index()).send().await.ok();
}
