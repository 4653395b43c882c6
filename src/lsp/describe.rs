//! The Markdown an editor shows when hovering a DynamoDB call: what it targets in
//! the model, the key schema and projection there, where the call runs, and its
//! simulated cost when one is known.

use std::fmt::Write as _;

use crate::analysis::BoundOperation;
use crate::model::{Index, IndexKind, Model, Projection, Table};
use crate::scanner::Operation;

/// The cost of one call as the simulation figures it, in words
/// (`"about 12 RCU per call (eventually consistent)"`).
///
/// Seam: `crate::simulate` does not expose per-call figures yet. When it does, this
/// is the one place to ask it; the hover shows whatever this returns.
pub fn simulated_cost(_model: &Model, _bound: &BoundOperation<'_>) -> Option<String> {
    None
}

/// Describes a call, bound to the model, as Markdown.
pub fn operation(model: &Model, bound: &BoundOperation<'_>) -> String {
    let op = bound.op;
    let mut out = format!("**DynamoDB `{}`**", op.kind.api_name());
    match (bound.table, &op.index) {
        (Some(t), Some(i)) => {
            let name = i.value().map_or_else(|| i.label(), |v| format!("`{v}`"));
            let _ = write!(out, " on index {name} of table `{}`", t.name);
        }
        (Some(t), None) => {
            let _ = write!(out, " on table `{}`", t.name);
        }
        (None, _) => {
            let _ = write!(out, " on {}", op.table_label());
        }
    }
    out.push_str("\n\n");
    match bound.table {
        Some(table) => describe_target(&mut out, table, bound.index, op),
        None => {
            let why = bound.unbound.as_deref().unwrap_or("no table is known");
            let _ = writeln!(out, "Not bound to the key model: {why}.");
        }
    }
    if let Some(cost) = simulated_cost(model, bound) {
        let _ = writeln!(out, "\nSimulated cost: {cost}.");
    }
    describe_context(&mut out, op);
    out
}

fn key_cell(table: &Table, name: Option<&str>) -> String {
    match name {
        None => "—".to_string(),
        Some(n) => match table.attribute(n) {
            Some(a) => format!("`{n}` ({})", a.ty.as_str()),
            None => format!("`{n}`"),
        },
    }
}

fn describe_target(out: &mut String, table: &Table, index: Option<&Index>, op: &Operation) {
    out.push_str("| | partition key | sort key |\n|---|---|---|\n");
    let _ = writeln!(
        out,
        "| table `{}` | {} | {} |",
        table.name,
        key_cell(table, Some(&table.partition_key)),
        key_cell(table, table.sort_key.as_deref())
    );
    if let Some(i) = index {
        let kind = match i.kind {
            IndexKind::Global => "GSI",
            IndexKind::Local => "LSI",
        };
        let _ = writeln!(
            out,
            "| {kind} `{}` | {} | {} |",
            i.name,
            key_cell(table, Some(&i.partition_key)),
            key_cell(table, i.sort_key.as_deref())
        );
        let projection = match &i.projection {
            Projection::All => "all attributes".to_string(),
            Projection::KeysOnly => "keys only".to_string(),
            Projection::Include(attrs) => {
                let list: Vec<String> = attrs.iter().map(|a| format!("`{a}`")).collect();
                format!("keys and {}", list.join(", "))
            }
        };
        let _ = writeln!(out, "\nIndex `{}` projects {projection}.", i.name);
    } else if let Some(i) = &op.index {
        let name = i.value().map_or_else(|| i.label(), |v| format!("`{v}`"));
        let _ = writeln!(
            out,
            "\nIndex {name} is not declared on `{}` in the key model.",
            table.name
        );
    }
    let mut size = Vec::new();
    if let Some(n) = table.item_count {
        size.push(format!("{} items", group(n)));
    }
    if let Some(b) = table.avg_item_size {
        size.push(format!("{b} B per item on average"));
    }
    if !size.is_empty() {
        let _ = writeln!(out, "\nTable size: {}.", size.join(", "));
    }
}

fn describe_context(out: &mut String, op: &Operation) {
    let ctx = &op.context;
    if let Some(hot) = &ctx.hot {
        let chain: Vec<String> = hot
            .chain
            .iter()
            .map(|s| format!("`{}`", s.function))
            .collect();
        let via = if chain.is_empty() {
            String::new()
        } else {
            format!(" via {}", chain.join(" → "))
        };
        let _ = writeln!(out, "\nRuns on every request: {}{via}.", hot.entry);
    }
    if let Some(lp) = &ctx.in_loop {
        let _ = writeln!(out, "\nRuns once per iteration of a `{}` loop.", lp.kind);
    }
}

/// `1234567` → `1,234,567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::analysis::bind;
    use crate::model::load_str;
    use crate::scanner::{OpKind, Resolved};
    use crate::source::Span;

    const MODEL: &str = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
item-count = 5000000
avg-item-size = 400

[table.attributes]
PK = "S"
SK = "S"
facet = "S"
createdAt = "S"

[[table.index]]
name = "ByFacet"
partition-key = "facet"
sort-key = "createdAt"
projection = "KEYS_ONLY"
"#;

    #[test]
    fn describes_index_keys_projection_and_size() {
        let path = std::path::Path::new("/p/dynalint.toml");
        let model = load_str(path, MODEL).unwrap();
        let mut op = Operation::new(
            OpKind::Query,
            Arc::from(std::path::Path::new("/p/a.rs")),
            Span::new(0, 1),
        );
        op.table = Some(Resolved::literal("BlogApp"));
        op.index = Some(Resolved::literal("ByFacet"));
        let b = bind(&model, &op);
        let md = operation(&model, &b);
        assert!(
            md.starts_with("**DynamoDB `Query`** on index `ByFacet` of table `BlogApp`"),
            "{md}"
        );
        assert!(
            md.contains("| table `BlogApp` | `PK` (S) | `SK` (S) |"),
            "{md}"
        );
        assert!(
            md.contains("| GSI `ByFacet` | `facet` (S) | `createdAt` (S) |"),
            "{md}"
        );
        assert!(md.contains("projects keys only"), "{md}");
        assert!(md.contains("5,000,000 items, 400 B per item"), "{md}");
    }

    #[test]
    fn says_why_a_call_is_not_bound() {
        let path = std::path::Path::new("/p/dynalint.toml");
        let model = load_str(path, MODEL).unwrap();
        let mut op = Operation::new(
            OpKind::Scan,
            Arc::from(std::path::Path::new("/p/a.rs")),
            Span::new(0, 1),
        );
        op.table = Some(Resolved::Env { var: "NOPE".into() });
        let md = operation(&model, &bind(&model, &op));
        assert!(
            md.contains("Not bound to the key model: no `[[table]]`"),
            "{md}"
        );
    }
}
