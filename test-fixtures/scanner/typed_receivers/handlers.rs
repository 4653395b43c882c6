// Request handlers and services that call the storage per element.
use std::sync::Arc;

use axum::extract::State;
use axum::Json;

/// `get` is too common a name to follow by itself; the receiver's field is an
/// `Arc<dyn Storage>`, whose DynamoDB implementation sends a GetItem per id.
pub async fn products(
    State(state): State<Arc<AppState>>,
    Json(ids): Json<Vec<String>>,
) -> Json<Vec<Product>> {
    let mut out = Vec::new();
    for id in ids {
        if let Ok(Some(p)) = state.storage.get(&id).await {
            out.push(p);
        }
    }
    Json(out)
}

pub struct Members<B: Backend> {
    backend: B,
}

impl<B: Backend> Members<B> {
    /// One user per member: only the users' `find_by_id` runs per element.
    pub async fn of_team(&self, team: &Team) -> Result<Vec<User>, Error> {
        let mut users = Vec::new();
        for member in &team.members {
            if let Some(u) = self.backend.users().find_by_id(&member.user_id).await? {
                users.push(u);
            }
        }
        Ok(users)
    }

    /// Removes each order: `remove` reads the order through its own `find_by_id`
    /// and deletes it, both per element.
    pub async fn cancel_all(&self, orders: &[String]) -> Result<(), Error> {
        for id in orders {
            self.backend.orders().remove(id).await?;
        }
        Ok(())
    }
}
