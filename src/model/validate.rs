//! Checks that relate the model's items to each other and to DynamoDB's limits: key
//! attributes are typed S/N/B, names are unique, index counts and projections stay
//! within DynamoDB's quotas, entity key templates set keys the table has, access
//! patterns name real tables, indexes and keys.

use std::collections::{HashMap, HashSet};

use super::problem::{
    backticked, did_you_mean, listed, suggestion_help, ModelProblem, ProblemKind,
};
use super::read::Broken;
use super::template::KeyTemplate;
use super::types::*;
use crate::attr::AttributeType;
use crate::source::Span;

/// DynamoDB's default quota of global secondary indexes per table.
pub const MAX_GLOBAL_INDEXES: usize = 20;
/// DynamoDB's limit of local secondary indexes per table.
pub const MAX_LOCAL_INDEXES: usize = 5;
/// DynamoDB's limit on non-key attributes named in `INCLUDE` projections, summed over
/// all secondary indexes of a table.
pub const MAX_INCLUDED_ATTRIBUTES: usize = 100;
/// DynamoDB's maximum item size, in bytes (400 KB).
pub const MAX_ITEM_SIZE: u64 = 400 * 1024;
/// How far the shares of a `values` map may stray from 1 (rounding in hand-written
/// figures such as thirds).
pub const SHARE_TOLERANCE: f64 = 0.011;

/// Runs every cross-item check, appending to `problems`.
pub fn check(model: &Model, text: &str, broken: &Broken, problems: &mut Vec<ModelProblem>) {
    duplicates(
        model.tables.iter().map(|t| (t.name.as_str(), t.name_span)),
        ("table", "tables"),
        problems,
    );
    table_refs(model, problems);
    for (ti, t) in model.tables.iter().enumerate() {
        table(ti, t, text, broken, problems);
    }
    duplicates(
        model
            .access_patterns
            .iter()
            .map(|p| (p.name.as_str(), p.name_span)),
        ("access pattern", "access patterns"),
        problems,
    );
    for p in &model.access_patterns {
        access_pattern(model, p, problems);
    }
}

/// Reports every second use of a name, pointing back at the first.
fn duplicates<'a>(
    names: impl Iterator<Item = (&'a str, Span)>,
    (what, plural): (&str, &str),
    problems: &mut Vec<ModelProblem>,
) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for (name, span) in names {
        if name.is_empty() {
            continue;
        }
        match seen.get(name) {
            Some(first) => problems.push(
                ModelProblem::of(
                    ProblemKind::Duplicate,
                    span,
                    format!("{what} `{name}` is defined more than once"),
                )
                .with_label(*first, format!("`{name}` first defined here"))
                .with_help(format!("rename one of them or merge the two {plural}")),
            ),
            None => {
                seen.insert(name, span);
            }
        }
    }
}

/// A name or ref that two tables both answer to makes binding code to a table ambiguous.
fn table_refs(model: &Model, problems: &mut Vec<ModelProblem>) {
    let mut owner: HashMap<&str, &Table> = HashMap::new();
    for t in &model.tables {
        if t.name.is_empty() {
            continue;
        }
        // A table's own name first, so a ref equal to another table's name is caught.
        owner.entry(t.name.as_str()).or_insert(t);
    }
    for t in &model.tables {
        for r in &t.refs {
            match owner.get(r.as_str()) {
                Some(other) if other.name != t.name => problems.push(
                    ModelProblem::of(
                        ProblemKind::Duplicate,
                        t.fields.get("refs").unwrap_or(t.name_span),
                        format!(
                            "`{r}` in `refs` of table `{}` already names table `{}`",
                            t.name, other.name
                        ),
                    )
                    .with_label(other.name_span, format!("table `{}` is here", other.name))
                    .with_help("a name or ref must lead to one table; remove one of them"),
                ),
                Some(_) => {}
                None => {
                    owner.insert(r.as_str(), t);
                }
            }
        }
    }
}

fn table(ti: usize, t: &Table, text: &str, broken: &Broken, problems: &mut Vec<ModelProblem>) {
    key_attributes(ti, t, broken, problems);
    duplicates(
        t.indexes.iter().map(|i| (i.name.as_str(), i.name_span)),
        ("index", "indexes"),
        problems,
    );
    index_limits(t, problems);
    for a in t.attributes.values() {
        shares(a, problems);
        contradictions(a, problems);
    }
    if let (Some(size), Some(span)) = (t.avg_item_size, t.fields.get("avg-item-size")) {
        if size > MAX_ITEM_SIZE {
            problems.push(
                ModelProblem::of(
                    ProblemKind::Limit,
                    span,
                    format!(
                        "`avg-item-size` of table `{}` is {size} bytes, above DynamoDB's \
                         item size limit of 400 KB ({MAX_ITEM_SIZE} bytes)",
                        t.name
                    ),
                )
                .with_help("`avg-item-size` is in bytes; move large blobs to S3"),
            );
        }
    }
    duplicates(
        t.entities.iter().map(|e| (e.name.as_str(), e.name_span)),
        ("entity", "entities"),
        problems,
    );
    for e in &t.entities {
        entity(t, e, text, problems);
    }
}

/// Every key attribute of the table and its indexes must be declared, and typed S, N
/// or B (DynamoDB's only key types).
fn key_attributes(ti: usize, t: &Table, broken: &Broken, problems: &mut Vec<ModelProblem>) {
    let mut uses: Vec<(&str, Span, String)> = Vec::new();
    if let Some(span) = t.fields.get("partition-key") {
        uses.push((
            &t.partition_key,
            span,
            format!("partition key of table `{}`", t.name),
        ));
    }
    if let (Some(sk), Some(span)) = (&t.sort_key, t.fields.get("sort-key")) {
        uses.push((sk, span, format!("sort key of table `{}`", t.name)));
    }
    for i in &t.indexes {
        if let Some(span) = i.fields.get("partition-key") {
            uses.push((
                &i.partition_key,
                span,
                format!("partition key of index `{}`", i.name),
            ));
        }
        if let (Some(sk), Some(span)) = (&i.sort_key, i.fields.get("sort-key")) {
            uses.push((sk, span, format!("sort key of index `{}`", i.name)));
        }
    }
    let mut reported_type: HashSet<&str> = HashSet::new();
    for (attr, span, role) in uses {
        if attr.is_empty() || broken.attributes.contains(&(ti, attr.to_string())) {
            continue;
        }
        match t.attributes.get(attr) {
            None => {
                let declared: Vec<&str> = t.attributes.keys().map(String::as_str).collect();
                let mut p = ModelProblem::of(
                    ProblemKind::UntypedKey,
                    span,
                    format!("key attribute `{attr}`, the {role}, has no declared type"),
                )
                .with_help(format!(
                    "declare it in `[table.attributes]`: `{attr} = \"S\"` (or \"N\", \"B\")"
                ));
                if let Some(close) = did_you_mean(attr, declared) {
                    p = p.with_help(format!(
                        "did you mean `{close}`? otherwise declare `{attr} = \"S\"` in \
                         `[table.attributes]`"
                    ));
                }
                problems.push(p);
            }
            Some(a) if !a.ty.is_key_type() => {
                if reported_type.insert(attr) {
                    problems.push(
                        ModelProblem::of(
                            ProblemKind::KeyType,
                            a.fields.get("type").unwrap_or(a.span),
                            format!(
                                "key attribute `{attr}` is of type `{}`; DynamoDB key \
                                 attributes must be scalar: `S`, `N` or `B`",
                                a.ty
                            ),
                        )
                        .with_label(span, format!("used as the {role} here"))
                        .with_help(
                            "store the key as a string (`S`), a number (`N`) or binary (`B`)",
                        ),
                    );
                }
            }
            Some(_) => {}
        }
    }
}

/// Index count quotas, LSI partition keys and the `INCLUDE` attribute budget.
fn index_limits(t: &Table, problems: &mut Vec<ModelProblem>) {
    let mut globals = 0;
    let mut locals = 0;
    let mut included = 0;
    let mut include_reported = false;
    for i in &t.indexes {
        let (seen, limit, kind, help) = match i.kind {
            IndexKind::Global => {
                globals += 1;
                (
                    globals,
                    MAX_GLOBAL_INDEXES,
                    "global",
                    "overload one GSI with generic keys (`GSI1PK`, `GSI1SK`) to serve several access patterns",
                )
            }
            IndexKind::Local => {
                locals += 1;
                (
                    locals,
                    MAX_LOCAL_INDEXES,
                    "local",
                    "serve the other sort orders with global secondary indexes",
                )
            }
        };
        // Reported once, at the first index over the limit.
        if seen == limit + 1 {
            let n = t.indexes.iter().filter(|x| x.kind == i.kind).count();
            problems.push(
                ModelProblem::of(
                    ProblemKind::TooManyIndexes,
                    i.name_span,
                    format!(
                        "table `{}` has {n} {kind} secondary indexes; DynamoDB allows at most {limit} per table",
                        t.name
                    ),
                )
                .with_label(t.name_span, format!("table `{}`", t.name))
                .with_help(help),
            );
        }
        if i.kind == IndexKind::Local {
            if let Some(span) = i.fields.get("partition-key") {
                if !t.partition_key.is_empty() && i.partition_key != t.partition_key {
                    let mut p = ModelProblem::of(
                        ProblemKind::LocalIndexPartitionKey,
                        span,
                        format!(
                            "local secondary index `{}` has partition key `{}`, but a \
                                 local index must use the table's partition key `{}`",
                            i.name, i.partition_key, t.partition_key
                        ),
                    )
                    .with_help(format!(
                        "use `partition-key = \"{}\"`, or make it a global index \
                             (`kind = \"global\"`)",
                        t.partition_key
                    ));
                    if let Some(table_pk) = t.fields.get("partition-key") {
                        p = p.with_label(table_pk, "the table's partition key");
                    }
                    problems.push(p);
                }
            }
        }
        if let Projection::Include(attrs) = &i.projection {
            let before = included;
            included += attrs.len();
            if included > MAX_INCLUDED_ATTRIBUTES && !include_reported {
                include_reported = true;
                let total: usize = t
                    .indexes
                    .iter()
                    .map(|i| match &i.projection {
                        Projection::Include(a) => a.len(),
                        _ => 0,
                    })
                    .sum();
                // Point at the first attribute over the budget.
                let over = MAX_INCLUDED_ATTRIBUTES - before;
                problems.push(
                    ModelProblem::of(
                        ProblemKind::ProjectionLimit,
                        i.fields
                            .get(&format!("projection.include.{over}"))
                            .or(i.fields.get("projection"))
                            .unwrap_or(i.span),
                        format!(
                            "`INCLUDE` projections of table `{}` name {total} attributes; \
                             DynamoDB allows at most {MAX_INCLUDED_ATTRIBUTES} across all \
                             secondary indexes of a table",
                            t.name
                        ),
                    )
                    .with_label(t.name_span, format!("table `{}`", t.name))
                    .with_label(
                        i.fields.get("projection.include").unwrap_or(i.span),
                        format!(
                            "index `{}` brings the total over {MAX_INCLUDED_ATTRIBUTES}",
                            i.name
                        ),
                    )
                    .with_help("project `ALL` on the index that reads most attributes, or fetch the rest from the table"),
                );
            }
        }
    }
}

/// `unique = true` says every item has its own value; a short `values` list or a
/// `cardinality` says the opposite. Both cannot hold.
fn contradictions(a: &Attribute, problems: &mut Vec<ModelProblem>) {
    if !a.unique {
        return;
    }
    let other = if a.values.as_ref().is_some_and(|v| !v.is_empty()) {
        "values"
    } else if a.cardinality.is_some() {
        "cardinality"
    } else {
        return;
    };
    let mut p = ModelProblem::of(
        ProblemKind::InvalidValue,
        a.fields.get("unique").unwrap_or(a.span),
        format!(
            "attribute `{}` is `unique` but also declares `{other}`; a unique attribute \
             has one value per item",
            a.name
        ),
    )
    .with_help(format!("keep `unique = true` or `{other}`, not both"));
    if let Some(span) = a.fields.get(other) {
        p = p.with_label(span, format!("`{other}` declared here"));
    }
    problems.push(p);
}

/// A share map's shares are fractions of the items: they must add up to 1.
fn shares(a: &Attribute, problems: &mut Vec<ModelProblem>) {
    let Some(ValueSet::Shares(m)) = &a.values else {
        return;
    };
    if m.is_empty() {
        return;
    }
    let sum: f64 = m.values().sum();
    if (sum - 1.0).abs() > SHARE_TOLERANCE {
        problems.push(
            ModelProblem::of(
                ProblemKind::Shares,
                a.fields.get("values").unwrap_or(a.span),
                format!(
                    "shares of the values of `{}` sum to {}, not 1",
                    a.name,
                    (sum * 1000.0).round() / 1000.0
                ),
            )
            .with_help("each share is the fraction of items holding that value; list every value, or use a plain list when shares are unknown"),
        );
    }
}

/// The attributes that are a key of the table or of one of its indexes.
fn key_names(t: &Table) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let all =
        std::iter::once(t.partition_key.as_str())
            .chain(t.sort_key.as_deref())
            .chain(t.indexes.iter().flat_map(|i| {
                std::iter::once(i.partition_key.as_str()).chain(i.sort_key.as_deref())
            }));
    for k in all {
        if !k.is_empty() && !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

fn entity(t: &Table, e: &Entity, text: &str, problems: &mut Vec<ModelProblem>) {
    let keys = key_names(t);
    for (attr, template) in &e.keys {
        let value_span = e.fields.get(&format!("keys.{attr}")).unwrap_or(e.span);
        let name_span = e
            .fields
            .get(&format!("keys.{attr}.name"))
            .unwrap_or(value_span);
        if !keys.contains(&attr.as_str()) {
            problems.push(
                ModelProblem::of(
                    ProblemKind::UnknownKey,
                    name_span,
                    format!(
                        "entity `{}` sets key `{attr}`, which table `{}` does not have",
                        e.name, t.name
                    ),
                )
                .with_help(format!(
                    "{}; list plain attributes in `attributes`",
                    match did_you_mean(attr, keys.iter().copied()) {
                        Some(k) => format!("did you mean `{k}`?"),
                        None if keys.is_empty() => "the table declares no keys".to_string(),
                        None => format!(
                            "the keys of table `{}` and its indexes are {}",
                            t.name,
                            listed(&keys)
                        ),
                    }
                )),
            );
        }
        if template.is_empty() {
            problems.push(
                ModelProblem::of(
                    ProblemKind::KeyTemplate,
                    value_span,
                    format!(
                        "entity `{}` writes an empty string into key `{attr}`",
                        e.name
                    ),
                )
                .with_help(
                    "DynamoDB rejects empty strings in key attributes with a ValidationException; \
                     leave the key out for items that must not appear in the index",
                ),
            );
            continue;
        }
        match KeyTemplate::parse(template) {
            Err(err) => problems.push(
                ModelProblem::of(
                    ProblemKind::KeyTemplate,
                    inner_span(text, value_span, err.offset()),
                    format!("key template `{template}` of `{attr}`: {err}"),
                )
                .with_help("write placeholders as `{name}`, e.g. `\"USER#{userID}\"`"),
            ),
            Ok(tpl) => {
                if let Some(a) = t.attributes.get(attr) {
                    if matches!(a.ty, AttributeType::N | AttributeType::B)
                        && !tpl.is_bare_placeholder()
                        && !(a.ty == AttributeType::N && template.parse::<f64>().is_ok())
                    {
                        problems.push(
                            ModelProblem::of(
                                ProblemKind::KeyTemplate,
                                value_span,
                                format!(
                                    "key template `{template}` writes text into `{attr}`, \
                                     which is of type `{}`",
                                    a.ty
                                ),
                            )
                            .with_label(
                                a.fields.get("type").unwrap_or(a.span),
                                format!("`{attr}` declared here"),
                            )
                            .with_help(format!(
                                "use a bare placeholder (`\"{{{attr}}}\"`) or declare `{attr}` as `S`"
                            )),
                        );
                    }
                }
            }
        }
    }
    // Every item carries the table's primary key; an entity that declares its keys
    // but leaves one out cannot be written.
    if e.keys.is_empty() {
        return;
    }
    let mut missing = vec![t.partition_key.as_str()];
    if let Some(sk) = &t.sort_key {
        missing.push(sk);
    }
    for k in missing {
        if !k.is_empty() && !e.keys.contains_key(k) && !e.attributes.iter().any(|a| a == k) {
            problems.push(
                ModelProblem::of(
                    ProblemKind::MissingKey,
                    e.fields.get("keys").unwrap_or(e.span),
                    format!(
                        "entity `{}` does not set `{k}`, a primary key attribute of table `{}`",
                        e.name, t.name
                    ),
                )
                .with_help(format!(
                    "every item needs the table's full primary key: add `{k} = \"...\"` to `keys`"
                )),
            );
        }
    }
}

/// The span of the characters from `offset` within a quoted TOML string, when the
/// source text is a plain string the offset maps onto; otherwise the whole value.
fn inner_span(text: &str, value: Span, offset: usize) -> Span {
    let Some(raw) = text.get(value.range()) else {
        return value;
    };
    let quoted = raw.len() >= 2
        && ((raw.starts_with('"') && !raw.contains('\\')) || raw.starts_with('\''))
        && !raw.starts_with("\"\"\"")
        && !raw.starts_with("'''");
    if !quoted {
        return value;
    }
    let start = value.start + 1 + offset;
    let end = value.end - 1;
    if start < end {
        Span::new(start, end)
    } else {
        value
    }
}

fn access_pattern(model: &Model, p: &AccessPattern, problems: &mut Vec<ModelProblem>) {
    if p.table.is_empty() {
        return;
    }
    let table_span = p.fields.get("table").unwrap_or(p.span);
    let Some(t) = model.tables.iter().find(|t| t.is_named_by(&p.table)) else {
        let names: Vec<&str> = model.tables.iter().map(|t| t.name.as_str()).collect();
        problems.push(
            ModelProblem::of(
                ProblemKind::UnknownTable,
                table_span,
                format!(
                    "access pattern `{}` names table `{}`, which the model does not declare",
                    p.name, p.table
                ),
            )
            .with_help(suggestion_help(&p.table, &names)),
        );
        return;
    };
    // The key schema the pattern reads through: the index's, or the table's.
    let (target, pk, sk) = match &p.index {
        None => (
            format!("table `{}`", t.name),
            t.partition_key.as_str(),
            t.sort_key.as_deref(),
        ),
        Some(name) => match t.index(name) {
            Some(i) => (
                format!("index `{}`", i.name),
                i.partition_key.as_str(),
                i.sort_key.as_deref(),
            ),
            None => {
                let names: Vec<&str> = t.indexes.iter().map(|i| i.name.as_str()).collect();
                let mut problem = ModelProblem::of(
                    ProblemKind::UnknownIndex,
                    p.fields.get("index").unwrap_or(p.span),
                    format!(
                        "access pattern `{}` names index `{name}`, which table `{}` does not have",
                        p.name, t.name
                    ),
                )
                .with_label(t.name_span, format!("table `{}` is declared here", t.name));
                problem = problem.with_help(suggestion_help(name, &names));
                problems.push(problem);
                return;
            }
        },
    };
    let keys: Vec<&str> = std::iter::once(pk)
        .chain(sk)
        .filter(|k| !k.is_empty())
        .collect();
    for attr in p.key.keys() {
        if !keys.contains(&attr.as_str()) {
            let span = p.fields.get(&format!("key.{attr}.name")).unwrap_or(p.span);
            problems.push(
                ModelProblem::of(
                    ProblemKind::UnknownKey,
                    span,
                    format!(
                        "access pattern `{}` queries by `{attr}`, which is not a key of {target}",
                        p.name
                    ),
                )
                .with_help(match did_you_mean(attr, keys.iter().copied()) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => format!(
                        "the key of {target} is {}; an attribute outside the key needs an index \
                         or a filter",
                        backticked(&keys)
                    ),
                }),
            );
        }
    }
    for (attr, value) in &p.key {
        if let Some(a) = t.attribute(attr) {
            key_value(p, a, value, problems);
        }
    }
    if !p.key.is_empty() && !pk.is_empty() && !p.key.contains_key(pk) {
        problems.push(
            ModelProblem::of(
                ProblemKind::MissingKey,
                p.fields.get("key").unwrap_or(p.span),
                format!(
                    "access pattern `{}` does not give the partition key `{pk}` of {target}",
                    p.name
                ),
            )
            .with_help(format!(
                "a Query needs the partition key with `=`: add `{pk} = \"...\"` to `key`"
            )),
        );
    }
}

/// An access pattern's key value must fit the attribute's type: a number for `N`.
/// Templates (`{id}`) stand for any value.
fn key_value(p: &AccessPattern, a: &Attribute, value: &str, problems: &mut Vec<ModelProblem>) {
    let Ok(template) = KeyTemplate::parse(value) else {
        return;
    };
    let span = p.fields.get(&format!("key.{}", a.name)).unwrap_or(p.span);
    if a.ty == AttributeType::N && template.is_constant() && value.parse::<f64>().is_err() {
        problems.push(
            ModelProblem::of(
                ProblemKind::InvalidValue,
                span,
                format!(
                    "access pattern `{}` gives `{value}` for `{}`, which is of type `N`",
                    p.name, a.name
                ),
            )
            .with_label(
                a.fields.get("type").unwrap_or(a.span),
                format!("`{}` declared here", a.name),
            )
            .with_help("give a number, or a placeholder such as `\"{id}\"`"),
        );
    }
    // A constant outside the declared `values` is a finding of the
    // `unserved-access-pattern` rule (the query silently returns nothing), not a
    // malformed model, so it is left to that rule.
}

/// Problems for `[rules]` entries naming no known rule. The model does not know the
/// rule registry (it sits below the rules); the caller passes the known ids.
pub fn unknown_rules(model: &Model, known: &[&str]) -> Vec<ModelProblem> {
    model
        .rules
        .iter()
        .filter(|(id, _)| !known.contains(&id.as_str()))
        .map(|(id, s)| {
            ModelProblem::of(
                ProblemKind::UnknownField,
                s.span,
                format!("unknown rule `{id}` in `[rules]`"),
            )
            .with_help(match did_you_mean(id, known.iter().copied()) {
                Some(k) => format!("did you mean `{k}`?"),
                None => "run `dynalint rules` for the list of rules".to_string(),
            })
        })
        .collect()
}
