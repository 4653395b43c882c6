//! The cross-file phase: resolves what one file could not (constants by path, fields
//! set in constructors, serialised structs), splices builders returned by or passed to
//! helper functions into their callers, and decides hot/cold from the call graph.
//! Cheap: no parsing, only lookups over the indexes.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::call_site_loop::loop_at_call_site;
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

    // Received builders by (function, parameter); returned ones by function.
    let mut received: HashMap<(&str, usize), Vec<(usize, &super::fold::Template)>> = HashMap::new();
    let mut returned: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (fi, f) in files.iter().enumerate() {
        for t in &f.templates {
            if let Some(i) = t.param {
                received
                    .entry((t.function.as_str(), i))
                    .or_default()
                    .push((fi, t));
            }
        }
        for (oi, (_, e)) in f.ops.iter().enumerate() {
            if let Escape::Returned { function } = e {
                returned
                    .entry(function.as_str())
                    .or_default()
                    .push((fi, oi));
            }
        }
    }
    // What a helper that receives the builder adds, then heat.
    let finish = |op: &mut Operation, escape: &Escape, fi: usize, cold_glob: Option<&str>| {
        if let Escape::Passed { function, index } = escape {
            for (tf, t) in received
                .get(&(function.as_str(), *index))
                .into_iter()
                .flatten()
            {
                let mut helper = t.op.clone();
                linker.resolve_op(*tf, &mut helper, 0);
                let other = helper.file != op.file;
                overlay(op, &helper, other);
                op.paginated |= helper.paginated;
            }
        }
        decide_heat(op, fi, &glob_entries, &reached, files, cold_glob);
        if op.context.in_loop.is_none() {
            op.context.in_loop = loop_at_call_site(op, fi, &glob_entries, files);
        }
    };
    let mut consumed: HashSet<(usize, usize)> = HashSet::new();
    let mut ops: Vec<((usize, usize), Operation)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        result.problems.extend(f.problems.iter().cloned());
        let cold_glob = cold_globs
            .as_ref()
            .and_then(|(set, pats)| set.matches(&*f.path).first().map(|i| pats[*i].clone()));
        // A chain on a helper's returned builder: the helper's setters, then ours.
        for (op, escape, helper) in &f.helper_calls {
            for (tf, ti) in returned.get(helper.as_str()).into_iter().flatten() {
                let mut base = files[*tf].ops[*ti].0.clone();
                linker.resolve_op(*tf, &mut base, 0);
                let mut op = op.clone();
                linker.resolve_op(fi, &mut op, 0);
                op.kind = base.kind;
                op.method_span = if base.file == op.file {
                    base.method_span
                } else {
                    op.method_span
                };
                let other = base.file != op.file;
                overlay(&mut op, &base, other);
                finish(&mut op, escape, fi, cold_glob.as_deref());
                consumed.insert((*tf, *ti));
                ops.push(((usize::MAX, 0), op));
            }
        }
        for (oi, (op, escape)) in f.ops.iter().enumerate() {
            let mut op = op.clone();
            linker.resolve_op(fi, &mut op, 0);
            finish(&mut op, escape, fi, cold_glob.as_deref());
            ops.push(((fi, oi), op));
        }
    }
    // A helper's own builder is reported only where no caller continues it.
    result.operations = ops
        .into_iter()
        .filter(|(id, _)| !consumed.contains(id))
        .map(|(_, op)| op)
        .collect();
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
        op.table_text = helper.table_text.clone();
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
        let at = op.method_span;
        for m in [&mut op.item, &mut op.key].into_iter().flatten() {
            self.resolve_map(fi, m, at);
        }
        if depth < 4 {
            for c in &mut op.children {
                self.resolve_op(fi, c, depth + 1);
            }
        }
    }

    /// `call_site` is where the operation is: attributes serialised from a struct get
    /// it as their span, because the struct's fields may sit in another file and every
    /// span of an operation is into the operation's own file.
    fn resolve_map(&self, fi: usize, m: &mut AttrMap, call_site: Span) {
        if let (Some(ty), true) = (m.from_type.clone(), m.attributes.is_empty()) {
            let lookup = |name: &str| self.structs.get(name).map(|s| (*s).clone());
            if let Some(mut attrs) = serialise(&lookup, &ty, 0) {
                for a in &mut attrs {
                    a.span = call_site;
                    a.value.span = call_site;
                }
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
            Resolved::Template { template } if template.contains(PENDING) => {
                *r = self.fill_template(fi, template, depth);
            }
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

    /// Splices constants into a template's `{<pending>}` holes; a template whose
    /// holes are all filled is a literal.
    fn fill_template(&self, fi: usize, template: &str, depth: usize) -> Resolved {
        let mut out = String::new();
        let mut rest = template;
        let mut holes = false;
        let open = format!("{{{PENDING}");
        while let Some(i) = rest.find(&open) {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let end = after.find('}').unwrap_or(after.len());
            let mut r = Resolved::unknown(&after[..end]);
            self.resolve(fi, &mut r, depth + 1);
            match r.value() {
                Some(v) => out.push_str(v),
                None => {
                    holes = true;
                    out.push_str("{}");
                }
            }
            rest = after.get(end + 1..).unwrap_or("");
        }
        out.push_str(rest);
        holes |= out.contains("{}");
        if holes {
            Resolved::Template { template: out }
        } else {
            Resolved::literal(out)
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
            let reason = format!("`{text}` is not a constant dynalint found in the crate");
            // A SCREAMING_CASE name from another crate is still a constant the code names
            // the value by: keep the name so a table's `refs` can match it.
            let const_like = last.chars().any(|c| c.is_ascii_uppercase())
                && last
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            return if const_like {
                Resolved::Const {
                    name: text.to_string(),
                    value: Box::new(Resolved::unknown(reason)),
                }
            } else {
                Resolved::unknown(reason)
            };
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
