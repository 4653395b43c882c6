// How a Query's response is read: for its first item at most (first_item_only), or more.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

// `.items.and_then(|items| items.into_iter().next())` after `map_err(..)?`: first only.
async fn account_by_email(client: &Client, email: &str) -> Result<Account, Error> {
    let res = client
        .query()
        .table_name("Accounts")
        .index_name("email-index")
        .key_condition_expression("email = :e")
        .expression_attribute_values(":e", AttributeValue::S(email.to_string()))
        .send()
        .await
        .map_err(|e| Error::Query(e.to_string()))?;
    let item = res
        .items
        .and_then(|items| items.into_iter().next())
        .ok_or(Error::NotFound)?;
    Account::from_item(&item)
}

// `let items = response.items(); items.first()`: first only.
async fn user_by_email(client: &Client, email: String) -> Result<User, Error> {
    let response = client
        .query()
        .table_name("Users")
        .index_name("EmailIndex")
        .key_condition_expression("email = :email")
        .expression_attribute_values(":email", AttributeValue::S(email))
        .send()
        .await?;
    let items = response.items();
    let first_item = items.first().ok_or(Error::NotFound)?;
    User::from_item(first_item)
}

// `match .. { Ok(result) => if let Some(items) = result.items { items[0] } }`: first only.
async fn book(client: &Client, id: String) -> Value {
    match client
        .query()
        .table_name("Books")
        .key_condition_expression("PK = :pk AND begins_with(SK, :p)")
        .expression_attribute_values(":pk", AttributeValue::S("book".into()))
        .expression_attribute_values(":p", AttributeValue::S(format!("{id}#")))
        .send()
        .await
    {
        Ok(result) => {
            if let Some(items) = result.items {
                if !items.is_empty() {
                    return to_json(items[0].clone());
                }
            }
            not_found()
        }
        Err(e) => error(e),
    }
}

// Dropped unread: not a first-item read (nothing says the code wants one item).
async fn touch(client: &Client) -> Result<(), Error> {
    client
        .query()
        .table_name("Books")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("book".into()))
        .send()
        .await?;
    Ok(())
}

// Every item collected: not first only.
async fn books(client: &Client) -> Result<Vec<Value>, Error> {
    match client
        .query()
        .table_name("Books")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("book".into()))
        .send()
        .await
    {
        Ok(result) => Ok(result
            .items
            .unwrap_or_default()
            .into_iter()
            .map(to_json)
            .collect()),
        Err(e) => Err(e.into()),
    }
}

// The first item, and the page's length: not first only.
async fn first_and_count(client: &Client) -> Result<(Value, usize), Error> {
    let out = client
        .query()
        .table_name("Books")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("book".into()))
        .send()
        .await?;
    let items = out.items();
    Ok((to_json(items[0].clone()), items.len()))
}

// The response handed back to the caller: not first only.
async fn page(client: &Client) -> Result<QueryOutput, Error> {
    let out = client
        .query()
        .table_name("Books")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("book".into()))
        .send()
        .await?;
    Ok(out)
}

// One item popped off the page (`// expect 0 or 1`): first only.
async fn registration_by_login(client: &Client, login: &str) -> Result<Option<Value>, Error> {
    let output = client
        .query()
        .table_name("Registrations")
        .index_name("GSI1")
        .key_condition_expression("GSI1PK = :pk AND GSI1SK = :sk")
        .expression_attribute_values(":pk", AttributeValue::S("LOGIN_LOOKUP".to_string()))
        .expression_attribute_values(":sk", AttributeValue::S(format!("LOGIN#{login}")))
        .send()
        .await?;
    let item = output.items.unwrap_or_default().pop();
    Ok(item.map(to_json))
}

// Each item converted, then the first of the converted: first only.
async fn account(client: &Client, pk: String) -> Result<Account, Error> {
    let results = client
        .query()
        .table_name("Ledger")
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "pk")
        .expression_attribute_values(":pk", AttributeValue::S(pk))
        .send()
        .await?;
    if let Some(items) = results.items {
        let accounts: Vec<AccountEntity> = items.iter().map(|v| v.into()).collect();
        let account: Account = accounts.first().ok_or(Error::NotFound)?.into();
        Ok(account)
    } else {
        Err(Error::NotFound)
    }
}

// Filtered before the first is taken: the first match can lie on a later page.
async fn first_open(client: &Client, pk: String) -> Result<Option<Value>, Error> {
    let results = client
        .query()
        .table_name("Ledger")
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(pk))
        .send()
        .await?;
    let open: Vec<Value> = results
        .items()
        .iter()
        .filter(|i| i.contains_key("open"))
        .map(to_json)
        .collect();
    Ok(open.first().cloned())
}

// Converted and collected, then every item returned: not first only.
async fn ledger(client: &Client, pk: String) -> Result<Vec<Account>, Error> {
    let results = client
        .query()
        .table_name("Ledger")
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(pk))
        .send()
        .await?;
    let accounts: Vec<Account> = results.items().iter().map(Account::from).collect();
    Ok(accounts)
}

// Sent in an `async move` block awaited in place, then its first item: first only.
async fn org_by_slug(client: &Client, slug: &str) -> Result<Option<Value>, Error> {
    let result = async move {
        client
            .query()
            .table_name("Orgs")
            .index_name("slug-index")
            .key_condition_expression("slug = :slug")
            .expression_attribute_values(":slug", AttributeValue::S(slug.to_string()))
            .send()
            .await
    }
    .await
    .map_err(|e| Error::Query(e.to_string()))?;
    Ok(result.items.and_then(|items| items.into_iter().next()).map(to_json))
}

// Sent on a task (`tokio::spawn`), the handle awaited, then its first item: first only.
async fn user_by_phone(client: &Client, phone: String) -> Result<Option<Value>, Error> {
    let client = client.clone();
    let output = tokio::spawn(async move {
        client
            .query()
            .table_name("Users")
            .index_name("phone-index")
            .key_condition_expression("phone = :p")
            .expression_attribute_values(":p", AttributeValue::S(phone))
            .send()
            .await
    })
    .await
    .expect("the query task panicked")?;
    Ok(output.items().first().cloned().map(to_json))
}

// A closure that sends, called once, then its first item: first only.
async fn key_by_hash(client: &Client, hash: &str) -> Result<Option<Value>, Error> {
    let lookup = || {
        client
            .query()
            .table_name("ApiKeys")
            .index_name("hash-index")
            .key_condition_expression("key_hash = :h")
            .expression_attribute_values(":h", AttributeValue::S(hash.to_string()))
            .send()
    };
    let out = lookup().await?;
    Ok(out.items.unwrap_or_default().pop().map(to_json))
}

// The same closure called twice, once for every item: not first only.
async fn keys_twice(client: &Client, hash: &str) -> Result<Vec<Value>, Error> {
    let lookup = || {
        client
            .query()
            .table_name("ApiKeys")
            .index_name("hash-index")
            .key_condition_expression("key_hash = :h")
            .expression_attribute_values(":h", AttributeValue::S(hash.to_string()))
            .send()
    };
    let first = lookup().await?;
    let all = lookup().await?;
    let _ = first.items().first();
    Ok(all.items().iter().map(to_json).collect())
}

// A task whose output is returned whole: not first only.
async fn page_on_task(client: Client) -> Result<QueryOutput, Error> {
    let out = tokio::spawn(async move {
        client
            .query()
            .table_name("Books")
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S("book".into()))
            .send()
            .await
    })
    .await
    .expect("the query task panicked")?;
    Ok(out)
}

pub struct SessionRepo {
    client: Client,
}

impl SessionRepo {
    // Sends and hands the page back; private, and its one caller reads the first item:
    // first only.
    async fn query_by_token(&self, token: &str) -> Result<QueryOutput, Error> {
        self.client
            .query()
            .table_name("Sessions")
            .index_name("token-index")
            .key_condition_expression("token = :t")
            .expression_attribute_values(":t", AttributeValue::S(token.to_string()))
            .send()
            .await
            .map_err(|e| Error::Query(e.to_string()))
    }

    pub async fn session_by_token(&self, token: &str) -> Result<Option<Value>, Error> {
        let out = self.query_by_token(token).await?;
        Ok(out.items.and_then(|items| items.into_iter().next()).map(to_json))
    }

    // Private, and one of its two callers lists every item: not first only.
    async fn query_by_user(&self, user: &str) -> Result<QueryOutput, Error> {
        let out = self
            .client
            .query()
            .table_name("Sessions")
            .index_name("user-index")
            .key_condition_expression("user_id = :u")
            .expression_attribute_values(":u", AttributeValue::S(user.to_string()))
            .send()
            .await?;
        Ok(out)
    }

    pub async fn latest_session(&self, user: &str) -> Result<Option<Value>, Error> {
        let out = self.query_by_user(user).await?;
        Ok(out.items().first().cloned().map(to_json))
    }

    pub async fn sessions(&self, user: &str) -> Result<Vec<Value>, Error> {
        let out = self.query_by_user(user).await?;
        Ok(out.items().iter().map(to_json).collect())
    }

    // Public: code elsewhere may call it and read every item: not first only.
    pub async fn query_by_device(&self, device: &str) -> Result<QueryOutput, Error> {
        let out = self
            .client
            .query()
            .table_name("Sessions")
            .index_name("device-index")
            .key_condition_expression("device_id = :d")
            .expression_attribute_values(":d", AttributeValue::S(device.to_string()))
            .send()
            .await?;
        Ok(out)
    }

    pub async fn session_by_device(&self, device: &str) -> Result<Option<Value>, Error> {
        let out = self.query_by_device(device).await?;
        Ok(out.items().first().cloned().map(to_json))
    }
}

// Two private helpers deep, the outer's one caller reads the first item: first only.
async fn send_lookup(client: &Client, email: &str) -> Result<QueryOutput, Error> {
    let out = client
        .query()
        .table_name("Members")
        .index_name("email-index")
        .key_condition_expression("email = :e")
        .expression_attribute_values(":e", AttributeValue::S(email.to_string()))
        .send()
        .await?;
    Ok(out)
}

async fn lookup_member(client: &Client, email: &str) -> Result<QueryOutput, Error> {
    send_lookup(client, email).await
}

async fn member_by_email(client: &Client, email: &str) -> Result<Option<Value>, Error> {
    let out = lookup_member(client, email).await?;
    Ok(out.items.unwrap_or_default().pop().map(to_json))
}

// Two subscribers sharing a token is an integrity error the code raises: the count
// reads no item, and the one arm that reads one takes the first: first only.
async fn subscriber_by_token(client: &Client, token: &str) -> anyhow::Result<Option<Value>> {
    let output = client
        .query()
        .table_name("Subscribers")
        .index_name("unsubscribe_token_index")
        .key_condition_expression("unsubscribe_token = :token")
        .expression_attribute_values(":token", AttributeValue::S(token.to_string()))
        .send()
        .await?;
    let items = output.items.unwrap_or_default();
    match items.len() {
        0 => Ok(None),
        1 => Ok(items.into_iter().next().map(to_json)),
        n => anyhow::bail!("{n} subscribers share token {token}; tokens must be unique"),
    }
}

// The count is the answer (how many signed up this day): not first only.
async fn signups_on(client: &Client, day: &str) -> Result<usize, Error> {
    let output = client
        .query()
        .table_name("Subscribers")
        .index_name("signup_day_index")
        .key_condition_expression("signup_day = :day")
        .expression_attribute_values(":day", AttributeValue::S(day.to_string()))
        .send()
        .await?;
    let items = output.items.unwrap_or_default();
    match items.len() {
        0 => Ok(0),
        1 => Ok(1),
        n => Ok(n),
    }
}
