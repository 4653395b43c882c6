// A nightly job that builds one future per account with a repository method that
// makes its own requests, and drives them all with join_all.
use futures::future::join_all;

pub async fn update_account_balances(repo: &AccountRepo) -> Result<(), Error> {
    let accounts = repo.list_accounts().await?;
    let futures = accounts.iter().map(|acct| {
        let repo = repo.clone();
        async move {
            repo.deposit_interest(&acct.id, acct.apr * acct.balance)
                .await
                .map_err(|e| format!("account {}: {e}", acct.id))
        }
    });
    let results = join_all(futures).await;
    report(results)
}
