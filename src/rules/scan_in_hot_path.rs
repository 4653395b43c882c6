//! `scan-in-hot-path`: prose in `rules/scan-in-hot-path.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::facts::BoundOperation;
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
        // `limit(n)` on a call that sends one request caps what it reads.
        let limit = op
            .limit
            .as_ref()
            .and_then(|l| l.literal.as_deref())
            .and_then(|l| l.trim().parse::<u64>().ok());
        let capped = |count: u64| {
            crate::facts::read_cost::limited_items(count as f64, limit, None, !op.paginated) as u64
        };
        let reads = match bound.table.and_then(|t| t.item_count) {
            Some(count) if capped(count) < count => {
                format!("reads the first {} items it comes to", group(capped(count)))
            }
            _ => "reads every item".to_string(),
        };
        let cost = bound
            .table
            .and_then(|t| Some((t.item_count?, t.avg_item_size?)))
            .map(|(count, size)| {
                let count = capped(count);
                let bytes = count.saturating_mul(size) as f64;
                let consistent = op.consistent_read == Some(true);
                let rcu = crate::facts::read_cost::paged(bytes, consistent).rcu;
                format!(
                    " (about {} RCU for {} items of {} B, {})",
                    group(rcu.round() as u64),
                    group(count),
                    group(size),
                    if consistent {
                        "strongly consistent"
                    } else {
                        "eventually consistent"
                    }
                )
            })
            .unwrap_or_default();
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
            .help("scan once outside the loop, or query by key inside it");
        }
    }
}

/// `1234567` → `1,234,567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
