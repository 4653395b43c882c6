//! The rewrites: each takes one call site and changes the code around it without
//! changing what the program does. A rewrite that cannot apply at a site says why
//! (`Err`): that is "not applicable", never a pass.

mod control;
mod helpers;
mod statements;
pub mod table;
mod values;

use std::ops::Range;
use std::sync::Arc;

use dynalint::model::Model;
use tree_sitter::{Node, Tree};

use crate::edit::Edit;
use crate::site::{Chain, Place, Site};

/// What a rewrite or a defect reads of its site.
pub struct Cx<'a> {
    pub text: &'a str,
    pub tree: &'a Tree,
    pub site: &'a Site,
    /// A number no other variant of the same file uses: names the variant introduces
    /// end with it.
    pub n: usize,
    /// The hand-written model is used (a model change can state what the code cannot).
    pub has_model: bool,
}

/// A change to the model that goes with a variant's code.
pub type Patch = Arc<dyn Fn(&mut Model) + Send + Sync>;

/// One variant of a file: its edits, and the model change that goes with them.
pub struct Variant {
    pub edits: Vec<Edit>,
    pub patch: Option<Patch>,
}

impl Variant {
    pub fn code(edits: Vec<Edit>) -> Self {
        Self { edits, patch: None }
    }
}

/// A variant, or why none applies at the site.
pub type Made = Result<Variant, String>;

/// A rewrite that must leave the findings as they were.
pub struct Rewrite {
    pub name: &'static str,
    pub does: &'static str,
    pub make: fn(&Cx<'_>) -> Made,
}

/// Every rewrite, in the order reports list them.
pub const REWRITES: &[Rewrite] = &[
    Rewrite {
        name: "control-shift",
        does: "a control: comment lines before the item and the statement move every position, nothing else",
        make: control::shift,
    },
    Rewrite {
        name: "helper-fn",
        does: "the builder moves into a helper function; the site sends what it returns",
        make: helpers::helper_fn,
    },
    Rewrite {
        name: "repo-method",
        does: "the request moves into an async method of a repository struct built by `new`",
        make: helpers::repo_method,
    },
    Rewrite {
        name: "build-then-send",
        does: "one function returns the builder, another sends it",
        make: helpers::build_then_send,
    },
    Rewrite {
        name: "table-field",
        does: "the table name is a struct field set by a constructor",
        make: table::table_field,
    },
    Rewrite {
        name: "table-const",
        does: "the table name literal becomes a `const`",
        make: table::table_const,
    },
    Rewrite {
        name: "table-env",
        does: "the table name is read from an env var the model names in `refs`",
        make: table::table_env,
    },
    Rewrite {
        name: "table-assoc-const",
        does: "the table name is an associated const of a generic `T` chosen by turbofish",
        make: helpers::table_assoc_const,
    },
    Rewrite {
        name: "table-fn-arg",
        does: "the builder moves into a helper that takes the table name as an argument",
        make: helpers::table_fn_arg,
    },
    Rewrite {
        name: "split-let",
        does: "the chain is split across shadowing `let` bindings, one per setter",
        make: statements::split_let,
    },
    Rewrite {
        name: "split-let-mut",
        does: "the chain is split across assignments to one `let mut` builder",
        make: statements::split_let_mut,
    },
    Rewrite {
        name: "closure",
        does: "the request is sent by a closure the site calls",
        make: statements::closure,
    },
    Rewrite {
        name: "async-move",
        does: "the awaited send moves into an `async move` block",
        make: statements::async_move,
    },
    Rewrite {
        name: "tokio-spawn",
        does: "the awaited send runs in `tokio::spawn`, with what it reads cloned in",
        make: statements::tokio_spawn,
    },
    Rewrite {
        name: "value-macro",
        does: "attribute values are built by a small local `macro_rules!`",
        make: values::value_macro,
    },
    Rewrite {
        name: "if-to-match",
        does: "every `if` of the enclosing function becomes a `match`",
        make: control::if_to_match,
    },
];

/// The site's fluent chain, or why it has none.
pub fn chain<'a>(cx: &Cx<'a>) -> Result<&'a Chain, String> {
    cx.site.chain.as_ref().map_err(|e| e.clone())
}

/// Where code can go around the site, or why nowhere.
pub fn place<'a>(cx: &Cx<'a>) -> Result<&'a Place, String> {
    cx.site.place.as_ref().map_err(|e| e.clone())
}

/// The outermost node spanning exactly `r`.
pub fn node_at(tree: &Tree, r: Range<usize>) -> Option<Node<'_>> {
    let mut n = tree.root_node().descendant_for_byte_range(r.start, r.end)?;
    if n.byte_range() != r {
        return None;
    }
    while let Some(p) = n.parent() {
        if p.byte_range() != r {
            break;
        }
        n = p;
    }
    Some(n)
}

/// The table argument of the chain: (setter, argument) indexes and its range.
pub fn table_arg(cx: &Cx<'_>, chain: &Chain) -> Option<(usize, usize, Range<usize>)> {
    let t = cx.site.op.table_span?;
    chain.setters.iter().enumerate().find_map(|(si, s)| {
        s.args
            .iter()
            .enumerate()
            .find(|(_, a)| a.start <= t.start && t.start < a.end.max(a.start + 1))
            .map(|(ai, a)| (si, ai, a.clone()))
    })
}

/// The table argument wherever it is (a chain's setter, a request struct's field).
pub fn table_expr(cx: &Cx<'_>) -> Option<Range<usize>> {
    let t = cx.site.op.table_span?;
    let span = cx.site.op.span;
    (span.start <= t.start && t.end <= span.end).then_some(t.start..t.end)
}

/// The string literal a table argument is (`"orders"`, `"orders".to_string()`,
/// `String::from("orders")`, `"orders".into()`), as a node range.
pub fn literal_in(cx: &Cx<'_>, arg: Range<usize>) -> Option<Range<usize>> {
    let n = node_at(cx.tree, arg)?;
    let lit = match n.kind() {
        "string_literal" => n,
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            let args = n.child_by_field_name("arguments")?;
            match f.kind() {
                "field_expression" => {
                    let m = crate::syntax::text_of(f.child_by_field_name("field")?, cx.text);
                    let v = f.child_by_field_name("value")?;
                    (matches!(m, "to_string" | "to_owned" | "into")
                        && v.kind() == "string_literal"
                        && args.named_child_count() == 0)
                        .then_some(v)?
                }
                "scoped_identifier" => {
                    let p = crate::syntax::text_of(f, cx.text);
                    let a = args.named_child(0)?;
                    ((p == "String::from")
                        && a.kind() == "string_literal"
                        && args.named_child_count() == 1)
                        .then_some(a)?
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    // A literal with escapes or interpolation-like braces is left alone.
    let t = crate::syntax::text_of(lit, cx.text);
    (!t.contains('\\') && !t.starts_with('r')).then(|| lit.byte_range())
}

/// `Query` for `query`, `GetItem` for `get_item`.
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// The SDK's fluent builder type of an operation.
pub fn builder_type(op: &str) -> String {
    format!(
        "aws_sdk_dynamodb::operation::{op}::builders::{}FluentBuilder",
        camel(op)
    )
}

/// What `send().await` gives for an operation.
pub fn send_result(op: &str) -> String {
    let c = camel(op);
    format!(
        "Result<aws_sdk_dynamodb::operation::{op}::{c}Output, aws_sdk_dynamodb::error::SdkError<aws_sdk_dynamodb::operation::{op}::{c}Error>>"
    )
}

/// The site's chain, when its receiver is certainly the SDK's client (a rewrite that
/// passes it as `&aws_sdk_dynamodb::Client` or sends another request on it).
pub fn client_chain<'a>(cx: &Cx<'a>) -> Result<&'a Chain, String> {
    let c = chain(cx)?;
    if c.receiver_may_wrap {
        return Err(format!(
            "the project defines its own `{}`: the receiver may be a wrapper, not the client",
            c.op_name
        ));
    }
    Ok(c)
}

/// The client as an argument of type `&aws_sdk_dynamodb::Client`.
pub fn client_arg(cx: &Cx<'_>, chain: &Chain) -> String {
    let r = &cx.text[chain.receiver.clone()];
    if r.starts_with('&') {
        r.to_string()
    } else {
        format!("&{r}")
    }
}

/// Inserts `item` (lines without indentation) after the site's module-level item.
pub fn after_item(place: &Place, item: &str) -> Edit {
    let ind = &place.item.indent;
    let body: String = item
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{ind}{l}\n")
            }
        })
        .collect();
    Edit::insert(place.item.range.end, format!("\n\n{}", body.trim_end()))
}

/// Inserts `item` (lines without indentation) before the site's module-level item.
pub fn before_item(place: &Place, item: &str) -> Edit {
    let ind = &place.item.indent;
    let body: String = item
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if l.is_empty() {
                "\n".to_string()
            } else if i == 0 {
                format!("{l}\n")
            } else {
                format!("{ind}{l}\n")
            }
        })
        .collect();
    Edit::insert(place.item.range.start, format!("{body}\n{ind}"))
}

/// Inserts statements (one per line) before the site's statement.
pub fn before_statement(place: &Place, lines: &[String]) -> Result<Edit, String> {
    let st = place
        .statement
        .as_ref()
        .ok_or("no statement of its own to put code before (a closure, a match arm, ...)")?;
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
        text.push_str(&st.indent);
    }
    Ok(Edit::insert(st.range.start, text))
}

/// The parameter type of a setter's argument, as the SDK declares it, when known.
pub fn param_type(op: &str, setter: &str, arg: usize) -> Option<&'static str> {
    const S: &str = "impl Into<String>";
    const AV: &str = "aws_sdk_dynamodb::types::AttributeValue";
    const AV_MAP: &str =
        "Option<std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>>";
    Some(match (setter, arg) {
        (
            "table_name"
            | "index_name"
            | "key_condition_expression"
            | "filter_expression"
            | "projection_expression"
            | "update_expression"
            | "condition_expression"
            | "statement"
            | "client_request_token"
            | "next_token",
            0,
        ) => S,
        ("expression_attribute_names", 0 | 1) => S,
        ("expression_attribute_values" | "key" | "item" | "exclusive_start_key", 0) => S,
        ("expression_attribute_values" | "key" | "item" | "exclusive_start_key", 1) => AV,
        ("parameters", 0) => AV,
        ("limit" | "segment" | "total_segments", 0) => "i32",
        ("consistent_read" | "scan_index_forward", 0) => "bool",
        (
            "set_key" | "set_item" | "set_expression_attribute_values" | "set_exclusive_start_key",
            0,
        ) => AV_MAP,
        ("set_expression_attribute_names", 0) => {
            "Option<std::collections::HashMap<String, String>>"
        }
        (
            "set_table_name"
            | "set_index_name"
            | "set_key_condition_expression"
            | "set_filter_expression"
            | "set_projection_expression"
            | "set_update_expression"
            | "set_condition_expression",
            0,
        ) => "Option<String>",
        ("set_limit", 0) => "Option<i32>",
        ("set_consistent_read" | "set_scan_index_forward", 0) => "Option<bool>",
        ("select", 0) => "aws_sdk_dynamodb::types::Select",
        ("return_values", 0) => "aws_sdk_dynamodb::types::ReturnValue",
        ("return_consumed_capacity", 0) => "aws_sdk_dynamodb::types::ReturnConsumedCapacity",
        ("return_item_collection_metrics", 0) => {
            "aws_sdk_dynamodb::types::ReturnItemCollectionMetrics"
        }
        ("request_items", 0) => S,
        ("request_items", 1) if op == "batch_get_item" => {
            "aws_sdk_dynamodb::types::KeysAndAttributes"
        }
        ("request_items", 1) if op == "batch_write_item" => {
            "Vec<aws_sdk_dynamodb::types::WriteRequest>"
        }
        ("transact_items", 0) if op == "transact_write_items" => {
            "aws_sdk_dynamodb::types::TransactWriteItem"
        }
        ("transact_items", 0) if op == "transact_get_items" => {
            "aws_sdk_dynamodb::types::TransactGetItem"
        }
        ("set_transact_items", 0) if op == "transact_write_items" => {
            "Option<Vec<aws_sdk_dynamodb::types::TransactWriteItem>>"
        }
        ("set_transact_items", 0) if op == "transact_get_items" => {
            "Option<Vec<aws_sdk_dynamodb::types::TransactGetItem>>"
        }
        ("statements", 0) => "aws_sdk_dynamodb::types::BatchStatementRequest",
        ("set_parameters", 0) => "Option<Vec<aws_sdk_dynamodb::types::AttributeValue>>",
        _ => return None,
    })
}

/// How the table argument goes into an extracted builder.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TableAs<'a> {
    /// Like any argument: inline when it reads nothing from the scope.
    Inline,
    /// Always a parameter.
    Param,
    /// Replaced by this expression (`T::TABLE`).
    Expr(&'a str),
}

/// A builder taken out of its site: the helper's parameters, the site's arguments and
/// the builder's text from the SDK method on (`.query().table_name(p0)...`).
pub struct Extracted {
    /// `p0: impl Into<String>`, ...
    pub params: Vec<String>,
    /// What the site passes, in order.
    pub args: Vec<String>,
    pub body: String,
}

/// Takes the builder apart: arguments that read the scope (or carry `?`, `.await`) become
/// parameters, typed as the SDK's setters declare them; closed ones stay inline.
pub fn extract(cx: &Cx<'_>, chain: &Chain, table: TableAs<'_>) -> Result<Extracted, String> {
    let table_at = table_arg(cx, chain).map(|(s, a, _)| (s, a));
    if table != TableAs::Inline && table_at.is_none() {
        return Err("the chain sets no table name argument".into());
    }
    let mut replaced: Vec<(Range<usize>, String)> = Vec::new();
    let mut params = Vec::new();
    let mut args = Vec::new();
    for (si, s) in chain.setters.iter().enumerate() {
        for (ai, a) in s.args.iter().enumerate() {
            let is_table = table_at == Some((si, ai));
            if let (true, TableAs::Expr(e)) = (is_table, table) {
                replaced.push((a.clone(), e.to_string()));
                continue;
            }
            let node = node_at(cx.tree, a.clone()).ok_or("an argument is no expression")?;
            let text = &cx.text[a.clone()];
            let closed = crate::syntax::is_closed(node, cx.text) && !text.contains("Self");
            if closed && !(is_table && table == TableAs::Param) {
                continue;
            }
            let ty = param_type(&chain.op_name, &s.name, ai).ok_or_else(|| {
                format!(
                    "`.{}(..)` takes an argument that reads the scope and its type is not known",
                    s.name
                )
            })?;
            let p = format!("p{}", params.len());
            params.push(format!("{p}: {ty}"));
            args.push(text.to_string());
            replaced.push((a.clone(), p));
        }
    }
    let mut body = String::new();
    let mut at = chain.op_call.start;
    for (r, t) in &replaced {
        body.push_str(&cx.text[at..r.start]);
        body.push_str(t);
        at = r.end;
    }
    body.push_str(&cx.text[at..chain.builder.end]);
    Ok(Extracted { params, args, body })
}

/// Re-indents a multi-line builder body taken from the site for a helper's body.
pub fn reindent(body: &str, from: &str, to: &str) -> String {
    body.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.to_string()
            } else {
                format!("{to}{}", l.strip_prefix(from).unwrap_or(l.trim_start()))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The indentation of the line holding `at`.
pub fn line_indent(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}
