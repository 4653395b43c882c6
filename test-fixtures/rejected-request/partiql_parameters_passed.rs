// PartiQL statements whose parameter list is built by the caller and handed to the
// code that sets it: a helper returning the builder, one that the caller sends through
// its own sending function, and a small statement runner. The statement has five `?`
// and the list four values: DynamoDB rejects it, whichever function sets the list. A
// list whose length the code does not fix says nothing.
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::execute_statement::builders::ExecuteStatementFluentBuilder;
use aws_sdk_dynamodb::operation::execute_statement::{
    ExecuteStatementError, ExecuteStatementOutput,
};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct Player {
    pub id: String,
    pub name: String,
    pub country: String,
    pub rank: String,
}

type Sent = Result<ExecuteStatementOutput, SdkError<ExecuteStatementError>>;

/// A statement with its parameters, sent by the caller.
fn statement(
    client: &Client,
    text: impl Into<String>,
    params: Option<Vec<AttributeValue>>,
) -> ExecuteStatementFluentBuilder {
    client
        .execute_statement()
        .statement(text)
        //~^ rejected-request
        .set_parameters(params)
}

/// Every statement of the service is sent here.
async fn send_statement(statement: ExecuteStatementFluentBuilder) -> Sent {
    statement.send().await
}

/// Runs statements over a borrowed client.
struct Statements<'a> {
    client: &'a Client,
}

impl<'a> Statements<'a> {
    fn new(client: &'a Client) -> Self {
        Self { client }
    }

    async fn run(&self, text: &str, params: Vec<AttributeValue>) -> Sent {
        self.client
            .execute_statement()
            .statement(text)
            //~^ rejected-request
            .set_parameters(Some(params))
            .send()
            .await
    }
}

/// The `rank` column was added to the statement, not to the list.
pub async fn add_player(client: &Client, p: Player) -> Sent {
    statement(
        client,
        r#"INSERT INTO "Games" VALUE {'UserId': ?, 'GameDate': ?, 'Name': ?, 'Country': ?, 'Rank': ?}"#,
        Some(vec![
            AttributeValue::S(p.id),
            AttributeValue::S("2024-01-01".to_string()),
            AttributeValue::S(p.name),
            AttributeValue::S(p.country),
        ]),
    )
    .send()
    .await
}

/// The same statement, through the service's sending function.
pub async fn add_player_logged(client: &Client, p: Player) -> Sent {
    send_statement(statement(
        client,
        r#"INSERT INTO "Games" VALUE {'UserId': ?, 'GameDate': ?, 'Name': ?, 'Country': ?, 'Rank': ?}"#,
        Some(vec![
            AttributeValue::S(p.id),
            AttributeValue::S("2024-01-01".to_string()),
            AttributeValue::S(p.name),
            AttributeValue::S(p.country),
        ]),
    ))
    .await
}

/// And through the runner.
pub async fn import_player(client: &Client, p: Player) -> Sent {
    Statements::new(client)
        .run(
            r#"INSERT INTO "Games" VALUE {'UserId': ?, 'GameDate': ?, 'Name': ?, 'Country': ?, 'Rank': ?}"#,
            vec![
                AttributeValue::S(p.id),
                AttributeValue::S("2024-01-01".to_string()),
                AttributeValue::S(p.name),
                AttributeValue::S(p.country),
            ],
        )
        .await
}

// ---- must not be flagged ----

/// One parameter per `?`.
pub async fn rename_player(client: &Client, id: &str, date: &str, name: &str) -> Sent {
    Statements::new(client)
        .run(
            r#"UPDATE "Games" SET Name = ? WHERE UserId = ? AND GameDate = ?"#,
            vec![
                AttributeValue::S(name.to_string()),
                AttributeValue::S(id.to_string()),
                AttributeValue::S(date.to_string()),
            ],
        )
        .await
}

/// A list the caller's caller gives: its length is not known here.
pub async fn run_any(client: &Client, params: Vec<AttributeValue>) -> Sent {
    Statements::new(client)
        .run(r#"DELETE FROM "Games" WHERE UserId = ? AND GameDate = ?"#, params)
        .await
}
