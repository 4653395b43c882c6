// warp: `warp::serve(routes).run(..)`.
#[tokio::main]
async fn main() {
    CLIENT.scan().table_name("Flags").send().await.ok();
    let routes = warp::path("items").and_then(items);
    warp::serve(routes).run(([127, 0, 0, 1], 3030)).await;
}

async fn items() -> Result<impl warp::Reply, warp::Rejection> {
    CLIENT.scan().table_name("Items").send().await.ok();
    Ok(warp::reply())
}
