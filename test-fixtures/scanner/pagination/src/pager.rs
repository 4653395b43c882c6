// Generic senders: one follows `last_evaluated_key`, one reads a single page.
use aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder;
use aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder;

pub async fn collect_all(query: QueryFluentBuilder) -> Result<Vec<Order>, Error> {
    let mut orders = Vec::new();
    let mut start = None;
    loop {
        let out = query.clone().set_exclusive_start_key(start).send().await?;
        orders.extend(to_orders(out.items()));
        start = out.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    Ok(orders)
}

pub async fn first_page(query: QueryFluentBuilder) -> Result<Vec<Order>, Error> {
    let out = query.send().await?;
    Ok(to_orders(out.items()))
}

pub async fn scan_all(scan: ScanFluentBuilder) -> Result<Vec<Order>, Error> {
    let items: Vec<_> = scan.into_paginator().items().send().collect::<Result<_, _>>().await?;
    Ok(to_orders(&items))
}
