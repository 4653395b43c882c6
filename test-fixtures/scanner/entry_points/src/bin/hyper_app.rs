// hyper 0.14: `Server::bind(..).serve(..)`; the request handler goes through
// `service_fn`.
use hyper::service::{make_service_fn, service_fn};
#[tokio::main(flavor = "multi_thread", worker_threads = 4)]
async fn main() {
    let client = make_client().await;
    client.put_item().table_name("Boots").item("PK", AttributeValue::S("boot".into())).send().await.ok();
    let make_svc = make_service_fn(|_conn| async { Ok::<_, Infallible>(service_fn(hyper_handle)) });
    Server::bind(&([127, 0, 0, 1], 3000).into()).serve(make_svc).await.ok();
}

async fn hyper_handle(req: Request<Body>) -> Result<Response<Body>, Infallible> {
    CLIENT.get_item().table_name("Pages").key("PK", AttributeValue::S(req.uri().to_string())).send().await.ok();
    Ok(Response::new(Body::empty()))
}
