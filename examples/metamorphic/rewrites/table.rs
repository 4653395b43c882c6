//! Rewrites of the table name alone: a struct field set by a constructor, a `const`, an
//! env var that the model names.

use std::sync::Arc;

use super::{
    before_item, before_statement, literal_in, node_at, place, table_expr, Cx, Made, Variant,
};
use crate::edit::Edit;

/// True when the table argument is a struct field's value (`table_name: x`), which
/// wants a `String`, not a reference.
fn in_struct_field(cx: &Cx<'_>, arg: std::ops::Range<usize>) -> bool {
    node_at(cx.tree, arg)
        .and_then(|n| n.parent())
        .is_some_and(|p| p.kind() == "field_initializer")
}

/// `struct MmTablesN { table: String }` with `fn new(..)`; a `let` before the statement
/// builds it, and the request reads `&tables.table`.
pub fn table_field(cx: &Cx<'_>) -> Made {
    let place = place(cx)?;
    let arg = table_expr(cx).ok_or("the request sets no table name argument at the site")?;
    let n = cx.n;
    let arg_node = node_at(cx.tree, arg.clone()).ok_or("the table name is no expression")?;
    let arg_text = &cx.text[arg.clone()];
    let closed = crate::syntax::is_closed(arg_node, cx.text) && !arg_text.contains("Self");
    let (ctor, new_args) = if closed {
        (
            format!("    fn new() -> Self {{\n        Self {{\n            table: ({arg_text}).into(),\n        }}\n    }}"),
            String::new(),
        )
    } else {
        (
            "    fn new(table: impl Into<String>) -> Self {\n        Self {\n            table: table.into(),\n        }\n    }".to_string(),
            arg_text.to_string(),
        )
    };
    let item =
        format!("struct MmTables{n} {{\n    table: String,\n}}\n\nimpl MmTables{n} {{\n{ctor}\n}}");
    let read = if in_struct_field(cx, arg.clone()) {
        format!("mm_tables{n}.table.clone()")
    } else {
        format!("&mm_tables{n}.table")
    };
    let build = before_statement(
        place,
        &[format!("let mm_tables{n} = MmTables{n}::new({new_args});")],
    )?;
    Ok(Variant::code(vec![
        before_item(place, &item),
        build,
        Edit::replace(arg, read),
    ]))
}

/// `const MM_TABLE_N: &str = "orders";` before the item; the literal becomes its name.
/// A table argument that is no literal (an env var, a field, a constant of another
/// crate) but binds to a model table becomes the const of that table's name: the model
/// says that is the value it holds.
pub fn table_const(cx: &Cx<'_>) -> Made {
    let place = place(cx)?;
    let arg = table_expr(cx).ok_or("the request sets no table name argument at the site")?;
    let n = cx.n;
    let (at, value, read) = match literal_in(cx, arg.clone()) {
        Some(lit) => (
            lit.clone(),
            cx.text[lit].to_string(),
            format!("MM_TABLE_{n}"),
        ),
        None => {
            let name = model_name(cx)?;
            let read = if in_struct_field(cx, arg.clone()) {
                format!("MM_TABLE_{n}.to_string()")
            } else {
                format!("MM_TABLE_{n}")
            };
            (arg, format!("{name:?}"), read)
        }
    };
    let item = format!("const MM_TABLE_{n}: &str = {value};");
    Ok(Variant::code(vec![
        before_item(place, &item),
        Edit::replace(at, read),
    ]))
}

/// The name of the model table the site binds to, when it is a plain name (not a
/// template a deployment fills in).
pub fn model_name(cx: &Cx<'_>) -> Result<String, String> {
    // Its callers pass several tables: one name in its place would change which table
    // the other callers' requests read.
    if cx.site.table_varies {
        return Err("the table argument is each caller's: no one name stands for it".into());
    }
    let name = cx
        .site
        .table
        .clone()
        .ok_or("the table name is no literal and binds to no table of the model")?;
    if name.contains('{') || name.contains('$') {
        return Err("the model's table name is a template a deployment fills in".into());
    }
    Ok(name)
}

/// `std::env::var("MM_TABLE_N")` in place of the table argument, and the model's table
/// lists `MM_TABLE_N` in `refs`: the deployment sets it to that table's name.
pub fn table_env(cx: &Cx<'_>) -> Made {
    if !cx.has_model {
        return Err(
            "without a hand-written model no file says which table the env var names".into(),
        );
    }
    if cx.site.table_varies {
        return Err("the table argument is each caller's: no one env var stands for it".into());
    }
    let table = cx
        .site
        .table
        .clone()
        .ok_or("the site binds to no table of the model")?;
    let arg = table_expr(cx).ok_or("the request sets no table name argument at the site")?;
    let var = format!("MM_TABLE_{}", cx.n);
    let read = format!("std::env::var(\"{var}\").expect(\"{var} is set\")");
    let patch_var = var.clone();
    Ok(Variant {
        edits: vec![Edit::replace(arg, read)],
        patch: Some(Arc::new(move |m| {
            if let Some(t) = m.tables.iter_mut().find(|t| t.name == table) {
                t.refs.push(patch_var.clone());
            }
        })),
    })
}
