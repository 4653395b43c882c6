//! `scan-in-hot-path`: prose in `rules/scan-in-hot-path.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::Cost;
use crate::facts::call_cost::{call_cost, CallCost};
use crate::facts::read_cost;
use crate::facts::spend::{call_rate, call_units, finding_cost, mode_of, Priced};
use crate::facts::BoundOperation;
use crate::figures;
use crate::pricing::{Prices, UnitsPerSecond};
use crate::scanner::OpKind;

crate::declare_rule! {
    pub ScanInHotPath,
    id: "scan-in-hot-path",
    category: Perf,
    summary: "`Scan` reads the whole table or index on every request",
}

impl Rule for ScanInHotPath {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        if op.kind != OpKind::Scan || op.context.cold.is_some() {
            return;
        }
        let target = match (&bound.table, &op.index) {
            (Some(t), Some(i)) => format!("index `{}` of `{}`", i.value().unwrap_or("?"), t.name),
            (Some(t), None) => format!("`{}`", t.name),
            (None, _) => op.table_label(),
        };
        // The one estimate of the call's cost: its limit and segments included.
        let call = call_cost(cx.model, bound);
        let segments = call.segments.unwrap_or(1) as f64;
        let capped = matches!(
            (call.items_read, call.range_items),
            (Some(read), Some(range)) if read < range
        );
        let reads = match call.items_read {
            Some(read) if capped => {
                format!("reads the first {} items it comes to", figures::count(read))
            }
            _ => "reads every item".to_string(),
        };
        let cost = match (
            call.items_read,
            call.read_units,
            bound.table.and_then(|t| t.avg_item_size),
        ) {
            (Some(items), Some(rcu), Some(size)) => {
                let consistency = if call.consistent {
                    "strongly consistent"
                } else {
                    "eventually consistent"
                };
                // A parallel Scan's segments read the table together: one request of
                // the code reads all of them.
                let whole = match call.segments.filter(|_| !capped) {
                    Some(n) => format!(", in {n} segments of {} RCU", figures::units(rcu)),
                    None => String::new(),
                };
                format!(
                    " (about {} RCU for {} items of {} B, {consistency}{whole})",
                    figures::units(if capped { rcu } else { rcu * segments }),
                    figures::count(if capped { items } else { items * segments }),
                    figures::group(size),
                )
            }
            _ => String::new(),
        };
        let line = cost_line(cx, bound, &call, capped);
        let file = op.file.clone();
        if let Some(hot) = &op.context.hot {
            let d = cx.report(
                file.clone(),
                op.method_span,
                format!("`scan` of {target} runs on every request and {reads}{cost}"),
            );
            for step in &hot.chain {
                d.label(
                    step.file.clone(),
                    step.span,
                    format!("`{}` is on the request path", step.function),
                );
            }
            d.note(format!("hot because: {}", hot.entry));
            d.cost(line);
            d.help("serve this access pattern with a `query` on the partition key or a GSI");
        } else if let Some(lp) = &op.context.in_loop {
            // The scanner leaves out the loop that reads the pages of one scan (or
            // retries it): a loop here repeats the whole read.
            cx.report(
                file.clone(),
                op.method_span,
                match op.paginated {
                    true => format!(
                        "`scan` of {target} reads every page once per iteration of a loop{cost}"
                    ),
                    false => format!("`scan` of {target} runs once per iteration of a loop{cost}"),
                },
            )
            .label(
                lp.file(op).clone(),
                lp.keyword_span(),
                format!("{} repeats the scan", lp.this_loop(op)),
            )
            .cost(line)
            .help("scan once outside the loop, or query by key inside it");
        }
    }
}

/// What the scan costs a month at the rate it is called (its access pattern's, else
/// one a second): all its segments together, and when it returns fewer items than it
/// reads, what a Query reading only those would.
fn cost_line(
    cx: &RuleContext<'_>,
    bound: &BoundOperation<'_>,
    call: &CallCost,
    capped: bool,
) -> Cost {
    let prices = Prices::for_model(cx.model);
    let table = bound.table;
    let rate = call_rate(cx.model, bound.op);
    let mode = mode_of(table);
    let segments = if capped {
        1.0
    } else {
        call.segments.unwrap_or(1) as f64
    };
    let units = call_units(table, call).map(|u| u.times(segments));
    let written = Priced::calls(&prices, table, units, &call.missing, rate.per_second);
    let items = call.items_read.map_or_else(
        || "every item".to_string(),
        |n| format!("{} items", figures::count(n * segments)),
    );
    let mut text = format!(
        "reads {items} per call: {} {}",
        written.text(mode),
        rate.describe()
    );
    // A Query that reads only what the scan returns, when it returns fewer.
    let fixed = match (
        call.items_read,
        call.items_returned,
        table.and_then(|t| t.avg_item_size),
    ) {
        (Some(read), Some(ret), Some(size)) if ret < read => {
            let units = UnitsPerSecond {
                read: read_cost::paged(ret * segments * size as f64, call.consistent).rcu,
                ..UnitsPerSecond::default()
            };
            let p = Priced::calls(&prices, table, Some(units), &[], rate.per_second);
            text.push_str(&format!(
                "; a Query reading only the {} it returns: {}",
                figures::count(ret * segments),
                p.text(mode)
            ));
            Some(p)
        }
        _ => None,
    };
    finding_cost(text, &rate, mode, &written, fixed.as_ref(), None)
}
