// An integration test's query: a helper takes the table as an argument and returns
// the query, and the test reads the table from its context's getter
// (`ctx.orders_table()`, defined in the test support crate) and adds the filter. The
// table is known by the text passed, as it is when the chain names it in place:
// `orders_table`, which the model lists.

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
    use aws_sdk_dynamodb::types::AttributeValue;
    use aws_sdk_dynamodb::Client;

    fn customer_orders(client: &Client, table: &str, customer: &str) -> QueryFluentBuilder {
        client
            .query()
            .table_name(table)
            .key_condition_expression("CustomerId = :c")
            .expression_attribute_values(":c", AttributeValue::S(customer.to_string()))
    }

    /// Delivered orders: the filter reads every order of the customer.
    #[tokio::test]
    async fn delivered_orders_are_listed() -> Result<(), Error> {
        let setup = test_support::setup_environment().await;
        let ctx = setup.ctx.clone();
        let out = customer_orders(ctx.client(), ctx.orders_table(), "c-1")
            .filter_expression("#s = :s")
            //~^ filter-instead-of-index
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":s", AttributeValue::S("Delivered".into()))
            .send()
            .await?;
        assert_eq!(out.items().len(), 1);
        Ok(())
    }

    // ---- must not be flagged ----

    /// A table the model does not list (`audit_table` is in no `refs`): not judged.
    #[tokio::test]
    async fn delivered_orders_are_audited() -> Result<(), Error> {
        let setup = test_support::setup_environment().await;
        let ctx = setup.ctx.clone();
        let out = customer_orders(ctx.client(), ctx.audit_table(), "c-1")
            .filter_expression("#s = :s")
            .expression_attribute_names("#s", "Status")
            .expression_attribute_values(":s", AttributeValue::S("Delivered".into()))
            .send()
            .await?;
        assert_eq!(out.items().len(), 1);
        Ok(())
    }
}
