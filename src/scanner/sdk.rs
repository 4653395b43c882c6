//! What the scanner knows of the SDKs: aws-sdk-dynamodb's fluent and typed builders,
//! and rusoto's input structs. Plain tables, so adding a setter is one line.

use super::ir::OpKind;

/// The client method that starts a fluent builder: `client.query()`.
pub fn op_for_method(name: &str) -> Option<OpKind> {
    Some(match name {
        "query" => OpKind::Query,
        "scan" => OpKind::Scan,
        "get_item" => OpKind::GetItem,
        "put_item" => OpKind::PutItem,
        "update_item" => OpKind::UpdateItem,
        "delete_item" => OpKind::DeleteItem,
        "batch_get_item" => OpKind::BatchGetItem,
        "batch_write_item" => OpKind::BatchWriteItem,
        "transact_get_items" => OpKind::TransactGetItems,
        "transact_write_items" => OpKind::TransactWriteItems,
        "execute_statement" => OpKind::ExecuteStatement,
        _ => return None,
    })
}

/// `QueryInput::builder()` (send_with) and rusoto's `QueryInput { .. }`.
pub fn op_for_input_type(name: &str) -> Option<OpKind> {
    let base = name.strip_suffix("Input")?;
    Some(match base {
        "Query" => OpKind::Query,
        "Scan" => OpKind::Scan,
        "GetItem" => OpKind::GetItem,
        "PutItem" => OpKind::PutItem,
        "UpdateItem" => OpKind::UpdateItem,
        "DeleteItem" => OpKind::DeleteItem,
        "BatchGetItem" => OpKind::BatchGetItem,
        "BatchWriteItem" => OpKind::BatchWriteItem,
        "TransactGetItems" => OpKind::TransactGetItems,
        "TransactWriteItems" => OpKind::TransactWriteItems,
        "ExecuteStatement" => OpKind::ExecuteStatement,
        _ => return None,
    })
}

/// The typed builders used inside batches and transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typed {
    /// `TransactWriteItem` wraps one of Put/Update/Delete/ConditionCheck.
    TransactWriteItem,
    /// `TransactGetItem` wraps a Get.
    TransactGetItem,
    /// `WriteRequest` wraps a PutRequest or DeleteRequest.
    WriteRequest,
    /// A leaf request with its own operation kind.
    Leaf(OpKind),
    /// `PutRequest`/`DeleteRequest`: a leaf whose table is the batch map's key.
    BatchLeaf(OpKind),
    /// `KeysAndAttributes`: the keys of one table in a BatchGetItem.
    KeysAndAttributes,
}

/// `Put::builder()` and friends (also their rusoto struct names).
pub fn typed_for(name: &str) -> Option<Typed> {
    Some(match name {
        "TransactWriteItem" => Typed::TransactWriteItem,
        "TransactGetItem" => Typed::TransactGetItem,
        "WriteRequest" => Typed::WriteRequest,
        "Put" => Typed::Leaf(OpKind::PutItem),
        "Update" => Typed::Leaf(OpKind::UpdateItem),
        "Delete" => Typed::Leaf(OpKind::DeleteItem),
        "ConditionCheck" => Typed::Leaf(OpKind::ConditionCheck),
        "Get" => Typed::Leaf(OpKind::GetItem),
        "PutRequest" => Typed::BatchLeaf(OpKind::PutItem),
        "DeleteRequest" => Typed::BatchLeaf(OpKind::DeleteItem),
        "KeysAndAttributes" => Typed::KeysAndAttributes,
        _ => return None,
    })
}

/// What a builder method does to the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setter {
    Table,
    Index,
    KeyCondition,
    Filter,
    Condition,
    Projection,
    Update,
    Statement,
    /// `expression_attribute_names(k, v)` or `set_..(Some(map))`.
    Names,
    Values,
    Item,
    Key,
    /// `KeysAndAttributes::keys(map)`: one key per call.
    Keys,
    ConsistentRead,
    Limit,
    ScanIndexForward,
    Select,
    ExclusiveStartKey,
    Segment,
    TotalSegments,
    /// A Query's legacy `key_conditions(attr, Condition)` or `set_key_conditions(map)`.
    KeyConditions,
    /// `request_items(table, ..)` of a batch.
    RequestItems,
    /// `transact_items(..)` of a transaction.
    TransactItems,
    /// `put(..)`, `update(..)`, `delete(..)`, `condition_check(..)`, `get(..)`,
    /// `put_request(..)`, `delete_request(..)` of the typed wrappers.
    Wrapped,
    /// Known, with nothing to record (`return_values`, `return_consumed_capacity`, ...).
    Ignored,
    /// Ends the request: `send`, `into_paginator`, `send_with`, `build`, `customize`.
    Terminal,
    /// Paginator adaptors after `into_paginator()`: `items`, `page_size`.
    Paginator,
}

/// Classifies a builder method; `set_x` is its own twin, with an `Option` argument.
/// The bool says it is the `set_` form.
pub fn setter(name: &str) -> Option<(Setter, bool)> {
    let (base, set) = match name.strip_prefix("set_") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let s = match base {
        "table_name" => Setter::Table,
        "index_name" => Setter::Index,
        "key_condition_expression" => Setter::KeyCondition,
        "filter_expression" => Setter::Filter,
        "condition_expression" => Setter::Condition,
        "projection_expression" => Setter::Projection,
        "update_expression" => Setter::Update,
        "statement" => Setter::Statement,
        "expression_attribute_names" => Setter::Names,
        "expression_attribute_values" => Setter::Values,
        "item" => Setter::Item,
        "key" => Setter::Key,
        "keys" => Setter::Keys,
        "consistent_read" => Setter::ConsistentRead,
        "limit" => Setter::Limit,
        "scan_index_forward" => Setter::ScanIndexForward,
        "select" => Setter::Select,
        "exclusive_start_key" => Setter::ExclusiveStartKey,
        "segment" => Setter::Segment,
        "total_segments" => Setter::TotalSegments,
        "request_items" => Setter::RequestItems,
        "key_conditions" => Setter::KeyConditions,
        "transact_items" => Setter::TransactItems,
        "put" | "update" | "delete" | "condition_check" | "get" | "put_request"
        | "delete_request" => Setter::Wrapped,
        "return_values"
        | "return_consumed_capacity"
        | "return_item_collection_metrics"
        | "return_values_on_condition_check_failure"
        | "client_request_token"
        | "attributes_to_get"
        | "conditional_operator"
        | "query_filter"
        | "scan_filter"
        | "expected"
        | "attribute_updates"
        | "parameters"
        | "next_token"
        | "return_consumed_capacity_for"
        | "limit_for" => Setter::Ignored,
        "send" | "into_paginator" | "send_with" | "build" | "customize" if !set => Setter::Terminal,
        "items" | "page_size" | "stop_on_duplicate_token" if !set => Setter::Paginator,
        _ => return None,
    };
    Some((s, set))
}

/// The byte strings whose absence proves a file makes no DynamoDB request: the client
/// methods (called with no arguments), the builder types a helper could receive or
/// return, the typed builders of batches and transactions, rusoto's input structs, and
/// the distinctive setters a chain on a helper's returned builder uses.
pub const MARKERS: &[&str] = &[
    "query()",
    "scan()",
    "get_item()",
    "put_item()",
    "update_item()",
    "delete_item()",
    "batch_get_item()",
    "batch_write_item()",
    "transact_get_items()",
    "transact_write_items()",
    "execute_statement()",
    // Not requests, but the tables the code declares (`create_table.rs`).
    "create_table()",
    "update_table()",
    "FluentBuilder",
    "InputBuilder",
    "send_with",
    // rusoto's input structs, by the names `op_for_input_type` and `create_table.rs`
    // read (a literal of any other `*Input` is no request): `QueryInput`, `ScanInput`,
    // `GetItemInput`..`BatchWriteItemInput`, `TransactGetItemsInput`..,
    // `ExecuteStatementInput`, `CreateTableInput`, `UpdateTableInput`.
    "QueryInput",
    "ScanInput",
    "ItemInput",
    "ItemsInput",
    "StatementInput",
    "TableInput",
    "TransactWriteItem",
    "TransactGetItem",
    "WriteRequest",
    "PutRequest",
    "DeleteRequest",
    "KeysAndAttributes",
    "ConditionCheck",
    "Put::builder",
    "Update::builder",
    "Delete::builder",
    "Get::builder",
    // A chain continuing a builder that a helper in another file returns.
    "table_name(",
    "index_name(",
    "key_condition_expression",
    "filter_expression",
    "expression_attribute_",
    "projection_expression",
    "condition_expression",
    "update_expression",
    "into_paginator",
];

/// The header smithy-rs writes above the code it generates (`// Code generated by
/// software.amazon.smithy.rust.codegen.smithy-rs. DO NOT EDIT.`): the SDK crates' own
/// builders, inputs and serialisers. They define the names [`MARKERS`] look for, and
/// none of it is an application's request.
pub const GENERATED_HEADER: &[u8] = b"// Code generated by software.amazon.smithy.rust.codegen.";
