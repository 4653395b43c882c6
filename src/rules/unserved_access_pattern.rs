//! `unserved-access-pattern`: prose in `rules/unserved-access-pattern.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::facts::entity_of::text_fits;
use crate::facts::key_access::{addressed, Via};
use crate::facts::unwritten_keys::unwritten_keys;
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures::{bytes, group};
use crate::model::problem::listed;
use crate::model::{AccessPattern, Entity, Index, KeyTemplate, Model, Presence, Table};
use crate::scanner::OpKind;
use crate::source::{FilePath, Span};

crate::declare_rule! {
    pub UnservedAccessPattern,
    id: "unserved-access-pattern",
    category: Perf,
    summary: "a declared access pattern that no key or index serves without a Scan",
}

impl Rule for UnservedAccessPattern {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        let (OpKind::Query, Some(table)) = (op.kind, bound.table) else {
            return;
        };
        if op.index.is_some() && bound.index.is_none() {
            return;
        }
        let index = bound.index;
        let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
        for a in addressed(op) {
            if a.via != Via::KeyEquals || a.attribute != pk || a.conditional {
                continue;
            }
            // Only a value the code states: a literal or a constant.
            let Some(value) = a.value.literal.as_deref() else {
                continue;
            };
            if let Some(why) = empty_read(table, index, value) {
                let read = Read {
                    file: op.file.clone(),
                    span: a.span,
                    who: "this query".to_string(),
                    table,
                    index,
                    value,
                };
                report_empty(cx, read, why);
            }
        }
    }

    /// A query of an index that no write of the code fills (`unwritten_keys`): it
    /// finds nothing, whatever it asks.
    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        for table in &facts.model.tables {
            for index in &table.indexes {
                let queries = facts.operations.iter().filter(|b| {
                    b.op.kind == OpKind::Query
                        && b.table.is_some_and(|t| std::ptr::eq(t, table))
                        && b.index.is_some_and(|i| std::ptr::eq(i, index))
                });
                let mut queries = queries.peekable();
                if queries.peek().is_none() {
                    continue;
                }
                let Some((keys, puts)) = unwritten_keys(facts, table, index) else {
                    continue;
                };
                let list = listed(&keys);
                let model_path = cx.model.path.clone();
                for b in queries {
                    let d = cx.report(
                        b.op.file.clone(),
                        b.op.method_span,
                        format!(
                            "this query reads index `{}` of `{}`, which no item ever lands in: \
                             no write of the code sets {list}",
                            index.name, table.name
                        ),
                    );
                    d.label(
                        model_path.clone(),
                        index.span,
                        format!("`{}` holds only the items that carry {list}", index.name),
                    );
                    for put in puts.iter().take(3) {
                        d.label(
                            put.file.clone(),
                            put.method_span,
                            format!("writes the item without {list}"),
                        );
                    }
                    d.note("DynamoDB copies an item into an index only when it has every key attribute of the index: the query always returns nothing");
                    d.help(format!(
                        "key `{}` on an attribute the items carry, or write {list} on them",
                        index.name
                    ));
                }
            }
        }
    }

    fn check_model(&self, cx: &mut RuleContext<'_>, model: &Model) {
        for p in &model.access_patterns {
            let Some(table) = model.tables.iter().find(|t| t.is_named_by(&p.table)) else {
                continue;
            };
            let index = match &p.index {
                Some(name) => match table.index(name) {
                    Some(i) => Some(i),
                    // The model's own validation reports an unknown index.
                    None => continue,
                },
                None => None,
            };
            if p.key.is_empty() {
                no_key(cx, table, index, p);
                continue;
            }
            let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
            let Some(value) = p.key.get(pk) else { continue };
            if let Some(why) = empty_read(table, index, value) {
                let span = p.fields.get(&format!("key.{pk}")).unwrap_or(p.span);
                let read = Read {
                    file: cx.model.path.clone(),
                    span,
                    who: format!("access pattern `{}`", p.name),
                    table,
                    index,
                    value,
                };
                report_empty(cx, read, why);
            }
        }
    }
}

fn target_label(table: &Table, index: Option<&Index>) -> String {
    match index {
        Some(i) => format!("index `{}` of `{}`", i.name, table.name),
        None => format!("table `{}`", table.name),
    }
}

/// A pattern without a key is a Scan of the whole table or index.
fn no_key(cx: &mut RuleContext<'_>, table: &Table, index: Option<&Index>, p: &AccessPattern) {
    let path = cx.model.path.clone();
    let cost = match (table.items_in(index), table.avg_item_size) {
        (Some(items), Some(size)) => {
            let total = items.saturating_mul(size);
            format!(
                ": every request reads all {} items ({}, about {} RCU eventually consistent)",
                group(items),
                bytes(total as f64),
                group(total.div_ceil(4096).div_ceil(2))
            )
        }
        _ => String::new(),
    };
    let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    let d = cx.report(
        path,
        p.name_span,
        format!(
            "access pattern `{}` gives no key, so only a Scan of {} serves it{cost}",
            p.name,
            target_label(table, index)
        ),
    );
    d.help(format!(
        "give the pattern a `key` on `{pk}`, or add a GSI whose partition key is the \
         attribute the pattern selects by"
    ));
}

/// Why a read by `pk = value` through a target finds nothing.
enum Empty<'m> {
    /// Only these entities write the value, and none of them lands in the index; the
    /// attributes they lack.
    Absent(Vec<&'m Entity>, Vec<String>),
    /// The attribute's declared values do not include it.
    Undeclared(String),
}

/// Whether reading `pk = value` through `index` (or the table) can ever find an item.
fn empty_read<'m>(table: &'m Table, index: Option<&'m Index>, value: &str) -> Option<Empty<'m>> {
    let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    if !value.contains('{') {
        if let Some(values) = table.attribute(pk).and_then(|a| a.values.as_ref()) {
            let declared = values.values();
            if !declared.contains(&value) {
                let list = declared
                    .iter()
                    .map(|v| format!("`{v}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                return Some(Empty::Undeclared(list));
            }
        }
    }
    let index = index?;
    // A bare `{placeholder}` could be any entity's value.
    if KeyTemplate::parse(value).is_ok_and(|t| t.is_bare_placeholder()) {
        return None;
    }
    let writers: Vec<&Entity> = table
        .entities
        .iter()
        .filter(|e| {
            e.template(pk)
                .is_some_and(|t| !t.is_bare_placeholder() && text_fits(&t, value))
        })
        .collect();
    if writers.is_empty()
        || !writers
            .iter()
            .all(|e| e.presence_in(table, index) == Presence::Absent)
    {
        return None;
    }
    let missing: Vec<String> = index
        .key_attributes()
        .into_iter()
        .filter(|k| writers.iter().any(|e| e.writes(table, k) == Some(false)))
        .map(|k| format!("`{k}`"))
        .collect();
    Some(Empty::Absent(writers, missing))
}

/// A read by `pk = value`: an access pattern (in the model) or a query (in the code).
struct Read<'a> {
    file: FilePath,
    span: Span,
    /// `access pattern `x`` or `this query`.
    who: String,
    table: &'a Table,
    index: Option<&'a Index>,
    value: &'a str,
}

/// Reports a read that can never find an item.
fn report_empty(cx: &mut RuleContext<'_>, read: Read<'_>, why: Empty<'_>) {
    let Read {
        file,
        span,
        who,
        table,
        index,
        value,
    } = read;
    let pk = index.map_or(table.partition_key.as_str(), |i| i.partition_key.as_str());
    let model_path = cx.model.path.clone();
    match why {
        Empty::Absent(writers, missing) => {
            let index_name = index.map_or("", |i| i.name.as_str());
            let names: Vec<String> = writers.iter().map(|e| format!("`{}`", e.name)).collect();
            let missing = missing.join(" and ");
            let d = cx.report(
                file,
                span,
                format!(
                    "{who} reads `{pk} = \"{value}\"` from index `{index_name}`, but {} items \
                     never land there: they do not write {missing}",
                    names.join(" and "),
                ),
            );
            for e in &writers {
                d.label(
                    model_path.clone(),
                    e.span,
                    format!("`{}` is absent from `{index_name}`", e.name),
                );
            }
            d.note("DynamoDB copies an item into an index only when it has every key attribute of the index");
            d.help(format!(
                "read these items through the table's key or another index, or write {missing} on them"
            ));
        }
        Empty::Undeclared(list) => {
            let d = cx.report(
                file,
                span,
                format!(
                    "{who} reads `{pk} = \"{value}\"`, a value `{pk}` never takes: the query \
                     returns nothing"
                ),
            );
            if let Some(a) = table.attribute(pk) {
                d.label(
                    model_path,
                    a.fields.get("values").unwrap_or(a.span),
                    format!("`{pk}` takes {list}"),
                );
            }
            d.help(format!(
                "query one of {list}, or add `{value}` to the declared values"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const MODEL: &str = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
item-count = 1_000
avg-item-size = 400
[table.attributes]
PK = "S"
SK = "S"
facet = { type = "S", values = ["USER", "BLOG"] }
createdAt = "S"
[[table.index]]
name = "ByFacet"
partition-key = "facet"
sort-key = "createdAt"
[[table.entity]]
name = "User"
keys = { PK = "USER#{userID}", SK = "PROFILE", facet = "USER" }
[[table.entity]]
name = "Blog"
keys = { PK = "USER#{userID}", SK = "BLOG#{blogID}", facet = "BLOG" }
attributes = ["createdAt"]

[[access-pattern]]
name = "latest blogs"
table = "BlogApp"
index = "ByFacet"
key = { facet = "BLOG" }

[[access-pattern]]
name = "newest users"
table = "BlogApp"
index = "ByFacet"
key = { facet = "USER" }

[[access-pattern]]
name = "all tags"
table = "BlogApp"
index = "ByFacet"
key = { facet = "TAG" }

[[access-pattern]]
name = "everything"
table = "BlogApp"
"#;

    #[test]
    fn patterns_no_index_serves() {
        let m = model(MODEL);
        let d = run_ops(&m, "unserved-access-pattern", &[]);
        let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs.len(), 3, "{msgs:#?}");
        assert!(msgs.iter().any(|m| m.starts_with(
            "access pattern `newest users` reads `facet = \"USER\"` from index `ByFacet`, but \
             `User` items never land there: they do not write `createdAt`"
        )));
        assert!(msgs
            .iter()
            .any(|m| m.starts_with("access pattern `all tags` reads `facet = \"TAG\"`")));
        assert!(msgs.iter().any(|m| m.starts_with(
            "access pattern `everything` gives no key, so only a Scan of table `BlogApp` \
             serves it: every request reads all 1,000 items"
        )));
    }

    #[test]
    fn queries_that_find_nothing() {
        use crate::scanner::{OpKind, Provenance, Resolved};
        let m = model(&MODEL[..MODEL.find("[[access-pattern]]").unwrap()]);
        let q = |value: crate::scanner::ValueInfo| {
            let mut q = op(OpKind::Query, "BlogApp");
            q.index = Some(Resolved::literal("ByFacet"));
            q.key_condition = Some(Box::new(expr("facet = :f")));
            q.values.insert(":f".into(), value);
            q
        };
        let ops = [
            q(lit("USER", 10)),
            q(lit("DRAFT", 20)),
            q(lit("BLOG", 30)),
            q(val(Provenance::Param, 40)),
        ];
        let d = run_ops(&m, "unserved-access-pattern", &ops);
        assert_eq!(starts(&d), vec![10, 20], "{d:#?}");
        assert!(d[0]
            .message
            .starts_with("this query reads `facet = \"USER\"` from index `ByFacet`"));
    }
}
