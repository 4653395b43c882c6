//! The Markdown an editor shows when hovering a DynamoDB call: what it targets in
//! the model, the key schema and projection there, where the call runs, and its
//! simulated cost when one is known.

use std::fmt::Write as _;

use crate::expr::ExprKind;
use crate::facts::conditions::{and_terms, parse_condition_arg};
use crate::facts::read_cost::{self, Spread};
use crate::facts::{figures, BoundOperation};
use crate::model::{Index, IndexKind, Model, Projection, Table};
use crate::scanner::{OpKind, Operation};

/// What one Query or Scan call reads, estimated from the model's figures by
/// [`read_cost::items_read`] (the estimate the rules use): items, bytes and read
/// capacity for an average call. `None` for other kinds of call, or when the model
/// lacks the figures (the text then names the missing field).
///
/// Seam: when `crate::simulate` exposes per-call figures from its replay against
/// the engine (writes, GetItem, batches), this is the one place to ask it.
pub fn simulated_cost(_model: &Model, bound: &BoundOperation<'_>) -> Option<String> {
    let op = bound.op;
    let table = bound.table?;
    let key_terms = match (op.kind, &op.key_condition) {
        (OpKind::Query, Some(arg)) => match parse_condition_arg(arg, ExprKind::KeyCondition) {
            Some(Ok(c)) => and_terms(&c, &op.names).terms,
            _ => return None,
        },
        (OpKind::Scan, _) => Vec::new(),
        _ => return None,
    };
    Some(
        match read_cost::items_read(table, bound.index, op, &key_terms, Spread::Average) {
            Ok(read) => {
                let mut s = format!("reads about {} items", figures::count(read.items));
                if let (Some(b), Some(rcu)) = (read.bytes, read.rcu()) {
                    let consistency = if read.consistent {
                        "strongly consistent"
                    } else {
                        "eventually consistent"
                    };
                    let _ = write!(
                        s,
                        " ({}), {} RCU per call ({consistency}) before any filter",
                        figures::bytes(b),
                        figures::units(rcu)
                    );
                }
                s
            }
            Err(missing) => format!("not known: the model needs {}", missing.0),
        },
    )
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
        let _ = writeln!(out, "\nCost per call: {cost}.");
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
        size.push(format!("{} items", figures::group(n)));
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
        match &lp.caller {
            Some(c) => {
                let _ = writeln!(
                    out,
                    "\nRuns once per iteration of a `{}` loop in `{}`.",
                    lp.kind, c.function
                );
            }
            None => {
                let _ = writeln!(out, "\nRuns once per iteration of a `{}` loop.", lp.kind);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::facts::bind;
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
        // No key condition: the read cannot be estimated, and nothing is claimed.
        assert!(!md.contains("Cost per call"), "{md}");
        let mut scan = Operation::new(OpKind::Scan, op.file.clone(), Span::new(0, 1));
        scan.table = Some(Resolved::literal("BlogApp"));
        let md = operation(&model, &bind(&model, &scan));
        assert!(
            md.contains("Cost per call: reads about 5,000,000 items (1.9 GB), 244,141 RCU per call (eventually consistent)"),
            "{md}"
        );
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
