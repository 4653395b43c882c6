//! The language server over the same framed transport `dynalint lsp` uses, run
//! in-process: lifecycle, model diagnostics, allow-comment hover, and robustness.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_support;

use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use dynalint::lsp::ServerOptions;
use lsp_support::{fixture_copy, position_of, uri, Client, UNPARSED};
use serde_json::{json, Value};

fn client() -> Client {
    Client::in_process(ServerOptions::default())
}

#[test]
fn announces_incremental_sync_hover_and_quick_fixes() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    let init = c.initialize(&root);
    let caps = &init["capabilities"];
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    assert_eq!(caps["textDocumentSync"]["openClose"], true);
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(
        caps["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(init["serverInfo"]["name"], "dynalint");
    c.shutdown();
}

#[test]
fn model_problems_are_published_on_dynalint_toml_and_cleared_when_fixed() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    let (toml_uri, text) = c.open(&root.join("dynalint.toml"), "toml");
    assert_eq!(c.diagnostics(&toml_uri), Vec::<Value>::new());

    // Break the TOML: `partition-key = ` with no value, after non-ASCII in a comment.
    let at = text.find("partition-key = \"PK\"").unwrap();
    let (line, col) = position_of(&text, at);
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": toml_uri, "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": line, "character": col },
                           "end": { "line": line, "character": col + 20 } },
                "text": "partition-key = "
            }]
        }),
    );
    let d = c.diagnostics_where(&toml_uri, |d| !d.is_empty());
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(d[0]["code"], "model");
    assert_eq!(d[0]["source"], "dynalint");
    assert_eq!(d[0]["range"]["start"]["line"], line, "{d:#?}");

    // Undo: the full text again clears the problem.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": toml_uri, "version": 3 },
            "contentChanges": [{ "text": text }]
        }),
    );
    c.diagnostics_where(&toml_uri, |d| d.is_empty());
    c.shutdown();
}

#[test]
fn hover_on_a_rule_id_in_an_allow_comment_shows_its_doc_page() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    let path = root.join("src/allowed.rs");
    let text = "fn f() {\n    let s = \"😀 é\"; // dynalint: allow(scan-in-hot-path, no-such-rule) -- nightly job\n}\n";
    std::fs::write(&path, text).unwrap();
    let (u, _) = c.open(&path, "rust");
    for (needle, expect) in [
        ("scan-in-hot-path", "# scan-in-hot-path"),
        ("no-such-rule", "`no-such-rule` is not a dynalint rule"),
    ] {
        let at = text.find(needle).unwrap() + 3;
        let (line, character) = position_of(text, at);
        let r = c.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }),
        );
        let hover = r.result.unwrap();
        let value = hover["contents"]["value"].as_str().unwrap();
        assert!(value.contains(expect), "{value}");
        assert_eq!(hover["contents"]["kind"], "markdown");
        // The range is the id, in UTF-16 columns (the emoji counts two).
        let start = text.find(needle).unwrap();
        assert_eq!(
            hover["range"]["start"]["character"],
            position_of(text, start).1
        );
        assert_eq!(
            hover["range"]["end"]["character"],
            position_of(text, start + needle.len()).1
        );
    }
    c.shutdown();
}

#[test]
fn malformed_messages_unknown_methods_and_bad_params_get_errors_and_service_goes_on() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);

    // Not JSON at all: a JSON-RPC parse error with a null id.
    let junk = b"{ this is not json";
    c.send_raw(format!("Content-Length: {}\r\n\r\n", junk.len()).as_bytes());
    c.send_raw(junk);
    let err = c.notification(UNPARSED);
    assert_eq!(err["error"]["code"], -32700, "{err}");
    assert_eq!(err["id"], Value::Null);

    // A header line without CRLF.
    c.send_raw(b"garbage\n");

    let r = c.request("dynalint/noSuchMethod", json!({}));
    assert_eq!(r.error.unwrap().code, -32601);

    c.notify("dynalint/noSuchNotification", json!({ "x": 1 }));

    let r = c.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(r.error.unwrap().code, -32602);

    // A file with no `dynalint.toml` above it is in a project whose model is
    // inferred: asking about it is no error.
    let outside = tempfile::tempdir().unwrap();
    let file = std::fs::canonicalize(outside.path()).unwrap().join("x.rs");
    std::fs::write(&file, "fn main() {}\n").unwrap();
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&file) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let r = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": "untitled:Untitled-1" },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } },
                "context": { "diagnostics": [] } }),
    );
    assert_eq!(r.error.unwrap().code, -32602);

    // Still serving: the model opens and is checked.
    let (toml_uri, _) = c.open(&root.join("dynalint.toml"), "toml");
    assert_eq!(c.diagnostics(&toml_uri), Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn a_panic_while_analysing_one_file_is_contained() {
    let (_tmp, root) = fixture_copy();
    let options = ServerOptions {
        file_hook: Some(Arc::new(|f: &dynalint::source::SourceFile| {
            assert!(
                !f.text.contains("EXPLODE"),
                "injected failure in {}",
                f.path.display()
            );
        })),
        ..ServerOptions::default()
    };
    let mut c = Client::in_process(options);
    c.initialize(&root);
    let bad = root.join("src/bad.rs");
    std::fs::write(&bad, "// EXPLODE\nfn f() {}\n").unwrap();
    let (bad_uri, _) = c.open(&bad, "rust");
    let d = c.diagnostics(&bad_uri);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0]["code"], "internal-error");
    assert!(d[0]["message"]
        .as_str()
        .unwrap()
        .contains("injected failure"));
    c.log_containing("panicked and was skipped");

    // The other files are still analysed, and requests are still answered.
    let (repo_uri, _) = c.open(&root.join("src/repo.rs"), "rust");
    let d = c.diagnostics(&repo_uri);
    assert!(d.iter().all(|d| d["code"] != "internal-error"), "{d:#?}");
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": repo_uri }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    c.shutdown();
}

#[test]
fn a_rules_mechanical_fix_is_offered_and_applies() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    let path = root.join("src/reserved.rs");
    std::fs::write(
        &path,
        r#"use aws_sdk_dynamodb::{types::AttributeValue, Client};

pub async fn latest_blogs(client: &Client) {
    // « naïve 😀 » before the call shifts nothing on its lines, but the file is UTF-8.
    let _ = client
        .query()
        .table_name("BlogApp")
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .filter_expression("size > :z")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .expression_attribute_values(":z", AttributeValue::N("1".into()))
        .send()
        .await;
}
"#,
    )
    .unwrap();
    let (u, text) = c.open(&path, "rust");
    let rejected = |d: &[Value]| -> Vec<Value> {
        d.iter()
            .filter(|d| d["code"] == "rejected-request")
            .cloned()
            .collect()
    };
    let d = rejected(&c.diagnostics_where(&u, |d| !rejected(d).is_empty()));
    let r = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": u }, "range": d[0]["range"],
                "context": { "diagnostics": [d[0]] } }),
    );
    let actions = r.result.unwrap();
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("no preferred fix in {actions:#}"))
        .clone();
    let edits = fix["edit"]["changes"][&u].as_array().unwrap().clone();
    let fixed = lsp_support::apply_edits(&text, &edits);
    assert!(
        fixed.contains(".filter_expression(\"#size > :z\")"),
        "{fixed}"
    );
    assert!(
        fixed.contains(".expression_attribute_names(\"#size\", \"size\")"),
        "{fixed}"
    );
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
    );
    c.diagnostics_where(&u, |d| rejected(d).is_empty());
    c.shutdown();
}

#[test]
fn files_that_are_not_open_get_their_findings_too() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    // Opening the handlers analyses the project; the Scan's findings are in `repo.rs`,
    // which no editor has open.
    c.open(&root.join("src/handlers.rs"), "rust");
    let repo = uri(&root.join("src/repo.rs"));
    let d = c.diagnostics_where(&repo, |d| !d.is_empty());
    assert!(d.iter().any(|d| d["code"] == "scan-in-hot-path"), "{d:#?}");
    // The model is published last in each round: the first round is complete.
    let toml = uri(&root.join("dynalint.toml"));
    c.diagnostics(&toml);

    // An edit that changes nothing `repo.rs`'s findings point at (a comment at the end
    // of the handlers) re-analyses, but does not re-send them.
    let handlers = uri(&root.join("src/handlers.rs"));
    let text = std::fs::read_to_string(root.join("src/handlers.rs")).unwrap();
    let (line, character) = position_of(&text, text.len());
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": handlers, "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": line, "character": character },
                           "end": { "line": line, "character": character } },
                "text": "\n// edited\n"
            }]
        }),
    );
    c.diagnostics(&handlers);
    c.diagnostics(&toml);
    assert_eq!(
        c.queued_diagnostics(&repo),
        0,
        "unchanged findings are sent once"
    );

    // A line added at the top of the handlers moves the handler that the Scan's hot
    // chain cites: `repo.rs`'s finding changes (its related location) and is sent
    // again, though `repo.rs` did not change and the link was reused.
    let handler_at = |d: &[Value]| -> Option<(u64, u64)> {
        let start = d
            .iter()
            .filter(|d| d["code"] == "scan-in-hot-path")
            .flat_map(|d| {
                d["relatedInformation"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .find(|r| r["location"]["uri"] == handlers)?["location"]["range"]["start"]
            .clone();
        Some((start["line"].as_u64()?, start["character"].as_u64()?))
    };
    let (line, character) = handler_at(&d).expect("the hot chain cites the handler");
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": handlers, "version": 3 },
            "contentChanges": [{
                "range": { "start": { "line": 0, "character": 0 },
                           "end": { "line": 0, "character": 0 } },
                "text": "// moved\n"
            }]
        }),
    );
    c.diagnostics_where(&repo, |d| handler_at(d) == Some((line + 1, character)));
    c.shutdown();
}

#[test]
fn a_loose_file_is_a_project_of_its_folder_s_own_files() {
    // A scratch file in a shared folder with no `Cargo.toml` or `.git` above it: its
    // project is its folder's own files (the template beside it), not every project
    // below the folder.
    let tmp = tempfile::tempdir().unwrap();
    let shared = std::fs::canonicalize(tmp.path()).unwrap();
    let fixture = lsp_support::fixture_root().join("../_no-model/sam-handler");
    std::fs::copy(fixture.join("src/main.rs"), shared.join("scratch.rs")).unwrap();
    std::fs::copy(fixture.join("template.yaml"), shared.join("template.yaml")).unwrap();
    let other = shared.join("someone-else/src");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("lib.rs"),
        "pub async fn all(c: &aws_sdk_dynamodb::Client) {\n    let _ = c.scan().table_name(\"Invoices\").send().await;\n}\n",
    )
    .unwrap();

    let mut c = client();
    c.initialize(&shared);
    let (scratch, _) = c.open(&shared.join("scratch.rs"), "rust");
    // Bound to the template beside it: the Query misses its partition key.
    let d = c.diagnostics_where(&scratch, |d| !d.is_empty());
    assert!(d.iter().any(|d| d["code"] == "rejected-request"), "{d:#?}");
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": scratch }, "position": { "line": 13, "character": 10 } }),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    // Everything the analysis published came before the answer: nothing below.
    assert_eq!(c.queued_diagnostics(&uri(&other.join("lib.rs"))), 0);
    c.shutdown();
}

/// A file hook that sleeps `pause` on files containing `marker`, saying on the
/// returned channel when it starts: an analysis the test knows to be underway.
fn slow_on(marker: &'static str, pause: Duration) -> (ServerOptions, mpsc::Receiver<PathBuf>) {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let hook = move |f: &dynalint::source::SourceFile| {
        if f.text.contains(marker) {
            let _ = tx.lock().unwrap().send(f.path.to_path_buf());
            thread::sleep(pause);
        }
    };
    let options = ServerOptions {
        file_hook: Some(Arc::new(hook)),
        ..ServerOptions::default()
    };
    (options, rx)
}

/// The loop never analyses: while one project's analysis runs (for far longer than
/// the bound), a hover on another project's file and `shutdown` are answered.
#[test]
fn a_long_analysis_leaves_the_server_answering() {
    const PAUSE: Duration = Duration::from_secs(8);
    const BOUND: Duration = Duration::from_secs(4);
    let (_tmp_quick, quick) = fixture_copy();
    let (_tmp_slow, slow) = fixture_copy();
    let (options, started) = slow_on("SLOW ANALYSIS", PAUSE);
    let mut c = Client::in_process(options);
    c.initialize(&quick);
    let (quick_uri, text) = c.open(&quick.join("src/repo.rs"), "rust");
    c.diagnostics(&quick_uri);

    let slow_file = slow.join("src/slow.rs");
    std::fs::write(&slow_file, "// SLOW ANALYSIS\nfn f() {}\n").unwrap();
    c.open(&slow_file, "rust");
    started
        .recv_timeout(lsp_support::TIMEOUT)
        .expect("the slow analysis started");

    let t = Instant::now();
    let (line, character) = position_of(&text, text.find("scan()").unwrap());
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": quick_uri }, "position": { "line": line, "character": character } }),
    );
    let hover_took = t.elapsed();
    let md = r.result.expect("hover result");
    assert!(
        md["contents"]["value"].as_str().unwrap().contains("Scan"),
        "{md}"
    );
    assert!(hover_took < BOUND, "hover answered after {hover_took:?}");

    let t = Instant::now();
    c.shutdown();
    let shutdown_took = t.elapsed();
    assert!(
        shutdown_took < BOUND,
        "shutdown answered after {shutdown_took:?}"
    );
}

/// Two quick edits: the analysis of the first is cancelled by the second and never
/// published; the second's is.
#[test]
fn a_newer_edit_cancels_the_analysis_of_an_older_one() {
    let (_tmp, root) = fixture_copy();
    let (options, started) = slow_on("SLOW ANALYSIS", Duration::from_secs(3));
    let mut c = Client::in_process(options);
    c.initialize(&root);
    let (u, text) = c.open(&root.join("src/repo.rs"), "rust");
    c.diagnostics(&u);

    let change = |c: &mut Client, version: i32, text: String| {
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": u, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    };
    change(&mut c, 2, format!("{text}// SLOW ANALYSIS\n"));
    started
        .recv_timeout(lsp_support::TIMEOUT)
        .expect("the first edit's analysis started");
    // The newest text has no scan left: its diagnostics say so.
    let newest = text.replace(".scan()", ".get_item()");
    change(&mut c, 3, newest);
    let mut versions = Vec::new();
    loop {
        let p = c.notification("textDocument/publishDiagnostics");
        if p["uri"] != u {
            continue;
        }
        versions.push(p["version"].clone());
        if p["version"] == 3 {
            let d = p["diagnostics"].as_array().unwrap();
            assert!(d.iter().all(|d| d["code"] != "scan-in-hot-path"), "{d:#?}");
            break;
        }
    }
    assert_eq!(versions, vec![json!(3)], "published versions");
    c.shutdown();
}

/// A document over the size the scanner reads is not dropped quietly: the user is
/// told (`window/showMessage`) and its diagnostics say so at the top of the file.
#[test]
fn a_document_too_large_to_check_is_said_so() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    let path = root.join("src/huge.rs");
    let line = "pub fn f() -> u32 { 1 }\n";
    let bytes = dynalint::workspace::MAX_FILE_BYTES as usize + line.len();
    std::fs::write(&path, line.repeat(bytes / line.len() + 1)).unwrap();
    let (u, _) = c.open(&path, "rust");
    let shown = c.notification("window/showMessage");
    let message = shown["message"].as_str().unwrap();
    assert!(
        message.contains("does not check") && message.contains("huge.rs"),
        "{message}"
    );
    let d = c.diagnostics(&u);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0]["code"], "file-too-large");
    assert_eq!(d[0]["range"]["start"], json!({ "line": 0, "character": 0 }));
    assert!(
        d[0]["message"].as_str().unwrap().contains("larger than"),
        "{d:#?}"
    );
    c.shutdown();
}

/// Header blocks with two Content-Length headers, or none, are refused, and the
/// server reads the next message right after their bodies and answers it. The second
/// block comes while the server skips to a header it can frame: it is skipped with
/// the first's body, so one parse error says both.
#[test]
fn header_blocks_with_two_lengths_or_none_are_refused_and_reading_goes_on() {
    let (_tmp, root) = fixture_copy();
    let mut c = client();
    c.initialize(&root);
    let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    let two = format!(
        "Content-Length: 3\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    c.send_raw(two.as_bytes());
    c.send_raw(format!("Content-Type: x\r\n\r\n{body}").as_bytes());
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&root.join("src/repo.rs")) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let e = c.notification(UNPARSED);
    assert_eq!(e["error"]["code"], -32700, "{e}");
    assert!(
        c.inbox.iter().all(|n| n.method != UNPARSED),
        "{:?}",
        c.inbox
    );
    c.shutdown();
}
