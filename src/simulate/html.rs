//! `dynalint simulate --format html`: one self-contained HTML file to look at rather
//! than read — cost per table and per access pattern as bars, partition heat per
//! index against the 3,000 RCU and 1,000 WCU a partition serves, the model's tables
//! and indexes with the code that reads and writes each, and the findings with the
//! source lines they point at. No script or style is fetched: it opens from disk.
//!
//! Every figure is the simulation's JSON figure, printed by the same functions, and
//! carried raw in a `data-*` attribute beside its text (the browser test compares
//! them).

use std::fmt::Write as _;

use super::render::number;
use super::report::{SimulationReport, Spend};
use crate::diagnostic::{Diagnostic, Severity};
use crate::facts::shards::{PARTITION_MAX_RCU, PARTITION_MAX_WCU};
use crate::model::{IndexKind, Model, Projection};
use crate::pricing::dollars;
use crate::report::position::Positions;
use crate::source::SourceFile;

/// Lines shown around a finding's line.
const CONTEXT_LINES: usize = 2;

/// Escapes text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Inline `code` spans for the backticked parts of a message.
fn prose(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

/// `$1,234` or `–`, with the raw figure in `data-value`.
fn money_cell(v: Option<f64>) -> String {
    match v {
        Some(x) => format!("<td class=\"num\" data-value=\"{x}\">{}</td>", dollars(x)),
        None => "<td class=\"num missing\">–</td>".to_string(),
    }
}

/// A horizontal bar `share` (0..1) of the row's width, red past `limit` (a share too).
fn bar(share: f64, over: bool) -> String {
    let w = (share.clamp(0.0, 1.0) * 100.0 * 10.0).round() / 10.0;
    format!(
        "<div class=\"track\"><div class=\"bar{}\" style=\"width:{w}%\"></div></div>",
        if over { " over" } else { "" }
    )
}

const STYLE: &str = r#"
:root { --fg:#1d2330; --muted:#5b6474; --line:#d9dde5; --bar:#3b7ddd; --over:#d64545; --ok:#2e8b57; --bg:#fff; --head:#f3f5f9; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
header { position: sticky; top: 0; background: var(--head); border-bottom: 1px solid var(--line); padding: .6rem 1.2rem; z-index: 2; }
header h1 { font-size: 1.2rem; margin: 0 0 .2rem; }
header p { margin: .1rem 0; color: var(--muted); }
nav a { margin-right: 1rem; }
#filter { width: 24rem; max-width: 100%; padding: .3rem .5rem; margin-top: .3rem; border: 1px solid var(--line); border-radius: 4px; }
main { padding: 0 1.2rem 3rem; max-width: 96rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.missing { color: var(--muted); }
td.barcell { width: 30%; }
.track { background: #eef1f6; height: .8rem; border-radius: 3px; overflow: hidden; }
.bar { background: var(--bar); height: 100%; }
.bar.over { background: var(--over); }
.hot { color: var(--over); font-weight: 600; }
.ok { color: var(--ok); }
details { border: 1px solid var(--line); border-radius: 4px; margin: .4rem 0; padding: .2rem .6rem; }
summary { cursor: pointer; font-weight: 600; }
.sev { display: inline-block; min-width: 4.5rem; font-weight: 600; }
.sev.error { color: var(--over); } .sev.warning { color: #b7791f; } .sev.info { color: var(--muted); }
.finding { border-left: 3px solid var(--line); padding: .2rem .8rem; margin: .8rem 0; }
.finding.error { border-color: var(--over); } .finding.warning { border-color: #e0a030; }
.finding .cost { color: var(--muted); }
pre.src { background: #f7f8fa; border: 1px solid var(--line); padding: .3rem .5rem; overflow-x: auto; margin: .3rem 0; }
pre.src span.ln { color: var(--muted); display: inline-block; width: 3.5rem; }
pre.src .mark { background: #fff3c4; display: block; }
.note { color: var(--muted); }
.hidden { display: none !important; }
"#;

/// Rows, details and findings whose text does not contain the filter are hidden, so
/// one table among hundreds is a few keystrokes away.
const SCRIPT: &str = r#"
const box = document.getElementById('filter');
box.addEventListener('input', () => {
  const q = box.value.trim().toLowerCase();
  for (const el of document.querySelectorAll('[data-filter]')) {
    const hit = q === '' || el.dataset.filter.toLowerCase().includes(q);
    el.classList.toggle('hidden', !hit);
    if (hit && q !== '' && el.tagName === 'DETAILS') el.open = true;
  }
});
"#;

/// The whole report.
pub fn render(
    model: &Model,
    report: &SimulationReport,
    findings: &[Diagnostic],
    files: &[SourceFile],
) -> String {
    let positions = Positions::new(files);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dynalint report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&report.model)
    );
    header(&mut out, report, findings);
    out.push_str("<main>\n");
    cost(&mut out, report);
    heat(&mut out, report);
    tables(&mut out, model, report);
    findings_section(&mut out, findings, &positions, files);
    let _ = write!(
        out,
        "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

fn header(out: &mut String, r: &SimulationReport, findings: &[Diagnostic]) {
    let total = |f: fn(&Spend) -> Option<f64>| -> Option<f64> {
        r.tables.iter().map(|t| f(&t.cost.total)).sum()
    };
    let count = |s: Severity| findings.iter().filter(|d| d.severity == s).count();
    let _ = write!(
        out,
        "<header>\n<h1>dynalint report</h1>\n<p>model <code>{}</code> · simulated at scale {} (seed {}) · {}</p>\n<p id=\"totals\" data-on-demand=\"{}\" data-provisioned=\"{}\">all tables: <b>{}</b> a month on-demand, <b>{}</b> provisioned at {} utilisation · {} findings ({} errors, {} warnings)</p>\n<nav><a href=\"#cost\">Cost</a><a href=\"#heat\">Partition heat</a><a href=\"#tables\">Tables and indexes</a><a href=\"#findings\">Findings</a></nav>\n<input id=\"filter\" type=\"search\" placeholder=\"Filter tables, indexes, patterns, files…\" aria-label=\"Filter\">\n</header>\n",
        esc(&r.model),
        number(r.scale),
        r.seed,
        esc(&r.prices.describe),
        total(|s| s.on_demand).unwrap_or(f64::NAN),
        total(|s| s.provisioned).unwrap_or(f64::NAN),
        total(|s| s.on_demand).map_or("–".into(), dollars),
        total(|s| s.provisioned).map_or("–".into(), dollars),
        crate::figures::percent(r.prices.target_utilization),
        findings.len(),
        count(Severity::Error),
        count(Severity::Warning),
    );
}

/// Cost per table and per access pattern, as bars of the largest.
fn cost(out: &mut String, r: &SimulationReport) {
    out.push_str("<section id=\"cost\">\n<h2>Monthly cost by table</h2>\n");
    let max = r
        .tables
        .iter()
        .filter_map(|t| t.cost.total.on_demand)
        .fold(0.0_f64, f64::max);
    out.push_str("<table id=\"table-costs\">\n<thead><tr><th>table</th><th></th><th class=\"num\">on-demand</th><th class=\"num\">provisioned</th><th class=\"num\">reads</th><th class=\"num\">writes</th><th class=\"num\">storage</th><th>cheaper</th><th class=\"num\">break-even</th></tr></thead>\n<tbody>\n");
    for t in &r.tables {
        let c = &t.cost;
        let od = c.total.on_demand;
        let _ = writeln!(
            out,
            "<tr data-table=\"{name}\" data-filter=\"{name}\"><td><a href=\"#table-{name}\">{name}</a></td><td class=\"barcell\">{}</td>{}{}{}{}{}<td>{}</td><td class=\"num\">{}</td></tr>",
            bar(if max > 0.0 { od.unwrap_or(0.0) / max } else { 0.0 }, false),
            money_cell(od),
            money_cell(c.total.provisioned),
            money_cell(c.reads.on_demand),
            money_cell(c.writes.on_demand),
            money_cell(c.storage),
            c.total.cheaper.map_or("–", |m| m.label()),
            c.total
                .break_even_utilization
                .map_or("–".into(), crate::figures::percent),
            name = esc(&t.name),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let left: Vec<String> = r
        .tables
        .iter()
        .flat_map(|t| {
            t.cost.left_out.iter().map(move |l| {
                format!(
                    "<li>table <code>{}</code> leaves out {}</li>",
                    esc(&t.name),
                    prose(l)
                )
            })
        })
        .collect();
    if !left.is_empty() {
        let _ = writeln!(out, "<ul class=\"note\">{}</ul>", left.join(""));
    }

    out.push_str("<h2>Monthly cost by access pattern</h2>\n");
    let max = r
        .patterns
        .iter()
        .filter_map(|p| p.spend.as_ref()?.on_demand)
        .fold(0.0_f64, f64::max);
    out.push_str("<table id=\"pattern-costs\">\n<thead><tr><th>access pattern</th><th>served by</th><th class=\"num\">rate/s</th><th class=\"num\">RCU per call</th><th></th><th class=\"num\">on-demand</th><th class=\"num\">provisioned</th></tr></thead>\n<tbody>\n");
    for p in &r.patterns {
        let od = p.spend.as_ref().and_then(|s| s.on_demand);
        let served = p
            .plan
            .as_ref()
            .map_or_else(|| p.error.clone().unwrap_or_default(), |pl| pl.served_by());
        let table = p.plan.as_ref().map_or("", |pl| pl.table.as_str());
        let _ = writeln!(
            out,
            "<tr data-pattern=\"{name}\" data-filter=\"{name} {}\"><td>{name}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"barcell\">{}</td>{}{}</tr>",
            esc(table),
            prose(&served),
            p.rate.map_or("–".into(), number),
            p.cost.as_ref().map_or("–".into(), |c| number(c.full.rcu)),
            bar(if max > 0.0 { od.unwrap_or(0.0) / max } else { 0.0 }, false),
            money_cell(od),
            money_cell(p.spend.as_ref().and_then(|s| s.provisioned)),
            name = esc(&p.name),
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

/// Partition heat: each access pattern's hottest partition against 3,000 RCU a second,
/// and each index's most common key against 1,000 WCU a second of the writes it takes.
fn heat(out: &mut String, r: &SimulationReport) {
    out.push_str("<section id=\"heat\">\n<h2>Partition heat</h2>\n<p class=\"note\">A partition serves 3,000 RCU and 1,000 WCU a second. Reads: the hottest partition each access pattern's <code>rate</code> reads. Writes: the key of each index most items share, at the model's <code>write-rate</code>.</p>\n");
    out.push_str("<table id=\"read-heat\">\n<thead><tr><th>access pattern</th><th>table / index</th><th>hottest partition</th><th class=\"num\">RCU/s</th><th class=\"num\">of 3,000</th></tr></thead>\n<tbody>\n");
    for p in &r.patterns {
        let (Some(load), Some(plan)) = (&p.load, &p.plan) else {
            continue;
        };
        let target = match &plan.index {
            Some(i) => format!("{} / {}", plan.table, i),
            None => plan.table.clone(),
        };
        let share = load.hottest_rcu_per_sec / PARTITION_MAX_RCU;
        let scan = matches!(load.spread, crate::simulate::report::Spread::Everything);
        let _ = writeln!(
            out,
            "<tr data-filter=\"{} {}\"><td>{}</td><td>{}</td><td class=\"barcell\">{}</td><td class=\"num\" data-value=\"{}\">{}</td><td class=\"num {}\">{}</td></tr>",
            esc(&p.name),
            esc(&target),
            esc(&p.name),
            esc(&target),
            bar(share, load.hot),
            load.hottest_rcu_per_sec,
            number(load.hottest_rcu_per_sec),
            if load.hot { "hot" } else { "ok" },
            if scan {
                "every partition (Scan)".to_string()
            } else {
                crate::figures::percent(share)
            },
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str("<table id=\"write-heat\">\n<thead><tr><th>table / index</th><th>hottest key</th><th class=\"num\">share of items</th><th>writes on it</th><th class=\"num\">WCU/s</th><th class=\"num\">of 1,000</th></tr></thead>\n<tbody>\n");
    for t in &r.tables {
        for i in &t.indexes {
            let Some(h) = &i.hottest_key else { continue };
            let wcu = h
                .declared_writes_per_sec
                .map(|w| w * h.share * h.wcu_per_write);
            let share = wcu.map_or(0.0, |w| w / PARTITION_MAX_WCU);
            let _ = writeln!(
                out,
                "<tr data-filter=\"{t} {i}\"><td>{t} / {i}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"barcell\">{}</td><td class=\"num\">{}</td><td class=\"num {}\">{}</td></tr>",
                esc(&h.value),
                crate::figures::percent(h.share),
                bar(share, share > 1.0),
                wcu.map_or("–".into(), number),
                if share > 1.0 { "hot" } else { "ok" },
                wcu.map_or("no write-rate".into(), |_| crate::figures::percent(share)),
                t = esc(&t.name),
                i = esc(&i.name),
            );
        }
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

/// The model's tables and indexes, with the code and patterns that read and write each.
fn tables(out: &mut String, model: &Model, r: &SimulationReport) {
    out.push_str("<section id=\"tables\">\n<h2>Tables and indexes</h2>\n");
    for t in &r.tables {
        let declared = model.table(&t.name);
        let keys = declared.map_or(String::new(), |d| {
            let mut k = format!("<code>{}</code>", esc(&d.partition_key));
            if let Some(sk) = &d.sort_key {
                let _ = write!(k, " / <code>{}</code>", esc(sk));
            }
            k
        });
        let class = declared
            .and_then(|d| d.table_class)
            .unwrap_or_default()
            .as_str();
        let billing = declared
            .and_then(|d| d.billing_mode)
            .map_or("billing mode not declared", |b| b.as_str());
        let ops: Vec<_> = r
            .operations
            .iter()
            .filter(|o| o.table.as_deref() == Some(t.name.as_str()))
            .collect();
        let names: Vec<String> = std::iter::once(t.name.clone())
            .chain(t.indexes.iter().map(|i| i.name.clone()))
            .collect();
        let _ = write!(
            out,
            "<details id=\"table-{name}\" data-filter=\"{}\"><summary>{name} — {} items, {} · {}</summary>\n<p>key {keys} · {class} · {billing} · average item {} B</p>\n",
            esc(&names.join(" ")),
            number(t.items as f64),
            money_cell(t.cost.total.on_demand)
                .replace("<td class=\"num\"", "<span")
                .replace("<td class=\"num missing\"", "<span")
                .replace("</td>", "</span>")
                + " a month on-demand",
            t.cost
                .total
                .cheaper
                .map_or("no request load".to_string(), |m| format!("{} is cheaper", m.label())),
            t.simulated_avg_item_size.map_or("?".into(), number),
            name = esc(&t.name),
        );
        if !t.indexes.is_empty() {
            out.push_str("<table><thead><tr><th>index</th><th>kind</th><th>key</th><th>projection</th><th class=\"num\">items</th><th>read by</th></tr></thead><tbody>\n");
            for i in &t.indexes {
                let d = declared.and_then(|d| d.index(&i.name));
                let key = d.map_or(String::new(), |d| {
                    let mut k = format!("<code>{}</code>", esc(&d.partition_key));
                    if let Some(sk) = &d.sort_key {
                        let _ = write!(k, " / <code>{}</code>", esc(sk));
                    }
                    k
                });
                let projection = d.map_or("?".to_string(), |d| match &d.projection {
                    Projection::All => "ALL".into(),
                    Projection::KeysOnly => "KEYS_ONLY".into(),
                    Projection::Include(a) => format!("INCLUDE {}", a.join(", ")),
                });
                let kind = d.map_or(i.kind, |d| match d.kind {
                    IndexKind::Global => "GSI",
                    IndexKind::Local => "LSI",
                });
                let read_by = if i.read_by.is_empty() {
                    "<span class=\"hot\">nothing</span>".to_string()
                } else {
                    i.read_by
                        .iter()
                        .map(|r| prose(r))
                        .collect::<Vec<_>>()
                        .join("<br>")
                };
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{kind}</td><td>{key}</td><td>{}</td><td class=\"num\">{}</td><td>{read_by}</td></tr>",
                    esc(&i.name),
                    esc(&projection),
                    number(i.items),
                );
            }
            out.push_str("</tbody></table>\n");
        }
        if ops.is_empty() {
            out.push_str("<p class=\"note\">No checked code calls it.</p>\n");
        } else {
            out.push_str("<table><thead><tr><th>code</th><th>call</th><th>reads or writes</th><th>served by</th><th class=\"num\">RCU</th><th class=\"num\">WCU</th><th class=\"num\">$ per 1M calls</th></tr></thead><tbody>\n");
            for o in ops {
                let e = &o.estimate;
                let rcu = o.cost.as_ref().map(|c| c.full.rcu).or(e.read_units);
                let does = if e.write_units.is_some() {
                    "writes"
                } else {
                    "reads"
                };
                let _ = writeln!(
                    out,
                    "<tr data-filter=\"{loc}\"><td><code>{loc}</code></td><td>{}</td><td>{does}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                    o.kind,
                    prose(&o.served_by),
                    rcu.map_or("–".into(), number),
                    e.total_write_units().map_or("–".into(), number),
                    o.spend
                        .per_call_on_demand
                        .map_or("–".into(), crate::pricing::bill::per_million_calls),
                    loc = esc(&o.location),
                );
            }
            out.push_str("</tbody></table>\n");
        }
        out.push_str("</details>\n");
    }
    out.push_str("</section>\n");
}

/// The findings, each with its cost line and the source lines it points at.
fn findings_section(
    out: &mut String,
    findings: &[Diagnostic],
    positions: &Positions<'_>,
    files: &[SourceFile],
) {
    let _ = write!(
        out,
        "<section id=\"findings\">\n<h2>Findings ({})</h2>\n",
        findings.len()
    );
    if findings.is_empty() {
        out.push_str("<p class=\"note\">None.</p>\n");
    }
    for (n, d) in findings.iter().enumerate() {
        let r = positions.range(&d.location);
        let sev = d.severity.as_str();
        let href = std::fs::canonicalize(&*d.location.file)
            .ok()
            .map(|p| format!("file://{}", p.display()));
        let place = format!("{}:{}:{}", r.file, r.line, r.column);
        let _ = write!(
            out,
            "<div class=\"finding {sev}\" id=\"finding-{n}\" data-filter=\"{} {} {}\" data-rule=\"{}\" data-file=\"{}\" data-line=\"{}\">\n<p><span class=\"sev {sev}\">{sev}</span> <code>{}</code> {}</p>\n<p><a href=\"{}\">{}</a></p>\n",
            esc(d.rule),
            esc(&place),
            esc(&d.message),
            esc(d.rule),
            esc(&r.file),
            r.line,
            esc(d.rule),
            prose(&d.message),
            esc(&href.unwrap_or_else(|| format!("#finding-{n}"))),
            esc(&place),
        );
        if let Some(c) = &d.cost {
            let _ = writeln!(out, "<p class=\"cost\">cost: {}</p>", prose(&c.text));
        }
        if let Some(f) = files.iter().find(|f| f.path == d.location.file) {
            excerpt(out, f, r.line);
        }
        for note in &d.notes {
            let _ = writeln!(out, "<p class=\"note\">note: {}</p>", prose(note));
        }
        if let Some(h) = &d.help {
            let _ = writeln!(out, "<p>help: {}</p>", prose(h));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
}

/// Lines around `line` (1-based) of `f`, the line itself marked.
fn excerpt(out: &mut String, f: &SourceFile, line: usize) {
    let lines: Vec<&str> = f.text.lines().collect();
    if line == 0 || line > lines.len() {
        return;
    }
    let from = line.saturating_sub(CONTEXT_LINES).max(1);
    let to = (line + CONTEXT_LINES).min(lines.len());
    out.push_str("<pre class=\"src\">");
    for l in from..=to {
        let text = esc(lines[l - 1]);
        if l == line {
            let _ = write!(
                out,
                "<span class=\"mark\"><span class=\"ln\">{l}</span>{text}</span>"
            );
        } else {
            let _ = writeln!(out, "<span class=\"ln\">{l}</span>{text}");
        }
    }
    out.push_str("</pre>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_backticks_are_code() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(
            prose("scan of `<T>` costs"),
            "scan of <code>&lt;T&gt;</code> costs"
        );
        assert_eq!(
            money_cell(Some(1234.5)),
            "<td class=\"num\" data-value=\"1234.5\">$1,235</td>"
        );
    }
}
