// Loops at call sites: directly, and one service layer up. `get` is too common a name
// to match by name (a loop calling `cache.get(k)` says nothing about `Repo::get`), and
// a call before the loop is not in it.
use std::collections::HashMap;

pub async fn friends(repo: &Repo, ids: Vec<String>) -> Vec<User> {
    let mut out = Vec::new();
    for id in ids {
        if let Some(u) = repo.get_user(&id).await {
            out.push(u);
        }
    }
    out
}

pub async fn load_profile(repo: &Repo, id: &str) -> Option<User> {
    repo.get_settings(id).await
}

pub async fn team(repo: &Repo, members: &[String]) -> Vec<User> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < members.len() {
        out.extend(load_profile(repo, &members[i]).await);
        i += 1;
    }
    out
}

pub fn cached(cache: &HashMap<String, User>, ids: &[String]) -> usize {
    let mut n = 0;
    for id in ids {
        if cache.get(id).is_some() {
            n += 1;
        }
    }
    n
}

pub async fn visit(repo: &Repo, id: &str, pages: &[String]) {
    repo.log_visit(id).await;
    for p in pages.iter().filter(|p| { !p.is_empty() }) {
        render(p);
    }
}
