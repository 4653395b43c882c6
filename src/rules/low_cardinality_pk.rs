//! `low-cardinality-pk`: prose in `rules/low-cardinality-pk.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::Cost;
use crate::diagnostic::Severity;
use crate::facts::hot_key::{declared_values, hottest_pattern, shard_plan, KeyTarget};
use crate::facts::hot_key::{hottest_write, write_shard_plan, KeyValues, PatternLoad, WriteLoad};
use crate::facts::key_access::{addressed, written, AttrValue, Via};
use crate::facts::key_shape::{key_shape, KeyShape};
use crate::facts::shards::ShardPlan;
use crate::facts::spend::{finding_cost, mode_of, CallRate, Priced};
use crate::facts::{call_cost, read_cost};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures::{count as group, units as trim};
use crate::model::Model;
use crate::pricing::{Prices, UnitsPerSecond};
use crate::scanner::Operation;

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
    /// In a test, bench, example or one-off binary (or a batch sent from one).
    cold: bool,
}

fn check_target(
    cx: &mut RuleContext<'_>,
    facts: &ProjectFacts<'_>,
    target: &KeyTarget<'_>,
    min: u64,
) {
    let code = code_keys(facts, target);
    let declared = declared_values(target);
    // Without declared values, the code's writes (or the attribute's name) may show
    // the key takes few values.
    let evidence = match &declared {
        None => few_values(
            target,
            &code,
            facts.operations.iter().any(|b| b.table.is_some()),
        ),
        Some(values) => declared_few(target, &code, values, min),
    };
    let values = declared.or_else(|| constant_values(&code)).or_else(|| {
        evidence
            .as_ref()
            .filter(|e| e.kind == FewKind::Boolean && e.certain)
            .map(|e| KeyValues {
                count: 2,
                why: e.why.clone(),
                span: None,
            })
    });
    if let Some(values) = values.filter(|v| v.count < min) {
        // The read load of the hottest access pattern and the declared write load:
        // the one that needs more partitions decides.
        let read = hottest_pattern(facts.model, target, values.count).and_then(|l| {
            let plan = shard_plan(target.table, &l)?;
            Some((Load::Read(l), plan))
        });
        let write = hottest_write(target, values.count).and_then(|l| {
            let plan = write_shard_plan(target.table, &l)?;
            Some((Load::Write(l), plan))
        });
        if read.is_some() || write.is_some() {
            sized(cx, target, &code, &values, read, write);
            return;
        }
    }
    // The model gives no load to size it with: say what the code shows.
    if let Some(e) = evidence {
        without_load(cx, facts, target, &e);
    }
}

/// A key whose values the model declares or the code shows, with a load the model
/// declares: reported when its hottest value needs more than one partition.
fn sized(
    cx: &mut RuleContext<'_>,
    target: &KeyTarget<'_>,
    code: &[CodeKey<'_>],
    values: &KeyValues,
    read: Option<(Load<'_>, ShardPlan)>,
    write: Option<(Load<'_>, ShardPlan)>,
) {
    let pk = target.partition_key();
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
    let line = cost_line(cx.model, target, &load, &plan);
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
    d.cost(line.clone());
    d.help(help.clone());
    for k in code {
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
        // On the request, with the value it gives the key as a label: the request is
        // what runs hot, wherever the value was put in its item.
        let d = cx.report(
            k.op.file.clone(),
            k.op.method_span,
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
            k.op.file.clone(),
            k.value.span,
            format!("`{pk}` is {shape} here"),
        );
        d.label(
            table_path.clone(),
            target.partition_key_span(),
            summary.clone(),
        );
        d.cost(line.clone());
        d.help(help.clone());
    }
}

/// Every value the code gives the target's partition key: writes to the table (its
/// item or key, and `SET` actions), and equality key conditions of queries that read
/// through this target.
fn code_keys<'a>(facts: &ProjectFacts<'a>, target: &KeyTarget<'_>) -> Vec<CodeKey<'a>> {
    let pk = target.partition_key();
    // The requests of a batch or transaction are as cold as the call that sends them.
    fn mark(op: &Operation, cold: &mut std::collections::HashSet<*const Operation>) {
        cold.insert(op as *const Operation);
        for c in &op.children {
            mark(c, cold);
        }
    }
    let mut cold: std::collections::HashSet<*const Operation> = Default::default();
    for b in facts.operations {
        if b.op.context.cold.is_some() {
            mark(b.op, &mut cold);
        }
    }
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
            let cold = cold.contains(&(op as *const Operation));
            out.push(CodeKey {
                op,
                value,
                shape,
                cold,
            });
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

/// Text values of a boolean kept as a string or number (a key cannot be a BOOL).
const BOOLEAN_TEXT: &[&str] = &["true", "false", "True", "False", "TRUE", "FALSE", "0", "1"];

/// Words that name an attribute of few values (`role`, `orderStatus`, `entity_type`).
const ENUM_WORDS: &[&str] = &["role", "status", "type", "state", "kind"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FewKind {
    /// Two values: `is_*`/`has_*`, or writes of `"true"`/`"false"`.
    Boolean,
    /// Every write sets one of a few constants.
    Constants(usize),
    /// An enum's or a bool's string, or a name like `status`.
    EnumLike,
}

/// Why a partition key takes few values although the model does not say so.
struct FewValues<'a> {
    kind: FewKind,
    /// The writes that show it (empty when only the name does).
    writes: Vec<&'a CodeKey<'a>>,
    /// The code shows it (constants, booleans, enum values); false when only the
    /// attribute's name suggests it.
    certain: bool,
    why: String,
    /// The model lists the values (a sized verdict needs only the load).
    declared: bool,
}

/// Fewer distinct constants than this are few values: every item lands under one of
/// a handful of partition keys.
const FEW_CONSTANTS: u64 = 10;

/// Words of an attribute name: `orderStatus`, `order_status`, `ORDER-STATUS` →
/// `order`, `status`.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// A GSI partition key the model gives no values for, whose writes (or name) show
/// few values: every write a constant or a boolean's text, an enum's string, or a
/// name such as `is_active` or `status`. `None` when a write shows many values (a
/// parameter in a template, a generated id, a hash) or the key is already sharded.
fn few_values<'a>(
    target: &KeyTarget<'_>,
    code: &'a [CodeKey<'a>],
    code_in_view: bool,
) -> Option<FewValues<'a>> {
    // A local index shares the table's partition key. The table's own key is judged
    // on what the writes certainly show; a GSI's also on its name.
    let gsi = match target.index {
        Some(i) if i.kind != crate::model::IndexKind::Global => return None,
        Some(_) => true,
        None => false,
    };
    let pk = target.partition_key();
    if !matches!(
        target.table.cardinality(pk),
        crate::model::Cardinality::Unknown
    ) {
        return None;
    }
    // Writes in tests, examples and one-off binaries seed a few sample values: they
    // say nothing of the keys production writes.
    let writes: Vec<&CodeKey<'_>> = code
        .iter()
        .filter(|k| k.value.via != Via::KeyEquals && !k.cold)
        .collect();
    let words = name_words(pk);
    let boolean_name = matches!(
        words.first().map(String::as_str),
        Some("is" | "has" | "can" | "should")
    ) && words.len() > 1;
    let enum_name = words
        .last()
        .is_some_and(|w| ENUM_WORDS.contains(&w.as_str()));
    // A plain parameter may still be one of few values; a template with one, a
    // generated id or a hash is many; a shard suffix is already handled.
    let many = writes.iter().any(|k| match &k.shape {
        KeyShape::Varying => {
            !k.value.value.parts.is_empty()
                || k.value.value.provenance == crate::scanner::Provenance::GeneratedId
        }
        KeyShape::Hashed { .. } | KeyShape::Sharded { .. } => true,
        _ => false,
    });
    if many {
        return None;
    }
    let constants: Vec<&str> = writes
        .iter()
        .filter_map(|k| match &k.shape {
            KeyShape::Constant(Some(v)) => Some(v.as_str()),
            _ => None,
        })
        .collect();
    let all_constant = !writes.is_empty() && constants.len() == writes.len();
    let all_few = !writes.is_empty()
        && writes
            .iter()
            .all(|k| matches!(k.shape, KeyShape::Constant(Some(_)) | KeyShape::EnumLike));
    let mut distinct: Vec<&str> = Vec::new();
    for c in &constants {
        if !distinct.contains(c) {
            distinct.push(c);
        }
    }
    let shown: Vec<&CodeKey<'_>> = writes.clone();
    let quoted = |vals: &[&str]| {
        vals.iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if all_constant && distinct.iter().all(|v| BOOLEAN_TEXT.contains(v)) {
        return Some(FewValues {
            kind: FewKind::Boolean,
            writes: shown,
            certain: true,
            why: format!("every write sets it to {}", quoted(&distinct)),
            declared: false,
        });
    }
    if all_constant && (distinct.len() as u64) < FEW_CONSTANTS {
        return Some(FewValues {
            kind: FewKind::Constants(distinct.len()),
            writes: shown,
            certain: true,
            why: format!("every write sets it to {}", quoted(&distinct)),
            declared: false,
        });
    }
    if !gsi {
        return None;
    }
    if all_few {
        let (kind, why) = match boolean_name {
            true => (
                FewKind::Boolean,
                "every write sets it from a boolean or a constant",
            ),
            false => (
                FewKind::EnumLike,
                "every write sets it from an enum, a boolean or a constant",
            ),
        };
        return Some(FewValues {
            kind,
            writes: shown,
            certain: true,
            why: why.to_string(),
            declared: false,
        });
    }
    // The name alone: a guess, reported as one, and only when code is in view (one
    // file in an editor says nothing of the others): the table's writes for a name
    // like `status`, any call of the model's tables for `is_*`, a boolean's name.
    if (boolean_name && code_in_view) || (enum_name && !writes.is_empty()) {
        let why = match boolean_name {
            true => format!("`{pk}` is named like a boolean"),
            false => format!("`{pk}` is named like an attribute of few values"),
        };
        return Some(FewValues {
            kind: if boolean_name {
                FewKind::Boolean
            } else {
                FewKind::EnumLike
            },
            writes: shown,
            certain: false,
            why,
            declared: false,
        });
    }
    None
}

/// A GSI partition key whose few values the model lists (`values = ["model",
/// "submodel"]`, or entities' constant key templates) but no load to size them with:
/// said as the code's few constants are. A `cardinality` count says how many, not that
/// they are few enough to matter without a load.
fn declared_few<'a>(
    target: &KeyTarget<'_>,
    code: &'a [CodeKey<'a>],
    values: &KeyValues,
    min: u64,
) -> Option<FewValues<'a>> {
    let global = target
        .index
        .is_some_and(|i| i.kind == crate::model::IndexKind::Global);
    let listed = !matches!(
        target.table.cardinality(target.partition_key()),
        crate::model::Cardinality::Declared(_)
    );
    if !global || !listed || values.count >= FEW_CONSTANTS.min(min) {
        return None;
    }
    Some(FewValues {
        kind: FewKind::Constants(values.count as usize),
        writes: code
            .iter()
            .filter(|k| k.value.via != Via::KeyEquals && !k.cold)
            .collect(),
        certain: true,
        why: values.why.clone(),
        declared: true,
    })
}

/// A GSI partition key of few values when the model declares no load to size it
/// with: every item under one value shares one partition of the index.
fn without_load(
    cx: &mut RuleContext<'_>,
    facts: &ProjectFacts<'_>,
    target: &KeyTarget<'_>,
    e: &FewValues<'_>,
) {
    let pk = target.partition_key();
    let few = match e.kind {
        FewKind::Boolean => "2 values, a boolean's".to_string(),
        FewKind::Constants(1) => "1 value".to_string(),
        FewKind::Constants(n) => format!("{n} values"),
        FewKind::EnumLike => "few values".to_string(),
    };
    let shown_by = match (e.certain, e.writes.as_slice()) {
        (_, []) => e.why.clone(),
        (_, writes) => {
            let mut places: Vec<String> = writes
                .iter()
                .map(|k| facts.place(&k.op.file, k.value.span))
                .collect();
            places.dedup();
            let more = places.len().saturating_sub(3);
            places.truncate(3);
            let mut list = places.join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            match e.certain {
                true => format!("{} ({list})", e.why),
                false => format!("{}; written at {list}", e.why),
            }
        }
    };
    let seems = if e.certain { "takes" } else { "likely takes" };
    // The key's span indexes into the file that declared the table (a template, a
    // create_table call), not always dynalint.toml.
    let model_path = target.table.origin.path.clone();
    let message = format!(
        "partition key `{pk}` of {} {seems} {few}: {shown_by}",
        target.label()
    );
    // A table's key is chosen where the code writes it: the finding is on the first
    // write request, with the value it writes and the model's key as labels. An
    // index's key is the model's choice.
    let d = match (target.index, e.writes.first()) {
        (None, Some(first)) => {
            let d = cx.report(first.op.file.clone(), first.op.method_span, message);
            d.label(
                model_path,
                target.partition_key_span(),
                format!("the partition key of {}", target.label()),
            );
            d
        }
        _ => cx.report(model_path, target.partition_key_span(), message),
    };
    if !e.certain {
        d.severity = Severity::Info.min(d.severity);
    }
    for k in e.writes.iter().take(5) {
        d.label(k.op.file.clone(), k.value.span, format!("writes `{pk}`"));
    }
    d.note(match target.index {
        Some(_) => {
            "all items under one value of a GSI partition key share one partition of the \
             index, which takes at most 1,000 WCU and serves 3,000 RCU per second; when the \
             index's writes throttle, DynamoDB throttles the table's writes too"
        }
        None => {
            "all items under one partition key value are one item collection, stored and \
             served by one partition: at most 1,000 WCU and 3,000 RCU per second, whatever \
             the table's capacity"
        }
    });
    let fix = match e.kind {
        FewKind::Boolean => format!(
            "make the index sparse: write `{pk}` only on the items the index should find \
             (leave it out otherwise) and query that one value, or shard the key \
             (`<value>#<0..N>`)"
        ),
        _ => format!(
            "shard the key (`{pk}` as `<value>#<0..N>`, queried over the N shards), or give \
             the index a key of many values"
        ),
    };
    d.help(match e.declared {
        true => format!(
            "{fix}; declare `item-count` and the access pattern's `rate` (or a `write-rate`) \
             in dynalint.toml for a sized verdict"
        ),
        false => format!(
            "{fix}; declare `values`, `item-count` and the access pattern's `rate` in \
             dynalint.toml for a sized verdict"
        ),
    });
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

/// What the hot load costs a month at its declared rate, and sharded: a read then
/// sends one Query per shard, each charged its own rounded-up last page; a write is
/// charged the same units whichever shard it lands on.
fn cost_line(model: &Model, target: &KeyTarget<'_>, load: &Load<'_>, plan: &ShardPlan) -> Cost {
    let prices = Prices::for_model(model);
    let table = Some(target.table);
    let mode = mode_of(table);
    let size = plan.avg_item_size as f64;
    match load {
        Load::Read(l) => {
            let rate = CallRate {
                per_second: l.rate,
                from: Some(format!("the `rate` of access pattern `{}`", l.pattern.name)),
                what: "requests",
            };
            let bytes = l.items_per_request * size;
            let one = read_cost::paged(bytes, false).rcu;
            let shards = plan.padded.max(1) as f64;
            let sharded = shards * read_cost::paged(bytes / shards, false).rcu;
            let reads = |units: f64| UnitsPerSecond {
                read: units,
                ..UnitsPerSecond::default()
            };
            let written = Priced::calls(&prices, table, Some(reads(one)), &[], rate.per_second);
            let fixed = Priced::calls(&prices, table, Some(reads(sharded)), &[], rate.per_second);
            let text = format!(
                "`{}` reads {} items a request: {} {}; sharded over {}: {} ({} Queries a request, each rounding its last page up)",
                l.pattern.name,
                group(l.items_per_request),
                written.text(mode),
                rate.describe(),
                plan.padded,
                fixed.text(mode),
                plan.padded
            );
            finding_cost(text, &rate, mode, &written, Some(&fixed), None)
        }
        Load::Write(l) => {
            let rate = CallRate {
                per_second: l.rate,
                from: Some(format!("the `write-rate` of {}", l.source)),
                what: "writes",
            };
            let units = UnitsPerSecond {
                write: (size / call_cost::WRITE_UNIT_BYTES).ceil().max(1.0),
                ..UnitsPerSecond::default()
            };
            let written = Priced::calls(&prices, table, Some(units), &[], rate.per_second);
            let text = format!(
                "the writes carrying `{}` cost {} {}; sharded, each write is charged the same units: the same",
                target.partition_key(),
                written.text(mode),
                rate.describe()
            );
            finding_cost(text, &rate, mode, &written, Some(&written), None)
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
    use crate::source::Span;

    use crate::test_models::ORDERS_BY_STATUS as ORDERS;

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
        q.key_condition = Some(Box::new(expr("#s = :s")));
        name(&mut q, "#s", "status");
        q.values.insert(":s".into(), lit("OPEN", 50));
        let mut p = put(val(Provenance::EnumLike, 40));
        p.method_span = Span::new(30, 35);
        q.method_span = Span::new(45, 49);
        let ops = [p, q];
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
        // On each request, with the value it gives the key as a label.
        let code: Vec<(usize, usize)> = d
            .iter()
            .filter(|d| d.location.file.ends_with("app.rs"))
            .map(|d| (d.location.span.start, d.labels[0].location.span.start))
            .collect();
        assert_eq!(code, vec![(30, 40), (45, 50)]);
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
        // No load: the three values the model lists are said, unsized, on the index.
        let no_rate = ORDERS.replace("rate = 1", "");
        let d = run_ops(&model(&no_rate), "low-cardinality-pk", &[]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(
            d[0].message.contains(
                "index `ByStatus` of `Orders` takes 3 values: `status` declares 3 values"
            ),
            "{d:#?}"
        );
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

    const MEMBERS: &str = r#"
[[table]]
name = "Members"
partition-key = "pk"
[table.attributes]
pk = "S"
is_active = "S"
account_status = "S"
[[table.index]]
name = "Active"
partition-key = "is_active"
[[table.index]]
name = "ByStatus"
partition-key = "account_status"
"#;

    fn member(attr: &str, v: crate::scanner::ValueInfo) -> crate::scanner::Operation {
        let mut p = op(OpKind::PutItem, "Members");
        p.item = Some(map(vec![("pk", val(Provenance::Param, 1)), (attr, v)]));
        p
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(super::name_words("orderStatus"), ["order", "status"]);
        assert_eq!(super::name_words("is_active"), ["is", "active"]);
        assert_eq!(super::name_words("GSI1-TYPE"), ["gsi1", "type"]);
    }

    #[test]
    fn without_load_the_writes_decide_and_the_name_alone_is_a_note() {
        let m = model(MEMBERS);
        let found = |ops: &[crate::scanner::Operation]| {
            run_ops(&m, "low-cardinality-pk", ops)
                .into_iter()
                .map(|d| (d.severity, d.message))
                .collect::<Vec<_>>()
        };
        // Booleans written as strings: a warning with the writes' places.
        let d = found(&[
            member("is_active", lit("true", 10)),
            member("is_active", lit("false", 20)),
        ]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, crate::diagnostic::Severity::Warning);
        assert!(d[0].1.contains("takes 2 values, a boolean's"), "{d:?}");
        // A parameter under a status-like name: only the name says so.
        let status = |ops: &[crate::scanner::Operation]| {
            found(ops)
                .into_iter()
                .filter(|(_, m)| m.contains("`account_status`"))
                .collect::<Vec<_>>()
        };
        let d = status(&[member("account_status", val(Provenance::Param, 10))]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, crate::diagnostic::Severity::Info);
        assert!(d[0].1.contains("likely takes few values"), "{d:?}");
        // A generated id under the same name: many values, nothing to say.
        assert!(status(&[member("account_status", val(Provenance::GeneratedId, 10))]).is_empty());
        // No code on the table in view: nothing concluded from a name.
        assert!(found(&[op(OpKind::GetItem, "Elsewhere")]).is_empty());
    }

    #[test]
    fn values_the_model_lists_for_a_gsi_key_without_a_load_are_few() {
        // single-table-rs-cli: GSI `model` keyed by the entity type, two values.
        let listed = model(&MEMBERS.replace(
            "account_status = \"S\"",
            "account_status = { type = \"S\", values = [\"ACTIVE\", \"CLOSED\"] }",
        ));
        let d = run_ops(
            &listed,
            "low-cardinality-pk",
            &[member("account_status", val(Provenance::Param, 10))],
        );
        let on_status: Vec<_> = d
            .iter()
            .filter(|d| d.message.contains("`account_status`"))
            .collect();
        assert_eq!(on_status.len(), 1, "{d:#?}");
        assert_eq!(on_status[0].severity, crate::diagnostic::Severity::Warning);
        assert!(
            on_status[0]
                .message
                .contains("takes 2 values: `account_status` declares 2 values"),
            "{d:#?}"
        );
        assert!(on_status[0]
            .help
            .as_deref()
            .unwrap()
            .contains("`item-count`"));
        // A `cardinality` count says how many, not that they are few: quiet without a
        // load, as before.
        let counted = model(&MEMBERS.replace(
            "account_status = \"S\"",
            "account_status = { type = \"S\", cardinality = 5 }",
        ));
        let d = run_ops(
            &counted,
            "low-cardinality-pk",
            &[member("account_status", val(Provenance::Param, 10))],
        );
        assert!(
            d.iter().all(|d| !d.message.contains("`account_status`")),
            "{d:#?}"
        );
    }

    #[test]
    fn a_boolean_key_with_a_declared_load_is_sized() {
        let m = model(&MEMBERS.replace(
            "partition-key = \"pk\"\n",
            "partition-key = \"pk\"\nitem-count = 1_000_000\navg-item-size = 600\nwrite-rate = 4000\n",
        ));
        let d = run_ops(
            &m,
            "low-cardinality-pk",
            &[
                member("is_active", lit("true", 10)),
                member("is_active", lit("false", 20)),
            ],
        );
        assert!(
            d.iter()
                .any(|d| d.message.contains("has 2 values") && d.message.contains("writes/s")),
            "{d:#?}"
        );
    }

    #[test]
    fn a_table_key_every_write_sets_to_one_constant_is_reported_without_load() {
        let m = model(
            r#"
[[table]]
name = "Books"
partition-key = "PK"
sort-key = "SK"
[table.attributes]
PK = "S"
SK = "S"
"#,
        );
        let mut p = op(OpKind::PutItem, "Books");
        p.item = Some(map(vec![
            ("PK", lit("book", 5)),
            ("SK", val(Provenance::Param, 9)),
        ]));
        let d = run_ops(&m, "low-cardinality-pk", &[p.clone()]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(
            d[0].message
                .contains("takes 1 value: every write sets it to `book`"),
            "{d:#?}"
        );
        // One write with a parameter: the key varies.
        let mut q = p.clone();
        q.item = Some(map(vec![
            ("PK", val(Provenance::Param, 5)),
            ("SK", val(Provenance::Param, 9)),
        ]));
        assert!(run_ops(&m, "low-cardinality-pk", &[p, q]).is_empty());
    }

    #[test]
    fn a_boolean_named_gsi_key_is_a_note_when_code_is_in_view() {
        let m = model(MEMBERS);
        let d = run_ops(&m, "low-cardinality-pk", &[op(OpKind::GetItem, "Members")]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].severity, crate::diagnostic::Severity::Info);
        assert!(
            d[0].message.contains("`is_active` is named like a boolean"),
            "{d:#?}"
        );
    }
}
