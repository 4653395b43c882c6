//! A CDK app's TypeScript, for apps whose synthesised `cdk.out/` is not committed (most
//! are not): `new Table(this, "Id", { partitionKey: { name, type }, .. })` — or any
//! construct given a `partitionKey`, such as a project's own wrapper — its
//! `addGlobalSecondaryIndex`/`addLocalSecondaryIndex` calls, and the `environment`
//! entries that hand `table.tableName` to a function. A CDK app in Python is read the
//! same way ([`Dialect::Python`]): `dynamodb.Table(self, "Id", partition_key=
//! dynamodb.Attribute(name=.., type=..))`, keyword arguments read as the props object
//! they stand for (`partition_key` is `partitionKey`).
//!
//! Only object literals are read, with a small tokenizer: a TypeScript parser would be
//! a large dependency for what CDK writes as plain literals, and tree-sitter is the
//! scanner's alone. Anything else in a value (a variable, a call) is unknown, and a
//! table whose keys are unknown is a note.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

use super::shape::{attribute, blank_table};
use super::{Found, Imported};
use crate::attr::AttributeType;
use crate::model::load::line_of;
use crate::model::types::*;
use crate::source::{FilePath, Span};

/// Values nested deeper than this are skipped (CDK props are a few levels deep).
const MAX_DEPTH: usize = 32;

/// True when a TypeScript file may declare a table.
pub fn mentions_table(text: &str) -> bool {
    text.contains("aws-dynamodb") || text.contains("partitionKey")
}

/// True when a Python file may declare a table.
pub fn mentions_table_py(text: &str) -> bool {
    text.contains("aws_dynamodb") || text.contains("partition_key")
}

/// The language of a CDK app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    TypeScript,
    /// Constructs are plain calls, props keyword arguments in snake_case.
    Python,
}

/// `partition_key` → `partitionKey`: Python's props are TypeScript's, snake_cased.
fn camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut up = false;
    for c in s.chars() {
        if c == '_' && !out.is_empty() {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// A string; a template literal's `${expr}` holes are `{name}` placeholders.
    Str(String),
    Num(String),
    Punct(char),
}

/// Tokens with their byte offsets. Unknown characters are skipped.
fn tokens(text: &str, dialect: Dialect) -> Vec<(Tok, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let python = dialect == Dialect::Python;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' if python => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            // A docstring: prose, and its quotes would confuse the strings after it.
            b'"' | b'\'' if python && b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c) => {
                i += 3;
                while i + 2 < b.len() && !(b[i] == c && b[i + 1] == c && b[i + 2] == c) {
                    i += 1;
                }
                i += 3;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'\'' | b'"' => {
                let start = i;
                let mut s = String::new();
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if let Some(ch) = text.get(i..).and_then(|t| t.chars().next()) {
                        s.push(ch);
                        i += ch.len_utf8();
                    } else {
                        i += 1;
                    }
                }
                i += 1;
                out.push((Tok::Str(s), start));
            }
            b'`' => {
                let start = i;
                let (s, end) = template_literal(text, i + 1);
                i = end;
                out.push((Tok::Str(s), start));
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$')
                {
                    i += 1;
                }
                out.push((Tok::Ident(text[start..i].to_string()), start));
            }
            c if c.is_ascii_digit() => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_')
                {
                    i += 1;
                }
                out.push((Tok::Num(text[start..i].replace('_', "")), start));
            }
            c if c.is_ascii_punctuation() => {
                out.push((Tok::Punct(c as char), i));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// A template literal from just after its backtick: text with `${a.b}` as `{b}`, and
/// where it ends.
fn template_literal(text: &str, mut i: usize) -> (String, usize) {
    let b = text.as_bytes();
    let mut s = String::new();
    while i < b.len() && b[i] != b'`' {
        if b[i] == b'$' && b.get(i + 1) == Some(&b'{') {
            let mut depth = 0;
            let start = i + 2;
            i += 2;
            while i < b.len() && !(b[i] == b'}' && depth == 0) {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            let expr = text.get(start..i).unwrap_or_default();
            let name: String = expr
                .rsplit(['.', ' '])
                .next()
                .unwrap_or_default()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            s.push('{');
            s.push_str(if name.is_empty() { "value" } else { &name });
            s.push('}');
            i += 1;
            continue;
        }
        if b[i] == b'\\' {
            i += 1;
        }
        match text.get(i..).and_then(|t| t.chars().next()) {
            Some(ch) => {
                s.push(ch);
                i += ch.len_utf8();
            }
            None => i += 1,
        }
    }
    (s, (i + 1).min(b.len()))
}

/// A value of an argument list, as far as literals go.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Obj(Vec<(String, Val, Span)>),
    Arr(Vec<Val>),
    Str(String),
    Num(String),
    /// `dynamodb.AttributeType.STRING`, `table.tableName`, `this`.
    Path(Vec<String>),
    /// `process.env.TABLE ?? 'orders'` (or `||`): a value with its default.
    Or(Box<Val>, Box<Val>),
    Other,
}

impl Val {
    fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Obj(e) => e.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }

    fn span_of(&self, key: &str) -> Option<Span> {
        match self {
            Val::Obj(e) => e.iter().find(|(k, _, _)| k == key).map(|(_, _, s)| *s),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Val::Str(s) | Val::Num(s) => Some(s),
            _ => None,
        }
    }

    /// The last segment of a path: `STRING` of `AttributeType.STRING`.
    fn last(&self) -> Option<&str> {
        match self {
            Val::Path(p) => p.last().map(String::as_str),
            _ => None,
        }
    }
}

struct Reader<'t> {
    toks: &'t [(Tok, usize)],
    pos: usize,
    /// The text's length: where a value that runs to the end ends.
    len: usize,
    python: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.len, |(_, o)| *o)
    }

    fn is(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    /// Whether the token after the current one is `c`.
    fn next_is(&self, c: char) -> bool {
        self.toks.get(self.pos + 1).map(|(t, _)| t) == Some(&Tok::Punct(c))
    }

    /// Skips one value's tokens up to a `,` or a closing bracket at depth 0.
    fn skip_value(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') if depth == 0 => return,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                Tok::Punct(',') if depth == 0 => return,
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// `a.b?.c!.d`: a member path, stopping at anything else.
    fn path(&mut self) -> Val {
        let Some(Tok::Ident(first)) = self.peek().cloned() else {
            return Val::Other;
        };
        self.pos += 1;
        let mut path = vec![first];
        while self.is('.') || self.is('?') || self.is('!') {
            if self.is('?') && self.next_is('?') {
                break;
            }
            self.pos += 1;
            if let Some(Tok::Ident(n)) = self.peek().cloned() {
                self.pos += 1;
                path.push(n);
            }
        }
        Val::Path(path)
    }

    fn value(&mut self, depth: usize) -> Val {
        if depth > MAX_DEPTH {
            self.skip_value();
            return Val::Other;
        }
        let v = match self.peek().cloned() {
            Some(Tok::Punct('{')) => {
                self.pos += 1;
                let mut entries = Vec::new();
                while let Some(t) = self.peek().cloned() {
                    match t {
                        Tok::Punct('}') => {
                            self.pos += 1;
                            break;
                        }
                        Tok::Punct(',') => self.pos += 1,
                        Tok::Ident(k) | Tok::Str(k) => {
                            let start = self.offset();
                            self.pos += 1;
                            if self.is(':') {
                                self.pos += 1;
                                let v = self.value(depth + 1);
                                let end = self.offset().max(start);
                                entries.push((k, v, Span::new(start, end)));
                            } else {
                                // A shorthand `{ table }` or a method: its value is unknown.
                                self.skip_value();
                                entries.push((k, Val::Other, Span::new(start, start)));
                            }
                        }
                        _ => {
                            self.pos += 1;
                            self.skip_value();
                        }
                    }
                }
                return Val::Obj(entries);
            }
            Some(Tok::Punct('[')) => {
                self.pos += 1;
                let mut items = Vec::new();
                while let Some(t) = self.peek() {
                    match t {
                        Tok::Punct(']') => {
                            self.pos += 1;
                            break;
                        }
                        Tok::Punct(',') => self.pos += 1,
                        _ => {
                            let before = self.pos;
                            items.push(self.value(depth + 1));
                            if self.pos == before {
                                self.pos += 1;
                            }
                        }
                    }
                }
                return Val::Arr(items);
            }
            Some(Tok::Str(s)) => {
                self.pos += 1;
                Val::Str(s)
            }
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Val::Num(n)
            }
            Some(Tok::Ident(_)) => {
                let path = self.path();
                // `dynamodb.Attribute(name="pk", type=..)`: in Python the props object
                // is the call's keyword arguments.
                if self.python && self.is('(') {
                    self.pos += 1;
                    return match arguments(self).pop() {
                        Some(Val::Obj(kw)) => Val::Obj(kw),
                        _ => Val::Other,
                    };
                }
                path
            }
            _ => Val::Other,
        };
        // `process.env.TABLE ?? 'orders'`: the value or its default.
        if matches!(v, Val::Path(_))
            && ((self.is('?') && self.next_is('?')) || (self.is('|') && self.next_is('|')))
        {
            self.pos += 2;
            let default = self.value(depth + 1);
            return match default {
                Val::Str(_) => Val::Or(Box::new(v), Box::new(default)),
                _ => Val::Other,
            };
        }
        // `a.b()`, `x as T`, `a + b`: not a literal.
        if !matches!(self.peek(), None | Some(Tok::Punct(',' | '}' | ']' | ')'))) {
            self.skip_value();
            return Val::Other;
        }
        v
    }
}

/// The string literals an app gives names once: its constants (`const ORDERS_TABLE =
/// 'orders'`, a class's `static readonly`, a Python module's `ORDERS = "orders"`) and
/// the props its constructs are given (`new OrdersStack(app, 'Orders', { auditTable:
/// 'audit' })`), each kept only when every assignment gives it the same value (`None`
/// once two differ).
#[derive(Default)]
struct Known {
    consts: BTreeMap<String, Option<String>>,
    props: BTreeMap<String, Option<String>>,
}

fn remember(map: &mut BTreeMap<String, Option<String>>, key: String, value: String) {
    match map.entry(key) {
        Entry::Vacant(e) => {
            e.insert(Some(value));
        }
        Entry::Occupied(mut e) => {
            if e.get().as_deref() != Some(value.as_str()) {
                e.insert(None);
            }
        }
    }
}

impl Known {
    /// Reads one file's tokens into what is known.
    fn read(&mut self, toks: &[(Tok, usize)], len: usize, python: bool) {
        let tok = |i: usize| toks.get(i).map(|(t, _)| t);
        for (i, (t, _)) in toks.iter().enumerate() {
            let Tok::Ident(name) = t else { continue };
            // `const NAME = 'x'` (a `: string` annotation skipped), never `a.NAME =`, a
            // keyword argument `f(name="x")` or a comparison.
            let before = i.checked_sub(1).and_then(tok);
            if matches!(before, Some(Tok::Punct('.' | '(' | ',' | '?' | '!' | '='))) {
                continue;
            }
            let mut j = i + 1;
            if tok(j) == Some(&Tok::Punct(':')) {
                j += 1;
                while matches!(tok(j), Some(Tok::Ident(_) | Tok::Punct('.' | '<' | '>'))) {
                    j += 1;
                }
            }
            if tok(j) != Some(&Tok::Punct('=')) || matches!(tok(j + 1), Some(Tok::Punct(_))) {
                continue;
            }
            let Some(Tok::Str(value)) = tok(j + 1) else {
                continue;
            };
            // `'a' + b`, `'a'.concat()`: not the whole value.
            if matches!(
                tok(j + 2),
                Some(Tok::Punct('+' | '.' | '(' | '[' | '?' | '|' | '&'))
            ) {
                continue;
            }
            remember(&mut self.consts, name.clone(), value.clone());
        }
        // The props of every construct: `new X(scope, 'Id', {..})`, or in Python any
        // call's keyword arguments.
        let mut r = Reader {
            toks,
            pos: 0,
            len,
            python,
        };
        while r.pos < toks.len() {
            let at = r.pos;
            let call = match &toks[at].0 {
                Tok::Ident(w) if w == "new" => {
                    r.pos += 1;
                    true
                }
                Tok::Ident(_) if python => true,
                _ => false,
            };
            if !call {
                r.pos += 1;
                continue;
            }
            let _ = r.path();
            if !r.is('(') {
                r.pos = r.pos.max(at + 1);
                continue;
            }
            r.pos += 1;
            let args = arguments(&mut r);
            let props = if python { args.last() } else { args.get(2) };
            if let Some(Val::Obj(entries)) = props {
                for (k, v, _) in entries {
                    if let Val::Str(v) = v {
                        remember(&mut self.props, k.clone(), v.clone());
                    }
                }
            }
            r.pos = r.pos.max(at + 1);
        }
    }

    fn constant(&self, name: &str) -> Option<&str> {
        self.consts.get(name)?.as_deref()
    }

    fn prop(&self, name: &str) -> Option<&str> {
        self.props.get(name)?.as_deref()
    }
}

/// What a construct's `tableName` says of the table's name.
enum TableName {
    /// Spelled out, or a constant or prop the app spells once.
    Known(String),
    /// Read from the deploying environment (`process.env.SESSIONS_TABLE`), with the
    /// default the app falls back on.
    Env {
        var: String,
        default: Option<String>,
    },
    Unknown,
}

fn table_name(v: &Val, known: &Known) -> TableName {
    let valid = |s: &str| crate::model::KeyTemplate::parse(s).is_ok();
    match v {
        Val::Str(s) if valid(s) => TableName::Known(s.clone()),
        Val::Path(p) => {
            let segs: Vec<&str> = p.iter().map(String::as_str).collect();
            match segs.as_slice() {
                ["process", "env", var] => TableName::Env {
                    var: (*var).to_string(),
                    default: None,
                },
                [name] => known
                    .constant(name)
                    .or_else(|| known.prop(&camel(name)))
                    .filter(|s| valid(s))
                    .map_or(TableName::Unknown, |s| TableName::Known(s.to_string())),
                [.., "props", name] => known
                    .prop(name)
                    .filter(|s| valid(s))
                    .map_or(TableName::Unknown, |s| TableName::Known(s.to_string())),
                _ => TableName::Unknown,
            }
        }
        Val::Or(value, default) => match (table_name(value, known), &**default) {
            (TableName::Env { var, .. }, Val::Str(d)) if valid(d) => TableName::Env {
                var,
                default: Some(d.clone()),
            },
            (TableName::Known(s), _) => TableName::Known(s),
            _ => TableName::Unknown,
        },
        _ => TableName::Unknown,
    }
}

/// A table found in the app, with the variable holding it.
struct Decl {
    var: Option<String>,
    table: Table,
}

/// Imports the tables of one CDK app: its TypeScript files, read together (the stack
/// that declares a table and the one that hands it to a function are often apart).
pub fn import_app(files: &[(FilePath, String)]) -> Imported {
    import_app_in(files, Dialect::TypeScript)
}

/// [`import_app`] for an app in `dialect`.
pub fn import_app_in(files: &[(FilePath, String)], dialect: Dialect) -> Imported {
    let python = dialect == Dialect::Python;
    let mut out = Imported::default();
    let mut decls: Vec<Decl> = Vec::new();
    let mut index_calls = Vec::new();
    let mut env = Vec::new();
    let mut looks_up_others = false;
    let toks_of: Vec<Vec<(Tok, usize)>> = files.iter().map(|(_, t)| tokens(t, dialect)).collect();
    let mut known = Known::default();
    for ((_, text), toks) in files.iter().zip(&toks_of) {
        known.read(toks, text.len(), python);
    }
    for ((path, text), toks) in files.iter().zip(&toks_of) {
        let mut found = Found::new(path.clone(), OriginKind::Cdk);
        let mut r = Reader {
            toks,
            pos: 0,
            len: text.len(),
            python,
        };
        while r.pos < toks.len() {
            let at = r.pos;
            match &toks[at].0 {
                Tok::Ident(w) if w == "new" => {
                    r.pos += 1;
                    let var = assigned_name(toks, at);
                    let callee = r.path();
                    let Some(args) = call_arguments(&mut r, &mut env) else {
                        continue;
                    };
                    if let (Some(id), Some(props)) = (args.get(1), args.get(2)) {
                        if props.get("partitionKey").is_some() {
                            let offset = toks[at].1;
                            let cx = (text.as_str(), &known, callee_name(&callee));
                            if let Some(t) = table(id, props, offset, &mut found, cx) {
                                decls.push(Decl { var, table: t });
                            }
                        }
                    }
                }
                Tok::Ident(w)
                    if matches!(
                        w.as_str(),
                        "addGlobalSecondaryIndex"
                            | "addLocalSecondaryIndex"
                            | "add_global_secondary_index"
                            | "add_local_secondary_index"
                    ) =>
                {
                    let kind = if w.starts_with("addGlobal") || w.starts_with("add_global") {
                        IndexKind::Global
                    } else {
                        IndexKind::Local
                    };
                    let owner = receiver(toks, at);
                    r.pos += 1;
                    if r.is('(') {
                        r.pos += 1;
                        let args = arguments(&mut r);
                        if let (Some(owner), Some(props)) = (owner, args.into_iter().next()) {
                            index_calls.push((owner, kind, props, toks[at].1));
                        }
                    }
                }
                Tok::Ident(w)
                    if matches!(
                        w.as_str(),
                        "fromTableName" | "fromTableArn" | "from_table_name" | "from_table_arn"
                    ) =>
                {
                    looks_up_others = true;
                    r.pos += 1;
                }
                // Python: `dynamodb.Table(self, "Id", partition_key=..)`, any call
                // (a construct of the project's own too) whose keywords hold a
                // `partition_key`; other calls are read for their `environment`.
                Tok::Ident(w)
                    if python
                        && w != "environment"
                        && at.checked_sub(1).map(|p| &toks[p].0) != Some(&Tok::Punct('.')) =>
                {
                    let var = assigned_name(toks, at);
                    let callee = r.path();
                    let Some(args) = call_arguments(&mut r, &mut env) else {
                        continue;
                    };
                    let Val::Path(segments) = &callee else {
                        continue;
                    };
                    let method = segments.last().map(String::as_str);
                    let owner = segments.len().checked_sub(2).map(|i| segments[i].clone());
                    match method {
                        Some(m @ ("add_global_secondary_index" | "add_local_secondary_index")) => {
                            let kind = if m.starts_with("add_global") {
                                IndexKind::Global
                            } else {
                                IndexKind::Local
                            };
                            if let (Some(owner), Some(props)) = (owner, args.into_iter().last()) {
                                index_calls.push((owner, kind, props, toks[at].1));
                            }
                            continue;
                        }
                        Some("from_table_name" | "from_table_arn") => {
                            looks_up_others = true;
                            continue;
                        }
                        _ => {}
                    }
                    if let (Some(id), Some(props)) = (args.get(1), args.get(2)) {
                        if props.get("partitionKey").is_some() {
                            let offset = toks[at].1;
                            let cx = (text.as_str(), &known, callee_name(&callee));
                            if let Some(t) = table(id, props, offset, &mut found, cx) {
                                decls.push(Decl { var, table: t });
                            }
                        }
                    }
                }
                Tok::Ident(w) if w == "environment" => {
                    r.pos += 1;
                    // `environment: {..}` in props, `const environment = {..}` shared.
                    if r.is(':') || r.is('=') {
                        r.pos += 1;
                        if let Val::Obj(entries) = r.value(0) {
                            env.extend(entries.into_iter().map(|(k, v, _)| (k, v)));
                        }
                    }
                }
                _ => r.pos += 1,
            }
        }
        out.notes.extend(found.notes);
        if !found.tables.is_empty() {
            out.files.push(super::ImportedFile {
                path: path.clone(),
                kind: OriginKind::Cdk,
                tables: found.tables.len(),
            });
        }
    }
    for (owner, kind, props, _) in index_calls {
        if let Some(d) = decls.iter_mut().find(|d| d.var.as_deref() == Some(&owner)) {
            if let Some(i) = index(&props, kind, &d.table) {
                d.table.indexes.push(i);
            }
        }
    }
    let single = decls.len() == 1 && !looks_up_others;
    for (var, value) in env {
        let Val::Path(p) = value else { continue };
        let Some(last) = p.last() else { continue };
        if !matches!(
            last.as_str(),
            "tableName" | "tableArn" | "table_name" | "table_arn"
        ) {
            continue;
        }
        let holder = decls
            .iter()
            .position(|d| d.var.as_ref().is_some_and(|v| p.contains(v)));
        // With one table in the app and no table looked up by name, `x.tableName` is it.
        let holder = holder.or(single.then_some(0));
        if let Some(d) = holder.and_then(|i| decls.get_mut(i)) {
            if !d.table.refs.contains(&var) {
                d.table.refs.push(var);
            }
        }
    }
    let mut tables = Imported::default();
    for d in decls {
        super::merge(
            &mut tables,
            Imported {
                tables: vec![d.table],
                ..Imported::default()
            },
        );
    }
    out.tables = tables.tables;
    out.notes.extend(tables.notes);
    out
}

/// The entries of every `environment: {..}` inside a value.
fn collect_env(v: &Val, depth: usize, out: &mut Vec<(String, Val)>) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Val::Obj(entries) => {
            for (k, v, _) in entries {
                // `environment` of a function; `environment_variables` of a project's
                // own function construct.
                let env = k == "environment" || k == "environmentVariables";
                if let (true, Val::Obj(vars)) = (env, v) {
                    out.extend(vars.iter().map(|(k, v, _)| (k.clone(), v.clone())));
                }
                collect_env(v, depth + 1, out);
            }
        }
        Val::Arr(items) => {
            for i in items {
                collect_env(i, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// `Table` of `dynamodb.Table`.
fn callee_name(v: &Val) -> &str {
    v.last().unwrap_or("construct")
}

/// A call's arguments when the reader stands at its `(` (`None` when it does not), the
/// `environment` entries among them collected: any construct can hand a function a
/// table's name.
fn call_arguments(r: &mut Reader<'_>, env: &mut Vec<(String, Val)>) -> Option<Vec<Val>> {
    if !r.is('(') {
        return None;
    }
    r.pos += 1;
    let args = arguments(r);
    for a in &args {
        collect_env(a, 0, env);
    }
    Some(args)
}

/// `( a, b, c )` up to the closing parenthesis. In Python, keyword arguments
/// (`partition_key=..`) are one props object after the positional ones, its keys
/// camelCased.
fn arguments(r: &mut Reader<'_>) -> Vec<Val> {
    let mut args = Vec::new();
    let mut kwargs = Vec::new();
    while let Some(t) = r.peek().cloned() {
        match t {
            Tok::Punct(')') => {
                r.pos += 1;
                break;
            }
            Tok::Punct(',') => r.pos += 1,
            Tok::Ident(k)
                if r.python
                    && r.toks.get(r.pos + 1).map(|(t, _)| t) == Some(&Tok::Punct('='))
                    && r.toks.get(r.pos + 2).map(|(t, _)| t) != Some(&Tok::Punct('=')) =>
            {
                let start = r.offset();
                r.pos += 2;
                let v = r.value(1);
                let end = r.offset().max(start);
                kwargs.push((camel(&k), v, Span::new(start, end)));
            }
            _ => {
                let before = r.pos;
                args.push(r.value(0));
                if r.pos == before {
                    r.pos += 1;
                }
            }
        }
    }
    if !kwargs.is_empty() {
        args.push(Val::Obj(kwargs));
    }
    args
}

/// The variable a `new` is assigned to: `const t = new ..`, `this.t = new ..`, `t = new ..`.
fn assigned_name(toks: &[(Tok, usize)], new_at: usize) -> Option<String> {
    let eq = new_at.checked_sub(1)?;
    if toks.get(eq)?.0 != Tok::Punct('=') {
        return None;
    }
    // `const t: dynamodb.Table = new ..`: step back over a type annotation.
    let mut i = eq.checked_sub(1)?;
    let mut j = i;
    while j > 0 && matches!(&toks[j].0, Tok::Ident(_) | Tok::Punct('.' | '<' | '>')) {
        j -= 1;
        if toks[j].0 == Tok::Punct(':') {
            i = j.checked_sub(1)?;
            break;
        }
    }
    match &toks.get(i)?.0 {
        Tok::Ident(n) => Some(n.clone()),
        _ => None,
    }
}

/// `t` of `t.addGlobalSecondaryIndex`, `this.t.addGlobal..`.
fn receiver(toks: &[(Tok, usize)], method_at: usize) -> Option<String> {
    let dot = method_at.checked_sub(1)?;
    if toks.get(dot)?.0 != Tok::Punct('.') {
        return None;
    }
    match &toks.get(dot.checked_sub(1)?)?.0 {
        Tok::Ident(n) => Some(n.clone()),
        _ => None,
    }
}

/// `{ name: "PK", type: AttributeType.STRING }`.
fn key(v: Option<&Val>) -> Option<(String, Option<AttributeType>)> {
    let v = v?;
    let name = v.get("name")?.text().filter(|n| !n.is_empty())?.to_string();
    let ty = match v.get("type").and_then(Val::last) {
        Some("STRING") => Some(AttributeType::S),
        Some("NUMBER") => Some(AttributeType::N),
        Some("BINARY") => Some(AttributeType::B),
        _ => None,
    };
    Some((name, ty))
}

fn table(
    id: &Val,
    props: &Val,
    offset: usize,
    found: &mut Found,
    (text, known, callee): (&str, &Known, &str),
) -> Option<Table> {
    let line = line_of(text, offset);
    let id = id.text().map_or_else(|| callee.to_string(), str::to_string);
    let Some((pk, pk_ty)) = key(props.get("partitionKey")) else {
        found.note_at(
            Span::new(offset, offset),
            line,
            format!("the `partitionKey` of `{id}` is not a literal; it is not imported"),
        );
        return None;
    };
    let mut env_ref = None;
    let name = match props.get("tableName").map(|v| table_name(v, known)) {
        Some(TableName::Known(s)) => s,
        // Named at deploy time: the code that reads the same variable names it.
        Some(TableName::Env { var, default }) => {
            env_ref = Some(var);
            default.unwrap_or_else(|| id.clone())
        }
        Some(TableName::Unknown) => {
            found.note_at(
                Span::new(offset, offset),
                line,
                format!(
                    "the `tableName` of `{id}` is not known statically; the table goes by its \
                     construct id, and calls bind to it through the environment variables \
                     that carry it"
                ),
            );
            id.clone()
        }
        // What CloudFormation names a table CDK gives no name.
        None => format!("{{StackName}}-{id}-{{suffix}}"),
    };
    let span = Span::new(offset, offset);
    let mut t = blank_table(name, span, span, found.origin(line, Some(id)));
    t.refs.extend(env_ref);
    if let Some(s) = props.span_of("partitionKey") {
        t.fields.insert("partition-key", s);
    }
    if let Some(ty) = pk_ty {
        t.attributes
            .insert(pk.clone(), attribute(pk.clone(), ty, span, span));
    }
    t.partition_key = pk;
    if let Some((sk, ty)) = key(props.get("sortKey")) {
        if let Some(ty) = ty {
            t.attributes
                .insert(sk.clone(), attribute(sk.clone(), ty, span, span));
        }
        t.sort_key = Some(sk);
    }
    t.billing_mode = match props.get("billingMode").and_then(Val::last) {
        Some("PAY_PER_REQUEST") => Some(BillingMode::PayPerRequest),
        Some("PROVISIONED") => Some(BillingMode::Provisioned),
        // CDK's `Table` is provisioned (5/5) unless told; `TableV2` on-demand.
        _ if callee == "TableV2" => Some(BillingMode::PayPerRequest),
        _ => None,
    };
    let count = |k: &str| {
        props
            .get(k)
            .and_then(Val::text)
            .and_then(|n| n.parse().ok())
    };
    let (read, write) = (count("readCapacity"), count("writeCapacity"));
    if read.is_some() || write.is_some() {
        t.provisioned = Some(Throughput { read, write });
    }
    for (k, kind) in [
        ("globalSecondaryIndexes", IndexKind::Global),
        ("localSecondaryIndexes", IndexKind::Local),
    ] {
        if let Some(Val::Arr(items)) = props.get(k) {
            for i in items {
                if let Some(index) = index(i, kind, &t) {
                    t.indexes.push(index);
                }
            }
        }
    }
    found.tables.push(t.clone());
    Some(t)
}

fn index(props: &Val, kind: IndexKind, table: &Table) -> Option<Index> {
    let name = props.get("indexName")?.text()?.to_string();
    let partition_key = match key(props.get("partitionKey")) {
        Some((pk, _)) => pk,
        None if kind == IndexKind::Local => table.partition_key.clone(),
        None => return None,
    };
    let sort_key = key(props.get("sortKey")).map(|(s, _)| s);
    let projection = match props.get("projectionType").and_then(Val::last) {
        Some("KEYS_ONLY") => Projection::KeysOnly,
        Some("INCLUDE") => Projection::Include(match props.get("nonKeyAttributes") {
            Some(Val::Arr(a)) => a
                .iter()
                .filter_map(|v| v.text().map(str::to_string))
                .collect(),
            _ => return None,
        }),
        // CDK's default.
        _ => Projection::All,
    };
    Some(Index {
        name,
        kind,
        partition_key,
        sort_key,
        projection,
        provisioned: None,
        span: table.span,
        name_span: table.name_span,
        fields: FieldSpans::default(),
    })
}
