use aws_sdk_dynamodb::Client;

/// Once per region: each iteration reads the whole table again.
pub async fn audit(client: &Client, regions: &[String]) -> usize {
    let mut n = 0;
    for _region in regions {
        let out = client.scan().table_name("Catalog").send().await.unwrap_or_default();
        //~^ scan-in-hot-path
        n += out.count() as usize;
    }
    n
}

/// Not flagged: one paginated Scan in a one-off binary's main.
#[tokio::main]
async fn main() {
    let client = Client::new(&aws_config::load_from_env().await);
    let mut pages = client.scan().table_name("Catalog").into_paginator().send();
    while let Some(page) = pages.next().await {
        println!("{}", page.map(|p| p.count()).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn scans_are_fine_in_tests() {
        let client = Client::new(&aws_config::load_from_env().await);
        for _ in 0..3 {
            client.scan().table_name("Catalog").send().await.unwrap();
        }
    }
}
