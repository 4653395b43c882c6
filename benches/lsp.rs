//! Latency of the language server: time from `didChange` to the matching
//! `publishDiagnostics` for a 2,000-line file in a 500-file workspace (median and p95),
//! with the default debounce and with none (analysis alone).
//!
//! Each sample is one character (`x`) typed, then (next sample) removed, in a comment
//! near the middle of the file, and then in a function body (right after a `let `, so
//! the binding is renamed: a token changes, as most keystrokes in code change one). The
//! keystrokes are 50 ms apart, as a fast typist's: longer than the debounce, so each
//! one is analysed on its own rather than folded into a burst (which the debounce
//! would hold back until the burst had been quiet for 20 ms).
//!
//! Two workspaces: *typical* (one module in ten makes DynamoDB calls, the rest is
//! ordinary code of the same size) and *dense* (every module makes four calls: about
//! 2,000 calls, far more than a real service has).
//!
//! Run: `cargo bench --bench lsp`. The server runs in-process over an in-memory
//! connection, so the figures are the server's work, not pipe I/O.
//!
//! On real code: `DYNALINT_LSP_TREE=/tmp/dynalint-realcode/tree-1 cargo bench --bench
//! lsp` (a tree that `cargo bench --bench realcode` builds) edits a file of about 2,000
//! lines that makes DynamoDB calls, in that workspace, instead.

#![allow(clippy::unwrap_used, clippy::expect_used)]

// The `dynalint` binary's allocator (src/main.rs), which serves `dynalint lsp`: the
// figures are the server's as users run it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::fmt::Write as _;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use dynalint::lsp::{serve, ServerOptions};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

const FILES: usize = 500;
const BIG_LINES: usize = 2_000;
const SAMPLES: usize = 30;
/// Time between keystrokes.
const PAUSE: Duration = Duration::from_millis(50);

fn main() {
    if let Some(tree) = std::env::var_os("DYNALINT_LSP_TREE") {
        let root = std::fs::canonicalize(tree).unwrap();
        let big = real_file(&root).expect("no .rs file of 1,500 to 2,500 lines in the tree");
        let lines = std::fs::read_to_string(&big).unwrap().lines().count();
        println!(
            "lsp: didChange → publishDiagnostics, real workspace {}, edited file {} ({lines} lines)",
            root.display(),
            big.display()
        );
        report(&root, &big);
        return;
    }
    for dense in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let big = write_workspace(&root, dense);
        let lines = std::fs::read_to_string(&big).unwrap().lines().count();
        let kind = if dense { "dense" } else { "typical" };
        println!(
            "lsp: didChange → publishDiagnostics, {kind} workspace of {FILES} files, edited file {lines} lines"
        );
        report(&root, &big);
    }
}

/// A file of 1,500 to 2,500 lines in the tree, one that makes DynamoDB calls if any does.
fn real_file(root: &Path) -> Option<std::path::PathBuf> {
    let mut found: Vec<(bool, std::path::PathBuf)> = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                if (1_500..=2_500).contains(&text.lines().count()) {
                    let calls = text.contains(".query()") || text.contains(".get_item()");
                    found.push((calls, p));
                }
            }
        }
    }
    found.sort();
    found.pop().map(|(_, p)| p)
}

/// Times edits with the default debounce and with none, and prints the figures.
fn report(root: &Path, big: &Path) {
    let text = std::fs::read_to_string(big).unwrap();
    for (place, at) in [
        (
            "in a comment",
            edit_place(&text, "//").map(|(l, c)| (l, c + 2)),
        ),
        (
            "in a body",
            edit_place(&text, "let ").map(|(l, c)| (l, c + 4)),
        ),
    ] {
        let Some(at) = at else {
            println!("  (no line {place} to edit)");
            continue;
        };
        println!("  an edit {place} (line {}):", at.0 + 1);
        for (label, debounce) in [
            ("default debounce", dynalint::lsp::server::DEFAULT_DEBOUNCE),
            ("no debounce", Duration::ZERO),
        ] {
            let options = ServerOptions {
                debounce,
                ..ServerOptions::default()
            };
            let mut times = measure(root, big, at, options);
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            let median = times[times.len() / 2];
            let p95 = times[(times.len() * 95).div_ceil(100) - 1];
            println!(
                "  {label:<17} ({:>2} ms): median {:7.2} ms   p95 {:7.2} ms   min {:7.2} ms   max {:7.2} ms   (n={})",
                debounce.as_millis(),
                ms(median),
                ms(p95),
                ms(times[0]),
                ms(times[times.len() - 1]),
                times.len()
            );
        }
    }
}

/// The line nearest the middle of `text` whose code starts with `start` (after
/// indentation), and the column where `start` is (in UTF-16 units: indentation is ASCII).
fn edit_place(text: &str, start: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let middle = lines.len() / 2;
    (0..lines.len())
        .filter_map(|i| {
            let l = lines[i];
            let indent = l.len() - l.trim_start().len();
            l.trim_start()
                .starts_with(start)
                .then_some((i.abs_diff(middle), i, indent))
        })
        .min()
        .map(|(_, i, c)| (i, c))
}

/// Starts a server, opens the big file, then times `SAMPLES` edits at `at` (line,
/// UTF-16 column).
fn measure(
    root: &Path,
    big: &Path,
    (line, column): (usize, usize),
    options: ServerOptions,
) -> Vec<Duration> {
    let (server, client) = Connection::memory();
    let handle = thread::spawn(move || serve(server, options));
    let uri = format!("file://{}", big.display());
    let text = std::fs::read_to_string(big).unwrap();

    send_request(
        &client,
        1,
        "initialize",
        json!({
            "processId": null,
            "rootUri": format!("file://{}", root.display()),
            "capabilities": {}
        }),
    );
    wait_response(&client, 1);
    notify(&client, "initialized", json!({}));
    notify(
        &client,
        "textDocument/didOpen",
        json!({
            "textDocument": { "uri": uri, "languageId": "rust", "version": 1, "text": text }
        }),
    );
    wait_diagnostics(&client, &uri, 1);

    let mut times = Vec::with_capacity(SAMPLES);
    for i in 0..SAMPLES {
        let version = i as i64 + 2;
        // Type one character, then remove it: the realistic keystroke, and the file
        // returns to its original state.
        let change = if i % 2 == 0 {
            json!({ "range": { "start": { "line": line, "character": column }, "end": { "line": line, "character": column } }, "text": "x" })
        } else {
            json!({ "range": { "start": { "line": line, "character": column }, "end": { "line": line, "character": column + 1 } }, "text": "" })
        };
        thread::sleep(PAUSE);
        let start = Instant::now();
        notify(
            &client,
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [change]
            }),
        );
        wait_diagnostics(&client, &uri, version);
        times.push(start.elapsed());
    }
    send_request(&client, 2, "shutdown", Value::Null);
    wait_response(&client, 2);
    notify(&client, "exit", Value::Null);
    handle.join().unwrap().unwrap();
    times
}

fn send_request(c: &Connection, id: i32, method: &str, params: Value) {
    c.sender
        .send(Request::new(RequestId::from(id), method.into(), params).into())
        .unwrap();
}

fn notify(c: &Connection, method: &str, params: Value) {
    c.sender
        .send(Notification::new(method.into(), params).into())
        .unwrap();
}

fn wait_response(c: &Connection, id: i32) {
    loop {
        match c.receiver.recv_timeout(Duration::from_secs(120)).unwrap() {
            Message::Response(r) if r.id == RequestId::from(id) => return,
            _ => {}
        }
    }
}

fn wait_diagnostics(c: &Connection, uri: &str, version: i64) {
    loop {
        if let Message::Notification(n) = c.receiver.recv_timeout(Duration::from_secs(120)).unwrap()
        {
            if n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
                && n.params["version"] == version
            {
                return;
            }
        }
    }
}

/// A 500-file axum service: `main.rs` routes to handlers, each module has a handful of
/// DynamoDB calls among ordinary code, and `big.rs` is the 2,000-line file edited.
fn write_workspace(root: &Path, dense: bool) -> std::path::PathBuf {
    std::fs::write(
        root.join("dynalint.toml"),
        r#"
[[table]]
name = "Orders"
refs = ["TABLE_NAME", "TABLE"]
partition-key = "PK"
sort-key = "SK"
item-count = 20_000_000
avg-item-size = 800

[table.attributes]
PK = "S"
SK = "S"
status = { type = "S", values = ["OPEN", "SHIPPED", "CLOSED"] }
createdAt = "S"

[[table.index]]
name = "ByStatus"
partition-key = "status"
sort-key = "createdAt"
projection = "KEYS_ONLY"
"#,
    )
    .unwrap();
    let src = root.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let mut main = String::from("use axum::{routing::get, Router};\n\n");
    for m in 0..FILES - 2 {
        let _ = writeln!(main, "mod m{m};");
    }
    main.push_str("mod big;\n\n#[tokio::main]\nasync fn main() {\n    let app = Router::new()\n");
    for m in (0..FILES - 2).step_by(10) {
        let _ = writeln!(main, "        .route(\"/m{m}\", get(m{m}::handler_0))");
    }
    main.push_str("        .route(\"/big\", get(big::handler_0));\n    let l = tokio::net::TcpListener::bind(\"0.0.0.0:3000\").await.unwrap();\n    axum::serve(l, app).await.unwrap();\n}\n");
    std::fs::write(src.join("main.rs"), main).unwrap();
    for m in 0..FILES - 2 {
        let calls = dense || m % 10 == 0;
        std::fs::write(src.join(format!("m{m}.rs")), module(m, 4, calls)).unwrap();
    }
    let mut big = String::new();
    let mut n = 0;
    while big.lines().count() < BIG_LINES {
        big.push_str(&function(1000, n, true));
        n += 1;
    }
    let big: String = big
        .lines()
        .take(BIG_LINES)
        .map(|l| format!("{l}\n"))
        .collect();
    let path = src.join("big.rs");
    std::fs::write(&path, big).unwrap();
    path
}

/// A module of `fns` functions (about 25 lines each), with or without DynamoDB calls.
fn module(m: usize, fns: usize, calls: bool) -> String {
    let mut s = format!(
        "//! Module {m}.\n\nuse aws_sdk_dynamodb::{{types::AttributeValue, Client}};\n\nconst TABLE: &str = \"Orders\";\n\n"
    );
    for f in 0..fns {
        s.push_str(&function(m, f, calls));
    }
    s
}

fn function(m: usize, f: usize, calls: bool) -> String {
    let call = match f % 4 {
        _ if !calls => "cache_lookup(id, n)\n        .map(|v| v.len())\n        .ok_or(\"missing\")",
        0 => "client\n        .query()\n        .table_name(TABLE)\n        .index_name(\"ByStatus\")\n        .key_condition_expression(\"#s = :s\")\n        .expression_attribute_names(\"#s\", \"status\")\n        .expression_attribute_values(\":s\", AttributeValue::S(\"OPEN\".into()))\n        .send()\n        .await",
        1 => "client\n        .get_item()\n        .table_name(TABLE)\n        .key(\"PK\", AttributeValue::S(format!(\"ORDER#{id}\")))\n        .key(\"SK\", AttributeValue::S(\"META\".into()))\n        .send()\n        .await",
        2 => "client\n        .put_item()\n        .table_name(TABLE)\n        .item(\"PK\", AttributeValue::S(format!(\"ORDER#{id}\")))\n        .item(\"SK\", AttributeValue::S(\"META\".into()))\n        .item(\"status\", AttributeValue::S(\"OPEN\".into()))\n        .send()\n        .await",
        _ => "client\n        .scan()\n        .table_name(TABLE)\n        .send()\n        .await",
    };
    format!(
        "/// Handler {f} of module {m}.\npub async fn handler_{f}() -> String {{\n    let client = Client::new(&aws_config::load_from_env().await);\n    let id = \"{m}-{f}\".to_string();\n    let total = helper_{f}(&client, &id).await;\n    format!(\"{{total}}\")\n}}\n\nasync fn helper_{f}(client: &Client, id: &str) -> usize {{\n    // Ordinary code around the call.\n    let mut n = 0usize;\n    for c in id.chars() {{\n        n += c as usize;\n    }}\n    let out = {call};\n    n + out.is_ok() as usize\n}}\n\n"
    )
}
