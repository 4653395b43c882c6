//! The simulation's figures in dollars: each access pattern a month at its `rate`,
//! each code operation per call and a month at its pattern's rate, and each table a
//! month — its patterns' reads, its entities' writes at their `write-rate`s (indexes
//! included), its items' and index entries' storage — on-demand and provisioned side
//! by side, which costs less and the utilisation at which they cost the same.

use crate::facts::spend::{call_units, class_of, storage_monthly, table_monthly};
use crate::model::{Model, Table};
use crate::pricing::bill::per_call_on_demand;
use crate::pricing::{Monthly, Prices, UnitsPerSecond};

use super::report::*;

/// Which prices the figures use.
pub fn basis(model: &Model) -> PriceBasis {
    let p = Prices::for_model(model);
    PriceBasis {
        describe: p.describe(),
        region: p.region.clone(),
        date: p.date.clone(),
        target_utilization: p.target_utilization,
    }
}

/// Fills the report's dollar figures.
pub fn price(model: &Model, report: &mut SimulationReport) {
    let prices = Prices::for_model(model);
    // Units per second each table serves, and what is left out of them.
    let mut reads: Vec<UnitsPerSecond> = vec![UnitsPerSecond::default(); report.tables.len()];
    let mut left_out: Vec<Vec<String>> = vec![Vec::new(); report.tables.len()];
    let position = |name: &str| report.tables.iter().position(|t| t.name == name);
    for p in &mut report.patterns {
        let (Some(plan), Some(cost)) = (&p.plan, &p.cost) else {
            continue;
        };
        let table = model.table(&plan.table);
        let Some(rate) = p.rate else {
            if let Some(i) = position(&plan.table) {
                left_out[i].push(format!("access pattern `{}` (no `rate`)", p.name));
            }
            continue;
        };
        let units = UnitsPerSecond {
            read: cost.full.rcu * rate,
            ..UnitsPerSecond::default()
        };
        p.spend = Some(table_monthly(&prices, table, units).into());
        if let Some(i) = position(&plan.table) {
            reads[i] = reads[i].plus(units);
        }
    }
    for o in &mut report.operations {
        o.spend = operation(model, &prices, o, &report.patterns);
    }
    for (i, t) in report.tables.iter_mut().enumerate() {
        let table = model.table(&t.name);
        t.cost = table_cost(
            &prices,
            table,
            t,
            reads[i],
            std::mem::take(&mut left_out[i]),
        );
    }
}

/// A code operation: its units per call (measured for a read, else the estimate),
/// on-demand per call, and a month at the rate of the access pattern it implements.
fn operation(
    model: &Model,
    prices: &Prices,
    o: &OperationReport,
    patterns: &[PatternReport],
) -> OperationSpend {
    let table = o.table.as_deref().and_then(|t| model.table(t));
    let units = match &o.cost {
        Some(c) => Some(UnitsPerSecond {
            read: c.full.rcu,
            ..UnitsPerSecond::default()
        }),
        None => call_units(table, &o.estimate),
    };
    let mut out = OperationSpend::default();
    let Some(units) = units else {
        out.missing = o.estimate.missing.clone();
        return out;
    };
    match per_call_on_demand(prices, class_of(table), units) {
        Ok(d) => out.per_call_on_demand = Some(d),
        Err(m) => out.missing.extend(m.iter().map(ToString::to_string)),
    }
    let rated = patterns
        .iter()
        .filter(|p| o.patterns.contains(&p.name))
        .filter_map(|p| Some((p, p.rate?)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((p, rate)) = rated {
        out.rate_per_second = Some(rate);
        out.rate_from = Some(p.name.clone());
        out.monthly = Some(table_monthly(prices, table, units.times(rate)).into());
    }
    out
}

/// A table a month: reads at the patterns' rates, writes at the entities' (or the
/// table's) `write-rate`, storage of the generated items' measured sizes.
fn table_cost(
    prices: &Prices,
    table: Option<&Table>,
    t: &TableReport,
    reads: UnitsPerSecond,
    mut left_out: Vec<String>,
) -> TableCost {
    let global = table.is_some_and(|t| !t.replicas.is_empty());
    // Writes: each entity's `write-rate` × the WCU one put of it costs on the table and
    // its indexes; the table's `write-rate` spread over its entities by item count.
    let total_items: f64 = t.entities.iter().map(|e| e.count as f64).sum();
    let declared: Vec<(f64, &EntityReport)> = t
        .entities
        .iter()
        .filter_map(|e| {
            let rate = table?.entity(&e.name)?.write_rate?;
            Some((rate, e))
        })
        .collect();
    let weighted: Vec<(f64, &EntityReport)> = if !declared.is_empty() {
        declared
    } else if let (Some(rate), true) = (table.and_then(|t| t.write_rate), total_items > 0.0) {
        t.entities
            .iter()
            .map(|e| (rate * e.count as f64 / total_items, e))
            .collect()
    } else {
        left_out.push("writes (no `write-rate` on the table or its entities)".to_string());
        Vec::new()
    };
    let mut writes = UnitsPerSecond::default();
    for (rate, e) in weighted {
        let indexes: f64 = e.write.indexes.values().sum();
        if global {
            writes.replicated_write += rate * e.write.table_wcu;
            writes.write += rate * indexes;
        } else {
            writes.write += rate * e.write.total_wcu;
        }
    }
    // Storage: the items, and each index's entries, with DynamoDB's per-item overhead.
    let item_bytes = t
        .simulated_avg_item_size
        .or(t.declared_avg_item_size.map(|s| s as f64))
        .unwrap_or(0.0);
    let mut bytes = t.items as f64 * (item_bytes + prices.item_overhead_bytes);
    for i in &t.indexes {
        bytes += i.items * (i.avg_entry_size.unwrap_or(item_bytes) + prices.item_overhead_bytes);
    }
    // `storage_monthly` adds the overhead per item itself: price the bytes as one item.
    let storage = storage_monthly(prices, table, 1.0, bytes - prices.item_overhead_bytes);
    let read_m = table_monthly(prices, table, reads);
    let write_m = table_monthly(prices, table, writes);
    let mut total: Monthly = read_m.plus(&write_m);
    match &storage {
        Ok(s) => {
            total.on_demand = total.on_demand.map(|x| x + s);
            total.provisioned = total.provisioned.map(|x| x + s);
        }
        Err(m) => total.missing.push(m.clone()),
    }
    TableCost {
        units: reads.plus(writes),
        reads: read_m.into(),
        writes: write_m.into(),
        storage: storage.ok(),
        storage_bytes: bytes,
        total: Spend {
            cheaper: total.cheaper(),
            ..total.into()
        },
        left_out,
    }
}
