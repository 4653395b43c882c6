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
//! partition key (a sort key may exist) give no table and a note instead. Two key
//! attributes named as a pair (`PK`/`SK`, `GSI1PK`/`GSI1SK`, `hash_key`/`range_key`)
//! are ordered by their names: single-table designs name them so; two equalities beside
//! a Query on one of them alone are the partition key and the sort key. A key condition
//! appended to in branches is read on each path.
//!
//! A table is named as its calls name it: a literal; an env var nothing declares
//! (`{APP_TABLE}`, the var its ref); a name built around its own
//! (`format!("{}{}", prefix, TABLE_USERS)`: `{1}tsa_users`, which every call building
//! the same shape binds to); the field or const that holds it (`self.event_table`).
//!
//! Such a table's indexes are the ones its Queries name (`.index_name("by-type")`),
//! keyed as their key conditions agree (`item_type = :t`; `AND sk > :s` gives the sort
//! key): a Query of an index that does not exist is rejected, so each working one says
//! the index is there (a reserved word written unaliased, which DynamoDB rejects and
//! rejected-request reports, still names the attribute meant). Its projection is not known (`ALL` is assumed, so no finding
//! rests on it), and an index the queries disagree on is a note, not an index. An
//! index partition key that every Query of it reads one item by (its first item only,
//! `limit(1)`, no filter) is `unique`: the code finds one item per value.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use crate::attr::AttributeType;
use crate::expr::ast::{Comparator, Condition, Function, Operand, PathElement};
use crate::facts::bind::{affixed_name, bind, holder_name, skeleton};
use crate::model::{
    Attribute, Index, IndexKind, Model, OriginKind, Projection, Table, TableOrigin,
};
use crate::scanner::{OpKind, Operation, Resolved};
use crate::source::SourceFile;

use super::from_code::CodeNote;

/// How the calls name a table nothing declares: by its name, or by the field or
/// variable that holds it (`self.event_table`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Naming {
    Name(String),
    Holder(String),
    Env(String),
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
    /// The Queries of each index the calls name, by its name.
    indexes: IndexMap<String, IndexEvidence<'o>>,
}

/// The Queries of one index: what each key condition fixes.
struct IndexEvidence<'o> {
    /// The first Query, where the index is said to come from.
    first: &'o Operation,
    reads: Vec<KeyRead>,
    /// A Query reads it strongly consistently: only a local index allows that.
    consistent: bool,
    /// Every Query of it fixes its partition key alone and reads one item at most, with
    /// no filter (`items.into_iter().next()`, `limit(1)`): the code finds one item per
    /// value of that key.
    one_item: bool,
}

/// What one key condition says of the key it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
enum KeyRead {
    /// `pk = :v`: the partition key; whether there is a sort key is not said.
    Partition(String),
    /// `pk = :v AND sk > :s`: both, in order.
    Both(String, String),
    /// `a = :a AND b = :b`: the two key attributes, order unknown.
    Pair(BTreeSet<String>),
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
        let Some(naming) = naming(model, op) else {
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
        let line = line_of(files, first);
        let shown = match &naming {
            Naming::Name(n) => format!("`{n}`"),
            Naming::Holder(h) => format!("the table in `{h}`"),
            Naming::Env(v) => format!("the table `{v}` names"),
        };
        match key_of(&e) {
            Ok(Some((pk, sk))) => {
                let mut t = table(naming, pk, sk, first, line);
                let (found, why) = indexes(&t, &e, |op| line_of(files, op));
                t.indexes = found;
                add_key_types(&mut t, &e, first);
                mark_unique(&mut t, &e);
                notes.extend(why);
                out.push(t);
            }
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

/// The 1-based line an operation starts on; 0 when its file is not among `files`.
fn line_of(files: &[SourceFile], op: &Operation) -> usize {
    files
        .iter()
        .find(|f| f.path == op.file)
        .map(|f| f.line_col(op.span.start).line)
        .unwrap_or(0)
}

fn flatten<'o>(op: &'o Operation, out: &mut Vec<&'o Operation>, depth: usize) {
    out.push(op);
    if depth < 4 {
        for c in &op.children {
            flatten(c, out, depth + 1);
        }
    }
}

fn naming(model: &Model, op: &Operation) -> Option<Naming> {
    let t = op.table.as_ref()?;
    match t.innermost() {
        Resolved::Literal { value } => Some(Naming::Name(value.clone())),
        Resolved::Unknown { .. } => {
            shared_holder(op.table_text.as_deref()?).map(|h| Naming::Holder(h.to_string()))
        }
        // A name built around a table's own name (`format!("{}{}", prefix, TABLE_USERS)`
        // is `{}tsa_users`): the table of that shape, as `create_table` names one
        // (`{1}tsa_users`), which every call building the same shape binds to. One
        // with no name of its own (`{}{}`, `{}-{}`) would bind other tables' calls.
        // A declared table of that shape or name that the call did not bind to is one
        // of several that fit it: which one is not known, and a table of its own would
        // be a third.
        Resolved::Template { template }
            if names_a_table(template) && !declared(model, template) =>
        {
            Some(Naming::Name(super::from_code::numbered(template)))
        }
        // An env var nothing declares as a ref (a template's would have bound the
        // call): the table that var names, `{VAR}`, as `create_table` names one.
        Resolved::Env { var } => Some(Naming::Env(var.clone())),
        _ => None,
    }
}

/// Whether a declared table has the shape of a built name (`Users_{EnvironmentName}`
/// for `Users_{}`) or is the name it is built around (`tsa_users` for `{}tsa_users`).
fn declared(model: &Model, template: &str) -> bool {
    let shape = skeleton(template);
    let core = affixed_name(template);
    model.tables.iter().any(|t| {
        Some(t.name.as_str()) == core
            || (t.name_template().is_some() && shape.is_some() && skeleton(&t.name) == shape)
    })
}

/// Whether a built name has a part of its own besides its holes and separators.
fn names_a_table(template: &str) -> bool {
    let mut own = 0;
    let mut depth = 0;
    for c in template.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && c.is_alphanumeric() => own += 1,
            _ => {}
        }
    }
    own >= 3
}

/// The holder of an unknown table name that names one table wherever it is read: a
/// field (`self.event_table`, `config.orders_table`: one configuration) or a
/// crate-wide const or static. A parameter or a local (`table: &str`) holds whatever
/// each call passes or computes there: its value is its callers' or unknown, never a
/// table of its own.
pub(super) fn shared_holder(text: &str) -> Option<&str> {
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
        OpKind::Query => {
            for k in key_reads(op, &mut e.types) {
                query_read(op, k, e);
            }
        }
        _ => {}
    }
}

/// Adds what one key condition of a Query says.
fn query_read<'o>(op: &'o Operation, k: KeyRead, e: &mut Evidence<'o>) {
    match op.index.as_ref() {
        None => match k {
            KeyRead::Partition(pk) => e.queries.push((pk, None)),
            KeyRead::Both(pk, sk) => e.queries.push((pk, Some(sk))),
            KeyRead::Pair(p) => e.pairs.push(p),
        },
        Some(index) => {
            // An index named by a value the scanner cannot read says nothing.
            let Some(name) = index.value() else {
                return;
            };
            let ix = e
                .indexes
                .entry(name.to_string())
                .or_insert_with(|| IndexEvidence {
                    first: op,
                    reads: Vec::new(),
                    consistent: false,
                    one_item: true,
                });
            ix.one_item &= matches!(k, KeyRead::Partition(_)) && reads_one_item(op);
            ix.reads.push(k);
            ix.consistent |= op.consistent_read == Some(true);
        }
    }
}

/// Whether the code reads at most one item of what a Query returns, none hidden by a
/// filter: its first item only, or a limit of one.
fn reads_one_item(op: &Operation) -> bool {
    let limit_one = op
        .limit
        .as_ref()
        .is_some_and(|l| !l.nullable && l.literal.as_deref() == Some("1"));
    op.filter.is_none() && (op.first_item_only || limit_one)
}

/// What a Query's key condition fixes: one read, or one per path when the code
/// appends to the condition in branches (`pk = :pk`, `pk = :pk AND ts >= :start`),
/// each a key condition the Query sends. Empty when one does not read.
fn key_reads(op: &Operation, types: &mut IndexMap<String, AttributeType>) -> Vec<KeyRead> {
    let Some(k) = op.key_condition.as_ref() else {
        return Vec::new();
    };
    if let Some(text) = k.text.value() {
        return key_read(op, text, types).into_iter().collect();
    }
    let reads: Option<Vec<KeyRead>> = k
        .paths
        .iter()
        .map(|text| key_read(op, text, types))
        .collect();
    reads.unwrap_or_default()
}

/// What one key condition fixes, the types its values show added to `types`; `None`
/// for a condition that cannot be read or is no key condition DynamoDB takes.
fn key_read(
    op: &Operation,
    text: &str,
    types: &mut IndexMap<String, AttributeType>,
) -> Option<KeyRead> {
    // A reserved word unaliased is rejected-request's to report; the attribute it
    // names is still the key the author queries by.
    let cond = crate::expr::parse_key_condition_as_meant(text).ok()?;
    let mut leaves = Vec::new();
    if !and_leaves(&cond, &mut leaves, 0) {
        return None;
    }
    let mut equal = Vec::new();
    let mut range = Vec::new();
    for (attr, value, eq) in leaves {
        let name = attribute_name(op, &attr)?;
        if let Some(ty) = value.and_then(|v| op.values.get(&v)).and_then(|v| v.ty) {
            types.entry(name.clone()).or_insert(ty);
        }
        if eq {
            equal.push(name);
        } else {
            range.push(name);
        }
    }
    match (equal.as_slice(), range.as_slice()) {
        ([pk], []) => Some(KeyRead::Partition(pk.clone())),
        ([pk], [sk]) if pk != sk => Some(KeyRead::Both(pk.clone(), sk.clone())),
        ([a, b], []) if a != b => Some(KeyRead::Pair([a.clone(), b.clone()].into())),
        _ => None,
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
            _ => match named_pair(k) {
                Some((pk, sk)) => (pk, Some(sk)),
                None => {
                    return Err(format!(
                        "its calls address items by {}, and no query says which is the partition key",
                        list(k)
                    ))
                }
            },
        },
        (None, None) => match (queried_pk, from_pairs) {
            // `pk = :v` in one Query and `pk = :v AND sk = :s` in another: a key
            // condition's two equalities are the whole key, and the first says which
            // one is the partition key.
            (Some(pk), Some(p)) if p.contains(pk) && e.pairs.iter().all(|q| q == p) => {
                (pk.clone(), p.iter().find(|a| *a != pk).cloned())
            }
            (Some(pk), _) => {
                return Err(format!(
                    "its queries fix the partition key {pk}, and no call says whether it has a sort key"
                ))
            }
            (None, Some(p)) => match named_pair(p) {
                Some((pk, sk)) if e.pairs.iter().all(|q| q == p) => (pk, Some(sk)),
                _ => {
                    return Err(format!(
                        "its queries fix {}, and no call says which is the partition key",
                        list(p)
                    ))
                }
            },
            (None, None) => return Ok(None),
        },
    };
    Ok(Some(found))
}

/// Two key attributes whose names say which is which: `PK`/`SK`, `GSI1PK`/`GSI1SK`,
/// `partition_key`/`sort_key`, `hash_key`/`range_key` (any case, `_` or `-` ignored),
/// as (partition key, sort key).
fn named_pair(k: &BTreeSet<String>) -> Option<(String, String)> {
    let mut it = k.iter();
    let (a, b) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let folded = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (fa, fb) = (folded(a), folded(b));
    const PAIRS: [(&str, &str); 4] = [
        ("pk", "sk"),
        ("partitionkey", "sortkey"),
        ("hashkey", "rangekey"),
        ("hash", "range"),
    ];
    PAIRS.iter().find_map(|(p, s)| {
        let stem = |x: &str, end: &str| x.strip_suffix(end).map(str::to_string);
        if stem(&fa, p).is_some() && stem(&fa, p) == stem(&fb, s) {
            Some((a.clone(), b.clone()))
        } else if stem(&fb, p).is_some() && stem(&fb, p) == stem(&fa, s) {
            Some((b.clone(), a.clone()))
        } else {
            None
        }
    })
}

/// The indexes a table's Queries name, each keyed as all its Queries agree; a note
/// for each whose Queries disagree or do not say which key is which.
fn indexes(
    t: &Table,
    e: &Evidence<'_>,
    line_of: impl Fn(&Operation) -> usize,
) -> (Vec<Index>, Vec<CodeNote>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (name, ix) in &e.indexes {
        match index_key(&ix.reads) {
            Ok((pk, sk)) => {
                let local = ix.consistent && pk == t.partition_key;
                // Spans index into the file the table is said to come from.
                let span = if ix.first.file == t.origin.path {
                    ix.first.span
                } else {
                    t.span
                };
                out.push(Index {
                    name: name.clone(),
                    kind: if local {
                        IndexKind::Local
                    } else {
                        IndexKind::Global
                    },
                    partition_key: pk,
                    sort_key: sk,
                    projection: Projection::All,
                    provisioned: None,
                    span,
                    name_span: span,
                    fields: Default::default(),
                });
            }
            Err(why) => notes.push(CodeNote {
                file: ix.first.file.clone(),
                line: line_of(ix.first),
                span: ix.first.span,
                message: format!(
                    "index `{name}` of `{}` is declared nowhere, and its key is not inferred from its queries: {why}",
                    t.name
                ),
            }),
        }
    }
    (out, notes)
}

/// The key every Query of one index agrees on.
fn index_key(reads: &[KeyRead]) -> Result<(String, Option<String>), String> {
    let mut pks: BTreeSet<&String> = BTreeSet::new();
    let mut sks: BTreeSet<&String> = BTreeSet::new();
    let mut pairs: BTreeSet<&BTreeSet<String>> = BTreeSet::new();
    for r in reads {
        match r {
            KeyRead::Partition(pk) => {
                pks.insert(pk);
            }
            KeyRead::Both(pk, sk) => {
                pks.insert(pk);
                sks.insert(sk);
            }
            KeyRead::Pair(p) => {
                pairs.insert(p);
            }
        }
    }
    if pks.len() > 1 || sks.len() > 1 || pairs.len() > 1 {
        return Err("its queries fix different key attributes".into());
    }
    let pair = pairs.into_iter().next();
    let (pk, sk) = match (pks.into_iter().next(), pair) {
        (Some(pk), None) => (pk.clone(), sks.into_iter().next().cloned()),
        (Some(pk), Some(p)) => {
            let other = p.iter().find(|a| *a != pk);
            match (p.contains(pk), other, sks.into_iter().next()) {
                (true, Some(o), None) => (pk.clone(), Some(o.clone())),
                (true, Some(o), Some(sk)) if o == sk => (pk.clone(), Some(sk.clone())),
                _ => return Err("its queries fix different key attributes".into()),
            }
        }
        (None, Some(p)) => match named_pair(p) {
            Some((pk, sk)) => (pk, Some(sk)),
            None => {
                return Err(format!(
                    "its queries fix {}, and no query says which is the partition key",
                    list(p)
                ))
            }
        },
        (None, None) => return Err("no query of it can be read".into()),
    };
    Ok((pk, sk))
}

fn list(k: &BTreeSet<String>) -> String {
    k.iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(" and ")
}

fn table(naming: Naming, pk: String, sk: Option<String>, first: &Operation, line: usize) -> Table {
    let (name, refs) = match naming {
        Naming::Name(n) => (n, Vec::new()),
        // Named by what holds it: a placeholder no literal name fits, and the holder
        // as a ref, as a `dynalint.toml` would write it.
        Naming::Holder(h) | Naming::Env(h) => (format!("{{{h}}}"), vec![h]),
    };
    let origin = TableOrigin {
        kind: OriginKind::Usage,
        path: first.file.clone(),
        line,
        id: None,
    };
    super::from_code::blank(name, refs, pk, sk, first.span, origin)
}

/// An index partition key the code finds one item by wherever it reads it (every
/// Query of every index keyed by it takes the first item only) is `unique`: the code
/// relies on one item per value, as a `dynalint.toml` would say it.
fn mark_unique(t: &mut Table, e: &Evidence<'_>) {
    let one_item = |attr: &str| {
        t.indexes
            .iter()
            .filter(|i| i.partition_key == attr)
            .all(|i| e.indexes.get(&i.name).is_some_and(|ix| ix.one_item))
    };
    let unique: Vec<String> = t
        .indexes
        .iter()
        .filter(|i| i.sort_key.is_none() && i.partition_key != t.partition_key)
        .map(|i| i.partition_key.clone())
        .filter(|a| one_item(a))
        .collect();
    for a in unique {
        if let Some(attr) = t.attributes.get_mut(&a) {
            attr.unique = true;
        }
    }
}

/// The types the calls show for the table's and its indexes' key attributes.
fn add_key_types(t: &mut Table, e: &Evidence<'_>, first: &Operation) {
    let keys: Vec<String> = std::iter::once(&t.partition_key)
        .chain(&t.sort_key)
        .chain(
            t.indexes
                .iter()
                .flat_map(|i| std::iter::once(&i.partition_key).chain(&i.sort_key)),
        )
        .cloned()
        .collect();
    for attr in keys {
        if t.attributes.contains_key(&attr) {
            continue;
        }
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

    /// Two lambdas on one console-made table: one lists an industry's tools by the
    /// partition key alone, the other reads one tool by both keys. The two equalities
    /// are the whole key and the first Query says which is the partition key. A
    /// repository method appends a range on the timestamp only when it is given one:
    /// each path is a key condition the Query sends, and together they key the table.
    #[test]
    fn key_conditions_of_several_queries_and_of_each_path_key_the_table() {
        let inf = infer(
            r##"
const TOOLS_TABLE_NAME: &str = "Cyber_Tools";
async fn tools_in_industry(client: &Client, industry: &str) -> Result<QueryOutput, Error> {
    client.query().table_name(TOOLS_TABLE_NAME)
        .key_condition_expression("Tool_Function = :industry")
        .expression_attribute_values(":industry", AttributeValue::S(industry.to_owned()))
        .send().await
}
async fn one_tool(client: &Client, industry: String, id: String) -> Result<QueryOutput, Error> {
    client.query().table_name("Cyber_Tools")
        .key_condition_expression("#tf = :Tool_Function AND #tid = :Tool_ID")
        .expression_attribute_names("#tf", "Tool_Function")
        .expression_attribute_names("#tid", "Tool_ID")
        .expression_attribute_values(":Tool_Function", AttributeValue::S(industry))
        .expression_attribute_values(":Tool_ID", AttributeValue::S(id))
        .send().await
}
pub struct UsageRepository { client: Arc<DynamoDbClient> }
impl UsageRepository {
    pub async fn usage_by_key(&self, api_key: &str, since: Option<i64>) -> Result<QueryOutput, Error> {
        let mut key_condition = "api_key = :api_key".to_string();
        let mut values = vec![(":api_key", AttributeValue::S(api_key.to_string()))];
        if let Some(start) = since {
            key_condition.push_str(" AND #ts >= :start");
            values.push((":start", AttributeValue::S(start.to_string())));
        }
        let mut query = self.client.client().query()
            .table_name(self.client.usage_table())
            .key_condition_expression(key_condition)
            .expression_attribute_names("#ts", "timestamp");
        for (name, value) in values {
            query = query.expression_attribute_values(name, value);
        }
        query.send().await
    }
}
"##,
        );
        assert_eq!(
            keys(&inf),
            [
                (
                    "Cyber_Tools".into(),
                    "Tool_Function".into(),
                    Some("Tool_ID".into())
                ),
                (
                    "{usage_table}".into(),
                    "api_key".into(),
                    Some("timestamp".into())
                ),
            ],
            "{:?}",
            inf.notes
        );
    }

    /// An index partition key is unique when every query of every index keyed by it
    /// reads one item (the first, or `limit(1)`) with no filter; one index of it that a
    /// query lists, or a filter that can hide the item a later page holds, and it is not.
    #[test]
    fn a_key_every_read_of_which_finds_one_item_is_unique() {
        let inf = infer(
            r##"
pub struct Users { client: Client }
impl Users {
    async fn by_email(&self, email: &str) -> Option<HashMap<String, AttributeValue>> {
        let out = self.client.query().table_name("users").index_name("email-index")
            .key_condition_expression("email = :email")
            .expression_attribute_values(":email", AttributeValue::S(email.into()))
            .limit(1)
            .send().await.ok()?;
        out.items?.into_iter().next()
    }
    async fn by_team(&self, team: &str) -> Option<HashMap<String, AttributeValue>> {
        let out = self.client.query().table_name("users").index_name("team-index")
            .key_condition_expression("team_id = :team")
            .expression_attribute_values(":team", AttributeValue::S(team.into()))
            .send().await.ok()?;
        out.items?.into_iter().next()
    }
    async fn members(&self, team: &str) -> Vec<HashMap<String, AttributeValue>> {
        let out = self.client.query().table_name("users").index_name("team-by-name-index")
            .key_condition_expression("team_id = :team")
            .expression_attribute_values(":team", AttributeValue::S(team.into()))
            .send().await.unwrap();
        out.items.unwrap_or_default()
    }
    async fn active_by_phone(&self, phone: &str) -> Option<HashMap<String, AttributeValue>> {
        let out = self.client.query().table_name("users").index_name("phone-index")
            .key_condition_expression("phone = :phone")
            .filter_expression("active = :yes")
            .expression_attribute_values(":phone", AttributeValue::S(phone.into()))
            .expression_attribute_values(":yes", AttributeValue::Bool(true))
            .send().await.ok()?;
        out.items?.into_iter().next()
    }
    async fn remove(&self, id: &str) {
        self.client.delete_item().table_name("users").key("id", AttributeValue::S(id.into())).send().await;
    }
}
"##,
        );
        let users = &inf.model.tables[0];
        let unique: Vec<&str> = users
            .attributes
            .values()
            .filter(|a| a.unique)
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(unique, ["email"], "{:?}", users.attributes.keys());
        assert!(users.attribute("team_id").is_some() && users.attribute("phone").is_some());
    }

    /// A single-table design declared nowhere: gets and updates by `PK` and `SK` (named
    /// as the pair they are), an index of the entity kind queried on its partition key
    /// alone, and GSI1 looked up by both of its keys.
    #[test]
    fn indexes_are_the_ones_queries_name_keyed_as_they_agree() {
        let inf = infer(
            r##"
fn table_name() -> String {
    "promote-me".to_string()
}

pub async fn get_all_rss_registrations(db: &aws_sdk_dynamodb::Client) -> anyhow::Result<Vec<RssRegistration>> {
    let output = db
        .query()
        .table_name(table_name())
        .key_condition_expression("item_type = :rss")
        .index_name("item_type-index")
        .expression_attribute_values(":rss", AttributeValue::S("RSS_FEED".to_string()))
        .send()
        .await?;
    Ok(output.items.unwrap_or_default().into_iter().filter_map(|i| from_item(i).ok()).collect())
}

pub async fn get_twitch_reg_by_login(db: &aws_sdk_dynamodb::Client, login: &str) -> anyhow::Result<Option<TwitchRegistration>> {
    let output = db
        .query()
        .table_name(table_name())
        .index_name("GSI1")
        .key_condition_expression("GSI1PK = :pk AND GSI1SK = :sk")
        .expression_attribute_values(":pk", AttributeValue::S("TWITCH_LOOKUP".to_string()))
        .expression_attribute_values(":sk", AttributeValue::S(format!("LOGIN#{}", login)))
        .send()
        .await?;
    Ok(output.items.and_then(|i| i.into_iter().next()).and_then(|i| from_item(i).ok()))
}

pub async fn get_server_config(db: &aws_sdk_dynamodb::Client, guild_id: u64) -> anyhow::Result<Option<GuildConfig>> {
    let output = db
        .get_item()
        .table_name(table_name())
        .key("PK", AttributeValue::S(format!("GUILD#{}", guild_id)))
        .key("SK", AttributeValue::S("CONFIG#SETTINGS".to_string()))
        .send()
        .await?;
    Ok(output.item.and_then(|i| from_item(i).ok()))
}

pub async fn delete_registration(db: &aws_sdk_dynamodb::Client, pk: &str, sk: &str) -> anyhow::Result<()> {
    db.delete_item()
        .table_name(table_name())
        .key("PK", AttributeValue::S(pk.to_string()))
        .key("SK", AttributeValue::S(sk.to_string()))
        .send()
        .await?;
    Ok(())
}
"##,
        );
        assert_eq!(
            keys(&inf),
            [("promote-me".into(), "PK".into(), Some("SK".into()))],
            "{:?}",
            inf.notes
        );
        let t = &inf.model.tables[0];
        let got: Vec<(&str, &str, Option<&str>)> = t
            .indexes
            .iter()
            .map(|i| {
                (
                    i.name.as_str(),
                    i.partition_key.as_str(),
                    i.sort_key.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("item_type-index", "item_type", None),
                ("GSI1", "GSI1PK", Some("GSI1SK")),
            ]
        );
        assert_eq!(t.attribute("item_type").map(|a| a.ty.as_str()), Some("S"));
        assert!(inf.notes.is_empty(), "{:?}", inf.notes);
    }

    /// A key condition naming a reserved word unaliased (`action = :action`) is
    /// rejected, which rejected-request reports; the attribute it names is still the
    /// key its author queries the index by.
    #[test]
    fn a_reserved_word_in_a_key_condition_still_names_the_key() {
        let inf = infer(
            r##"
impl AuditLogRepository {
    async fn find(&self, id: Uuid) -> Result<Option<AuditLog>> {
        let result = self.client.get_item().table_name("audit_logs")
            .key("id", AttributeValue::S(id.to_string())).send().await?;
        Ok(result.item.map(Self::from_item).transpose()?)
    }

    async fn find_by_action(&self, action_str: String, limit: u32) -> Result<Vec<AuditLog>> {
        let result = self
            .client
            .query()
            .table_name("audit_logs")
            .index_name("action-index")
            .key_condition_expression("action = :action")
            .expression_attribute_values(":action", AttributeValue::S(action_str))
            .limit(limit as i32)
            .send()
            .await?;
        result.items.unwrap_or_default().iter().map(Self::from_item).collect()
    }
}
"##,
        );
        assert_eq!(keys(&inf), [("audit_logs".into(), "id".into(), None)]);
        let got: Vec<(&str, &str)> = inf.model.tables[0]
            .indexes
            .iter()
            .map(|i| (i.name.as_str(), i.partition_key.as_str()))
            .collect();
        assert_eq!(got, [("action-index", "action")], "{:?}", inf.notes);
    }

    /// Queries of one index that fix different attributes say no index, and a pair of
    /// keys whose names do not tell them apart stays unordered: both are notes.
    #[test]
    fn an_index_its_queries_disagree_on_is_a_note() {
        let inf = infer(
            r##"
async fn f(c: &Client, id: &str, a: &str, b: &str) {
    c.get_item().table_name("orders").key("order_id", AttributeValue::S(id.into())).send().await;
    c.query().table_name("orders").index_name("by-user").key_condition_expression("user_id = :u").send().await;
    c.query().table_name("orders").index_name("by-user").key_condition_expression("customer = :u").send().await;
    c.query().table_name("orders").index_name("by-pair").key_condition_expression("a = :a AND b = :b").send().await;
}
"##,
        );
        assert_eq!(keys(&inf), [("orders".into(), "order_id".into(), None)]);
        assert!(inf.model.tables[0].indexes.is_empty());
        let notes = inf.notes.join("\n");
        assert!(
            notes.contains("index `by-user` of `orders` is declared nowhere")
                && notes.contains("different key attributes"),
            "{notes}"
        );
        assert!(
            notes.contains("index `by-pair`") && notes.contains("which is the partition key"),
            "{notes}"
        );
    }

    /// Repositories that build their table's name around its own name (a prefix per
    /// deployment): the calls of one repository are one table of that shape, the
    /// other repository's another; a name built of holes alone is no table.
    #[test]
    fn a_name_built_around_a_table_s_own_name_is_a_table_of_that_shape() {
        let inf = infer(
            r##"
pub const TABLE_SESSIONS: &str = "auth_sessions";
pub const TABLE_RULES: &str = "auth_ip_rules";

pub struct SessionRepository { client: Client, table_prefix: String }

impl SessionRepository {
    fn table_name(&self) -> String {
        format!("{}{}", self.table_prefix, TABLE_SESSIONS)
    }

    pub async fn find(&self, id: &str) -> Result<Option<Session>> {
        let out = self.client.get_item()
            .table_name(self.table_name())
            .key("id", AttributeValue::S(id.to_string()))
            .send().await?;
        Ok(out.item.map(from_item).transpose()?)
    }

    pub async fn find_by_user(&self, user_id: &str) -> Result<Vec<Session>> {
        let out = self.client.query()
            .table_name(self.table_name())
            .index_name("user_id-index")
            .key_condition_expression("user_id = :user_id")
            .expression_attribute_values(":user_id", AttributeValue::S(user_id.to_string()))
            .send().await?;
        Ok(out.items.unwrap_or_default().into_iter().filter_map(|i| from_item(i).ok()).collect())
    }
}

pub struct IpRuleRepository { client: Client, table_prefix: String }

impl IpRuleRepository {
    fn table_name(&self) -> String {
        format!("{}{}", self.table_prefix, TABLE_RULES)
    }

    pub async fn delete(&self, id: &str) -> Result<()> {
        self.client.delete_item()
            .table_name(self.table_name())
            .key("rule_id", AttributeValue::S(id.to_string()))
            .send().await?;
        Ok(())
    }
}

pub async fn copy(client: &Client, env: &str, name: &str, id: &str) -> Result<()> {
    client.get_item()
        .table_name(format!("{}-{}", env, name))
        .key("pk", AttributeValue::S(id.to_string()))
        .send().await?;
    Ok(())
}
"##,
        );
        assert_eq!(
            keys(&inf),
            [
                ("{1}auth_sessions".into(), "id".into(), None),
                ("{1}auth_ip_rules".into(), "rule_id".into(), None),
            ],
            "{:?}",
            inf.notes
        );
        assert_eq!(inf.model.tables[0].indexes[0].name, "user_id-index");
    }

    /// A service whose table is handed to it in an env var, read once into its config:
    /// the table that var names, keyed as the calls agree, known by the var.
    #[test]
    fn a_table_an_env_var_names_is_a_table_of_that_var() {
        let inf = infer(
            r##"
pub struct Config { pub table_name: String }

impl Config {
    pub fn from_env() -> Self {
        Self { table_name: std::env::var("APP_TABLE").expect("APP_TABLE") }
    }
}

pub struct Db { client: Client, table_name: String }

impl Db {
    pub fn new(client: Client, config: &Config) -> Self {
        Self { client, table_name: config.table_name.clone() }
    }

    pub async fn employee(&self, id: &str) -> Result<Option<Item>> {
        let out = self.client.get_item()
            .table_name(&self.table_name)
            .key("PK", AttributeValue::S(format!("EMP#{id}")))
            .key("SK", AttributeValue::S("METADATA".to_string()))
            .send().await?;
        Ok(out.item)
    }

    pub async fn requests(&self, id: &str) -> Result<Vec<Item>> {
        let out = self.client.query()
            .table_name(&self.table_name)
            .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
            .expression_attribute_values(":pk", AttributeValue::S(format!("EMP#{id}")))
            .expression_attribute_values(":sk", AttributeValue::S("REQ#".to_string()))
            .send().await?;
        Ok(out.items.unwrap_or_default())
    }
}
"##,
        );
        assert_eq!(
            keys(&inf),
            [("{APP_TABLE}".into(), "PK".into(), Some("SK".into()))],
            "{:?}",
            inf.notes
        );
        assert_eq!(inf.model.tables[0].refs, ["APP_TABLE"]);
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
