use serde::Serialize;

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Customer {
    pub pk: String,
    pub email_address: String,
    pub nickname: Option<String>,
}
