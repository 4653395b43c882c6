//! Coverage between the model and the code: access patterns no key serves without a
//! Scan or a filter, patterns nothing implements, code reads matching no pattern,
//! indexes nothing reads, and what each entity write costs across its indexes.

use indexmap::IndexMap;

use crate::model::{AccessPattern, Model};

use super::report::{Coverage, EntityReport, UnreadIndex, UnservedPattern};
use crate::facts::plan::{serving_targets, Access, ReadPlan};

/// A pattern's key attributes.
fn key_attrs(p: &AccessPattern) -> Vec<&str> {
    p.key.keys().map(String::as_str).collect()
}

fn target_label(index: Option<&str>, table: &str) -> String {
    index.map_or_else(|| format!("table `{table}`"), |i| format!("index `{i}`"))
}

/// An access pattern that reads more than it returns, with the fix.
pub fn unserved(model: &Model, p: &AccessPattern, plan: &ReadPlan) -> Option<UnservedPattern> {
    if plan.access != Access::Scan && plan.filters.is_empty() {
        return None;
    }
    let table = model.table(&p.table)?;
    let reason = if plan.access == Access::Scan {
        format!(
            "served by a Scan of {}: {}",
            target_label(plan.index.as_deref(), &plan.table),
            plan.why.join("; ")
        )
    } else {
        format!(
            "served by {} with a filter: {}",
            plan.served_by(),
            plan.why.join("; ")
        )
    };
    let attrs = key_attrs(p);
    let help = match serving_targets(table, &attrs).first() {
        Some(Some(index)) => format!(
            "set `index = \"{index}\"` on access pattern `{}`: its key serves every attribute",
            p.name
        ),
        Some(None) => format!(
            "drop `index` from access pattern `{}`: the table's key serves it",
            p.name
        ),
        None => {
            let mut rest = attrs
                .iter()
                .filter(|a| plan.partition.as_ref().is_none_or(|(pk, _)| pk != *a));
            match (plan.partition.as_ref(), rest.next()) {
                (Some((pk, _)), Some(extra)) => format!(
                    "add a GSI with partition key `{pk}` and sort key `{extra}`, or fold `{extra}` into the sort key (`{extra}#...`) so `begins_with` replaces the filter"
                ),
                _ => {
                    let first = attrs.first().copied().unwrap_or("?");
                    format!("add a GSI with partition key `{first}` on table `{}`", table.name)
                }
            }
        }
    };
    Some(UnservedPattern {
        pattern: p.name.clone(),
        reason,
        help,
    })
}

/// Indexes no access pattern or code operation reads, with the WCU each entity's
/// writes spend on them.
pub fn unread_indexes(
    model: &Model,
    readers: &IndexMap<(String, String), Vec<String>>,
    entities: &IndexMap<String, Vec<EntityReport>>,
) -> Vec<UnreadIndex> {
    let mut out = Vec::new();
    for t in &model.tables {
        for i in &t.indexes {
            let key = (t.name.clone(), i.name.clone());
            if readers.get(&key).is_some_and(|r| !r.is_empty()) {
                continue;
            }
            let write_wcu = entities
                .get(&t.name)
                .into_iter()
                .flatten()
                .filter_map(|e| Some((e.name.clone(), *e.write.indexes.get(&i.name)?)))
                .collect();
            out.push(UnreadIndex {
                table: t.name.clone(),
                index: i.name.clone(),
                write_wcu,
            });
        }
    }
    out
}

/// Fills the pattern ↔ code parts of `coverage`.
pub fn link(
    coverage: &mut Coverage,
    patterns: &[(String, Option<ReadPlan>)],
    ops: &[(String, Option<ReadPlan>)],
    implementers: &IndexMap<String, Vec<String>>,
) {
    if !ops.is_empty() {
        coverage.patterns_without_code = patterns
            .iter()
            .filter(|(name, _)| implementers.get(name).is_none_or(Vec::is_empty))
            .map(|(name, _)| name.clone())
            .collect();
    }
    coverage.operations_without_pattern = ops
        .iter()
        .filter(|(loc, plan)| {
            plan.is_some()
                && !implementers
                    .values()
                    .any(|locs| locs.iter().any(|l| l == loc))
        })
        .map(|(loc, _)| loc.clone())
        .collect();
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::facts::plan::plan_pattern;
    use crate::model::load_str;

    const MODEL: &str = r#"
[[table]]
name = "Orders"
partition-key = "OrderId"
[table.attributes]
OrderId = "S"
CustomerId = "S"
[[table.index]]
name = "ByCustomer"
partition-key = "CustomerId"
[[access-pattern]]
name = "orders of a customer"
table = "Orders"
index = "ByCustomer"
key = { CustomerId = "{c}" }
"#;

    // Loading rejects a pattern keyed outside its target's key, so the shapes a
    // programmatic model (or an importer) can still produce are built by hand.
    fn with_pattern(index: Option<&str>, key: &[(&str, &str)]) -> (Model, AccessPattern) {
        let mut m = load_str(Path::new("m.toml"), MODEL).unwrap();
        let mut p = m.access_patterns[0].clone();
        p.index = index.map(str::to_string);
        p.key = key
            .iter()
            .map(|(a, v)| (a.to_string(), v.to_string()))
            .collect();
        m.access_patterns = vec![p.clone()];
        (m, p)
    }

    #[test]
    fn patterns_needing_a_scan_point_at_the_index_that_serves_them() {
        let (m, p) = with_pattern(None, &[("CustomerId", "{c}")]);
        let plan = plan_pattern(&m, &p).unwrap();
        assert_eq!(plan.access, Access::Scan);
        let u = unserved(&m, &p, &plan).unwrap();
        assert!(
            u.reason.starts_with("served by a Scan of table `Orders`"),
            "{}",
            u.reason
        );
        assert_eq!(
            u.help,
            "set `index = \"ByCustomer\"` on access pattern `orders of a customer`: its key serves every attribute"
        );
        let (m, p) = with_pattern(
            Some("ByCustomer"),
            &[("CustomerId", "{c}"), ("OrderId", "X")],
        );
        let plan = plan_pattern(&m, &p).unwrap();
        assert_eq!(plan.filters, [("OrderId".to_string(), "X".to_string())]);
        let u = unserved(&m, &p, &plan).unwrap();
        assert!(u.help.contains("sort key `OrderId`"), "{}", u.help);
        let (m, p) = with_pattern(Some("ByCustomer"), &[("CustomerId", "{c}")]);
        assert_eq!(unserved(&m, &p, &plan_pattern(&m, &p).unwrap()), None);
    }
}
