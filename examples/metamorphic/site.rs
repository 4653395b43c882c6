//! Call sites: every request dynalint finds in a tree (the operations of an analysis of
//! the untouched tree), with the syntax around it that rewrites and defects edit: the
//! SDK's fluent chain (client, operation, setters, `.send()`), the statement it sits
//! in, and the module-level item that holds it.

use std::ops::Range;

use dynalint::facts::bind;
use dynalint::model::Model;
use dynalint::scanner::{OpKind, Operation};
use tree_sitter::{Node, Tree};

use crate::syntax::{descendants, indent_at, line_of, named_children, text_of};

/// One request of the tree.
pub struct Site {
    /// Index of its file in the project's files.
    pub file: usize,
    /// Its file's path as the analysis names it.
    pub path: String,
    pub op: Operation,
    /// The model table it binds to, if any.
    pub table: Option<String>,
    /// Another request at the same place binds to another table: one linked once per
    /// table its callers pass (`fn create_query(&self, table: &str, ..)`), whose table
    /// argument holds no one value.
    pub table_varies: bool,
    pub line: usize,
    /// The fluent chain, or why the site is not one the rewrites can take apart.
    pub chain: Result<Chain, String>,
    /// Where code can go around the site, or why nowhere.
    pub place: Result<Place, String>,
}

/// Where code can be put around a site.
#[derive(Clone, Debug)]
pub struct Place {
    /// The statement the request sits in, where statements can be put before it without
    /// changing what runs (none inside a closure, a match arm, an `else if`, a `while`
    /// condition or the right side of `&&`/`||`).
    pub statement: Option<Insertion>,
    /// The module-level item holding the site (a `fn`, an `impl`): helpers go after it.
    pub item: Insertion,
    /// The enclosing `fn`, if any.
    pub function: Option<std::ops::Range<usize>>,
}

impl Site {
    /// One line for `--sites`: place, kind, table, and what the rewrites can take apart.
    pub fn describe(&self) -> String {
        format!(
            "{}:{} {:?} table={} chain={} place={}",
            self.path,
            self.line,
            self.op.kind,
            self.table.as_deref().unwrap_or("-"),
            match &self.chain {
                Ok(c) => format!(
                    "{}+{} setters, send={}, awaited={}",
                    c.op_name,
                    c.setters.len(),
                    c.send.is_some(),
                    c.awaited.is_some()
                ),
                Err(e) => format!("none ({e})"),
            },
            match &self.place {
                Ok(p) => format!("statement={}", p.statement.is_some()),
                Err(e) => format!("none ({e})"),
            }
        )
    }
}

/// `client.query().table_name(..)...send().await`, taken apart.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The client expression (`self.client`, `&client`, `CLIENT.get().unwrap()`).
    pub receiver: Range<usize>,
    /// The SDK method (`query`).
    pub op_name: String,
    /// From the `.` before the SDK method to its closing parenthesis.
    pub op_call: Range<usize>,
    /// The setters after it, before the terminal, in order.
    pub setters: Vec<Setter>,
    /// The whole builder: from the receiver to the last setter's `)`.
    pub builder: Range<usize>,
    /// `.send()` (the whole chain up to it) when the chain sends.
    pub send: Option<Range<usize>>,
    /// The terminal method when it is not `send` (`into_paginator`), with its range.
    pub other_terminal: Option<(String, Range<usize>)>,
    /// `<chain>.send().await`, when the send is awaited at once.
    pub awaited: Option<Range<usize>>,
    /// The outermost node of the request as written (the `.await` included).
    pub top: Range<usize>,
    /// The project defines a function of the SDK method's name (`fn scan(&self)` on a
    /// wrapper): the receiver may be that wrapper, not an `aws_sdk_dynamodb::Client`.
    pub receiver_may_wrap: bool,
}

/// A place to insert text, with the indentation of what is there.
#[derive(Clone, Debug)]
pub struct Insertion {
    pub range: Range<usize>,
    pub indent: String,
}

/// One setter call of a chain.
#[derive(Clone, Debug)]
pub struct Setter {
    pub name: String,
    /// From its `.` to its `)`.
    pub call: Range<usize>,
    pub args: Vec<Range<usize>>,
}

/// Methods that end a builder: what follows is not a request parameter.
const TERMINALS: &[&str] = &[
    "send",
    "into_paginator",
    "customize",
    "send_with",
    "presigned",
];

/// The sites of one file: `ops` are the analysis' operations of that file.
/// `defined` are the names of every `fn` the project defines.
pub fn sites_of(
    file: usize,
    path: &str,
    text: &str,
    tree: &Tree,
    ops: &[&Operation],
    model: &Model,
    defined: &std::collections::HashSet<String>,
) -> Vec<Site> {
    let mut sites: Vec<Site> = ops
        .iter()
        .map(|op| {
            let b = bind::bind(model, op);
            let chain = chain_of(op, text, tree).map(|mut c| {
                c.receiver_may_wrap = defined.contains(&c.op_name);
                c
            });
            let top = match &chain {
                Ok(c) => c.top.clone(),
                Err(_) => op.span.start..op.span.end,
            };
            Site {
                file,
                path: path.to_string(),
                op: (*op).clone(),
                table: b.table.map(|t| t.name.clone()),
                table_varies: false,
                line: line_of(text, op.method_span.start),
                chain,
                place: place_of(tree, top, text),
            }
        })
        .collect();
    let tables: Vec<(dynalint::source::Span, Option<String>)> = sites
        .iter()
        .map(|s| (s.op.method_span, s.table.clone()))
        .collect();
    for s in &mut sites {
        s.table_varies = tables
            .iter()
            .any(|(at, t)| *at == s.op.method_span && *t != s.table);
    }
    sites
}

fn chain_of(op: &Operation, text: &str, tree: &Tree) -> Result<Chain, String> {
    let ms = op.method_span;
    let method = op.kind.sdk_method();
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(ms.start, ms.end.max(ms.start))
        .ok_or("no syntax node at the call")?;
    let call = loop {
        if n.kind() == "call_expression" {
            if let Some(f) = n.child_by_field_name("function") {
                if f.kind() == "field_expression"
                    && f.child_by_field_name("field")
                        .is_some_and(|x| text_of(x, text) == method)
                {
                    break n;
                }
            }
        }
        if n.kind() == "token_tree" {
            return Err("inside a macro's tokens".into());
        }
        n = n.parent().ok_or_else(|| {
            if op.kind == OpKind::Query || op.kind == OpKind::Scan || !op.setters.is_empty() {
                format!("no `.{method}()` call at the site")
            } else {
                format!("not a fluent `.{method}()` chain (a struct literal or a typed builder)")
            }
        })?;
    };
    if call
        .child_by_field_name("arguments")
        .is_some_and(|a| a.named_child_count() > 0)
    {
        return Err(format!(
            "`.{method}(..)` takes a request value: not a fluent builder"
        ));
    }
    let f = call.child_by_field_name("function").ok_or("no function")?;
    let receiver = f.child_by_field_name("value").ok_or("no receiver")?;
    let field = f.child_by_field_name("field").ok_or("no field")?;
    let op_call = dot_before(text, field.start_byte())..call.end_byte();
    let mut setters = Vec::new();
    let mut cur = call;
    let mut send = None;
    let mut other_terminal = None;
    while let Some(p) = cur.parent() {
        if p.kind() != "field_expression" || p.child_by_field_name("value") != Some(cur) {
            break;
        }
        let Some(gp) = p.parent() else { break };
        if gp.kind() != "call_expression" || gp.child_by_field_name("function") != Some(p) {
            break;
        }
        let Some(name) = p
            .child_by_field_name("field")
            .map(|x| text_of(x, text).to_string())
        else {
            break;
        };
        if TERMINALS.contains(&name.as_str()) {
            if name == "send" {
                send = Some(receiver.start_byte()..gp.end_byte());
            } else {
                other_terminal = Some((name, receiver.start_byte()..gp.end_byte()));
            }
            break;
        }
        let args = gp
            .child_by_field_name("arguments")
            .map(|a| {
                named_children(a)
                    .into_iter()
                    .filter(|x| x.kind() != "line_comment" && x.kind() != "block_comment")
                    .map(|x| x.byte_range())
                    .collect()
            })
            .unwrap_or_default();
        let field = p.child_by_field_name("field").ok_or("no field")?;
        setters.push(Setter {
            name,
            call: dot_before(text, field.start_byte())..gp.end_byte(),
            args,
        });
        cur = gp;
    }
    let builder = receiver.start_byte()..cur.end_byte();
    let mut top = cur;
    let mut awaited = None;
    if send.is_some() {
        // The `.send()` call is the grandparent of `cur`.
        if let Some(s) = cur.parent().and_then(|p| p.parent()) {
            top = s;
            if let Some(a) = s.parent().filter(|a| a.kind() == "await_expression") {
                awaited = Some(a.byte_range());
                top = a;
            }
        }
    }
    Ok(Chain {
        receiver_may_wrap: false,
        top: top.byte_range(),
        receiver: receiver.byte_range(),
        op_name: method.to_string(),
        op_call,
        setters,
        builder,
        send,
        other_terminal,
        awaited,
    })
}

fn place_of(tree: &Tree, top: Range<usize>, text: &str) -> Result<Place, String> {
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(top.start, top.end)
        .ok_or("no syntax node at the call")?;
    while let Some(p) = n.parent() {
        if p.byte_range() != n.byte_range() {
            break;
        }
        n = p;
    }
    if ancestors(n).iter().any(|a| a.kind() == "token_tree") {
        return Err("inside a macro's tokens".into());
    }
    Ok(Place {
        statement: statement_of(n, text),
        item: item_of(n, text).ok_or("no module-level item holds the site")?,
        function: ancestors(n)
            .into_iter()
            .find(|a| a.kind() == "function_item")
            .map(|f| f.byte_range()),
    })
}

/// The byte of the `.` before a method name (whitespace and comments between).
fn dot_before(text: &str, name_start: usize) -> usize {
    text[..name_start].rfind('.').unwrap_or(name_start)
}

fn ancestors(n: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cur = n.parent();
    while let Some(p) = cur {
        out.push(p);
        cur = p.parent();
    }
    out
}

/// The statement of a block that holds `n`, when code put before it runs as it would
/// have run at `n` (once, and before it).
fn statement_of(n: Node<'_>, text: &str) -> Option<Insertion> {
    let mut cur = n;
    loop {
        let p = cur.parent()?;
        match p.kind() {
            "block" => {
                let indent = indent_at(text, cur.start_byte())?;
                return Some(Insertion {
                    range: cur.byte_range(),
                    indent,
                });
            }
            "closure_expression" | "match_arm" | "else_clause" | "while_expression"
            | "let_chain" | "token_tree" | "source_file" | "declaration_list" | "function_item" => {
                return None
            }
            "binary_expression" => {
                let op = p.child_by_field_name("operator").map(|o| text_of(o, text));
                if matches!(op, Some("&&") | Some("||"))
                    && p.child_by_field_name("right") == Some(cur)
                {
                    return None;
                }
            }
            _ => {}
        }
        cur = p;
    }
}

/// The item of the file's module (or of an inline `mod`) that holds `n`.
fn item_of(n: Node<'_>, text: &str) -> Option<Insertion> {
    let mut cur = n;
    loop {
        let p = cur.parent()?;
        let module_level = p.kind() == "source_file"
            || (p.kind() == "declaration_list"
                && p.parent().is_some_and(|m| m.kind() == "mod_item"));
        if module_level {
            // Attributes and doc comments above belong to the item: start there.
            let mut first = cur;
            while let Some(prev) = first.prev_sibling() {
                if !matches!(
                    prev.kind(),
                    "attribute_item" | "line_comment" | "block_comment"
                ) {
                    break;
                }
                first = prev;
            }
            return Some(Insertion {
                range: first.start_byte()..cur.end_byte(),
                indent: indent_at(text, first.start_byte()).unwrap_or_default(),
            });
        }
        cur = p;
    }
}

/// Every `if` expression in `range` of the tree (for `if`-to-`match`).
pub fn ifs_in<'t>(tree: &'t Tree, range: Range<usize>) -> Vec<Node<'t>> {
    let Some(n) = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)
    else {
        return Vec::new();
    };
    descendants(n)
        .into_iter()
        .filter(|d| d.kind() == "if_expression")
        .collect()
}
