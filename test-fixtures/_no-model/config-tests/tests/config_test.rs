use orders_service::{Config, TableNames};

#[test]
fn custom_table_names_are_kept() {
    let custom = TableNames {
        outbox: "custom-outbox".to_string(),
        outbox_status_index: "custom-outbox-index".to_string(),
    };
    let config = Config {
        table_names: custom.clone(),
    };
    assert_eq!(config.table_names.outbox, "custom-outbox");
    assert_eq!(config.table_names.outbox_status_index, "custom-outbox-index");
}

#[test]
fn default_table_names() {
    let names = TableNames::default();
    assert_eq!(names.outbox, "outbox");
}
