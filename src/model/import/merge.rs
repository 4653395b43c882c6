//! Putting tables from several files together, and onto a `dynalint.toml` model.
//!
//! One table declared in two places with the same keys is one table (its refs and
//! indexes joined). With different keys it is a note naming both places: the first
//! declaration (in path order; the `dynalint.toml`'s, for a model) is kept, and the note
//! says so — never a silent choice.

use std::collections::HashMap;

use super::{ImportNote, Imported};
use crate::model::types::{Model, Table, TableOrigin};

/// `pk` or `pk, sk`.
fn keys(t: &Table) -> String {
    match &t.sort_key {
        Some(sk) => format!("({}, {sk})", t.partition_key),
        None => format!("({})", t.partition_key),
    }
}

fn place(o: &TableOrigin) -> String {
    let path = o.path.to_string_lossy().replace('\\', "/");
    if o.line > 0 {
        format!("{path}:{}", o.line)
    } else {
        path
    }
}

/// True when two declarations agree on what decides where items live: the table's keys.
fn same_keys(a: &Table, b: &Table) -> bool {
    a.partition_key == b.partition_key && a.sort_key == b.sort_key
}

/// The refs, indexes, attribute types, billing and table class `extra` declares that
/// `kept` lacks.
fn join(kept: &mut Table, extra: &Table) {
    if kept.billing_mode.is_none() {
        kept.billing_mode = extra.billing_mode;
    }
    if kept.provisioned.is_none() {
        kept.provisioned = extra.provisioned;
    }
    if kept.table_class.is_none() {
        kept.table_class = extra.table_class;
    }
    if kept.replicas.is_empty() {
        kept.replicas = extra.replicas.clone();
    }
    for r in &extra.refs {
        if !kept.refs.contains(r) {
            kept.refs.push(r.clone());
        }
    }
    for i in &extra.indexes {
        if kept.index(&i.name).is_none() {
            let mut i = i.clone();
            // Spans index into the kept table's file; the other file's would mislead.
            i.span = kept.span;
            i.name_span = kept.name_span;
            i.fields = Default::default();
            kept.indexes.push(i);
        }
    }
    for (name, a) in &extra.attributes {
        if !kept.attributes.contains_key(name) {
            let mut a = a.clone();
            a.span = kept.span;
            a.name_span = kept.name_span;
            a.fields = Default::default();
            kept.attributes.insert(name.clone(), a);
        }
    }
}

fn conflict(kept: &Table, other: &Table) -> ImportNote {
    ImportNote {
        path: other.origin.path.clone(),
        line: other.origin.line,
        span: other.name_span,
        message: format!(
            "table `{}` is declared with keys {} here and with keys {} at {}; \
             the declaration at {} is used — remove the stale one, or declare the \
             table in `dynalint.toml`",
            other.name,
            keys(other),
            keys(kept),
            place(&kept.origin),
            place(&kept.origin),
        ),
    }
}

/// Adds `more` to `into`: tables by name, conflicts as notes. Each table, variable and
/// parameter is looked up by name (not searched for among every table), so a project
/// of tens of thousands of tables merges in time linear in its size per file.
pub fn merge(into: &mut Imported, more: Imported) {
    into.notes.extend(more.notes);
    into.files.extend(more.files);
    into.env_names.extend(more.env_names);
    into.env_params.extend(more.env_params);
    into.parameter_tables.extend(more.parameter_tables);
    into.env_parameters.extend(more.env_parameters);
    // The first table of each name (a file may declare one twice).
    let mut by_name: HashMap<String, usize> = HashMap::with_capacity(into.tables.len());
    for (i, t) in into.tables.iter().enumerate() {
        by_name.entry(t.name.clone()).or_insert(i);
    }
    for t in more.tables {
        match by_name.get(&t.name).and_then(|i| into.tables.get_mut(*i)) {
            Some(kept) if same_keys(kept, &t) => join(kept, &t),
            Some(kept) => {
                let note = conflict(kept, &t);
                into.notes.push(note);
            }
            None => {
                by_name.insert(t.name.clone(), into.tables.len());
                into.tables.push(t);
            }
        }
    }
    // Variables of one file that name a table of another.
    for (var, name) in &into.env_names {
        if let Some(t) = by_name.get(name).and_then(|i| into.tables.get_mut(*i)) {
            if !t.refs.contains(var) {
                t.refs.push(var.clone());
            }
        }
    }
    // Variables handed an SSM parameter that holds a table's name.
    if !into.env_parameters.is_empty() {
        let mut held: HashMap<&str, Vec<&str>> = HashMap::new();
        for (p, t) in &into.parameter_tables {
            held.entry(p).or_default().push(t);
        }
        for (var, parameter) in &into.env_parameters {
            for name in held.get(parameter.as_str()).into_iter().flatten() {
                if let Some(t) = by_name.get(*name).and_then(|i| into.tables.get_mut(*i)) {
                    if !t.refs.contains(var) {
                        t.refs.push(var.clone());
                    }
                }
            }
        }
    }
    // Variables handed a stack parameter named after exactly one table.
    if into.env_params.is_empty() {
        return;
    }
    let named = NamedAfter::new(&into.tables);
    for (var, param) in &into.env_params {
        if let Some(t) = named.only(param).and_then(|i| into.tables.get_mut(i)) {
            if !t.refs.contains(var) {
                t.refs.push(var.clone());
            }
        }
    }
}

/// The tables a stack parameter may be named after: its logical id or its name, with
/// `Name` or `Arn` after it (`AccountsTableName` for `AccountsTable`), or the same
/// words with `Table` left out (`OrdersTableName` for a table `Orders`), compared
/// without case.
struct NamedAfter {
    /// Lowercased id or name → tables.
    exact: HashMap<String, Vec<usize>>,
    /// The same without a trailing `table` → tables.
    bare: HashMap<String, Vec<usize>>,
}

impl NamedAfter {
    fn new(tables: &[Table]) -> Self {
        let mut n = Self {
            exact: HashMap::new(),
            bare: HashMap::new(),
        };
        for (i, t) in tables.iter().enumerate() {
            for c in [t.origin.id.as_deref(), Some(t.name.as_str())]
                .into_iter()
                .flatten()
            {
                n.exact.entry(c.to_ascii_lowercase()).or_default().push(i);
                n.bare.entry(bare(c)).or_default().push(i);
            }
        }
        n
    }

    /// The one table `param` is named after, if exactly one is.
    fn only(&self, param: &str) -> Option<usize> {
        let p = param
            .strip_suffix("Name")
            .or_else(|| param.strip_suffix("Arn"))
            .unwrap_or(param);
        let b = bare(p);
        let mut found: Vec<usize> = self
            .exact
            .get(&p.to_ascii_lowercase())
            .into_iter()
            .chain(self.bare.get(&b).filter(|_| !b.is_empty()))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found.dedup();
        match found.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// Lowercased, without a trailing `table`.
fn bare(s: &str) -> String {
    let s = s.to_ascii_lowercase();
    s.strip_suffix("table").map(str::to_string).unwrap_or(s)
}

/// Gives a `[[table]]` that leaves its keys to an imported file (it only adds figures)
/// the keys and attribute types of the imported table of the same name, before the
/// model is validated.
pub fn fill_keys(model: &mut Model, imported: &Imported) {
    for kept in &mut model.tables {
        if !kept.partition_key.is_empty() {
            continue;
        }
        if let Some(t) = imported.tables.iter().find(|t| t.name == kept.name) {
            kept.partition_key = t.partition_key.clone();
            kept.sort_key = t.sort_key.clone();
            join(kept, t);
        }
    }
}

/// Puts imported tables into a `dynalint.toml` model. The TOML always wins: a table it
/// declares under the same name (or one of the imported table's refs) keeps its keys
/// and figures, and gains the imported refs and indexes it does not declare; keys
/// that differ are a note. Other imported tables join the model as they are.
pub fn apply_to_model(model: &mut Model, imported: Imported) -> Vec<ImportNote> {
    let mut notes = imported.notes;
    for t in imported.tables {
        let own = model
            .tables
            .iter_mut()
            .find(|k| k.name == t.name || t.refs.iter().any(|r| k.is_named_by(r)));
        match own {
            Some(kept) => {
                if same_keys(kept, &t) {
                    join(kept, &t);
                } else {
                    notes.push(conflict(kept, &t));
                }
            }
            None => model.tables.push(t),
        }
    }
    notes
}
