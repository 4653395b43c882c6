//! `missing-sparse-attribute`: prose in `rules/missing-sparse-attribute.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::attr::AttributeType;
use crate::diagnostic::{Category, Severity};
use crate::facts::entity_of::entity_of;
use crate::facts::index_key_check::{
    bad_index_key_writes, index_key_writes, BadIndexKeyWrite, BadKeyValue,
};
use crate::facts::key_access::{written, AttrValue, Via};
use crate::facts::unwritten_keys::unwritten_keys;
use crate::facts::{BoundOperation, ProjectFacts};
use crate::model::problem::listed;
use crate::model::{Entity, Index, Table};
use crate::scanner::{OpKind, Operation};

crate::declare_rule! {
    pub MissingSparseAttribute,
    id: "missing-sparse-attribute",
    category: Correctness,
    summary: "an index key attribute written as NULL, `\"\"` or a placeholder value instead of being left out",
}

/// Values written to mean "no value" that DynamoDB stores as real keys.
const SENTINELS: &[&str] = &[
    "__null__",
    "null",
    "nil",
    "none",
    "n/a",
    "na",
    "undefined",
    "__none__",
    "-",
    "empty",
];

impl Rule for MissingSparseAttribute {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let Some(table) = bound.table else { return };
        let op = bound.op;
        // A serialised struct's findings point at the call (see `written`): name the
        // type so the field can be found.
        let serde_type = op.item.as_ref().and_then(|i| i.from_type.as_deref());
        let who = |a: &AttrValue<'_>| match serde_type.filter(|_| a.via == Via::Item) {
            Some(ty) => format!("`{}`, serialised from `{ty}`,", a.attribute),
            None => format!("`{}`", a.attribute),
        };
        // A table the receiver may hold (one of several instances): DynamoDB rejects
        // the write only if the request reaches it, so no error rests on it.
        if !op.possible_table {
            for w in bad_index_key_writes(table, op) {
                rejected_write(cx, table, op, &w, &who(&w.attr));
            }
        }
        // Table keys are required, not sparse: an empty one is `rejected-request`'s.
        for (a, index) in index_key_writes(table, op) {
            sentinel(cx, table, index, op, &a, &who(&a));
        }
    }

    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        for table in &facts.model.tables {
            never_written(cx, facts, table);
        }
        for table in &facts.model.tables {
            let on_table = || {
                facts
                    .operations
                    .iter()
                    .filter(|b| b.table.is_some_and(|t| std::ptr::eq(t, table)))
            };
            // An attribute an update sets may be what puts the item in the index
            // later (`SET createdAt = :now` on publish); an update whose expression is
            // not known may set anything, so the table is then not judged.
            let unknown_update = on_table().any(|b| {
                b.op.kind == OpKind::UpdateItem
                    && b.op
                        .update
                        .as_ref()
                        .is_some_and(|u| u.text.value().is_none())
            });
            if unknown_update {
                continue;
            }
            let updated: Vec<String> = on_table()
                .filter(|b| b.op.kind == OpKind::UpdateItem)
                .flat_map(|b| written(b.op))
                .filter(|a| a.via == Via::UpdateSet)
                .map(|a| a.attribute)
                .collect();
            let puts: Vec<(&Operation, &Entity)> = on_table()
                .filter(|b| b.op.kind == OpKind::PutItem)
                .filter_map(|b| {
                    let item = b.op.item.as_ref()?;
                    Some((b.op, entity_of(table, item)?))
                })
                .collect();
            for index in &table.indexes {
                for entity in &table.entities {
                    missing_from_sparse(cx, table, index, entity, &puts, &updated);
                }
            }
        }
    }
}

/// Reports a NULL, empty or maybe-NULL value in an index key attribute: DynamoDB
/// rejects the write, and this rule (not `rejected-request`) owns that finding.
fn rejected_write(
    cx: &mut RuleContext<'_>,
    table: &Table,
    op: &Operation,
    w: &BadIndexKeyWrite<'_>,
    who: &str,
) {
    let (what, when) = match (w.always, w.value) {
        (true, BadKeyValue::Null) => ("is written as NULL", "rejects the write"),
        (true, BadKeyValue::Empty) => ("is written as `\"\"`", "rejects the write"),
        (false, BadKeyValue::Null) => (
            "is written as NULL when the value is `None`",
            "rejects those writes",
        ),
        (false, BadKeyValue::Empty) => (
            "is written as `\"\"` when the value is missing",
            "rejects those writes",
        ),
    };
    let index = &w.index.name;
    let d = cx.report(
        op.file.clone(),
        w.attr.span,
        format!(
            "{who} is a key of index `{index}` of `{}` and {what}: DynamoDB {when}",
            table.name
        ),
    );
    d.note(format!(
        "DynamoDB answers: ValidationException: {}",
        w.message
    ));
    d.help(format!(
        "leave `{}` out of the item when there is no value (`#[serde(skip_serializing_if = \
         \"Option::is_none\")]`, or insert it only in `if let Some(..)`): the item is then \
         simply absent from `{index}`",
        w.attr.attribute
    ));
}

/// Reports a placeholder value (`"__NULL__"`, `"N/A"`) in an index key attribute:
/// DynamoDB accepts it as a real key.
fn sentinel(
    cx: &mut RuleContext<'_>,
    table: &Table,
    index: &Index,
    op: &Operation,
    a: &AttrValue<'_>,
    who: &str,
) {
    let v = a.value;
    if v.nullable || v.ty == Some(AttributeType::Null) {
        return;
    }
    let Some(sentinel) = v
        .literal
        .as_deref()
        .filter(|l| SENTINELS.contains(&l.to_ascii_lowercase().as_str()))
    else {
        return;
    };
    let attr = &a.attribute;
    let target = format!("index `{}` of `{}`", index.name, table.name);
    let d = cx.report(
        op.file.clone(),
        a.span,
        format!(
            "{who} is a key of {target} and is written as the placeholder `\"{sentinel}\"`: \
             every such item lands in the index under that one key value"
        ),
    );
    d.severity = d.severity.min(Severity::Warning);
    d.category = Category::Suspicious;
    d.note(
        "a placeholder value is a real key: the items it marks fill one partition of the \
         index, cost an index write each, and are returned by queries for that value",
    );
    d.help(format!(
        "leave `{attr}` out of items that have no value, so `{}` stays sparse",
        index.name
    ));
}

/// Reports the puts of a table whose model names no entities when no write of the
/// code can set an index's key attribute (see `unwritten_keys`): no item ever lands
/// in that index.
fn never_written(cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>, table: &Table) {
    let model_path = cx.model.path.clone();
    for index in &table.indexes {
        let Some((keys, puts)) = unwritten_keys(facts, table, index) else {
            continue;
        };
        let list = listed(&keys);
        for op in puts {
            let d = cx.report(
                op.file.clone(),
                op.method_span,
                format!(
                    "items of `{}` are written without {list}, the key of index `{}`: no \
                     write of the code sets it, so no item ever appears in that index",
                    table.name, index.name
                ),
            );
            d.severity = d.severity.min(Severity::Warning);
            d.category = Category::Suspicious;
            d.label(
                model_path.clone(),
                index.span,
                format!("`{}` holds only the items that carry {list}", index.name),
            );
            d.note(format!(
                "DynamoDB accepts the write and silently leaves the item out of `{}`: every \
                 query on it finds nothing",
                index.name
            ));
            // `inviteCode` written where the index is keyed on `invite_code`.
            let near: Vec<String> = keys
                .iter()
                .filter_map(|k| {
                    let item = op.item.as_ref()?;
                    let w = item
                        .attributes
                        .iter()
                        .filter_map(|a| a.name.value())
                        .find(|w| folded(w) == folded(k))?;
                    Some(format!("`{w}` for `{k}`"))
                })
                .collect();
            if near.is_empty() {
                d.help(format!(
                    "set {list} on the items `{}` should hold",
                    index.name
                ));
            } else {
                d.help(format!(
                    "the item carries {}: key `{}` on the attribute the items have, or write \
                     it under the index's name",
                    near.join(", "),
                    index.name
                ));
            }
        }
    }
}

/// A name without case or separators: `inviteCode`, `invite_code` and `InviteCode`
/// are one.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Reports the puts of an entity that the model places in a sparse index when none of
/// them writes the index's key attributes: its items would never appear there.
fn missing_from_sparse(
    cx: &mut RuleContext<'_>,
    table: &Table,
    index: &Index,
    entity: &Entity,
    puts: &[(&Operation, &Entity)],
    updated: &[String],
) {
    if entity.presence_in(table, index) != crate::model::Presence::Present {
        return;
    }
    let mine: Vec<&Operation> = puts
        .iter()
        .filter(|(_, e)| std::ptr::eq(*e, entity))
        .map(|(op, _)| *op)
        .collect();
    let keys = index.key_attributes();
    let missing: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| {
            // Missing only when every put of the entity leaves it out and each put's
            // item is fully known.
            !mine.is_empty()
                && !updated.iter().any(|u| u == *k)
                && mine.iter().all(|op| {
                    op.item
                        .as_ref()
                        .is_some_and(|i| i.complete && i.get(k).is_none())
                })
        })
        .collect();
    if missing.is_empty() {
        return;
    }
    let list = listed(&missing);
    let model_path = cx.model.path.clone();
    for op in mine {
        let d = cx.report(
            op.file.clone(),
            op.method_span,
            format!(
                "`{}` items are written without {list}: they never appear in index `{}`",
                entity.name, index.name
            ),
        );
        d.severity = d.severity.min(Severity::Warning);
        d.category = Category::Suspicious;
        d.label(
            model_path.clone(),
            entity.span,
            format!(
                "the model puts `{}` in `{}` (it declares {list})",
                entity.name, index.name
            ),
        );
        d.note(format!(
            "DynamoDB accepts the write and silently leaves the item out of `{}`: queries \
             on it miss every `{}` item",
            index.name, entity.name
        ));
        d.help(format!("set {list} on every `{}` put", entity.name));
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::attr::AttributeType;
    use crate::diagnostic::Severity;
    use crate::scanner::{OpKind, Provenance};

    use crate::test_models::BLOG_APP as BLOG;

    fn blog_put(created: Option<crate::scanner::ValueInfo>) -> crate::scanner::Operation {
        let mut put = op(OpKind::PutItem, "BlogApp");
        let mut attrs = vec![
            (
                "PK",
                template("USER#{}", vec![val(Provenance::Param, 2)], 1),
            ),
            (
                "SK",
                template("BLOG#{}", vec![val(Provenance::Param, 4)], 3),
            ),
            ("facet", lit("BLOG", 5)),
        ];
        if let Some(c) = created {
            attrs.push(("createdAt", c));
        }
        put.item = Some(map(attrs));
        put
    }

    #[test]
    fn null_empty_and_nullable_index_keys_are_rejected_writes() {
        let m = model(BLOG);
        let null = crate::scanner::ValueInfo {
            ty: Some(AttributeType::Null),
            ..val(Provenance::Literal, 10)
        };
        let empty = lit("", 20);
        let option = crate::scanner::ValueInfo {
            nullable: true,
            ty: None,
            ..val(Provenance::Param, 30)
        };
        let ops = [
            blog_put(Some(null)),
            blog_put(Some(empty)),
            blog_put(Some(option)),
        ];
        let d = run_ops(&m, "missing-sparse-attribute", &ops);
        assert_eq!(starts(&d), vec![10, 20, 30], "{d:#?}");
        assert!(d.iter().all(|d| d.severity == Severity::Error));
        assert!(d[0].notes[0].contains(
            "Type mismatch for Index Key createdAt Expected: S Actual: NULL IndexName: ByFacet"
        ));
        assert!(d[1].notes[0].contains(
            "The AttributeValue for a key attribute cannot contain an empty string value. \
             IndexName: ByFacet, IndexKey: createdAt"
        ));
        assert!(d[2].message.contains("when the value is `None`"));
    }

    #[test]
    fn sentinels_are_suspicious() {
        let m = model(BLOG);
        let d = run_ops(
            &m,
            "missing-sparse-attribute",
            &[blog_put(Some(lit("__NULL__", 40)))],
        );
        assert_eq!(starts(&d), vec![40]);
        assert_eq!(d[0].severity, Severity::Warning);
    }

    #[test]
    fn an_entity_written_without_its_index_key() {
        let m = model(BLOG);
        let d = run_ops(&m, "missing-sparse-attribute", &[blog_put(None)]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(d[0]
            .message
            .contains("`Blog` items are written without `createdAt`"));
        assert_eq!(d[0].severity, Severity::Warning);
        // Users are meant to be absent; a blog with `createdAt` is fine.
        let mut user = op(OpKind::PutItem, "BlogApp");
        user.item = Some(map(vec![
            (
                "PK",
                template("USER#{}", vec![val(Provenance::Param, 2)], 1),
            ),
            ("SK", lit("PROFILE", 3)),
            ("facet", lit("USER", 5)),
        ]));
        let ok = blog_put(Some(val(Provenance::Param, 9)));
        assert!(run_ops(&m, "missing-sparse-attribute", &[user, ok.clone()]).is_empty());
        // One put that sets it is enough: the others may be deliberate.
        assert!(run_ops(&m, "missing-sparse-attribute", &[ok, blog_put(None)]).is_empty());
    }

    #[test]
    fn an_update_that_sets_the_index_key_later_counts() {
        let m = model(BLOG);
        let mut publish = op(OpKind::UpdateItem, "BlogApp");
        publish.update = Some(Box::new(expr("SET createdAt = :now")));
        publish
            .values
            .insert(":now".into(), val(Provenance::Param, 60));
        assert!(run_ops(&m, "missing-sparse-attribute", &[blog_put(None), publish]).is_empty());
        let mut unknown = op(OpKind::UpdateItem, "BlogApp");
        unknown.update = Some(Box::new(crate::scanner::ExprArg {
            text: crate::scanner::Resolved::unknown("built at run time"),
            ..expr("")
        }));
        assert!(run_ops(&m, "missing-sparse-attribute", &[blog_put(None), unknown]).is_empty());
    }
}
