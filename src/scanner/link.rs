//! The cross-file phase: resolves what one file could not (constants by path, fields
//! set in constructors, serialised structs), splices builders returned by or passed to
//! helper functions into their callers, and decides hot/cold from the call graph.
//! Cheap: no parsing, only lookups over the indexes.

use std::collections::HashMap;
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::fold::Escape;
use super::graph::{reach, FnId, ENTRY_PREFIX};
use super::index::FileIndex;
use super::ir::{
    AttrMap, CallStep, ColdReason, HotReason, Operation, Resolved, ScanProblem, ValueInfo,
};
use super::items::{serialise, StructDef};
use super::resolve::{PendingRef, RefKind, PENDING};
use super::{ScanResult, ScanSettings};
use crate::source::Span;

/// Links file indexes into the crate's operations.
pub fn link(files: &[Arc<FileIndex>], settings: &ScanSettings) -> ScanResult {
    let mut result = ScanResult::default();
    let linker = Linker::new(files);
    let hot_globs = globs(&settings.hot_paths, &mut result.problems);
    let cold_globs = globs(&settings.cold_paths, &mut result.problems);
    let graphs: Vec<&[super::graph::FnNode]> = files.iter().map(|f| f.fns.as_slice()).collect();
    // Files matched by a hot-paths glob: every function in them is an entry.
    let mut glob_entries: Vec<Vec<super::graph::FnNode>> = Vec::new();
    for f in files {
        let hot = hot_globs
            .as_ref()
            .and_then(|(set, pats)| set.matches(&*f.path).first().map(|i| pats[*i].clone()));
        let mut fns = f.fns.clone();
        if let Some(g) = hot {
            for n in &mut fns {
                if n.entry.is_none() && !n.test {
                    n.entry = Some(format!("hot-paths glob `{g}`"));
                }
            }
        }
        glob_entries.push(fns);
    }
    let _ = graphs;
    let graph_refs: Vec<&[super::graph::FnNode]> = glob_entries.iter().map(Vec::as_slice).collect();
    let reached = reach(&graph_refs);

    // Templates by function name: returned builders, and received ones by parameter.
    let mut returned: HashMap<&str, Vec<&Operation>> = HashMap::new();
    let mut received: HashMap<(&str, usize), Vec<&super::fold::Template>> = HashMap::new();
    for f in files {
        for t in &f.templates {
            match t.param {
                None => returned.entry(t.function.as_str()).or_default().push(&t.op),
                Some(i) => received
                    .entry((t.function.as_str(), i))
                    .or_default()
                    .push(t),
            }
        }
    }
    let _ = &returned;

    for (fi, f) in files.iter().enumerate() {
        result.problems.extend(f.problems.iter().cloned());
        let cold_glob = cold_globs
            .as_ref()
            .and_then(|(set, pats)| set.matches(&*f.path).first().map(|i| pats[*i].clone()));
        for (op, escape) in &f.ops {
            let mut op = op.clone();
            if let Escape::Passed { function, index } = escape {
                if let Some(ts) = received.get(&(function.as_str(), *index)) {
                    for t in ts {
                        let other = t.op.file != op.file;
                        overlay(&mut op, &t.op, other);
                    }
                }
            }
            linker.resolve_op(fi, &mut op, 0);
            decide_heat(
                &mut op,
                fi,
                &glob_entries,
                &reached,
                files,
                cold_glob.as_deref(),
            );
            result.operations.push(op);
        }
    }
    result
        .operations
        .sort_by(|a, b| (&a.file, a.span.start).cmp(&(&b.file, b.span.start)));
    result.problems.sort_by(|a, b| {
        (&a.file, a.span.map(|s| s.start)).cmp(&(&b.file, b.span.map(|s| s.start)))
    });
    result
}

/// The hot chain or cold reason of an operation's enclosing function.
fn decide_heat(
    op: &mut Operation,
    fi: usize,
    graphs: &[Vec<super::graph::FnNode>],
    reached: &HashMap<FnId, (String, Vec<FnId>)>,
    files: &[Arc<FileIndex>],
    cold_glob: Option<&str>,
) {
    if let Some(g) = cold_glob {
        op.context.cold.get_or_insert(ColdReason::ColdPathGlob {
            glob: g.to_string(),
        });
    }
    let Some(func) = op.context.function.clone() else {
        return;
    };
    let Some(fns) = graphs.get(fi) else { return };
    // The innermost function with that qualified name that contains the call.
    let found = fns
        .iter()
        .enumerate()
        .filter(|(_, n)| n.qualified == func && n.span.start <= op.span.start)
        .max_by_key(|(_, n)| n.span.start);
    let Some((index, node)) = found else { return };
    if node.test {
        op.context.cold.get_or_insert(ColdReason::Test);
    }
    if node.one_off_main && node.entry.is_none() {
        op.context.cold.get_or_insert(ColdReason::OneOffBinary);
    }
    if op.context.cold.is_some() {
        return;
    }
    if let Some((entry, chain)) = reached.get(&FnId { file: fi, index }) {
        let steps = chain
            .iter()
            .filter_map(|id| {
                let n = graphs.get(id.file)?.get(id.index)?;
                let f = files.get(id.file)?;
                if n.name.starts_with(ENTRY_PREFIX) {
                    return None;
                }
                Some(CallStep {
                    function: n.qualified.clone(),
                    file: f.path.clone(),
                    span: n.span,
                })
            })
            .collect();
        op.context.hot = Some(HotReason {
            entry: entry.clone(),
            chain: steps,
        });
    }
}

fn globs(patterns: &[String], problems: &mut Vec<ScanProblem>) -> Option<(GlobSet, Vec<String>)> {
    if patterns.is_empty() {
        return None;
    }
    let mut b = GlobSetBuilder::new();
    let mut kept = Vec::new();
    for p in patterns {
        match Glob::new(p) {
            Ok(g) => {
                b.add(g);
                kept.push(p.clone());
            }
            Err(e) => problems.push(ScanProblem {
                file: Arc::from(std::path::Path::new("dynalint.toml")),
                span: None,
                message: format!("invalid path glob `{p}`: {e}"),
            }),
        }
    }
    b.build().ok().map(|s| (s, kept))
}

/// Applies what a helper does to a builder on top of the caller's operation.
fn overlay(op: &mut Operation, helper: &Operation, other_file: bool) {
    let at = op.method_span;
    let fix = |s: Span| if other_file { at } else { s };
    macro_rules! take {
        ($f:ident) => {
            if op.$f.is_none() {
                op.$f = helper.$f.clone();
            }
        };
    }
    if op.table.is_none() {
        op.table = helper.table.clone();
        op.table_span = helper.table_span.map(fix);
    }
    if op.index.is_none() {
        op.index = helper.index.clone();
        op.index_span = helper.index_span.map(fix);
    }
    for (slot, from) in [
        (&mut op.key_condition, &helper.key_condition),
        (&mut op.filter, &helper.filter),
        (&mut op.condition, &helper.condition),
        (&mut op.projection, &helper.projection),
        (&mut op.update, &helper.update),
        (&mut op.statement, &helper.statement),
    ] {
        if slot.is_none() {
            *slot = from.clone().map(|mut e| {
                if other_file {
                    e.span = at;
                    e.literal_start = None;
                }
                e
            });
        }
    }
    for (k, v) in &helper.names {
        op.names.entry(k.clone()).or_insert_with(|| {
            let mut v = v.clone();
            v.span = fix(v.span);
            v
        });
    }
    for (k, v) in &helper.values {
        op.values.entry(k.clone()).or_insert_with(|| {
            let mut v = v.clone();
            v.span = fix(v.span);
            v
        });
    }
    take!(item);
    take!(key);
    take!(consistent_read);
    take!(limit);
    take!(scan_index_forward);
    take!(select);
    take!(total_segments);
    op.paginated |= helper.paginated;
    op.exclusive_start_key |= helper.exclusive_start_key;
    if op.children.is_empty() {
        op.children = helper.children.clone();
    }
}

/// Lookups over every file's constants, constructors and structs.
struct Linker<'a> {
    files: &'a [Arc<FileIndex>],
    /// Const name (last segment) → (file, const index).
    consts: HashMap<&'a str, Vec<(usize, usize)>>,
    /// (type, field) → (file, value).
    inits: HashMap<(&'a str, &'a str), Vec<(usize, &'a Resolved)>>,
    field_types: HashMap<(&'a str, &'a str), &'a str>,
    structs: HashMap<&'a str, &'a StructDef>,
}

impl<'a> Linker<'a> {
    fn new(files: &'a [Arc<FileIndex>]) -> Self {
        let mut consts: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        let mut inits: HashMap<(&str, &str), Vec<(usize, &Resolved)>> = HashMap::new();
        let mut field_types = HashMap::new();
        let mut structs = HashMap::new();
        for (fi, f) in files.iter().enumerate() {
            for (ci, c) in f.consts.iter().enumerate() {
                if let Some(last) = c.path.last() {
                    consts.entry(last.as_str()).or_default().push((fi, ci));
                }
            }
            for i in &f.field_inits {
                inits
                    .entry((i.ty.as_str(), i.field.as_str()))
                    .or_default()
                    .push((fi, &i.value));
            }
            for t in &f.field_types {
                field_types
                    .entry((t.ty.as_str(), t.field.as_str()))
                    .or_insert(t.field_ty.as_str());
            }
            for s in &f.structs {
                structs.entry(s.name.as_str()).or_insert(s);
            }
        }
        Self {
            files,
            consts,
            inits,
            field_types,
            structs,
        }
    }

    /// Replaces every pending reference in an operation (and its children).
    fn resolve_op(&self, fi: usize, op: &mut Operation, depth: usize) {
        let r = |x: &mut Resolved| self.resolve(fi, x, 0);
        for x in [&mut op.table, &mut op.index].into_iter().flatten() {
            r(x);
        }
        for e in [
            &mut op.key_condition,
            &mut op.filter,
            &mut op.condition,
            &mut op.projection,
            &mut op.update,
            &mut op.statement,
        ]
        .into_iter()
        .flatten()
        {
            r(&mut e.text);
        }
        for n in op.names.values_mut() {
            r(&mut n.name);
        }
        for v in op.values.values_mut() {
            self.resolve_value(fi, v);
        }
        for v in [&mut op.limit, &mut op.total_segments]
            .into_iter()
            .flatten()
        {
            self.resolve_value(fi, v);
        }
        for m in [&mut op.item, &mut op.key].into_iter().flatten() {
            self.resolve_map(fi, m);
        }
        if depth < 4 {
            for c in &mut op.children {
                self.resolve_op(fi, c, depth + 1);
            }
        }
    }

    fn resolve_map(&self, fi: usize, m: &mut AttrMap) {
        if let (Some(ty), true) = (m.from_type.clone(), m.attributes.is_empty()) {
            let lookup = |name: &str| self.structs.get(name).map(|s| (*s).clone());
            if let Some(attrs) = serialise(&lookup, &ty, 0) {
                m.attributes = attrs;
                m.complete = true;
            }
        }
        for a in &mut m.attributes {
            self.resolve(fi, &mut a.name, 0);
            self.resolve_value(fi, &mut a.value);
        }
    }

    fn resolve_value(&self, fi: usize, v: &mut ValueInfo) {
        if let Some(t) = &mut v.text {
            self.resolve(fi, t, 0);
            if v.literal.is_none() {
                if let Some(s) = t.value() {
                    v.literal = Some(s.to_string());
                }
            }
        }
        for p in &mut v.parts {
            self.resolve_value(fi, p);
        }
    }

    /// Resolves pending references inside `r`, in the context of file `fi`.
    fn resolve(&self, fi: usize, r: &mut Resolved, depth: usize) {
        match r {
            Resolved::Const { value, .. } => self.resolve(fi, value, depth + 1),
            Resolved::Unknown { reason } => {
                let Some(n) = reason
                    .strip_prefix(PENDING)
                    .and_then(|n| n.parse::<usize>().ok())
                else {
                    return;
                };
                let Some(pr) = self.files.get(fi).and_then(|f| f.refs.get(n)).cloned() else {
                    *r = Resolved::unknown("internal: a reference was lost");
                    return;
                };
                *r = self.pending(fi, &pr, depth);
            }
            _ => {}
        }
    }

    fn pending(&self, fi: usize, pr: &PendingRef, depth: usize) -> Resolved {
        if depth > 12 {
            return Resolved::unknown(format!(
                "`{}` refers to itself through too many names",
                pr.text
            ));
        }
        match &pr.kind {
            RefKind::Path {
                segments,
                module,
                self_ty,
            } => self.const_path(fi, &pr.text, segments, module, self_ty.as_deref(), depth),
            RefKind::Field { ty, fields } => self.field(fi, &pr.text, ty, fields, depth),
        }
    }

    fn const_path(
        &self,
        fi: usize,
        text: &str,
        segments: &[String],
        module: &[String],
        self_ty: Option<&str>,
        depth: usize,
    ) -> Resolved {
        let mut segs: Vec<String> = segments
            .iter()
            .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
            .map(|s| {
                if s == "Self" {
                    self_ty.unwrap_or("Self").to_string()
                } else {
                    s.clone()
                }
            })
            .collect();
        // `use a::b::NAME as ALIAS;` in the referring file.
        if let (Some(first), Some(f)) = (segs.first().cloned(), self.files.get(fi)) {
            if let Some(u) = f.uses.iter().find(|u| u.alias == first) {
                let mut p: Vec<String> = u
                    .path
                    .iter()
                    .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super"))
                    .cloned()
                    .collect();
                p.extend(segs.drain(1..));
                segs = p;
            }
        }
        let Some(last) = segs.last() else {
            return Resolved::unknown(format!("`{text}` names nothing"));
        };
        let cands: Vec<(usize, usize)> = self
            .consts
            .get(last.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|(cf, ci)| {
                let p = &self.files[*cf].consts[*ci].path;
                p.len() >= segs.len() && p[p.len() - segs.len()..] == segs[..]
            })
            .collect();
        if cands.is_empty() {
            return Resolved::unknown(format!(
                "`{text}` is not a constant dynalint found in the crate"
            ));
        }
        // Prefer the referring file, then the referring module.
        let pick = cands
            .iter()
            .find(|(cf, _)| *cf == fi)
            .or_else(|| {
                cands.iter().find(|(cf, ci)| {
                    let p = &self.files[*cf].consts[*ci].path;
                    p[..p.len() - 1] == *module
                })
            })
            .copied();
        let resolve_one = |(cf, ci): (usize, usize)| {
            let mut v = self.files[cf].consts[ci].value.clone();
            self.resolve(cf, &mut v, depth + 1);
            v
        };
        let value = match pick {
            Some(c) => resolve_one(c),
            None => {
                let vals: Vec<Resolved> = cands.iter().map(|c| resolve_one(*c)).collect();
                if vals.windows(2).all(|w| w[0] == w[1]) {
                    vals.into_iter()
                        .next()
                        .unwrap_or_else(|| Resolved::unknown("no value"))
                } else {
                    return Resolved::unknown(format!(
                        "`{text}` matches {} constants with different values",
                        cands.len()
                    ));
                }
            }
        };
        Resolved::Const {
            name: text.to_string(),
            value: Box::new(value),
        }
    }

    fn field(&self, fi: usize, text: &str, ty: &str, fields: &[String], depth: usize) -> Resolved {
        let mut ty = ty.to_string();
        let Some((last, path)) = fields.split_last() else {
            return Resolved::unknown("no field");
        };
        for f in path {
            match self.field_types.get(&(ty.as_str(), f.as_str())) {
                Some(t) => ty = t.to_string(),
                None => {
                    return Resolved::unknown(format!(
                        "the type of `{f}` in `{text}` is not a struct dynalint found"
                    ))
                }
            }
        }
        let Some(vals) = self.inits.get(&(ty.as_str(), last.as_str())) else {
            return Resolved::unknown(format!("no constructor of `{ty}` in the crate sets `{last}` to a value dynalint can follow"));
        };
        let resolved: Vec<Resolved> = vals
            .iter()
            .map(|(cf, v)| {
                let mut v = (*v).clone();
                self.resolve(*cf, &mut v, depth + 1);
                v
            })
            .collect();
        let _ = fi;
        if resolved.windows(2).all(|w| w[0] == w[1]) {
            let v = resolved
                .into_iter()
                .next()
                .unwrap_or_else(|| Resolved::unknown("no value"));
            Resolved::Const {
                name: text.to_string(),
                value: Box::new(v),
            }
        } else {
            Resolved::unknown(format!(
                "constructors of `{ty}` set `{last}` to {} different values",
                resolved.len()
            ))
        }
    }
}
