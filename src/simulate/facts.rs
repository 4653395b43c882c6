//! Small model look-ups the simulation needs. The model's own derived facts
//! (`model::facts`, in progress on another branch) will supersede these; they are
//! private so the swap touches only this file.

use crate::model::{Entity, KeyTemplate, Table, ValueSet};

/// The table's key attributes: partition key, then sort key.
pub(crate) fn table_keys(table: &Table) -> Vec<&str> {
    std::iter::once(table.partition_key.as_str())
        .chain(table.sort_key.as_deref())
        .collect()
}

/// Whether `attr` is a key of the table or of any of its indexes.
pub(crate) fn is_key_attribute(table: &Table, attr: &str) -> bool {
    table_keys(table).contains(&attr)
        || table
            .indexes
            .iter()
            .any(|i| i.partition_key == attr || i.sort_key.as_deref() == Some(attr))
}

/// An entity's parsed template for a key attribute (`None` when unset or broken;
/// loading reports broken templates).
pub(crate) fn template(entity: &Entity, attr: &str) -> Option<KeyTemplate> {
    KeyTemplate::parse(entity.keys.get(attr)?).ok()
}

/// A value set's values, in declaration order.
pub(crate) fn values(set: &ValueSet) -> Vec<&str> {
    match set {
        ValueSet::List(v) => v.iter().map(String::as_str).collect(),
        ValueSet::Shares(m) => m.keys().map(String::as_str).collect(),
    }
}
