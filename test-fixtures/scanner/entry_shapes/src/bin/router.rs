// A lambda_http router: one closure, a match on the path.
use lambda_http::{run, service_fn, Body, Error, Request, Response};
use shop::repo::Repo;

#[tokio::main]
async fn main() -> Result<(), Error> {
    let repo = Repo::from_env().await;
    run(service_fn(move |req: Request| {
        let repo = repo.clone();
        async move { route(&repo, req).await }
    }))
    .await
}

async fn route(repo: &Repo, req: Request) -> Result<Response<Body>, Error> {
    match (req.method().as_str(), req.uri().path()) {
        ("GET", "/archive") => archive(repo).await,
        _ => not_found(),
    }
}

async fn archive(repo: &Repo) -> Result<Response<Body>, Error> {
    ok(repo.export_all().await?)
}
