use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder as Scan;
use aws_sdk_dynamodb::Client;

pub struct DynamoTable {
    client: Client,
}

impl DynamoTable {
    /// The table's Scan, for the extension traits to finish.
    pub fn scan(&self) -> Scan {
        self.client.scan().table_name("Todos")
    }
}
