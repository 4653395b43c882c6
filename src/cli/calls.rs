//! `dynalint calls`: every DynamoDB call found, bound to the model — the inventory a
//! team reads to see its access patterns.

use serde_json::{json, Value};

use super::args::{CallsArgs, ListFormat};
use super::open::open;
use super::out::outln;
use super::EXIT_OK;
use crate::facts::bind;
use crate::model::Model;
use crate::project::Texts;
use crate::report::position::Positions;
use crate::scanner::{AttrMap, ExprArg, Operation, Resolved};
use crate::source::SourceFile;

pub(super) fn run(args: CallsArgs) -> i32 {
    let quiet = |_: &'static str, _: usize, _: usize| {};
    let mut project = match open(&args.project, Texts::Kept, false, &quiet) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let scanned = project.scan(&quiet);
    let files: std::collections::HashMap<_, _> =
        project.files().iter().map(|f| (&f.path, f)).collect();
    let mut ops: Vec<&Operation> = scanned.operations.iter().collect();
    ops.sort_by_key(|o| (o.file.clone(), o.span.start));
    match args.format {
        ListFormat::Json => {
            let v: Vec<Value> = ops
                .iter()
                .map(|o| op_json(project.model(), o, files.get(&o.file).copied()))
                .collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&json!({"version": 1, "calls": v}))
                    .unwrap_or_default()
            );
        }
        ListFormat::Human => {
            for o in &ops {
                print_human(project.model(), o, files.get(&o.file).copied(), 0);
            }
            outln!(
                "{} DynamoDB call(s) in {} file(s)",
                ops.len(),
                project.files().len()
            );
        }
    }
    let positions = Positions::new(project.files());
    for p in &scanned.problems {
        eprintln!(
            "note: {}: {}",
            positions.place_of(&p.file, p.span),
            p.message
        );
    }
    for n in project.model_notes() {
        eprintln!("note: {n}");
    }
    // Said only when it is not the usual `dynalint.toml` (stderr stays quiet then).
    if !matches!(project.model_source(), crate::infer::ModelSource::Config(_)) {
        eprintln!("note: model: {}", project.model_source().describe());
    }
    EXIT_OK
}

/// The call's place, computed as `check` and `simulate` compute it.
fn place(o: &Operation, file: Option<&SourceFile>) -> (String, usize, usize) {
    let r = crate::report::position::Positions::new(file).range(&o.location());
    (r.file, r.line, r.column)
}

fn table_json(model: &Model, o: &Operation) -> Value {
    let b = bind::bind(model, o);
    let reason = match (&o.table, b.table) {
        (_, Some(_)) => None,
        (None, None) => Some("the call sets no table name".to_string()),
        (Some(_), None) => b.unbound.clone(),
    };
    json!({
        "name": b.table.map(|t| t.name.clone()),
        "resolved": o.table.as_ref().and_then(|r| r.value().map(str::to_string)),
        "via": o.table.as_ref().map(Resolved::label),
        "reason": reason,
    })
}

fn expr(e: &Option<Box<ExprArg>>) -> Value {
    match e {
        None => Value::Null,
        Some(e) => {
            let mut v = json!({
                "text": e.text.value().map(str::to_string).or_else(|| match &e.text {
                    Resolved::Template { template } => Some(template.clone()),
                    _ => None,
                }),
                "via": e.text.label(),
                "conditional": e.conditional,
            });
            // Built on several paths: the text on each.
            if !e.paths.is_empty() {
                v["paths"] = json!(e.paths);
            }
            v
        }
    }
}

/// A value as far as it is known: `USER_KEY → format!("USER#{}")`, `env TABLE`.
fn value_text(r: &Resolved) -> String {
    match r {
        Resolved::Const { name, value } if !matches!(**value, Resolved::Unknown { .. }) => {
            format!("{name} → {}", value_text(value))
        }
        other => other.label(),
    }
}

fn attrs(m: &Option<AttrMap>) -> Value {
    match m {
        None => Value::Null,
        Some(m) => json!({
            "attributes": m.attributes.iter().map(|a| json!({
                "name": a.name.value().map(str::to_string).unwrap_or_else(|| a.name.label()),
                "type": a.value.ty.map(|t| t.as_str()),
                "literal": a.value.literal,
                "text": a.value.text.as_ref().map(value_text),
                "provenance": a.value.provenance,
                "nullable": a.value.nullable,
                "conditional": a.conditional,
            })).collect::<Vec<_>>(),
            "complete": m.complete,
            "from_type": m.from_type,
        }),
    }
}

fn op_json(model: &Model, o: &Operation, file: Option<&SourceFile>) -> Value {
    let (path, line, column) = place(o, file);
    json!({
        "kind": o.kind.api_name(),
        "table": table_json(model, o),
        "index": o.index.as_ref().map(|i| i.value().map(str::to_string).unwrap_or_else(|| i.label())),
        "file": path,
        "line": line,
        "column": column,
        "function": o.context.function,
        "hot": o.context.hot.as_ref().map(|h| json!({
            "entry": h.entry,
            "chain": h.chain.iter().map(|s| s.function.clone()).collect::<Vec<_>>(),
        })),
        "cold": o.context.cold,
        "in_loop": o.context.in_loop.as_ref().map(|l| l.kind.clone()),
        "in_loop_via": o.context.in_loop.as_ref().and_then(|l| l.caller.as_ref()).map(|c| c.function.clone()),
        "paginated": o.paginated,
        "first_item_only": o.first_item_only,
        "expressions": {
            "key_condition": expr(&o.key_condition),
            "filter": expr(&o.filter),
            "condition": expr(&o.condition),
            "projection": expr(&o.projection),
            "update": expr(&o.update),
            "statement": expr(&o.statement),
        },
        "names": o.names.iter().map(|(k, v)| (k.clone(), json!(v.name.value().map(str::to_string).unwrap_or_else(|| v.name.label())))).collect::<serde_json::Map<_, _>>(),
        "values": o.values.iter().map(|(k, v)| (k.clone(), json!({"type": v.ty.map(|t| t.as_str()), "literal": v.literal, "text": v.text.as_ref().map(value_text), "provenance": v.provenance}))).collect::<serde_json::Map<_, _>>(),
        "item": attrs(&o.item),
        "key": attrs(&o.key),
        "consistent_read": o.consistent_read,
        "limit": o.limit.as_ref().and_then(|l| l.literal.clone()),
        "conditional_setters": o.setters.iter().filter(|s| s.conditional).map(|s| s.method.as_str()).collect::<Vec<_>>(),
        "children": o.children.iter().map(|c| op_json(model, c, file)).collect::<Vec<_>>(),
    })
}

fn print_human(model: &Model, o: &Operation, file: Option<&SourceFile>, depth: usize) {
    let (path, line, column) = place(o, file);
    let b = bind::bind(model, o);
    let table = match b.table {
        Some(t) => t.name.clone(),
        None => format!(
            "? ({})",
            o.table.as_ref().map_or("no table".into(), Resolved::label)
        ),
    };
    let index = o
        .index
        .as_ref()
        .map(|i| format!(" index {}", i.value().unwrap_or("?")))
        .unwrap_or_default();
    let func = o.context.function.as_deref().unwrap_or("<top level>");
    let heat = match (&o.context.hot, &o.context.cold, &o.context.in_loop) {
        (Some(h), _, _) => {
            let chain: Vec<_> = h.chain.iter().map(|s| s.function.as_str()).collect();
            format!("hot ({}: {})", h.entry, chain.join(" → "))
        }
        (_, Some(c), _) => format!(
            "cold ({})",
            serde_json::to_value(c)
                .ok()
                .and_then(|v| v["kind"].as_str().map(str::to_string))
                .unwrap_or_default()
        ),
        _ => String::new(),
    };
    let looped = o
        .context
        .in_loop
        .as_ref()
        .map(|l| match &l.caller {
            Some(c) => format!(" in {} loop (in {})", l.kind, c.function),
            None => format!(" in {} loop", l.kind),
        })
        .unwrap_or_default();
    let paged = if o.paginated { " paginated" } else { "" };
    outln!(
        "{:indent$}{path}:{line}:{column}  {} {table}{index}  in {func}{looped}{paged} {heat}",
        "",
        o.kind.api_name(),
        indent = depth * 2
    );
    for c in &o.children {
        print_human(model, c, file, depth + 1);
    }
}
