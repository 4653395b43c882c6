use crate::boxes::BoxStore;

#[tokio::test]
async fn gets_a_box() {
    let client = local_client().await;
    let store = BoxStore::with_client_and_table(client, "boxes-test".to_string());
    assert!(store.get_box("b1").await.unwrap().is_none());
}
