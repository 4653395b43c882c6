use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    Projection, ProjectionType, ScalarAttributeType,
};
use aws_sdk_dynamodb::Client;
use orders_service::TableNames;

pub struct TestSetup {
    pub client: Client,
    pub table_names: TableNames,
}

impl TestSetup {
    pub async fn new(client: Client) -> Self {
        let table_names = TableNames {
            outbox: format!("test-outbox-{}", uuid::Uuid::new_v4()),
            outbox_status_index: "outbox-status-index".to_string(),
        };
        let setup = Self {
            client,
            table_names: table_names.clone(),
        };
        setup.create_outbox_table().await;
        setup
    }

    async fn create_outbox_table(&self) {
        let _ = self
            .client
            .create_table()
            .table_name(&self.table_names.outbox)
            .billing_mode(BillingMode::PayPerRequest)
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("pkey")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("skey")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("status")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("pkey")
                    .key_type(KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("skey")
                    .key_type(KeyType::Range)
                    .build()
                    .unwrap(),
            )
            .global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name(&self.table_names.outbox_status_index)
                    .key_schema(
                        KeySchemaElement::builder()
                            .attribute_name("status")
                            .key_type(KeyType::Hash)
                            .build()
                            .unwrap(),
                    )
                    .projection(Projection::builder().projection_type(ProjectionType::All).build())
                    .build()
                    .unwrap(),
            )
            .send()
            .await;
    }
}
