// A user store that hashes ids before using them as keys.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use sha2::{Digest, Sha256};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

pub async fn save(client: &Client, id: &str, email: &str) -> Result<(), Error> {
    let pk = format!("{:x}", Sha256::digest(id.as_bytes()));
    let email_hash = format!("{:x}", md5::compute(email));
    client
        .put_item()
        .table_name(std::env::var("USERS_TABLE")?)
        .item("pk", AttributeValue::S(pk))
        //~^ client-side-key-hashing
        .item("sk", AttributeValue::S("PROFILE".to_string()))
        .item("emailHash", AttributeValue::S(email_hash))
        //~^ client-side-key-hashing
        .send()
        .await?;
    Ok(())
}

pub async fn load(client: &Client, id: &str) -> Result<(), Error> {
    client
        .get_item()
        .table_name("Users")
        .key("pk", AttributeValue::S(hex::encode(Sha256::digest(id.as_bytes()))))
        //~^ client-side-key-hashing
        .key("sk", AttributeValue::S("PROFILE".into()))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: the readable id as the key, and a hash reduced to a shard.
pub async fn save_plain(client: &Client, id: &str, day: &str) -> Result<(), Error> {
    let mut h = DefaultHasher::new();
    id.hash(&mut h);
    let shard = h.finish() % 10;
    client
        .put_item()
        .table_name("Users")
        .item("pk", AttributeValue::S(format!("USER#{}", id)))
        .item("sk", AttributeValue::S(format!("LOGIN#{}#{}", day, shard)))
        .item("checksum", AttributeValue::S(format!("{:x}", Sha256::digest(id.as_bytes()))))
        .send()
        .await?;
    Ok(())
}
