//! The Markdown an editor shows when hovering a DynamoDB call: what it targets in
//! the model, the key schema and projection there, where the call runs, and its
//! simulated cost when one is known.

use std::fmt::Write as _;

use crate::facts::call_cost::call_cost;
use crate::facts::spend::{call_rate, call_units, class_of, mode_of, Priced};
use crate::facts::BoundOperation;
use crate::figures;
use crate::model::{Index, IndexKind, Model, Projection, Table};
use crate::pricing::bill::{per_call_on_demand, per_million_calls};
use crate::pricing::Prices;
use crate::scanner::{OpKind, Operation};

/// What one call costs, from [`call_cost`] (the estimate the rules and `simulate`
/// print): items, bytes and read units of a read, write units of a write on the table
/// and each index. `None` when nothing is known of it and the call says too little to
/// name the missing figure (a Query without a key condition).
pub fn simulated_cost(model: &Model, bound: &BoundOperation<'_>) -> Option<String> {
    let call = call_cost(model, bound);
    let nothing = call.items_read.is_none() && call.write_units.is_none();
    if nothing {
        let first = call.missing.first()?;
        // A key condition the call does not show: there is no read to estimate yet.
        if first.contains("key condition") {
            return None;
        }
        return Some(format!("not known: the model needs {first}"));
    }
    let mut parts = Vec::new();
    if let Some(items) = call.items_read.filter(|_| call.write_units.is_none()) {
        let mut s = format!("reads about {} items", figures::count(items));
        if let (Some(b), Some(rcu)) = (call.bytes_read, call.read_units) {
            let consistency = if call.transactional {
                "transactional"
            } else if call.consistent {
                "strongly consistent"
            } else {
                "eventually consistent"
            };
            let _ = write!(
                s,
                " ({}), {} RCU per call ({consistency})",
                figures::bytes(b),
                figures::units(rcu)
            );
            if matches!(bound.op.kind, OpKind::Query | OpKind::Scan) {
                s.push_str(" before any filter");
            }
        }
        parts.push(s);
    }
    if let Some(w) = call.write_units {
        let mut s = format!("{} WCU on the table", figures::units(w));
        for i in &call.index_writes {
            let _ = write!(s, ", {} on index `{}`", figures::units(i.units), i.index);
        }
        if call.transactional {
            s.push_str(" (transactional: twice the units)");
        }
        parts.push(s);
    }
    let mut text = parts.join("; ");
    if let Some(m) = call.missing.first() {
        let _ = write!(text, "; not known: the model needs {m}");
    }
    // In dollars, at the model's prices: per million calls, and a month at the rate
    // of the access pattern the call implements (else one call a second).
    if let Some(units) = call_units(bound.table, &call) {
        let prices = Prices::for_model(model);
        let rate = call_rate(model, bound.op);
        let month = Priced::calls(&prices, bound.table, Some(units), &[], rate.per_second);
        match per_call_on_demand(&prices, class_of(bound.table), units) {
            Ok(per_call) => {
                let _ = write!(
                    text,
                    "; {} per million calls on-demand, {} {}",
                    per_million_calls(per_call),
                    month.text(mode_of(bound.table)),
                    rate.describe()
                );
            }
            Err(missing) => {
                if let Some(m) = missing.first() {
                    let _ = write!(text, "; in dollars not known: needs {m}");
                }
            }
        }
    }
    Some(text)
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

    use crate::test_models::BLOG_APP_KEYS_ONLY as MODEL;

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
