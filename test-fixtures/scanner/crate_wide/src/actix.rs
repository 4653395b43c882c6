#[get("/orders/{id}")]
async fn order(client: web::Data<Client>) -> impl Responder {
    client.get_item().table_name("Orders").send().await.ok();
    HttpResponse::Ok()
}
