//! Operation → table and index of the model. Never guesses a table: an unresolved or
//! unmatched name binds to nothing, and says why.

use crate::model::{Index, Model, Table};
use crate::scanner::{Operation, Resolved};

/// An operation with the table and index of the model it targets.
#[derive(Debug, Clone)]
pub struct BoundOperation<'a> {
    pub op: &'a Operation,
    pub table: Option<&'a Table>,
    pub index: Option<&'a Index>,
    /// Why `table` is `None` (or the index did not bind), for messages.
    pub unbound: Option<String>,
}

/// Finds the model table an operation names, by literal name, const name or env var.
pub fn bind<'a>(model: &'a Model, op: &'a Operation) -> BoundOperation<'a> {
    let mut b = BoundOperation {
        op,
        table: None,
        index: None,
        unbound: None,
    };
    let Some(table_ref) = &op.table else {
        b.unbound = Some("the call sets no table name".into());
        return b;
    };
    b.table = find_table(model, table_ref);
    let Some(table) = b.table else {
        b.unbound = Some(match table_ref.innermost() {
            Resolved::Unknown { reason } => {
                format!("the table name is not known statically: {reason}")
            }
            _ => format!(
                "no `[[table]]` in the model is named {} or lists it in `refs`",
                table_ref.label()
            ),
        });
        return b;
    };
    if let Some(index_ref) = &op.index {
        match index_ref.value() {
            Some(name) => b.index = table.index(name),
            None => b.unbound = Some("the index name is not known statically".into()),
        }
    }
    b
}

/// A table matches when any name the reference is known by is its name or in its refs.
pub fn find_table<'a>(model: &'a Model, r: &Resolved) -> Option<&'a Table> {
    let names = r.names();
    model
        .tables
        .iter()
        .find(|t| names.iter().any(|n| t.is_named_by(n)))
}
