// A read of an unsized collection that a listing function calls, and another function
// too, for something else: what the collection holds is still a question.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const ACCOUNTS_TABLE: &str = "Accounts";

async fn by_owner(client: &Client, owner: &str) -> Result<Vec<Account>, Error> {
    let out = client
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

pub async fn list_accounts(client: &Client, owner: &str) -> Result<Vec<Account>, Error> {
    by_owner(client, owner).await
}

/// Whether an owner has an account with a balance: the first page is what it checks.
pub async fn has_funded_account(client: &Client, owner: &str) -> Result<bool, Error> {
    Ok(by_owner(client, owner).await?.iter().any(|a| a.balance > 0))
}
