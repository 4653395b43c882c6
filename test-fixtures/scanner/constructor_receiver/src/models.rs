// Types whose items come from their own `to_item()`.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

pub struct User {
    id: String,
    email: String,
}

impl User {
    /// Validates, then builds: the value comes inside a `Result`.
    pub fn new(id: String, email: String) -> Result<Self, String> {
        if !email.contains('@') {
            return Err(format!("bad email {email}"));
        }
        Ok(Self { id, email })
    }

    pub fn to_item(&self) -> HashMap<String, AttributeValue> {
        let mut item = HashMap::new();
        item.insert("id".to_string(), AttributeValue::S(self.id.clone()));
        item.insert("email".to_string(), AttributeValue::S(self.email.clone()));
        item
    }
}

pub struct Draft {
    title: String,
}

pub struct DraftBuilder {
    title: Option<String>,
}

impl Draft {
    /// Named like a constructor, but returns another type.
    pub fn builder() -> DraftBuilder {
        DraftBuilder { title: None }
    }

    pub fn to_item(&self) -> HashMap<String, AttributeValue> {
        HashMap::from([("title".to_string(), AttributeValue::S(self.title.clone()))])
    }
}
