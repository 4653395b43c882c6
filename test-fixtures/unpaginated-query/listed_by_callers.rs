// A repository whose reads are named for how they query, not for what they are for:
// what a read of an unsized collection is for is in its callers' names. A read that
// only functions listing the whole collection call (directly, or through one more
// helper) is warned of; a read that something else calls too stays a question.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ACCOUNTS_TABLE: &str = "Accounts";

pub struct AccountRepo<'a> {
    client: &'a Client,
}

impl<'a> AccountRepo<'a> {
    pub fn new(client: &'a Client) -> Self {
        Self { client }
    }

    /// Every account of an owner, from one page.
    async fn query_by_owner(&self, owner: &str) -> Result<Vec<Account>, Error> {
        let out = self
            .client
            .query()
            //~^ unpaginated-query
            .table_name(ACCOUNTS_TABLE)
            .index_name("owner-index")
            .key_condition_expression("#o = :o")
            .expression_attribute_names("#o", "owner")
            .expression_attribute_values(":o", AttributeValue::S(owner.to_string()))
            .send()
            .await?;
        out.items().iter().map(Account::from_item).collect()
    }
}

/// The accounts page of the admin console: every account an owner has.
pub async fn list_accounts(client: &Client, owner: &str) -> Result<Vec<Account>, Error> {
    AccountRepo::new(client).query_by_owner(owner).await
}

/// Through one more helper: still only to list them all.
async fn owner_accounts(client: &Client, owner: &str) -> Result<Vec<Account>, Error> {
    AccountRepo::new(client).query_by_owner(owner).await
}

pub async fn export_all_accounts(client: &Client, owner: &str) -> Result<String, Error> {
    let accounts = owner_accounts(client, owner).await?;
    Ok(accounts.iter().map(|a| a.id.clone()).collect::<Vec<_>>().join("\n"))
}
