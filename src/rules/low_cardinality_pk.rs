//! `low-cardinality-pk`: prose in `rules/low-cardinality-pk.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::facts::figures::{count as group, units as trim};
use crate::facts::hot_key::{declared_values, hottest_pattern, shard_plan, KeyTarget};
use crate::facts::hot_key::{hottest_write, write_shard_plan, KeyValues, PatternLoad, WriteLoad};
use crate::facts::key_access::{addressed, written, AttrValue, Via};
use crate::facts::key_shape::{key_shape, KeyShape};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::scanner::Operation;
use crate::simulate::shards::ShardPlan;

crate::declare_rule! {
    pub LowCardinalityPk,
    id: "low-cardinality-pk",
    category: Perf,
    summary: "a partition key over few values: its hottest value needs more than one partition",
}

/// Below this many distinct values a partition key is judged (`min-cardinality`).
const DEFAULT_MIN_CARDINALITY: u64 = 100;

impl Rule for LowCardinalityPk {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        let min = cx.option_u64("min-cardinality", DEFAULT_MIN_CARDINALITY);
        for target in KeyTarget::all(facts.model) {
            check_target(cx, facts, &target, min);
        }
    }
}

/// One key value in the code that writes or queries the target's partition key.
struct CodeKey<'a> {
    op: &'a Operation,
    value: AttrValue<'a>,
    shape: KeyShape,
}

fn check_target(
    cx: &mut RuleContext<'_>,
    facts: &ProjectFacts<'_>,
    target: &KeyTarget<'_>,
    min: u64,
) {
    let pk = target.partition_key();
    let code = code_keys(facts, target);
    // How many values: the model's word first, else constants the code writes.
    let values = declared_values(target).or_else(|| constant_values(&code));
    let Some(values) = values.filter(|v| v.count < min) else {
        return;
    };
    // The read load of the hottest access pattern and the declared write load: the one
    // that needs more partitions decides.
    let read = hottest_pattern(facts.model, target, values.count).and_then(|l| {
        let plan = shard_plan(target.table, &l)?;
        Some((Load::Read(l), plan))
    });
    let write = hottest_write(target, values.count).and_then(|l| {
        let plan = write_shard_plan(target.table, &l)?;
        Some((Load::Write(l), plan))
    });
    let Some((load, plan)) = [read, write]
        .into_iter()
        .flatten()
        .filter(|(_, p)| p.needs_sharding())
        .max_by(|a, b| a.1.exact.total_cmp(&b.1.exact))
    else {
        return;
    };
    // Keys the code writes with enough shards carry the load; fewer shards do not.
    let sharded_enough = |shape: &KeyShape| matches!(shape, KeyShape::Sharded { modulus: Some(m) } if *m >= plan.shards);
    let writes: Vec<&CodeKey<'_>> = code
        .iter()
        .filter(|k| k.value.via != Via::KeyEquals)
        .collect();
    if !writes.is_empty() && writes.iter().all(|k| sharded_enough(&k.shape)) {
        return;
    }
    // A shard count the code computes at run time cannot be judged: say nothing rather
    // than guess it too small.
    if writes
        .iter()
        .any(|k| k.shape == KeyShape::Sharded { modulus: None })
    {
        return;
    }
    let model_path = cx.model.path.clone();
    // The key's span indexes into the file that declared the table.
    let table_path = target.table.origin.path.clone();
    let summary = format!(
        "partition key `{pk}` of {} has {} value{}",
        target.label(),
        values.count,
        if values.count == 1 { "" } else { "s" }
    );
    let load_text = load.text(&plan);
    let help = shard_help(pk, &plan);
    let d = cx.report(
        table_path.clone(),
        target.partition_key_span(),
        format!("{summary}: {load_text}"),
    );
    match values.span {
        Some(span) => {
            d.label(model_path.clone(), span, values.why.clone());
        }
        None => {
            d.note(values.why.clone());
        }
    }
    let (load_span, load_label) = load.label();
    d.label(model_path.clone(), load_span, load_label);
    d.note(load.arithmetic(&plan));
    d.help(help.clone());
    for k in &code {
        let hot = match &k.shape {
            KeyShape::Constant(_) | KeyShape::EnumLike => true,
            KeyShape::Sharded { modulus: Some(m) } => *m < plan.shards,
            _ => false,
        };
        if !hot {
            continue;
        }
        let doing = match k.value.via {
            Via::KeyEquals => "queries",
            _ => "writes",
        };
        let shape = match &k.shape {
            KeyShape::Constant(Some(v)) => format!("the constant `{v}`"),
            KeyShape::Constant(None) => "a constant".to_string(),
            KeyShape::Sharded { modulus: Some(m) } => format!(
                "a key sharded {m} way{} where {} are needed",
                if *m == 1 { "" } else { "s" },
                plan.shards
            ),
            _ => "one of few values".to_string(),
        };
        let d = cx.report(
            k.op.file.clone(),
            k.value.span,
            format!(
                "this {doing} {shape} as `{pk}`, the hot partition key of {}: {} items/s \
                 {} one value, {} per partition",
                target.label(),
                group(load.items_per_sec()),
                load.verb_on(),
                group(plan.partition_max_items_per_sec),
            ),
        );
        d.label(
            table_path.clone(),
            target.partition_key_span(),
            summary.clone(),
        );
        d.help(help.clone());
    }
}

/// Every value the code gives the target's partition key: writes to the table (its
/// item or key, and `SET` actions), and equality key conditions of queries that read
/// through this target.
fn code_keys<'a>(facts: &ProjectFacts<'a>, target: &KeyTarget<'_>) -> Vec<CodeKey<'a>> {
    let pk = target.partition_key();
    let mut out = Vec::new();
    for b in facts.operations {
        let same_table = b.table.is_some_and(|t| std::ptr::eq(t, target.table));
        if !same_table {
            continue;
        }
        let op = b.op;
        let reads_target = op.kind == crate::scanner::OpKind::Query
            && index_name(b) == target.index.map(|i| i.name.as_str());
        let values = written(op).into_iter().chain(
            addressed(op)
                .into_iter()
                .filter(|a| reads_target && a.via == Via::KeyEquals),
        );
        for value in values {
            if value.attribute != pk {
                continue;
            }
            let shape = key_shape(value.value);
            out.push(CodeKey { op, value, shape });
        }
    }
    out
}

fn index_name<'a>(b: &BoundOperation<'a>) -> Option<&'a str> {
    b.op.index.as_ref().and_then(|i| i.value())
}

/// When every write of the key is a constant: the number of distinct constants.
fn constant_values(code: &[CodeKey<'_>]) -> Option<KeyValues> {
    let writes: Vec<&CodeKey<'_>> = code
        .iter()
        .filter(|k| k.value.via != Via::KeyEquals)
        .collect();
    let mut seen: Vec<&str> = Vec::new();
    for k in &writes {
        let KeyShape::Constant(Some(v)) = &k.shape else {
            return None;
        };
        if !seen.contains(&v.as_str()) {
            seen.push(v);
        }
    }
    if seen.is_empty() {
        return None;
    }
    let count = seen.len() as u64;
    Some(KeyValues {
        count,
        why: format!(
            "every write in the code sets it to {}",
            seen.iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        span: None,
    })
}

/// What makes the hottest value hot: an access pattern's reads or declared writes.
enum Load<'m> {
    Read(PatternLoad<'m>),
    Write(WriteLoad),
}

impl Load<'_> {
    fn items_per_sec(&self) -> f64 {
        match self {
            Load::Read(l) => l.items_per_sec,
            Load::Write(l) => l.items_per_sec,
        }
    }

    /// `read from` / `written to`, for "N items/s read from one value".
    fn verb_on(&self) -> &'static str {
        match self {
            Load::Read(_) => "read from",
            Load::Write(_) => "written to",
        }
    }

    fn text(&self, plan: &ShardPlan) -> String {
        match self {
            Load::Read(l) => format!(
                "`{}` reads {} items/s from one value, over the {} items/s one partition \
                 serves (3,000 RCU of {} B items)",
                l.pattern.name,
                group(l.items_per_sec),
                group(plan.partition_max_items_per_sec),
                group(plan.avg_item_size as f64),
            ),
            Load::Write(l) => format!(
                "{} writes/s land on one value, over the {} writes/s one partition takes \
                 (1,000 WCU, {} WCU per {} B item)",
                group(l.items_per_sec),
                group(plan.partition_max_items_per_sec),
                trim(1.0 / plan.items_per_unit),
                group(plan.avg_item_size as f64),
            ),
        }
    }

    /// The TOML that declares the load, and what to say there.
    fn label(&self) -> (crate::source::Span, String) {
        match self {
            Load::Read(l) => (
                l.pattern.span,
                format!(
                    "{} request{}/s × {} items each",
                    trim(l.rate),
                    if l.rate == 1.0 { "" } else { "s" },
                    group(l.items_per_request)
                ),
            ),
            Load::Write(l) => (
                l.span,
                format!(
                    "{} writes {} items/s, {}% of them under the hottest value",
                    l.source,
                    group(l.rate),
                    trim(l.share * 100.0)
                ),
            ),
        }
    }

    fn arithmetic(&self, plan: &ShardPlan) -> String {
        match self {
            Load::Read(l) => format!(
                "{} items per RCU (4 KB / {} B); 3,000 RCU × {} = {} items/s per partition; \
                 N = {} / {} = {} → {} shards, {} with headroom for skew",
                trim(plan.items_per_unit),
                plan.avg_item_size,
                trim(plan.items_per_unit),
                group(plan.partition_max_items_per_sec),
                group(l.items_per_sec),
                group(plan.partition_max_items_per_sec),
                trim(plan.exact),
                plan.shards,
                plan.padded,
            ),
            Load::Write(l) => format!(
                "each write of a {} B item costs {} WCU (1 KB units, rounded up); 1,000 WCU / \
                 {} = {} writes/s per partition; N = {} / {} = {} → {} shards, {} with \
                 headroom for skew",
                plan.avg_item_size,
                trim(1.0 / plan.items_per_unit),
                trim(1.0 / plan.items_per_unit),
                group(plan.partition_max_items_per_sec),
                group(l.items_per_sec),
                group(plan.partition_max_items_per_sec),
                trim(plan.exact),
                plan.shards,
                plan.padded,
            ),
        }
    }
}

fn shard_help(pk: &str, plan: &ShardPlan) -> String {
    format!(
        "shard the key over {n} values: write `{pk}` as `<value>#<0..{last}>` (a random \
         suffix spreads writes, `hash(id) % {n}` lets reads find one item) and query the \
         {n} shards in parallel",
        n = plan.padded,
        last = plan.padded.saturating_sub(1),
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::scanner::{OpKind, Provenance, Resolved};

    const ORDERS: &str = r#"
[[table]]
name = "Orders"
partition-key = "orderId"
item-count = 3_000_000
avg-item-size = 250
[table.attributes]
orderId = { type = "S", unique = true }
status = { type = "S", values = { OPEN = 0.2, PAID = 0.75, VOID = 0.05 } }
[[table.index]]
name = "ByStatus"
partition-key = "status"
[[access-pattern]]
name = "open orders"
table = "Orders"
index = "ByStatus"
key = { status = "OPEN" }
rate = 1
"#;

    fn put(status: crate::scanner::ValueInfo) -> crate::scanner::Operation {
        let mut p = op(OpKind::PutItem, "Orders");
        p.item = Some(map(vec![
            ("orderId", val(Provenance::GeneratedId, 1)),
            ("status", status),
        ]));
        p
    }

    #[test]
    fn the_worked_example_on_the_model_and_the_code() {
        let m = model(ORDERS);
        let mut q = op(OpKind::Query, "Orders");
        q.index = Some(Resolved::literal("ByStatus"));
        q.key_condition = Some(expr("#s = :s"));
        name(&mut q, "#s", "status");
        q.values.insert(":s".into(), lit("OPEN", 50));
        let ops = [put(val(Provenance::EnumLike, 40)), q];
        let d = run_ops(&m, "low-cardinality-pk", &ops);
        assert_eq!(d.len(), 3, "{d:#?}");
        let on_model = d
            .iter()
            .find(|d| d.location.file.ends_with("dynalint.toml"))
            .unwrap();
        assert_eq!(
            on_model.message,
            "partition key `status` of index `ByStatus` of `Orders` has 3 values: `open orders` \
             reads 600,000 items/s from one value, over the 48,000 items/s one partition serves \
             (3,000 RCU of 250 B items)"
        );
        assert_eq!(
            on_model.notes[0],
            "16 items per RCU (4 KB / 250 B); 3,000 RCU × 16 = 48,000 items/s per partition; \
             N = 600,000 / 48,000 = 12.5 → 13 shards, 15 with headroom for skew"
        );
        assert!(on_model.help.as_deref().unwrap().contains("over 15 values"));
        let code: Vec<usize> = d
            .iter()
            .filter(|d| d.location.file.ends_with("app.rs"))
            .map(|d| d.location.span.start)
            .collect();
        assert_eq!(code, vec![40, 50]);
    }

    #[test]
    fn enough_write_shards_cover_the_need() {
        let m = model(ORDERS);
        let sharded = |n| {
            put(template(
                "{}#{}",
                vec![
                    val(Provenance::EnumLike, 41),
                    val(Provenance::ShardSuffix { modulus: Some(n) }, 42),
                ],
                40,
            ))
        };
        assert!(run_ops(&m, "low-cardinality-pk", &[sharded(15)]).is_empty());
        let d = run_ops(&m, "low-cardinality-pk", &[sharded(4)]);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(d
            .iter()
            .any(|d| d.message.contains("sharded 4 ways where 13 are needed")));
    }

    #[test]
    fn options_and_missing_figures() {
        let low = ORDERS.replace("rate = 1", "rate = 1\nlimit = 20");
        assert!(run_ops(&model(&low), "low-cardinality-pk", &[]).is_empty());
        let configured =
            format!("[rules]\nlow-cardinality-pk = {{ min-cardinality = 2 }}\n{ORDERS}");
        assert!(run_ops(&model(&configured), "low-cardinality-pk", &[]).is_empty());
        let no_rate = ORDERS.replace("rate = 1", "");
        assert!(run_ops(&model(&no_rate), "low-cardinality-pk", &[]).is_empty());
    }

    #[test]
    fn a_constant_written_by_every_put() {
        let m = model(
            r#"
[[table]]
name = "Events"
partition-key = "pk"
sort-key = "at"
item-count = 50_000_000
avg-item-size = 1000
[table.attributes]
pk = "S"
at = "S"
[[access-pattern]]
name = "recent events"
table = "Events"
key = { pk = "ALL" }
limit = 5000
rate = 20
"#,
        );
        let mut p = op(OpKind::PutItem, "Events");
        p.item = Some(map(vec![
            ("pk", lit("ALL", 7)),
            ("at", val(Provenance::Param, 8)),
        ]));
        let d = run_ops(&m, "low-cardinality-pk", &[p]);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(d[0].message.contains("has 1 value:") || d[1].message.contains("has 1 value:"));
        assert!(d
            .iter()
            .any(|d| d.message.contains("writes the constant `ALL`")));
    }
}
