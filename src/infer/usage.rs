//! Tables nothing declares, read from how the code uses them: a library that leaves
//! its table to the user, a service whose table was made in the console. DynamoDB
//! rejects a `GetItem`/`DeleteItem`/`UpdateItem` whose key is not the whole primary
//! key, and a Query's key condition names only key attributes, so the calls that work
//! say the key schema — if they work. That is a guess about the code dynalint checks,
//! so such a table is marked ([`OriginKind::Usage`]), shown as such, and never the
//! ground of an error-level finding (`analysis` makes those warnings).
//!
//! Only what every call agrees on is used. Two key attributes and no Query saying
//! which is the partition key, keys that differ between calls, or only a Query on the
//! partition key (a sort key may exist) give no table and a note instead.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use crate::attr::AttributeType;
use crate::expr::ast::{Comparator, Condition, Function, Operand, PathElement};
use crate::facts::bind::{bind, holder_name};
use crate::model::{Attribute, Model, OriginKind, Table, TableOrigin};
use crate::scanner::{OpKind, Operation, Resolved};
use crate::source::SourceFile;

use super::from_code::CodeNote;

/// How the calls name a table nothing declares: by its name, or by the field or
/// variable that holds it (`self.event_table`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Naming {
    Name(String),
    Holder(String),
}

/// What the calls on one table say about its key.
#[derive(Default)]
struct Evidence<'o> {
    /// The first call, where the table is said to come from.
    first: Option<&'o Operation>,
    /// The key attributes of each get, delete, update or condition check whose key
    /// names every attribute.
    keys: Vec<BTreeSet<String>>,
    /// `(partition key, sort key)` of each Query on the table whose key condition
    /// reads (`pk = :v AND sk > :s`: both known; `pk = :v`: only the first).
    queries: Vec<(String, Option<String>)>,
    /// Key conditions with two equalities: the two key attributes, order unknown.
    pairs: Vec<BTreeSet<String>>,
    /// Attribute types the values show.
    types: IndexMap<String, AttributeType>,
}

/// Tables for the calls that bind to nothing in `model`, each with what it rests on;
/// notes for the names whose key the calls do not settle.
pub fn tables(
    model: &Model,
    ops: &[Operation],
    files: &[SourceFile],
) -> (Vec<Table>, Vec<CodeNote>) {
    let mut all = Vec::new();
    for op in ops {
        flatten(op, &mut all, 0);
    }
    let mut by_table: IndexMap<Naming, Evidence<'_>> = IndexMap::new();
    for op in all {
        if bind(model, op).table.is_some() {
            continue;
        }
        let Some(naming) = naming(op) else {
            continue;
        };
        let e = by_table.entry(naming).or_default();
        e.first.get_or_insert(op);
        read(op, e);
    }
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (naming, e) in by_table {
        let Some(first) = e.first else {
            continue;
        };
        let line = files
            .iter()
            .find(|f| f.path == first.file)
            .map(|f| f.line_col(first.span.start).line)
            .unwrap_or(0);
        let shown = match &naming {
            Naming::Name(n) => format!("`{n}`"),
            Naming::Holder(h) => format!("the table in `{h}`"),
        };
        match key_of(&e) {
            Ok(Some((pk, sk))) => out.push(table(naming, pk, sk, &e, first, line)),
            Ok(None) => {}
            Err(why) => notes.push(CodeNote {
                file: first.file.clone(),
                line,
                span: first.span,
                message: format!(
                    "{shown} is declared nowhere, and its key is not inferred from its calls: {why}"
                ),
            }),
        }
    }
    (out, notes)
}

fn flatten<'o>(op: &'o Operation, out: &mut Vec<&'o Operation>, depth: usize) {
    out.push(op);
    if depth < 4 {
        for c in &op.children {
            flatten(c, out, depth + 1);
        }
    }
}

fn naming(op: &Operation) -> Option<Naming> {
    let t = op.table.as_ref()?;
    match t.innermost() {
        Resolved::Literal { value } => Some(Naming::Name(value.clone())),
        Resolved::Unknown { .. } => {
            shared_holder(op.table_text.as_deref()?).map(|h| Naming::Holder(h.to_string()))
        }
        // A built name (`{}_orders`) or an env var: a template or refs say it better,
        // and a guess at its parts would bind other tables' calls.
        _ => None,
    }
}

/// The holder of an unknown table name that names one table wherever it is read: a
/// field (`self.event_table`, `config.orders_table`: one configuration) or a
/// crate-wide const or static. A parameter or a local (`table: &str`) holds whatever
/// each call passes or computes there: its value is its callers' or unknown, never a
/// table of its own.
fn shared_holder(text: &str) -> Option<&str> {
    let h = holder_name(text)?;
    let field = text.contains(&format!(".{h}"));
    let global =
        h.chars().any(|c| c.is_ascii_uppercase()) && !h.chars().any(|c| c.is_ascii_lowercase());
    (field || global).then_some(h)
}

/// Adds what one call says.
fn read<'o>(op: &'o Operation, e: &mut Evidence<'o>) {
    match op.kind {
        OpKind::GetItem | OpKind::DeleteItem | OpKind::UpdateItem | OpKind::ConditionCheck => {
            let Some(key) = op.key.as_ref().filter(|k| k.complete) else {
                return;
            };
            let names: Option<BTreeSet<String>> = key
                .attributes
                .iter()
                .map(|a| a.name.value().map(str::to_string))
                .collect();
            // A key attribute whose name the scanner cannot read (configurable at run
            // time) says nothing certain.
            if let Some(names) = names.filter(|n| (1..=2).contains(&n.len())) {
                for a in &key.attributes {
                    if let (Some(n), Some(ty)) = (a.name.value(), a.value.ty) {
                        e.types.entry(n.to_string()).or_insert(ty);
                    }
                }
                e.keys.push(names);
            }
        }
        OpKind::Query if op.index.is_none() => {
            let Some(text) = op.key_condition.as_ref().and_then(|k| k.text.value()) else {
                return;
            };
            let Ok(cond) = crate::expr::parse_key_condition(text) else {
                return;
            };
            let mut leaves = Vec::new();
            if !and_leaves(&cond, &mut leaves, 0) {
                return;
            }
            let mut equal = Vec::new();
            let mut range = Vec::new();
            for (attr, value, eq) in leaves {
                let Some(name) = attribute_name(op, &attr) else {
                    return;
                };
                if let Some(ty) = value.and_then(|v| op.values.get(&v)).and_then(|v| v.ty) {
                    e.types.entry(name.clone()).or_insert(ty);
                }
                if eq {
                    equal.push(name);
                } else {
                    range.push(name);
                }
            }
            match (equal.as_slice(), range.as_slice()) {
                ([pk], []) => e.queries.push((pk.clone(), None)),
                ([pk], [sk]) if pk != sk => e.queries.push((pk.clone(), Some(sk.clone()))),
                ([a, b], []) if a != b => e.pairs.push([a.clone(), b.clone()].into()),
                _ => {}
            }
        }
        _ => {}
    }
}

/// The conditions of a key condition joined by `AND`, as (attribute path, the value
/// placeholder it is compared with, whether it is an equality); false for a shape no
/// key condition DynamoDB accepts has.
fn and_leaves(
    c: &Condition,
    out: &mut Vec<(Vec<PathElement>, Option<String>, bool)>,
    depth: usize,
) -> bool {
    if depth > 8 {
        return false;
    }
    match c {
        Condition::And { left, right, .. } => {
            and_leaves(left, out, depth + 1) && and_leaves(right, out, depth + 1)
        }
        Condition::Compare {
            left, op, right, ..
        } => {
            let (path, value) = match (left, right) {
                (Operand::Path(p), Operand::Value(v)) | (Operand::Value(v), Operand::Path(p)) => {
                    (p, v)
                }
                _ => return false,
            };
            if *op == Comparator::Ne {
                return false;
            }
            out.push((
                path.elements.clone(),
                Some(value.name.clone()),
                *op == Comparator::Eq,
            ));
            true
        }
        Condition::Between {
            operand: Operand::Path(p),
            low,
            ..
        } => {
            let value = match low {
                Operand::Value(v) => Some(v.name.clone()),
                _ => None,
            };
            out.push((p.elements.clone(), value, false));
            true
        }
        Condition::Function {
            function: Function::BeginsWith(Operand::Path(p), _),
            ..
        } => {
            out.push((p.elements.clone(), None, false));
            true
        }
        _ => false,
    }
}

/// A top-level attribute's name, `#placeholders` read from the call's names.
fn attribute_name(op: &Operation, path: &[PathElement]) -> Option<String> {
    match path {
        [PathElement::Attr(a)] => Some(a.clone()),
        [PathElement::Name(n)] => op.names.get(n)?.name.value().map(str::to_string),
        _ => None,
    }
}

/// The key schema every call agrees on; `Ok(None)` when the calls say nothing of it,
/// `Err` saying why when they say too little or disagree.
fn key_of(e: &Evidence<'_>) -> Result<Option<(String, Option<String>)>, String> {
    let keys: BTreeSet<&BTreeSet<String>> = e.keys.iter().collect();
    let key = match keys.len() {
        0 => None,
        1 => keys.into_iter().next(),
        _ => {
            let shown: Vec<String> = keys.iter().map(|k| list(k)).collect();
            return Err(format!(
                "its calls address items by different keys ({})",
                shown.join("; ")
            ));
        }
    };
    let partition: BTreeSet<&String> = e.queries.iter().map(|(pk, _)| pk).collect();
    if partition.len() > 1 {
        return Err("its queries fix different attributes as the partition key".into());
    }
    let queried_pk = partition.into_iter().next();
    let full = e
        .queries
        .iter()
        .find_map(|(pk, sk)| Some((pk, sk.as_ref()?)));
    let from_pairs = e.pairs.first();
    let found = match (key, full) {
        (Some(k), Some((pk, sk))) => {
            if k.len() == 2 && k.contains(pk) && k.contains(sk) {
                (pk.clone(), Some(sk.clone()))
            } else {
                return Err(format!(
                    "its calls address items by {} but query by {pk} and {sk}",
                    list(k)
                ));
            }
        }
        (None, Some((pk, sk))) => (pk.clone(), Some(sk.clone())),
        (Some(k), None) if k.len() == 1 => {
            let pk = k.iter().next().cloned().unwrap_or_default();
            if queried_pk.is_some_and(|q| *q != pk) {
                return Err(format!("its calls address items by {pk} but query by another key"));
            }
            (pk, None)
        }
        (Some(k), None) => match queried_pk {
            Some(pk) if k.contains(pk) => {
                let sk = k.iter().find(|a| *a != pk).cloned();
                (pk.clone(), sk)
            }
            _ => {
                return Err(format!(
                    "its calls address items by {}, and no query says which is the partition key",
                    list(k)
                ))
            }
        },
        (None, None) => match (queried_pk, from_pairs) {
            (Some(pk), _) => {
                return Err(format!(
                    "its queries fix the partition key {pk}, and no call says whether it has a sort key"
                ))
            }
            (None, Some(p)) => {
                return Err(format!(
                    "its queries fix {}, and no call says which is the partition key",
                    list(p)
                ))
            }
            (None, None) => return Ok(None),
        },
    };
    Ok(Some(found))
}

fn list(k: &BTreeSet<String>) -> String {
    k.iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(" and ")
}

fn table(
    naming: Naming,
    pk: String,
    sk: Option<String>,
    e: &Evidence<'_>,
    first: &Operation,
    line: usize,
) -> Table {
    let (name, refs) = match naming {
        Naming::Name(n) => (n, Vec::new()),
        // Named by what holds it: a placeholder no literal name fits, and the holder
        // as a ref, as a `dynalint.toml` would write it.
        Naming::Holder(h) => (format!("{{{h}}}"), vec![h]),
    };
    let origin = TableOrigin {
        kind: OriginKind::Usage,
        path: first.file.clone(),
        line,
        id: None,
    };
    let mut t = super::from_code::blank(name, refs, pk, sk, first.span, origin);
    let keys: Vec<String> = std::iter::once(&t.partition_key)
        .chain(&t.sort_key)
        .cloned()
        .collect();
    for attr in keys {
        if let Some(ty) = e.types.get(&attr) {
            t.attributes.insert(
                attr.clone(),
                Attribute {
                    name: attr,
                    ty: *ty,
                    values: None,
                    unique: false,
                    cardinality: None,
                    span: first.span,
                    name_span: first.span,
                    fields: Default::default(),
                },
            );
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use crate::model::OriginKind;
    use crate::scanner::{scan, ScanSettings};
    use crate::source::SourceFile;

    fn infer(code: &str) -> crate::infer::Inferred {
        let f = SourceFile::new("src/lib.rs", code.to_string());
        let scanned = scan(std::slice::from_ref(&f), &ScanSettings::default());
        crate::infer::infer_with(
            std::path::Path::new("."),
            Default::default(),
            &scanned.tables,
            &scanned.operations,
            &[f],
        )
    }

    fn keys(inf: &crate::infer::Inferred) -> Vec<(String, String, Option<String>)> {
        inf.model
            .tables
            .iter()
            .map(|t| (t.name.clone(), t.partition_key.clone(), t.sort_key.clone()))
            .collect()
    }

    #[test]
    fn a_get_item_key_is_the_partition_key_and_a_query_orders_two() {
        let inf = infer(
            r##"
async fn get(c: &Client, id: &str) {
    c.get_item().table_name("Pets").key("petID", AttributeValue::S(id.into())).send().await;
    c.delete_item().table_name("Pets").key("petID", AttributeValue::S(id.into())).send().await;
}
struct Repo { event_table: String }
impl Repo {
    async fn events(&self, c: &Client, id: &str) {
        c.query()
            .table_name(&self.event_table)
            .key_condition_expression("#id = :id AND #seq > :seq")
            .expression_attribute_names("#id", "AggregateId")
            .expression_attribute_names("#seq", "Sequence")
            .expression_attribute_values(":id", AttributeValue::S(id.into()))
            .expression_attribute_values(":seq", AttributeValue::N("0".into()))
            .send().await;
    }
}
"##,
        );
        assert_eq!(
            keys(&inf),
            [
                ("Pets".into(), "petID".into(), None),
                (
                    "{event_table}".into(),
                    "AggregateId".into(),
                    Some("Sequence".into())
                ),
            ],
            "{:?}",
            inf.notes
        );
        let pets = &inf.model.tables[0];
        assert_eq!(pets.origin.kind, OriginKind::Usage);
        assert_eq!(pets.attribute("petID").map(|a| a.ty.as_str()), Some("S"));
        assert_eq!(inf.model.tables[1].refs, ["event_table"]);
        assert_eq!(
            inf.model.tables[1]
                .attribute("Sequence")
                .map(|a| a.ty.as_str()),
            Some("N")
        );
    }

    /// A parameter, or a local it is copied into, is whatever each call passes: a
    /// library's `table: &str` that nothing in the crate calls is unknown, not a table
    /// named `{table}`.
    #[test]
    fn a_parameter_is_never_a_table_of_its_own() {
        let inf = infer(
            r##"
pub async fn get(c: &Client, table: &str, id: &str) {
    c.get_item().table_name(table).key("id", AttributeValue::S(id.into())).send().await;
}
pub async fn remove(c: &Client, table_name: String, id: &str) {
    let t = table_name.clone();
    c.delete_item().table_name(&t).key("id", AttributeValue::S(id.into())).send().await;
}
"##,
        );
        assert!(inf.model.tables.is_empty(), "{:?}", keys(&inf));
        assert!(inf.notes.is_empty(), "{:?}", inf.notes);
    }

    /// What the calls do not settle is a note, never a guess at the order of two keys
    /// or at whether a sort key exists.
    #[test]
    fn keys_the_calls_do_not_settle_are_notes() {
        let inf = infer(
            r##"
async fn f(c: &Client, a: &str, b: &str) {
    c.get_item().table_name("two").key("a", AttributeValue::S(a.into())).key("b", AttributeValue::S(b.into())).send().await;
    c.query().table_name("open").key_condition_expression("pk = :pk").send().await;
    c.get_item().table_name("mixed").key("a", AttributeValue::S(a.into())).send().await;
    c.get_item().table_name("mixed").key("b", AttributeValue::S(b.into())).send().await;
    c.put_item().table_name("put-only").item("a", AttributeValue::S(a.into())).send().await;
}
"##,
        );
        assert!(inf.model.tables.is_empty(), "{:?}", keys(&inf));
        let notes = inf.notes.join("\n");
        assert!(
            notes.contains("`two` is declared nowhere")
                && notes.contains("no query says which is the partition key"),
            "{notes}"
        );
        assert!(notes.contains("whether it has a sort key"), "{notes}");
        assert!(notes.contains("different keys"), "{notes}");
        assert!(!notes.contains("put-only"), "{notes}");
    }

    /// A declared table always wins: calls that bind to it are no evidence.
    #[test]
    fn a_declared_table_is_never_replaced() {
        let inf = infer(
            r##"
async fn setup(c: &Client) {
    c.create_table().table_name("orders")
        .key_schema(KeySchemaElement::builder().attribute_name("pk").key_type(KeyType::Hash).build().unwrap())
        .send().await;
}
async fn get(c: &Client, id: &str) {
    c.get_item().table_name("orders").key("id", AttributeValue::S(id.into())).send().await;
}
"##,
        );
        assert_eq!(keys(&inf), [("orders".into(), "pk".into(), None)]);
        assert_eq!(inf.model.tables[0].origin.kind, OriginKind::RustCode);
    }
}
