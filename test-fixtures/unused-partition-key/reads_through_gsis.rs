// The migrated orders service: orders are read by order id and by day through GSIs;
// the sequence number only addresses the status update. The finding is on the
// `partition-key` of `LegacyOrders` in dynalint.toml.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub struct LegacyOrders {
    client: Client,
    table: String,
}

impl LegacyOrders {
    pub fn from_env(client: Client) -> Self {
        let table = std::env::var("LEGACY_ORDERS_TABLE").expect("LEGACY_ORDERS_TABLE");
        Self { client, table }
    }

    pub async fn by_order_id(&self, order_id: &str) -> Result<Option<Order>, Error> {
        let res = self
            .client
            .query()
            .table_name(&self.table)
            .index_name("ByOrderID")
            .key_condition_expression("OrderID = :o")
            .expression_attribute_values(":o", AttributeValue::S(order_id.into()))
            .send()
            .await?;
        Ok(res.items().first().map(to_order))
    }

    /// A write by the sequence number is not a read by it.
    pub async fn set_status(&self, transaction_id: u64, status: &str) -> Result<(), Error> {
        self.client
            .update_item()
            .table_name(&self.table)
            .key("TransactionID", AttributeValue::N(transaction_id.to_string()))
            .update_expression("SET #s = :s")
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":s", AttributeValue::S(status.into()))
            .send()
            .await?;
        Ok(())
    }
}

/// PartiQL through the other GSI.
pub async fn orders_of_day(client: &Client, day: &str) -> Result<Vec<Order>, Error> {
    let res = client
        .execute_statement()
        .statement(r#"SELECT * FROM "LegacyOrders"."ByOrderDate" WHERE Order_Date = ?"#)
        .parameters(AttributeValue::S(day.into()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_order).collect())
}

// ---- must not be flagged ----

/// Several payments per invoice: `InvoiceId` is not unique, so no key replaces the
/// sequence.
pub async fn payments(client: &Client, invoice: &str) -> Result<Vec<Payment>, Error> {
    let res = client
        .query()
        .table_name("Payments")
        .index_name("ByInvoice")
        .key_condition_expression("InvoiceId = :i")
        .expression_attribute_values(":i", AttributeValue::S(invoice.into()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_payment).collect())
}

/// `ByReference` sorts by `OpenedAt`, which the table's key does not have.
pub async fn ticket(client: &Client, reference: &str) -> Result<Vec<Ticket>, Error> {
    let res = client
        .query()
        .table_name("Tickets")
        .index_name("ByReference")
        .key_condition_expression("Reference = :r")
        .expression_attribute_values(":r", AttributeValue::S(reference.into()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_ticket).collect())
}

/// The redesigned table, read by its key.
pub async fn order(client: &Client, order_id: &str) -> Result<Option<Order>, Error> {
    let res = client
        .get_item()
        .table_name("Orders")
        .key("OrderID", AttributeValue::S(order_id.into()))
        .send()
        .await?;
    Ok(res.item().map(to_order))
}
