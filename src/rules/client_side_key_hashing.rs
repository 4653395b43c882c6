//! `client-side-key-hashing`: prose in `rules/client-side-key-hashing.md`.

use super::{Rule, RuleContext, RuleMeta};
use crate::facts::key_access::{addressed, written, AttrValue, Via};
use crate::facts::key_shape::hashed_by;
use crate::facts::BoundOperation;
use crate::model::Table;

crate::declare_rule! {
    pub ClientSideKeyHashing,
    id: "client-side-key-hashing",
    category: Suspicious,
    summary: "a key attribute holds a hash digest of an id: DynamoDB already hashes keys",
}

impl Rule for ClientSideKeyHashing {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        let mut seen = Vec::new();
        let values = written(op).into_iter().chain(addressed(op));
        for a in values {
            if seen.contains(&a.span) || !is_key(bound.table, &a) {
                continue;
            }
            let Some(function) = hashed_by(a.value) else {
                continue;
            };
            seen.push(a.span);
            let which = key_role(bound.table, &a.attribute);
            let table = match bound.table {
                Some(t) => format!(" of `{}`", t.name),
                None => String::new(),
            };
            let d = cx.report(
                op.file.clone(),
                a.span,
                format!(
                    "{which} `{}`{table} holds a hash digest (`{function}`): DynamoDB already \
                     hashes partition keys, so this only makes the key unreadable and unqueryable",
                    a.attribute
                ),
            );
            d.note(
                "a digest cannot be range-queried (`begins_with`, `BETWEEN`), cannot be \
                 traced back to its id in the console, and does not spread load any better",
            );
            d.help(
                "store the id itself (`USER#{id}` in a single-table design); to spread a \
                 hot key, append a small shard suffix (`hash % N`) instead",
            );
        }
    }
}

/// Key attributes: the table's and its indexes' keys, or any attribute a key condition
/// or a key map names (also when the table is not in the model).
fn is_key(table: Option<&Table>, a: &AttrValue<'_>) -> bool {
    if matches!(a.via, Via::Key | Via::KeyEquals | Via::KeyRange) {
        return true;
    }
    table.is_some_and(|t| {
        t.partition_key == a.attribute
            || t.sort_key.as_deref() == Some(&a.attribute)
            || t.indexes.iter().any(|i| {
                i.partition_key == a.attribute || i.sort_key.as_deref() == Some(&a.attribute)
            })
    })
}

fn key_role(table: Option<&Table>, attr: &str) -> &'static str {
    let Some(t) = table else {
        return "key attribute";
    };
    if t.partition_key == attr {
        "partition key"
    } else if t.sort_key.as_deref() == Some(attr) {
        "sort key"
    } else if t.indexes.iter().any(|i| i.partition_key == attr) {
        "index partition key"
    } else if t
        .indexes
        .iter()
        .any(|i| i.sort_key.as_deref() == Some(attr))
    {
        "index sort key"
    } else {
        "key attribute"
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::scanner::{OpKind, Provenance};

    const MODEL: &str = r#"
[[table]]
name = "Users"
partition-key = "pk"
[table.attributes]
pk = "S"
email = "S"
"#;

    fn sha() -> Provenance {
        Provenance::Hashed {
            function: "sha256".into(),
        }
    }

    #[test]
    fn digests_in_keys_are_flagged() {
        let m = model(MODEL);
        let mut put = op(OpKind::PutItem, "Users");
        put.item = Some(map(vec![
            ("pk", template("USER#{}", vec![val(sha(), 11)], 10)),
            ("email", val(sha(), 20)),
        ]));
        let mut get = op(OpKind::GetItem, "Users");
        get.key = Some(map(vec![("pk", val(sha(), 30))]));
        let mut q = op(OpKind::Query, "Other");
        q.key_condition = Some(Box::new(expr("#k = :k")));
        name(&mut q, "#k", "id");
        q.values.insert(":k".into(), val(sha(), 40));
        let d = run_ops(&m, "client-side-key-hashing", &[put, get, q]);
        assert_eq!(starts(&d), vec![10, 30, 40], "{d:?}");
        assert!(d[0]
            .message
            .contains("partition key `pk` of `Users` holds a hash digest (`sha256`)"));
    }

    #[test]
    fn shard_suffixes_and_plain_ids_are_not() {
        let m = model(MODEL);
        let mut put = op(OpKind::PutItem, "Users");
        put.item = Some(map(vec![(
            "pk",
            template(
                "USER#{}#{}",
                vec![
                    val(Provenance::Param, 11),
                    val(Provenance::ShardSuffix { modulus: Some(10) }, 12),
                ],
                10,
            ),
        )]));
        let mut get = op(OpKind::GetItem, "Users");
        get.key = Some(map(vec![("pk", val(Provenance::Param, 30))]));
        assert!(run_ops(&m, "client-side-key-hashing", &[put, get]).is_empty());
    }
}
