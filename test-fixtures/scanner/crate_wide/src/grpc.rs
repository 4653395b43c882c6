#[tonic::async_trait]
impl greeter_server::Greeter for MyGreeter {
    async fn say_hello(&self, request: Request<HelloRequest>) -> Result<Response<HelloReply>, Status> {
        self.client.query().table_name("Greetings").send().await.ok();
        Ok(Response::new(HelloReply::default()))
    }
}

struct QueryRoot;

#[Object]
impl QueryRoot {
    async fn users(&self, ctx: &Context<'_>) -> Vec<User> {
        ctx.data_unchecked::<Client>().scan().table_name("Users").send().await.ok();
        vec![]
    }
}
