// Calls whose table or key comes from a helper function of the crate.
use aws_sdk_dynamodb::types::AttributeValue;
use crate::names::{self, orders_table, pk};
use crate::store::Store;

impl Store {
    async fn calls(&self, id: &str) -> Result<(), Error> {
        self.client
            .get_item()
            .table_name(self.table_name())
            .key("pk", AttributeValue::S(pk(id)))
            .send()
            .await?;
        self.client.scan().table_name(Self::table()).send().await?;
        self.client.scan().table_name(orders_table()).send().await?;
        self.client.scan().table_name(names::users_table().to_string()).send().await?;
        self.client.scan().table_name(names::audit_table()?).send().await?;
        self.client.scan().table_name(String::from(names::users_table())).send().await?;
        self.client.scan().table_name(names::orders_table().as_str()).send().await?;
        self.client.scan().table_name(names::same_on_both_paths(true)).send().await?;
        self.client.scan().table_name(names::checked().expect("table")).send().await?;
        self.client.scan().table_name(format!("{}-archive", names::users_table())).send().await?;
        Ok(())
    }
}

async fn typed(client: &Client, store: &Store) {
    client.scan().table_name(store.table_name()).send().await.ok();
}

// ---- must stay unknown ----

async fn unknowns(client: &Client, tier: Tier) {
    client.scan().table_name(names::region_table(true)).send().await.ok();
    client.scan().table_name(names::by_tier(tier)).send().await.ok();
    client.scan().table_name(names::recursive(3)).send().await.ok();
    client.scan().table_name(names::forever()).send().await.ok();
    client.scan().table_name(names::table_of("Orders")).send().await.ok();
    client.scan().table_name(other_crate::table()).send().await.ok();
}

async fn keys(client: &Client, id: &str, at: &str) -> Result<(), Error> {
    client.get_item().table_name("Users").set_key(Some(names::user_key(id))).send().await?;
    let key = names::order_key(id, at)?;
    client.delete_item().table_name("Orders").set_key(Some(key)).send().await?;
    // ---- incomplete: two return paths, or a function outside the crate ----
    client.get_item().table_name("Users").set_key(Some(names::either_key(id, true))).send().await?;
    client.get_item().table_name("Users").set_key(Some(other_crate::key(id))).send().await?;
    Ok(())
}

impl App {
    async fn through_a_field(&self) {
        self.client.scan().table_name(self.tables.audit()).send().await.ok();
        self.client.scan().table_name(self.tables.orders()).send().await.ok();
    }
}
