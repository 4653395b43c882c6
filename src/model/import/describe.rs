//! `aws dynamodb describe-table` output (`{"Table": {..}}`), and the CreateTable input
//! that `aws dynamodb create-table --cli-input-json` reads (the same fields, unwrapped).
//! describe-table also says how many items the table holds and their total size, so the
//! import carries `item-count` and `avg-item-size` too.

use super::shape::{blank_table, read_table, Plain};
use super::tree::Node;
use super::{Found, Imported};
use crate::model::types::OriginKind;
use crate::source::FilePath;

/// The object describing the table: `Table` of describe-table output, or the document
/// itself for CreateTable input.
fn table_of(doc: &Node) -> Option<&Node> {
    let t = doc.get("Table").unwrap_or(doc);
    (t.get("KeySchema").is_some() && t.get("TableName").is_some()).then_some(t)
}

/// True for describe-table output or CreateTable input.
pub fn is_describe(doc: &Node) -> bool {
    table_of(doc).is_some()
}

/// Imports the one table the document describes.
pub fn import(file: FilePath, doc: &Node) -> Imported {
    let mut found = Found::new(file, OriginKind::DescribeTable);
    let Some(t) = table_of(doc) else {
        return found.finish();
    };
    let name_node = t.get("TableName").unwrap_or(Node::null());
    let Some(name) = name_node.text().map(str::to_string) else {
        found.note(
            name_node,
            "`TableName` is not a string; nothing was imported",
        );
        return found.finish();
    };
    let origin = found.origin(t.line, None);
    let mut table = blank_table(name, name_node.span, t.span, origin);
    if read_table(t, &Plain, &mut table, &mut found) {
        let count = t
            .get("ItemCount")
            .and_then(|n| n.text()?.parse::<u64>().ok());
        let size = t
            .get("TableSizeBytes")
            .and_then(|n| n.text()?.parse::<u64>().ok());
        // DynamoDB refreshes these about every six hours; an empty table says nothing
        // about item size.
        if let Some(c) = count.filter(|&c| c > 0) {
            table.item_count = Some(c);
            table.avg_item_size = size.map(|s| s.div_ceil(c));
        }
        found.tables.push(table);
    }
    found.finish()
}
