// A synchronous one-off `main` driving a runtime by hand.
fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        CLIENT.scan().table_name("Legacy").send().await.ok();
    });
}
