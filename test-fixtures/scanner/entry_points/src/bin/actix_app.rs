// actix-web: `HttpServer::new(..).bind(..)?.run()` under `#[actix_web::main]`.
#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let client = make_client().await;
    client.get_item().table_name("Config").key("PK", AttributeValue::S("cfg".into())).send().await.ok();
    HttpServer::new(|| App::new().route("/carts/{id}", web::get().to(cart)))
        .bind(("0.0.0.0", 8080))?
        .run()
        .await
}

async fn cart(path: web::Path<String>) -> impl Responder {
    CLIENT.query().table_name("Carts").key_condition_expression("PK = :pk").send().await.ok();
    "ok"
}
