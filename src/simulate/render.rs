//! The report for people (aligned tables, one per section) and for machines (the
//! report's own JSON, versioned by `schema_version`).

use std::fmt::Write as _;

use serde_json::Value;

use super::notes::NoteKind;
use super::report::{PartitionLoad, PatternReport, SimulationReport, Spend, Spread};
use crate::pricing::dollars;

/// The report as JSON.
pub fn render_json(report: &SimulationReport) -> Value {
    serde_json::to_value(report).unwrap_or_else(
        |e| serde_json::json!({ "schema_version": report.schema_version, "error": e.to_string() }),
    )
}

/// `1234567.0` → `1,234,567`; small figures keep up to two decimals (`0.5`, `2.25`).
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return "?".into();
    }
    if x.abs() < 100.0 && x.fract().abs() > 1e-9 {
        let s = format!("{x:.2}");
        return s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    let n = x.round() as i128;
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// Rows as aligned columns; the first row is the header.
fn table(out: &mut String, rows: &[Vec<String>], indent: &str) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::from(indent);
        for (c, cell) in r.iter().enumerate() {
            let w = widths.get(c).copied().unwrap_or(0);
            if c + 1 == r.len() {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{cell:<w$}  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn load_cell(load: &PartitionLoad) -> String {
    let verdict = if load.hot { "HOT" } else { "ok" };
    match load.spread {
        Spread::Everything => format!("{} total (Scan)", number(load.hottest_rcu_per_sec)),
        _ => format!(
            "{} / {} {verdict}",
            number(load.hottest_rcu_per_sec),
            number(load.limit_rcu_per_sec)
        ),
    }
}

/// `dynalint.toml` as the file simulated; without one, where the model came from
/// (`inferred from template.yaml`, `none`: `SimulationReport::model`).
fn model_label(model: &str) -> String {
    match model {
        "none" => "no model (no `dynalint.toml`, and nothing declares a table)".to_string(),
        m if m.starts_with("inferred from ") => {
            format!("the model {m} (no `dynalint.toml`)")
        }
        m => format!("`{m}`"),
    }
}

/// The report for a terminal.
pub fn render_human(report: &SimulationReport) -> String {
    let mut out = String::new();
    let total: u64 = report.tables.iter().map(|t| t.items).sum();
    let simulated: u64 = report.tables.iter().map(|t| t.simulated_items).sum();
    let _ = writeln!(
        out,
        "simulated {} at scale {} (seed {}): {} of {} items",
        model_label(&report.model),
        number(report.scale),
        report.seed,
        number(simulated as f64),
        number(total as f64)
    );
    for t in &report.tables {
        let _ = writeln!(
            out,
            "\ntable `{}`: {} items ({} simulated), average item {} B{}",
            t.name,
            number(t.items as f64),
            number(t.simulated_items as f64),
            t.simulated_avg_item_size.map_or("?".into(), number),
            t.declared_avg_item_size
                .map_or(String::new(), |d| format!(" (declared {d} B)"))
        );
        let mut rows = vec![vec![
            "entity".to_string(),
            "items".into(),
            "simulated".into(),
            "avg size".into(),
            "WCU per put".into(),
        ]];
        for e in &t.entities {
            let mut w = format!(
                "{} (table {}",
                number(e.write.total_wcu),
                number(e.write.table_wcu)
            );
            for (i, u) in &e.write.indexes {
                let _ = write!(w, " + {i} {}", number(*u));
            }
            w.push(')');
            rows.push(vec![
                e.name.clone(),
                number(e.count as f64),
                number(e.simulated as f64),
                e.avg_item_size
                    .map_or("?".into(), |s| format!("{} B", number(s))),
                w,
            ]);
        }
        table(&mut out, &rows, "  ");
        for i in &t.indexes {
            let _ = write!(
                out,
                "  index `{}` ({}): {} items",
                i.name,
                i.kind,
                number(i.items)
            );
            if !i.entities.is_empty() {
                let _ = write!(out, " from {}", i.entities.join(", "));
            }
            if !i.absent.is_empty() {
                let _ = write!(out, "; sparse, without {}", i.absent.join(", "));
            }
            out.push('\n');
            // A key value holding a visible share of the index is a write hot spot.
            if let Some(h) = i.hottest_key.as_ref().filter(|h| h.share >= 0.01) {
                let _ = writeln!(
                    out,
                    "    key `{}` holds {}% of it: writes of its items top out at {}/s (1,000 WCU per partition, {} WCU each)",
                    h.value,
                    number(h.share * 100.0),
                    number(h.max_writes_per_sec),
                    number(h.wcu_per_write)
                );
                if let Some(w) = h.declared_writes_per_sec {
                    let verdict = match h.shards_needed {
                        Some(n) => format!("throttled; shard the key over {n} values"),
                        None => "within one partition".to_string(),
                    };
                    let _ = writeln!(
                        out,
                        "    the model's write-rate sends {}/s to the index, {}/s of them to `{}`: {verdict}",
                        number(w),
                        number(w * h.share),
                        h.value
                    );
                }
            }
        }
    }
    if !report.patterns.is_empty() {
        out.push_str("\naccess patterns (per call, at full scale; RCU eventually consistent)\n");
        let mut rows = vec![vec![
            "pattern".to_string(),
            "served by".into(),
            "read".into(),
            "returned".into(),
            "pages".into(),
            "RCU".into(),
            "rate/s".into(),
            "hottest partition RCU/s".into(),
        ]];
        for p in &report.patterns {
            let served = p.plan.as_ref().map_or("-".into(), |pl| {
                let mut s = pl.served_by();
                if pl.requests_per_call() > 1 {
                    let _ = write!(s, " ×{}", pl.requests_per_call());
                }
                if !pl.filters.is_empty() && pl.access != crate::facts::plan::Access::Scan {
                    s.push_str(" + filter");
                }
                s
            });
            let c = p.cost.as_ref().map(|c| c.full);
            rows.push(vec![
                p.name.clone(),
                served,
                c.map_or("-".into(), |c| number(c.items_read)),
                c.map_or("-".into(), |c| number(c.items_returned)),
                c.map_or("-".into(), |c| number(c.pages)),
                c.map_or("-".into(), |c| number(c.rcu)),
                p.rate.map_or("-".into(), number),
                p.load.as_ref().map_or("-".into(), load_cell),
            ]);
        }
        table(&mut out, &rows, "  ");
        for p in &report.patterns {
            if let Some(e) = &p.error {
                let _ = writeln!(out, "  `{}`: not simulated: {e}", p.name);
            }
            if let Some(plan) = p.load.as_ref().and_then(|l| l.shards.as_ref()) {
                let _ = writeln!(
                    out,
                    "  `{}`: hot partition: {} items/s of {} B; {} items per RCU, {} items/s per partition; N = {} → {}, shard into {}",
                    p.name,
                    number(plan.required_items_per_sec),
                    plan.avg_item_size,
                    number(plan.items_per_unit),
                    number(plan.partition_max_items_per_sec),
                    number(plan.exact),
                    plan.shards,
                    plan.padded
                );
            }
            if let Some(c) = &p.cost {
                if !super::replay::same_size(c.factor) {
                    let _ = writeln!(
                        out,
                        "  `{}`: its partition is {}× the simulated one at full scale (simulated {} RCU per call)",
                        p.name,
                        number(c.factor),
                        number(c.simulated.rcu)
                    );
                }
            }
        }
    }
    if !report.operations.is_empty() {
        out.push_str(
            "\ncode operations (per call, at full scale; Query, GetItem and Scan measured on the data, writes, batches, transactions and PartiQL statements by the model's figures)\n",
        );
        let mut rows = vec![vec![
            "location".to_string(),
            "call".into(),
            "served by".into(),
            "read".into(),
            "returned".into(),
            "pages".into(),
            "RCU".into(),
            "WCU".into(),
            "$/1M calls".into(),
            "$/month".into(),
            "patterns".into(),
        ]];
        let opt = |x: Option<f64>| x.map_or("-".into(), number);
        for o in &report.operations {
            let e = &o.estimate;
            let (read, returned, pages, rcu) = match o.cost.as_ref().map(|c| c.full) {
                Some(c) => (
                    number(c.items_read),
                    number(c.items_returned),
                    number(c.pages),
                    number(c.rcu),
                ),
                None => (
                    opt(e.items_read),
                    opt(e.items_returned),
                    opt(e.pages),
                    opt(e.read_units),
                ),
            };
            rows.push(vec![
                o.location.clone(),
                o.kind.to_string(),
                o.served_by.clone(),
                read,
                returned,
                pages,
                rcu,
                opt(e.total_write_units()),
                o.spend
                    .per_call_on_demand
                    .map_or("-".into(), crate::pricing::bill::per_million_calls),
                o.spend
                    .monthly
                    .as_ref()
                    .and_then(|m| m.on_demand)
                    .map_or("-".into(), dollars),
                if o.patterns.is_empty() {
                    "-".into()
                } else {
                    o.patterns.join(", ")
                },
            ]);
        }
        table(&mut out, &rows, "  ");
    }
    render_cost(&mut out, report);
    let cov = &report.coverage;
    let mut lines: Vec<String> = Vec::new();
    for u in &cov.unserved_patterns {
        lines.push(format!(
            "access pattern `{}` is {}\n    help: {}",
            u.pattern, u.reason, u.help
        ));
    }
    for p in &cov.patterns_without_code {
        lines.push(format!("access pattern `{p}` has no code implementing it"));
    }
    for o in &cov.operations_without_pattern {
        lines.push(format!("{o}: reads a shape no access pattern declares"));
    }
    for w in &cov.wasteful_operations {
        lines.push(format!(
            "{}: {} reads {} items to return {} ({} RCU per call)\n    why: {}",
            w.location,
            w.served_by,
            number(w.items_read),
            number(w.items_returned),
            number(w.rcu),
            w.why.join("; ")
        ));
    }
    for u in &cov.unread_indexes {
        let mut s = format!(
            "index `{}` of table `{}` is read by nothing",
            u.index, u.table
        );
        if !u.write_wcu.is_empty() {
            let parts: Vec<String> = u
                .write_wcu
                .iter()
                .map(|(e, w)| format!("{e} {}", number(*w)))
                .collect();
            let _ = write!(s, "; it costs WCU on every write ({})", parts.join(", "));
        }
        lines.push(s);
    }
    if !lines.is_empty() {
        out.push_str("\ncoverage\n");
        for l in lines {
            let _ = writeln!(out, "  {l}");
        }
    }
    if !report.notes.is_empty() {
        out.push_str("\nnotes\n");
        for n in &report.notes {
            let tag = match n.kind {
                NoteKind::Missing => "missing",
                NoteKind::Assumed => "assumed",
            };
            let _ = writeln!(
                out,
                "  {tag}: {} {}\n    help: {}",
                n.subject, n.message, n.fix
            );
        }
    }
    out
}

/// `$1,234` or `-`.
fn money(x: Option<f64>) -> String {
    x.map_or("-".into(), dollars)
}

/// The dollar figures: each table's month by reads, writes and storage, both capacity
/// modes side by side, which is cheaper and the break-even utilisation; each access
/// pattern's month at its rate.
fn render_cost(out: &mut String, report: &SimulationReport) {
    let p = &report.prices;
    let _ = writeln!(
        out,
        "\nmonthly cost at {}: on-demand / provisioned at {} utilisation",
        p.describe,
        crate::figures::percent(p.target_utilization)
    );
    let mut rows = vec![vec![
        "table".to_string(),
        "reads".into(),
        "writes".into(),
        "storage".into(),
        "total".into(),
        "cheaper".into(),
        "break-even".into(),
    ]];
    let pair = |s: &Spend| format!("{} / {}", money(s.on_demand), money(s.provisioned));
    for t in &report.tables {
        let c = &t.cost;
        rows.push(vec![
            t.name.clone(),
            pair(&c.reads),
            pair(&c.writes),
            money(c.storage),
            pair(&c.total),
            c.total
                .cheaper
                .map_or("-".into(), |m| m.label().to_string()),
            c.total
                .break_even_utilization
                .map_or("-".into(), crate::figures::percent),
        ]);
    }
    table(out, &rows, "  ");
    let rated: Vec<&PatternReport> = report
        .patterns
        .iter()
        .filter(|p| p.spend.is_some())
        .collect();
    if !rated.is_empty() {
        let mut rows = vec![vec![
            "access pattern".to_string(),
            "rate/s".into(),
            "RCU per call".into(),
            "on-demand".into(),
            "provisioned".into(),
        ]];
        for pr in rated {
            let s = pr.spend.as_ref();
            rows.push(vec![
                pr.name.clone(),
                pr.rate.map_or("-".into(), number),
                pr.cost.as_ref().map_or("-".into(), |c| number(c.full.rcu)),
                money(s.and_then(|s| s.on_demand)),
                money(s.and_then(|s| s.provisioned)),
            ]);
        }
        table(out, &rows, "  ");
    }
    let mut missing: Vec<&str> = Vec::new();
    for t in &report.tables {
        for l in &t.cost.left_out {
            let _ = writeln!(out, "  table `{}` leaves out {l}", t.name);
        }
        missing.extend(t.cost.total.missing.iter().map(String::as_str));
    }
    missing.sort_unstable();
    missing.dedup();
    for m in missing {
        let _ = writeln!(out, "  missing: {m}");
    }
    out.push_str(
        "  break-even: provisioned capacity costs less than on-demand when its average use is above this share of what is provisioned\n",
    );
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_read_well() {
        assert_eq!(number(1_234_567.0), "1,234,567");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(2.25), "2.25");
        assert_eq!(number(12.0), "12");
        assert_eq!(number(-1500.0), "-1,500");
        assert_eq!(number(f64::NAN), "?");
    }
}
