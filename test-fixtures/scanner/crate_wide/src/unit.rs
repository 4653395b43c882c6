pub async fn real(client: &Client) {
    client.query().table_name("Shop").send().await.ok();
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {
        client().scan().table_name("Shop").send();
    }
}
