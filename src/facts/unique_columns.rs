//! Whether the project's ORM schema declares a DynamoDB table's attribute unique: the
//! same records kept in a SQL store beside DynamoDB (storage adapters behind one
//! repository trait) carry their invariants in the ORM's entity
//! (`#[sea_orm(unique)]`, read by the scanner as [`UniqueColumn`]s). An attribute of
//! the same name on the table of the same records then names one item.
//!
//! The entity's table is the DynamoDB table of the same name, spelled in either case
//! style (`impersonation_sessions`, `ImpersonationSessions`), or with a prefix the
//! DynamoDB names share (`tsa_impersonation_sessions`): when several entities' names end
//! the table's, the longest is its entity (`impersonation_sessions`, not `sessions`).

use crate::scanner::UniqueColumn;

/// True when an ORM entity of `table`'s records declares `attribute` unique.
pub fn declared_unique(columns: &[UniqueColumn], table: &str, attribute: &str) -> bool {
    let table = snake(table);
    let entity = columns
        .iter()
        .map(|c| &c.table)
        .filter(|e| names_entity(&table, &snake(e)))
        .max_by_key(|e| e.len());
    let Some(entity) = entity else {
        return false;
    };
    columns
        .iter()
        .any(|c| c.table == *entity && c.column == attribute)
}

/// Whether the DynamoDB table `table` (in snake case) holds the records of `entity`.
fn names_entity(table: &str, entity: &str) -> bool {
    !entity.is_empty()
        && (table == entity
            || table
                .strip_suffix(entity)
                .is_some_and(|prefix| prefix.ends_with('_')))
}

/// `ImpersonationSessions`, `impersonation-sessions` → `impersonation_sessions`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if matches!(c, '-' | '.' | ' ') {
            out.push('_');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(table: &str, column: &str) -> UniqueColumn {
        UniqueColumn {
            table: table.to_string(),
            column: column.to_string(),
        }
    }

    #[test]
    fn the_entity_whose_name_the_table_ends_with() {
        let cols = [
            col("sessions", "token_hash"),
            col("impersonation_sessions", "impersonation_session_id"),
            col("users", "email"),
        ];
        let unique = |t: &str, a: &str| declared_unique(&cols, t, a);
        assert!(unique(
            "tsa_impersonation_sessions",
            "impersonation_session_id"
        ));
        assert!(unique("ImpersonationSessions", "impersonation_session_id"));
        assert!(unique("tsa_auth_sessions", "token_hash"));
        assert!(unique("users", "email"));
        // The impersonation table's entity is its own, not `sessions`.
        assert!(!unique("tsa_impersonation_sessions", "token_hash"));
        // A name that only ends with the same letters is another table.
        assert!(!unique("superusers", "email"));
        // Another attribute, another table.
        assert!(!unique("users", "user_id"));
        assert!(!unique("orders", "email"));
    }
}
