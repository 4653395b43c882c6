//! Terraform: `resource "aws_dynamodb_table"` blocks, and `module` blocks sourcing the
//! community `dynamodb-table` module, across every `.tf` file of a folder (a module
//! spreads its `variable` and `locals` blocks over several files).
//!
//! Key names and figures resolve through literal variable defaults and locals; a table
//! name keeps what a deployment fills in as `{placeholders}` (`"${var.env}-orders"` →
//! `{env}-orders`). `variables` maps (a Lambda's `environment { variables = {..} }`,
//! `environment_variables = {..}`) and ECS `{ name, value }` pairs that hand a table's
//! `.name`/`.id`/`.arn` to a program become its `refs`; so do those handed an SSM
//! parameter (`data.aws_ssm_parameter.x.value`) that a module storing the table's name
//! (`resource "aws_ssm_parameter"`, `value = aws_dynamodb_table.orders.name`) writes
//! under the same name: a folder that only reads parameters is read for them.
//!
//! A resource with a `for_each` over a literal map or set (itself, or a local or
//! variable default) is one table per key, `each.key`/`each.value` read as Terraform
//! does; `dynamic` index and attribute blocks over a literal collection are their
//! `content` once per element; `count.index` in a name is an `{index}` placeholder.

use std::cell::RefCell;
use std::collections::HashMap;

use hcl_edit::expr::{Expression, Object, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::template::Element;
use hcl_edit::Span as _;

use super::shape::{attribute, blank_table};
use super::{Found, ImportNote, Imported};
use crate::attr::AttributeType;
use crate::model::load::line_of;
use crate::model::template::KeyTemplate;
use crate::model::types::*;
use crate::source::{FilePath, Span};

/// Variables referring to locals referring to variables stop here.
const MAX_DEPTH: usize = 16;

/// True when a file may declare a table (a cheap test before parsing).
pub fn mentions_table(text: &str) -> bool {
    text.contains("aws_dynamodb_table") || text.contains("dynamodb-table")
}

/// True when a file may read or declare an SSM parameter, which can carry a table's
/// name from the module that declares the table to the one that runs the code.
pub fn mentions_parameter(text: &str) -> bool {
    text.contains("aws_ssm_parameter")
}

/// Imports one `.tf` file on its own.
pub fn import(file: FilePath, text: &str) -> Imported {
    import_module(&[(file, text.to_string())])
}

struct File<'a> {
    path: &'a FilePath,
    text: &'a str,
    body: Body,
}

/// Imports the tables of one Terraform module: the `.tf` files of one folder.
pub fn import_module(files: &[(FilePath, String)]) -> Imported {
    let mut out = Imported::default();
    let mut parsed = Vec::new();
    for (path, text) in files {
        match hcl_edit::parser::parse_body(text) {
            Ok(body) => parsed.push(File { path, text, body }),
            Err(e) => {
                let loc = e.location();
                out.notes.push(ImportNote {
                    path: path.clone(),
                    line: loc.line(),
                    span: Span::new(loc.offset(), loc.offset()),
                    message: format!("cannot read this file as Terraform: {}", e.message()),
                });
            }
        }
    }
    let ctx = Context::new(&parsed);
    for f in parsed.iter().filter(|f| !is_tfvars(f.path)) {
        let mut found = Found::new(f.path.clone(), OriginKind::Terraform);
        for b in f.body.blocks() {
            let label = |i: usize| b.labels.get(i).map(|l| l.as_str());
            let is_table = b.ident.as_str() == "resource" && label(0) == Some("aws_dynamodb_table");
            let is_module = b.ident.as_str() == "module"
                && b.body
                    .get_attribute("source")
                    .and_then(|s| ctx.value(&s.value, 0))
                    .is_some_and(|s| s.contains("dynamodb-table"));
            let id = match (is_table, is_module) {
                (true, _) => label(1).map(|l| format!("aws_dynamodb_table.{l}")),
                (_, true) => label(0).map(|l| format!("module.{l}")),
                _ => None,
            };
            if let Some(id) = id {
                let shape = if is_table {
                    Shape::Resource
                } else {
                    Shape::Module
                };
                // `for_each = local.tables`: one table per key.
                let each = b
                    .body
                    .get_attribute("for_each")
                    .and_then(|e| ctx.items(&e.value, 0));
                match each {
                    Some(items) => {
                        for (key, value) in items {
                            ctx.scope.borrow_mut().push(Iter {
                                name: "each".into(),
                                key: key.clone(),
                                value,
                            });
                            let id = format!("{id}[\"{key}\"]");
                            let t = table(f, b, id, shape, &ctx, &mut found);
                            ctx.scope.borrow_mut().pop();
                            found.tables.extend(t);
                        }
                    }
                    None => {
                        if let Some(t) = table(f, b, id, shape, &ctx, &mut found) {
                            found.tables.push(t);
                        }
                    }
                }
            }
        }
        if !found.tables.is_empty() || !found.notes.is_empty() {
            super::merge(&mut out, found.finish());
        }
    }
    let parameters = ssm_parameters(&parsed, &ctx, &mut out);
    // Refs after every table is known: a function in `lambda.tf` names a table of
    // `dynamodb.tf`.
    for f in &parsed {
        let mut pairs = Vec::new();
        env_pairs_body(&f.body, 0, &mut pairs);
        for (var, value) in pairs {
            if let Some(t) = table_named_by(value, &mut out.tables, &ctx) {
                if !t.refs.contains(&var) {
                    t.refs.push(var);
                }
            } else if let Some(p) = parameters.read_by(value) {
                out.env_parameters.push((var, p.to_string()));
            } else if let Some(name) = ctx
                .name(value)
                .filter(|n| KeyTemplate::parse(n).is_ok_and(|t| !t.literal_parts_empty()))
            {
                out.env_names.push((var, name));
            }
        }
    }
    out
}

/// The module's SSM parameters by their labels, each with its name: the ones it
/// declares (`resource "aws_ssm_parameter"`) and the ones it reads (`data`).
#[derive(Default)]
struct Parameters<'a> {
    declared: HashMap<&'a str, String>,
    read: HashMap<&'a str, String>,
}

impl Parameters<'_> {
    /// The name of the parameter whose value an expression is
    /// (`data.aws_ssm_parameter.orders_table.value`, `insecure_value` too).
    fn read_by(&self, value: &Expression) -> Option<&str> {
        let p = path(sole_interpolation(value))?;
        let value_attr = |a: &str| a == "value" || a == "insecure_value";
        match p.as_slice() {
            [data, ty, label, attr]
                if data == "data" && ty == "aws_ssm_parameter" && value_attr(attr) =>
            {
                self.read.get(label.as_str())
            }
            [ty, label, attr] if ty == "aws_ssm_parameter" && value_attr(attr) => {
                self.declared.get(label.as_str())
            }
            _ => None,
        }
        .map(String::as_str)
    }
}

/// The module's SSM parameters; a declared one whose value is a table's name (`value =
/// aws_dynamodb_table.orders.name`) is recorded in `out.parameter_tables`, so that a
/// module that reads the parameter back by its name hands that table on.
fn ssm_parameters<'a>(
    parsed: &'a [File<'a>],
    ctx: &Context<'_>,
    out: &mut Imported,
) -> Parameters<'a> {
    let mut found = Parameters::default();
    for f in parsed {
        for b in f.body.blocks() {
            let (Some(ty), Some(label)) = (b.labels.first(), b.labels.get(1)) else {
                continue;
            };
            if ty.as_str() != "aws_ssm_parameter" {
                continue;
            }
            let Some(name) = b
                .body
                .get_attribute("name")
                .and_then(|a| ctx.parameter_name(&a.value))
            else {
                continue;
            };
            match b.ident.as_str() {
                "resource" => {
                    let value = b
                        .body
                        .get_attribute("value")
                        .or_else(|| b.body.get_attribute("insecure_value"));
                    if let Some(t) =
                        value.and_then(|v| table_named_by(&v.value, &mut out.tables, ctx))
                    {
                        out.parameter_tables.push((name.clone(), t.name.clone()));
                    }
                    found.declared.insert(label.as_str(), name);
                }
                "data" => {
                    found.read.insert(label.as_str(), name);
                }
                _ => {}
            }
        }
    }
    found
}

/// The expression inside a template that is only one interpolation (`"${x.name}"`).
fn sole_interpolation(value: &Expression) -> &Expression {
    match value {
        Expression::StringTemplate(t) => match t.iter().collect::<Vec<_>>().as_slice() {
            [Element::Interpolation(i)] => &i.expr,
            _ => value,
        },
        _ => value,
    }
}

/// `variable` defaults and `locals` of the module.
struct Context<'a> {
    /// A variable's value: set by every `.tfvars` file that sets it to the same value,
    /// else its `default`.
    defaults: HashMap<&'a str, &'a Expression>,
    variables: HashMap<&'a str, ()>,
    locals: HashMap<&'a str, &'a Expression>,
    /// Iterators in scope, innermost last: `each` of a resource's `for_each`, a
    /// `dynamic` block's.
    scope: RefCell<Vec<Iter>>,
    /// Whether a local that does not resolve is a `{local.name}` placeholder
    /// ([`Self::parameter_name`]) rather than no value.
    open_locals: std::cell::Cell<bool>,
}

/// One element of a `for_each`: `name.key` and `name.value`.
struct Iter {
    name: String,
    key: String,
    /// `None` for a set's element, whose value is its key.
    value: Option<Expression>,
}

/// Collections a `for_each` may go over before it is not a literal any more.
const MAX_ITEMS: usize = 64;

impl<'a> Context<'a> {
    fn new(files: &'a [File<'a>]) -> Self {
        let mut c = Self {
            defaults: HashMap::new(),
            variables: HashMap::new(),
            locals: HashMap::new(),
            scope: RefCell::new(Vec::new()),
            open_locals: std::cell::Cell::new(false),
        };
        let mut set: HashMap<&'a str, Vec<&'a Expression>> = HashMap::new();
        for f in files.iter().filter(|f| is_tfvars(f.path)) {
            for a in f.body.attributes() {
                set.entry(a.key.as_str()).or_default().push(&a.value);
            }
        }
        for f in files {
            for b in f.body.blocks() {
                match b.ident.as_str() {
                    "variable" => {
                        if let Some(name) = b.labels.first().map(|l| l.as_str()) {
                            c.variables.insert(name, ());
                            if let Some(d) = b.body.get_attribute("default") {
                                c.defaults.insert(name, &d.value);
                            }
                        }
                    }
                    "locals" => {
                        for a in b.body.attributes() {
                            c.locals.insert(a.key.as_str(), &a.value);
                        }
                    }
                    _ => {}
                }
            }
        }
        for (name, values) in set {
            // `dev.tfvars` and `prod.tfvars` that disagree leave the variable to the
            // deployment.
            let agree = values.windows(2).all(|w| w[0] == w[1]);
            match values.first() {
                Some(v) if agree => {
                    c.defaults.insert(name, v);
                }
                _ => {
                    c.defaults.remove(name);
                }
            }
        }
        c
    }

    /// The value an expression certainly has.
    fn value(&self, e: &Expression, depth: usize) -> Option<String> {
        self.eval(e, depth, false)
    }

    /// An SSM parameter's name, to be compared with another module's: a table name
    /// ([`Self::name`]) in which a local the module cannot resolve is a placeholder too
    /// (`"${local.prefix}/Orders/Name"` is `{local.prefix}/Orders/Name` in both).
    fn parameter_name(&self, e: &Expression) -> Option<String> {
        self.open_locals.set(true);
        let name = self.name(e);
        self.open_locals.set(false);
        name
    }

    /// A table name: what a deployment fills in becomes a `{placeholder}`.
    fn name(&self, e: &Expression) -> Option<String> {
        // A name that is one variable is its default: the variable names the table.
        let p = path(e).unwrap_or_default();
        if let [root, v] = p.as_slice() {
            let d = (root == "var")
                .then(|| self.defaults.get(v.as_str()))
                .flatten();
            if let Some(d) = d {
                if let Some(s) = self.value(d, 1) {
                    return Some(s);
                }
            }
        }
        let t = self.eval(e, 0, true)?;
        KeyTemplate::parse(&t).ok().map(|_| t)
    }

    fn eval(&self, e: &Expression, depth: usize, template: bool) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        match e {
            Expression::String(s) => {
                let s = s.value();
                (!template || !s.contains(['{', '}'])).then(|| s.to_string())
            }
            Expression::Number(n) => Some(n.value().to_string()),
            Expression::Bool(b) => Some(b.value().to_string()),
            Expression::StringTemplate(t) => {
                let mut out = String::new();
                for el in t.iter() {
                    match el {
                        Element::Literal(l) => {
                            if template && l.value().contains(['{', '}']) {
                                return None;
                            }
                            out.push_str(l.value());
                        }
                        Element::Interpolation(i) => {
                            out.push_str(&self.eval(&i.expr, depth + 1, template)?)
                        }
                        Element::Directive(_) => return None,
                    }
                }
                Some(out)
            }
            Expression::Parenthesis(p) => self.eval(p.inner(), depth + 1, template),
            Expression::Conditional(c) => {
                let a = self.eval(&c.true_expr, depth + 1, template)?;
                (self.eval(&c.false_expr, depth + 1, template)? == a).then_some(a)
            }
            Expression::FuncCall(f) if f.name.name.as_str() == "format" => {
                let mut args = f.args.iter();
                let fmt = self.eval(args.next()?, depth + 1, false)?;
                let mut out = String::new();
                let mut rest = fmt.as_str();
                while let Some(i) = rest.find('%') {
                    out.push_str(&rest[..i]);
                    let verb = rest[i + 1..].chars().next()?;
                    match verb {
                        '%' => out.push('%'),
                        's' | 'd' | 'v' => {
                            out.push_str(&self.eval(args.next()?, depth + 1, template)?)
                        }
                        _ => return None,
                    }
                    rest = &rest[i + 1 + verb.len_utf8()..];
                }
                out.push_str(rest);
                Some(out)
            }
            Expression::Traversal(_) | Expression::Variable(_) => {
                let p = path(e)?;
                if let Some(v) = self.iterator(&p, depth, template) {
                    return v;
                }
                match p.as_slice() {
                    // `count = N` copies: a name tells them apart by their index.
                    [root, name] if root == "count" && name == "index" && template => {
                        Some("{index}".to_string())
                    }
                    [root, name] if root == "var" => {
                        if template && self.variables.contains_key(name.as_str()) {
                            return Some(format!("{{{name}}}"));
                        }
                        self.eval(self.defaults.get(name.as_str())?, depth + 1, template)
                    }
                    [root, name] if root == "local" => {
                        let local = self.locals.get(name.as_str())?;
                        match self.eval(local, depth + 1, template) {
                            Some(v) => Some(v),
                            // A local set from what the module cannot see (another
                            // module's output): the same in every module that sets it
                            // so, which is all a parameter's name is compared for.
                            None if template && self.open_locals.get() => {
                                Some(format!("{{local.{name}}}"))
                            }
                            None => None,
                        }
                    }
                    [root, name] if root == "terraform" && name == "workspace" && template => {
                        Some("{workspace}".to_string())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The elements a `for_each` goes over, as (key, value): a map's entries, a list's
    /// or set's elements (a string element is its own key, another one's key is its
    /// position); through locals, variable defaults and `toset`/`tolist`/`tomap`.
    fn items(&self, e: &Expression, depth: usize) -> Option<Vec<(String, Option<Expression>)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let out: Vec<(String, Option<Expression>)> = match e {
            Expression::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, item)| match self.value(item, depth + 1) {
                    Some(k) if matches!(item, Expression::String(_)) => (k, None),
                    _ => (i.to_string(), Some(item.clone())),
                })
                .collect(),
            Expression::Object(o) => o
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        ObjectKey::Ident(i) => Some(i.value().as_str().to_string()),
                        ObjectKey::Expression(x) => self.value(x, depth + 1),
                    };
                    key.map(|k| (k, Some(v.expr().clone())))
                })
                .collect::<Option<Vec<_>>>()?,
            Expression::FuncCall(f)
                if matches!(f.name.name.as_str(), "toset" | "tolist" | "tomap") =>
            {
                let arg = f.args.iter().next()?;
                self.items(arg, depth + 1)?
            }
            Expression::Parenthesis(p) => self.items(p.inner(), depth + 1)?,
            Expression::Traversal(_) | Expression::Variable(_) => {
                let p = path(e)?;
                let next = match p.as_slice() {
                    [root, name] if root == "var" => self.defaults.get(name.as_str())?,
                    [root, name] if root == "local" => self.locals.get(name.as_str())?,
                    _ => return None,
                };
                self.items(next, depth + 1)?
            }
            _ => return None,
        };
        (out.len() <= MAX_ITEMS).then_some(out)
    }

    /// `each.key`, `each.value`, `each.value.hash` (and a `dynamic` block's iterator
    /// likewise) while that iterator is in scope.
    fn iterator(&self, p: &[String], depth: usize, template: bool) -> Option<Option<String>> {
        let scope = self.scope.borrow();
        let it = scope.iter().rev().find(|i| p.first() == Some(&i.name))?;
        Some(match &p[1..] {
            [k] if k == "key" => Some(it.key.clone()),
            [v, rest @ ..] if v == "value" => match (&it.value, rest) {
                (None, []) => Some(it.key.clone()),
                (None, _) => None,
                (Some(value), rest) => {
                    let mut e = value.clone();
                    let mut ok = true;
                    for attr in rest {
                        match &e {
                            Expression::Object(o) => match Obj::Object(o).attr(attr).cloned() {
                                Some(x) => e = x,
                                None => {
                                    ok = false;
                                    break;
                                }
                            },
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    drop(scope);
                    if ok {
                        self.eval(&e, depth + 1, template)
                    } else {
                        None
                    }
                }
            },
            _ => None,
        })
    }

    fn count(&self, e: &Expression) -> Option<u64> {
        self.value(e, 0)?.parse().ok()
    }
}

/// `terraform.tfvars`, `prod.tfvars`, `x.auto.tfvars`: values for the variables.
fn is_tfvars(p: &std::path::Path) -> bool {
    p.extension().is_some_and(|e| e == "tfvars")
}

/// `var.env` → `["var", "env"]`; `aws_dynamodb_table.orders[0].name` →
/// `["aws_dynamodb_table", "orders", "name"]` (indexes skipped).
fn path(e: &Expression) -> Option<Vec<String>> {
    match e {
        Expression::Variable(v) => Some(vec![v.value().as_str().to_string()]),
        Expression::Traversal(t) => {
            let mut p = path(&t.expr)?;
            for op in &t.operators {
                match op.value() {
                    TraversalOperator::GetAttr(a) => p.push(a.value().as_str().to_string()),
                    TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => {}
                    _ => return None,
                }
            }
            Some(p)
        }
        _ => None,
    }
}

/// The first literal string index of a traversal: `carts` of `x.each["carts"].name`.
fn index_key(e: &Expression) -> Option<String> {
    let Expression::Traversal(t) = e else {
        return None;
    };
    t.operators.iter().find_map(|op| match op.value() {
        TraversalOperator::Index(Expression::String(s)) => Some(s.value().to_string()),
        _ => None,
    })
}

/// A block body or an object: the resource writes `attribute { .. }` blocks, the
/// module `attributes = [{ .. }]` objects, with the same fields.
#[derive(Clone, Copy)]
enum Obj<'a> {
    Body(&'a Body),
    Object(&'a Object),
}

impl<'a> Obj<'a> {
    fn attr(&self, key: &str) -> Option<&'a Expression> {
        match self {
            Obj::Body(b) => b.get_attribute(key).map(|a| &a.value),
            Obj::Object(o) => o.iter().find_map(|(k, v)| {
                let name = match k {
                    ObjectKey::Ident(i) => i.value().as_str().to_string(),
                    ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                    ObjectKey::Expression(_) => return None,
                };
                (name == key).then(|| v.expr())
            }),
        }
    }

    /// Blocks named `key`, or the objects of a list attribute `key`.
    fn nested(&self, key: &'a str) -> Vec<(Obj<'a>, Span)> {
        let mut out = Vec::new();
        if let Obj::Body(b) = self {
            for blk in b.get_blocks(key) {
                out.push((Obj::Body(&blk.body), span_of(blk.span())));
            }
        }
        if let Some(Expression::Array(a)) = self.attr(key) {
            for item in a.iter() {
                if let Expression::Object(o) = item {
                    out.push((Obj::Object(o), span_of(item.span())));
                }
            }
        }
        out
    }
}

fn span_of(r: Option<std::ops::Range<usize>>) -> Span {
    r.map(Span::from).unwrap_or_default()
}

fn expr_span(e: &Expression) -> Span {
    span_of(e.span())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `resource "aws_dynamodb_table"`: `attribute`, `global_secondary_index` blocks;
    /// billing defaults to provisioned.
    Resource,
    /// The community module: `attributes`, `global_secondary_indexes` lists; billing
    /// defaults to on-demand.
    Module,
}

fn table(
    f: &File<'_>,
    b: &Block,
    id: String,
    shape: Shape,
    ctx: &Context<'_>,
    found: &mut Found,
) -> Option<Table> {
    let o = Obj::Body(&b.body);
    let bspan = span_of(b.span());
    let line = line_of(f.text, bspan.start);
    let (name, name_span) = match o.attr("name") {
        Some(e) => match ctx.name(e) {
            Some(n) => (n, expr_span(e)),
            None => {
                found.note_at(
                    expr_span(e),
                    line_of(f.text, expr_span(e).start),
                    format!(
                        "the name of `{id}` is not known statically; calls bind to it only \
                         through the environment variables that carry it"
                    ),
                );
                (id.clone(), expr_span(e))
            }
        },
        None => (id.clone(), bspan),
    };
    let what = format!("`{id}`");
    let text = |key: &str| o.attr(key).and_then(|e| ctx.value(e, 0));
    let Some(hash) = o.attr("hash_key") else {
        found.note_at(
            bspan,
            line,
            format!("{what} has no `hash_key`; it is not imported"),
        );
        return None;
    };
    let Some(pk) = ctx.value(hash, 0).filter(|k| !k.is_empty()) else {
        found.note_at(
            expr_span(hash),
            line_of(f.text, expr_span(hash).start),
            format!("the `hash_key` of {what} is not known statically; it is not imported"),
        );
        return None;
    };
    let mut t = blank_table(name, name_span, bspan, found.origin(line, Some(id.clone())));
    t.fields.insert("partition-key", expr_span(hash));
    t.partition_key = pk;
    if let Some(r) = o.attr("range_key") {
        match ctx.value(r, 0) {
            Some(sk) => {
                t.fields.insert("sort-key", expr_span(r));
                t.sort_key = Some(sk);
            }
            None => {
                found.note_at(
                    expr_span(r),
                    line_of(f.text, expr_span(r).start),
                    format!(
                        "the `range_key` of {what} is not known statically; it is not imported"
                    ),
                );
                return None;
            }
        }
    }
    let attrs_key = if shape == Shape::Resource {
        "attribute"
    } else {
        "attributes"
    };
    for (a, span) in o.nested(attrs_key) {
        let name = a.attr("name").and_then(|e| ctx.value(e, 0));
        let ty = a
            .attr("type")
            .and_then(|e| ctx.value(e, 0))
            .and_then(|s| AttributeType::parse(&s));
        match (name, ty) {
            (Some(n), Some(ty)) => {
                t.attributes.insert(n.clone(), attribute(n, ty, span, span));
            }
            _ => found.note_at(
                span,
                line_of(f.text, span.start),
                format!("an attribute of {what} has no known name and type"),
            ),
        }
    }
    let mode = text("billing_mode");
    t.billing_mode = match mode.as_deref() {
        Some(m) => BillingMode::parse(m),
        None if shape == Shape::Resource => Some(BillingMode::Provisioned),
        None => Some(BillingMode::PayPerRequest),
    };
    if t.billing_mode == Some(BillingMode::Provisioned) {
        t.provisioned = throughput(o, ctx);
    }
    t.table_class = text("table_class").as_deref().and_then(TableClass::parse);
    let (gsi_key, lsi_key) = match shape {
        Shape::Resource => ("global_secondary_index", "local_secondary_index"),
        Shape::Module => ("global_secondary_indexes", "local_secondary_indexes"),
    };
    for (key, kind) in [(gsi_key, IndexKind::Global), (lsi_key, IndexKind::Local)] {
        for (i, span) in o.nested(key) {
            match index(i, span, kind, &t, ctx) {
                Ok(index) => t.indexes.push(index),
                Err(why) => found.note_at(
                    span,
                    line_of(f.text, span.start),
                    format!("an index of {what} is not imported: {why}"),
                ),
            }
        }
    }
    if let Obj::Body(body) = o {
        for d in body.get_blocks("dynamic") {
            let target = d.labels.first().map(|l| l.as_str()).unwrap_or_default();
            let kind = match target {
                "global_secondary_index" => Some(IndexKind::Global),
                "local_secondary_index" => Some(IndexKind::Local),
                "attribute" => None,
                _ => continue,
            };
            let span = span_of(d.span());
            // The iterator is the block's label unless `iterator = name` says.
            let iterator = d
                .body
                .get_attribute("iterator")
                .and_then(|a| path(&a.value))
                .and_then(|p| p.into_iter().next())
                .unwrap_or_else(|| target.to_string());
            let items = d
                .body
                .get_attribute("for_each")
                .and_then(|e| ctx.items(&e.value, 0));
            let (Some(items), Some(content)) = (items, d.body.get_blocks("content").next()) else {
                found.note_at(
                    span,
                    line_of(f.text, span.start),
                    format!("`dynamic \"{target}\"` blocks of {what} go over a collection known only at plan time; they are not imported"),
                );
                continue;
            };
            for (key, value) in items {
                ctx.scope.borrow_mut().push(Iter {
                    name: iterator.clone(),
                    key,
                    value,
                });
                let c = Obj::Body(&content.body);
                match kind {
                    Some(kind) => match index(c, span, kind, &t, ctx) {
                        Ok(index) => t.indexes.push(index),
                        Err(why) => found.note_at(
                            span,
                            line_of(f.text, span.start),
                            format!("an index of {what} is not imported: {why}"),
                        ),
                    },
                    None => {
                        let name = c.attr("name").and_then(|e| ctx.value(e, 0));
                        let ty = c
                            .attr("type")
                            .and_then(|e| ctx.value(e, 0))
                            .and_then(|s| AttributeType::parse(&s));
                        if let (Some(n), Some(ty)) = (name, ty) {
                            t.attributes.insert(n.clone(), attribute(n, ty, span, span));
                        }
                    }
                }
                ctx.scope.borrow_mut().pop();
            }
        }
    }
    Some(t)
}

fn throughput(o: Obj<'_>, ctx: &Context<'_>) -> Option<Throughput> {
    let read = o.attr("read_capacity").and_then(|e| ctx.count(e));
    let write = o.attr("write_capacity").and_then(|e| ctx.count(e));
    (read.is_some() || write.is_some()).then_some(Throughput { read, write })
}

fn index(
    i: Obj<'_>,
    span: Span,
    kind: IndexKind,
    table: &Table,
    ctx: &Context<'_>,
) -> Result<Index, String> {
    let name_e = i.attr("name").ok_or("it has no `name`")?;
    let name = ctx
        .value(name_e, 0)
        .ok_or("its `name` is not known statically")?;
    let mut fields = FieldSpans::default();
    // The AWS provider's `key_schema { attribute_name, key_type }` blocks, in place
    // of `hash_key` / `range_key`.
    let schema = key_schema(i, &name, ctx)?;
    let partition_key = match (kind, i.attr("hash_key"), &schema) {
        (_, Some(h), _) => {
            fields.insert("partition-key", expr_span(h));
            ctx.value(h, 0).ok_or(format!(
                "the `hash_key` of `{name}` is not known statically"
            ))?
        }
        (_, None, Some(((hash, span), _))) => {
            fields.insert("partition-key", *span);
            hash.clone()
        }
        // A local index shares the table's partition key.
        (IndexKind::Local, None, None) => table.partition_key.clone(),
        (IndexKind::Global, None, None) => return Err(format!("`{name}` has no `hash_key`")),
    };
    let sort_key = match (i.attr("range_key"), schema) {
        (Some(r), _) => {
            fields.insert("sort-key", expr_span(r));
            Some(ctx.value(r, 0).ok_or(format!(
                "the `range_key` of `{name}` is not known statically"
            ))?)
        }
        (None, Some((_, Some((range, span))))) => {
            fields.insert("sort-key", span);
            Some(range)
        }
        (None, _) => None,
    };
    let projection = match i
        .attr("projection_type")
        .and_then(|e| ctx.value(e, 0))
        .as_deref()
    {
        Some("KEYS_ONLY") => Projection::KeysOnly,
        Some("INCLUDE") => {
            let attrs = match i.attr("non_key_attributes") {
                Some(Expression::Array(a)) => a
                    .iter()
                    .map(|e| ctx.value(e, 0))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(format!(
                        "the `non_key_attributes` of `{name}` are not known statically"
                    ))?,
                Some(_) => {
                    return Err(format!(
                        "the `non_key_attributes` of `{name}` are not known statically"
                    ))
                }
                None => Vec::new(),
            };
            Projection::Include(attrs)
        }
        Some("ALL") => Projection::All,
        Some(other) => return Err(format!("`{other}` is not a projection type")),
        None => return Err(format!("`{name}` has no known `projection_type`")),
    };
    if let Some(p) = i.attr("projection_type") {
        fields.insert("projection", expr_span(p));
    }
    Ok(Index {
        name,
        kind,
        partition_key,
        sort_key,
        projection,
        provisioned: throughput(i, ctx),
        span,
        name_span: expr_span(name_e),
        fields,
    })
}

/// An index's keys from `key_schema` blocks: the partition key and the sort key, each
/// with the span of its `attribute_name`. `None` without such blocks; an error for
/// keys of several attributes (up to four `HASH` and four `RANGE` attributes), which
/// the model has no place for, or a name not known statically.
#[allow(clippy::type_complexity)]
fn key_schema(
    i: Obj<'_>,
    name: &str,
    ctx: &Context<'_>,
) -> Result<Option<((String, Span), Option<(String, Span)>)>, String> {
    let blocks = i.nested("key_schema");
    if blocks.is_empty() {
        return Ok(None);
    }
    let (mut hash, mut range) = (Vec::new(), Vec::new());
    for (k, _) in blocks {
        let attr = k.attr("attribute_name").ok_or(format!(
            "a `key_schema` of `{name}` has no `attribute_name`"
        ))?;
        let value = ctx.value(attr, 0).ok_or(format!(
            "a `key_schema` attribute of `{name}` is not known statically"
        ))?;
        let key_type = k.attr("key_type").and_then(|e| ctx.value(e, 0));
        match key_type.as_deref() {
            Some("HASH") => hash.push((value, expr_span(attr))),
            Some("RANGE") => range.push((value, expr_span(attr))),
            _ => {
                return Err(format!(
                    "a `key_schema` of `{name}` has no `key_type` known statically"
                ))
            }
        }
    }
    if hash.len() != 1 || range.len() > 1 {
        return Err(format!(
            "`{name}` is keyed on {} partition and {} sort key attributes, a multi-attribute \
             key dynalint does not model",
            hash.len(),
            range.len()
        ));
    }
    let range = range.pop();
    Ok(hash.pop().map(|h| (h, range)))
}

/// `(variable, value)` pairs handed to programs: `variables = {..}` and
/// `environment_variables = {..}` maps, and `{ name = .., value = .. }` objects.
fn env_pairs_body<'a>(body: &'a Body, depth: usize, out: &mut Vec<(String, &'a Expression)>) {
    if depth > 32 {
        return;
    }
    for a in body.attributes() {
        env_pairs_attr(a.key.as_str(), &a.value, depth, out);
    }
    for b in body.blocks() {
        env_pairs_body(&b.body, depth + 1, out);
    }
}

fn env_pairs_attr<'a>(
    key: &str,
    value: &'a Expression,
    depth: usize,
    out: &mut Vec<(String, &'a Expression)>,
) {
    if depth > 32 {
        return;
    }
    match value {
        Expression::Object(o) => {
            let obj = Obj::Object(o);
            if key == "variables" || key == "environment_variables" {
                for (k, v) in o.iter() {
                    let name = match k {
                        ObjectKey::Ident(i) => i.value().as_str().to_string(),
                        ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                        ObjectKey::Expression(_) => continue,
                    };
                    out.push((name, v.expr()));
                }
            } else if let (Some(Expression::String(n)), Some(v)) =
                (obj.attr("name"), obj.attr("value"))
            {
                out.push((n.value().to_string(), v));
            }
            for (k, v) in o.iter() {
                let k = match k {
                    ObjectKey::Ident(i) => i.value().as_str().to_string(),
                    ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                    ObjectKey::Expression(_) => String::new(),
                };
                env_pairs_attr(&k, v.expr(), depth + 1, out);
            }
        }
        Expression::Array(a) => {
            for item in a.iter() {
                env_pairs_attr("", item, depth + 1, out);
            }
        }
        // `jsonencode([{ name = "TABLE", value = .. }])` in container definitions.
        Expression::FuncCall(f) => {
            for arg in f.args.iter() {
                env_pairs_attr("", arg, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// The table an environment value names: `aws_dynamodb_table.orders.name` (or `.id`,
/// `.arn`), `module.orders.dynamodb_table_id`, a template that is only one of those,
/// or the table's own name.
fn table_named_by<'t>(
    value: &Expression,
    tables: &'t mut [Table],
    ctx: &Context<'_>,
) -> Option<&'t mut Table> {
    let inner = sole_interpolation(value);
    if let Some(p) = path(inner) {
        let id = match p.as_slice() {
            [ty, label, attr, ..]
                if ty == "aws_dynamodb_table" && matches!(attr.as_str(), "name" | "id" | "arn") =>
            {
                Some(format!("aws_dynamodb_table.{label}"))
            }
            [m, label, attr, ..] if m == "module" && attr.starts_with("dynamodb_table_") => {
                Some(format!("module.{label}"))
            }
            _ => None,
        };
        if let Some(id) = id {
            // `aws_dynamodb_table.each["carts"].name`: one table of a `for_each`.
            let keyed = index_key(inner).map(|k| format!("{id}[\"{k}\"]"));
            let id = match keyed {
                Some(k) if tables.iter().any(|t| t.origin.id.as_deref() == Some(&k)) => k,
                _ => id,
            };
            return tables
                .iter_mut()
                .find(|t| t.origin.id.as_deref() == Some(&id));
        }
    }
    let name = ctx.name(value)?;
    tables.iter_mut().find(|t| t.name == name)
}
