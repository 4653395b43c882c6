// The callers: this file never names the SDK (the byte pre-filter rules it out), and
// is read for its calls' arguments only when the repository's parameters are asked.
use crate::repo::{AuditLog, AuditLogRepository};
use crate::Db;

/// How many events a user has: "all of them" spelled as the largest page.
pub async fn count_by_user(db: &Db, user_id: &str) -> usize {
    let repo = AuditLogRepository::new(db.handle());
    repo.find_by_user(user_id, u32::MAX, 0)
        .await
        .map(|logs| logs.len())
        .unwrap_or(0)
}

/// One page of a user's events, as the API asks for it.
pub async fn page(
    repo: &AuditLogRepository,
    user_id: &str,
    limit: u32,
    offset: u32,
) -> Vec<AuditLog> {
    repo.find_by_user(user_id, limit, offset)
        .await
        .unwrap_or_default()
}
