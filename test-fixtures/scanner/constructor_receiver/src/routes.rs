// Items built by a value's `to_item()`, the value from a constructor.
use aws_sdk_dynamodb::Client;

use crate::models::{Draft, User};

// `User::new` returns `Result<Self, _>` and the call unwraps it once: `user` is a `User`,
// and the item is what `User::to_item` builds.
pub async fn create_user(client: &Client, id: String, email: String) -> Result<(), Error> {
    let user = User::new(id, email).map_err(Error::Invalid)?;
    let item = user.to_item();
    client
        .put_item()
        .table_name("Users")
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

// `Draft::builder` returns a `DraftBuilder`: `Draft::to_item` says nothing of its item.
pub async fn save_draft(client: &Client) -> Result<(), Error> {
    let draft = Draft::builder();
    client
        .put_item()
        .table_name("Drafts")
        .set_item(Some(draft.to_item()))
        .send()
        .await?;
    Ok(())
}
