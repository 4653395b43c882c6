use crate::repo::Repo;

pub async fn get_customer(State(repo): State<Repo>, Path(email): Path<String>) -> String {
    lookup(&repo, &email).await
}

async fn lookup(repo: &Repo, email: &str) -> String {
    repo.find_by_email(email).await;
    String::new()
}

pub async fn recent(State(repo): State<Repo>) {
    repo.base().key_condition_expression("PK = :p").send().await.ok();
}
