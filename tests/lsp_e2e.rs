//! End to end: the real `dynalint lsp` binary as a subprocess, spoken to over stdio
//! JSON-RPC with the fixture project `test-fixtures/_lsp/` (findings from the real
//! `scan-in-hot-path` rule).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_support;

use lsp_support::{
    apply_edits, binary_command, copy_of, fixture_copy, offset_of, position_of, range_json, uri,
    Client, UNPARSED,
};
use serde_json::{json, Value};

const RULE: &str = "scan-in-hot-path";

fn of_rule(d: &[Value]) -> Vec<Value> {
    d.iter().filter(|d| d["code"] == RULE).cloned().collect()
}

/// Sends edits as one incremental `didChange` and applies them to the client's copy.
fn edit(c: &mut Client, u: &str, version: i32, text: &mut String, edits: &[Value]) {
    // Content changes apply in order, each to the previous result: send them last
    // first so that every range still refers to the original text.
    let mut sorted = edits.to_vec();
    sorted.sort_by_key(|e| {
        let s = &e["range"]["start"];
        std::cmp::Reverse((s["line"].as_u64(), s["character"].as_u64()))
    });
    let changes: Vec<Value> = sorted
        .iter()
        .map(|e| json!({ "range": e["range"], "text": e["newText"] }))
        .collect();
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": version }, "contentChanges": changes }),
    );
    *text = apply_edits(text, edits);
}

fn replace(text: &str, old: &str, new: &str) -> Value {
    let at = text.find(old).unwrap();
    json!({ "range": range_json(text, at, at + old.len()), "newText": new })
}

#[test]
fn diagnostics_edit_hover_and_code_action_round_trip() {
    let (_tmp, root) = fixture_copy();
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    let (u, mut text) = c.open(&root.join("src/repo.rs"), "rust");

    // Two findings: the scan reached from the `/posts` route (through handlers.rs,
    // another file), and the scan inside a `for` loop.
    let d = of_rule(&c.diagnostics_where(&u, |d| of_rule(d).len() == 2));
    let hot = d
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("every request"))
        .expect("the hot-path finding")
        .clone();
    let looped = d
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("per iteration"))
        .expect("the loop finding")
        .clone();
    assert_eq!(hot["severity"], 2, "warning");
    assert_eq!(hot["source"], "dynalint");
    // The hot scan's line has `« 😀 »` before the call: its column is right only in
    // UTF-16 units (bytes or chars would land elsewhere).
    let start = &hot["range"]["start"];
    let at = offset_of(
        &text,
        start["line"].as_u64().unwrap(),
        start["character"].as_u64().unwrap(),
    );
    assert!(
        text[at..].starts_with("scan()") || text[at..].starts_with(".scan()"),
        "hot finding starts at {:?}",
        &text[at..at + 12]
    );
    assert_eq!(start["line"], 12);
    // The chain that made it hot is related information pointing at the handler.
    let related = hot["relatedInformation"]
        .as_array()
        .expect("related information");
    assert!(
        related.iter().any(|r| r["location"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("handlers.rs")
            || r["location"]["uri"].as_str().unwrap().ends_with("repo.rs")),
        "{related:#?}"
    );
    assert_eq!(looped["range"]["start"]["line"], 32);

    // Fix the loop: the finding goes, the other stays.
    let fix = replace(
        &text,
        "for _shard in shards {",
        "if let Some(_shard) = shards.first() {",
    );
    edit(&mut c, &u, 2, &mut text, &[fix]);
    let d = of_rule(&c.diagnostics_where(&u, |d| of_rule(d).len() == 1));
    assert!(
        d[0]["message"].as_str().unwrap().contains("every request"),
        "{d:#?}"
    );

    // Hover on the query: its index, key schema and projection from the model.
    let q = text.find(".query()").unwrap() + 2;
    let (line, character) = position_of(&text, q);
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }),
    );
    let hover = r.result.expect("hover result");
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("**DynamoDB `Query`** on index `ByFacet` of table `BlogApp`"),
        "{md}"
    );
    assert!(
        md.contains("| GSI `ByFacet` | `facet` (S) | `createdAt` (S) |"),
        "{md}"
    );
    assert!(md.contains("projects keys only"), "{md}");
    assert!(md.contains("5,000,000 items"), "{md}");
    // `facet` declares no values or cardinality, so the read cannot be estimated.
    assert!(
        md.contains("Cost per call: not known: the model needs"),
        "{md}"
    );

    // The quick fix "allow this finding here", applied as the editor would.
    let r = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": u }, "range": d[0]["range"],
                "context": { "diagnostics": [d[0]] } }),
    );
    let actions = r.result.unwrap();
    let allow = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == format!("Allow `{RULE}` here"))
        .unwrap_or_else(|| panic!("no allow action in {actions:#}"))
        .clone();
    assert_eq!(allow["kind"], "quickfix");
    let edits = allow["edit"]["changes"][&u].as_array().unwrap().clone();
    edit(&mut c, &u, 3, &mut text, &edits);
    assert!(
        text.contains(&format!(
            "    // dynalint: allow({RULE}) -- <reason>\n    let /* « 😀 » */ out = client.scan()"
        )),
        "{text}"
    );
    // Suppressed, and the new allow is used (no `unused-allow`).
    let d = c.diagnostics_where(&u, |d| of_rule(d).is_empty());
    assert!(d.iter().all(|d| d["code"] != "unused-allow"), "{d:#?}");
    assert!(c.shutdown().unwrap().success());
}

#[test]
fn changes_in_other_files_and_in_the_model_re_check_open_files() {
    let (_tmp, root) = fixture_copy();
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    let (repo, _) = c.open(&root.join("src/repo.rs"), "rust");
    assert_eq!(
        of_rule(&c.diagnostics_where(&repo, |d| of_rule(d).len() == 2)).len(),
        2
    );

    // Unroute the handler in main.rs: the scan it reached is no longer hot.
    let (main, mut main_text) = c.open(&root.join("src/main.rs"), "rust");
    let unroute = replace(
        &main_text,
        "get(handlers::list_posts)",
        "get(|| async { \"ok\" })",
    );
    edit(&mut c, &main, 2, &mut main_text, &[unroute]);
    let d = of_rule(&c.diagnostics_where(&repo, |d| of_rule(d).len() == 1));
    assert!(
        d[0]["message"].as_str().unwrap().contains("per iteration"),
        "{d:#?}"
    );
    // Route it again.
    let reroute = replace(
        &main_text,
        "get(|| async { \"ok\" })",
        "get(handlers::list_posts)",
    );
    edit(&mut c, &main, 3, &mut main_text, &[reroute]);
    c.diagnostics_where(&repo, |d| of_rule(d).len() == 2);

    // Turning the rule off in the open dynalint.toml re-checks repo.rs.
    let (toml, mut toml_text) = c.open(&root.join("dynalint.toml"), "toml");
    let end = toml_text.len();
    let off = json!({ "range": range_json(&toml_text, end, end), "newText": format!("\n[rules]\n{RULE} = \"off\"\n") });
    edit(&mut c, &toml, 2, &mut toml_text, &[off]);
    c.diagnostics_where(&repo, |d| of_rule(d).is_empty());

    // Closing it unsaved goes back to the disk's model; a change on disk, announced
    // by the client's file watcher, applies too.
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": toml } }),
    );
    c.diagnostics_where(&repo, |d| of_rule(d).len() == 2);
    std::fs::write(root.join("dynalint.toml"), &toml_text).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": toml, "type": 2 }] }),
    );
    c.diagnostics_where(&repo, |d| of_rule(d).is_empty());
    assert!(c.shutdown().unwrap().success());
}

#[test]
fn a_workspace_member_is_checked_with_its_workspace_and_its_manifest_counts() {
    // No dynalint.toml: a member crate's file belongs to the workspace's project, so
    // the handler in `orders` that calls `store::fetch_all` makes its Scan hot.
    let (_tmp, root) = copy_of("scanner/crate_scope");
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    let (store, _) = c.open(&root.join("store/src/lib.rs"), "rust");
    let hot = |d: &[Value]| {
        of_rule(d)
            .iter()
            .filter(|d| d["range"]["start"]["line"] == 5)
            .count()
    };
    c.diagnostics_where(&store, |d| hot(d) == 1);

    // `orders` stops depending on `store` (on disk, announced by the file watcher):
    // its `store::fetch_all` no longer names this crate's function.
    let manifest = root.join("orders/Cargo.toml");
    let depends = std::fs::read_to_string(&manifest).unwrap();
    let alone = depends.replace(
        "store = { package = \"orders-store\", version = \"0.1\" }",
        "",
    );
    assert_ne!(alone, depends);
    std::fs::write(&manifest, &alone).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&manifest), "type": 2 }] }),
    );
    c.diagnostics_where(&store, |d| hot(d) == 0);

    // Saved from the editor: the dependency is back.
    let (m, mut text) = c.open(&manifest, "toml");
    let end = text.len();
    let add = json!({ "range": range_json(&text, end, end), "newText": "store = { package = \"orders-store\", version = \"0.1\" }\n" });
    edit(&mut c, &m, 2, &mut text, &[add]);
    std::fs::write(&manifest, &text).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": m } }),
    );
    c.diagnostics_where(&store, |d| hot(d) == 1);
    assert!(c.shutdown().unwrap().success());
}

#[test]
fn a_changed_template_changes_the_inferred_model() {
    // No dynalint.toml: the model is the SAM template's, whose index projects only keys.
    let (_tmp, root) = copy_of("_no-model/sam-handler");
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"orders\"\n").unwrap();
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    let (main, _) = c.open(&root.join("src/main.rs"), "rust");
    let unprojected = |d: &[Value]| {
        d.iter()
            .filter(|d| d["code"] == "unprojected-attribute")
            .count()
    };
    c.diagnostics_where(&main, |d| unprojected(d) == 1);

    // The index now projects every attribute (changed on disk, announced by the watcher).
    let template = root.join("template.yaml");
    let keys_only = std::fs::read_to_string(&template).unwrap();
    let all = keys_only.replace("ProjectionType: KEYS_ONLY", "ProjectionType: ALL");
    assert_ne!(all, keys_only);
    std::fs::write(&template, &all).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&template), "type": 2 }] }),
    );
    c.diagnostics_where(&main, |d| unprojected(d) == 0);

    // Saved from the editor: keys only again.
    let (t, mut text) = c.open(&template, "yaml");
    let back = replace(&text, "ProjectionType: ALL", "ProjectionType: KEYS_ONLY");
    edit(&mut c, &t, 2, &mut text, &[back]);
    std::fs::write(&template, &text).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": t } }),
    );
    c.diagnostics_where(&main, |d| unprojected(d) == 1);
    assert!(c.shutdown().unwrap().success());
}

#[test]
fn the_binary_survives_bad_input_and_a_panicking_file() {
    let (_tmp, root) = fixture_copy();
    let bad = root.join("src/bad.rs");
    std::fs::write(&bad, "// PANIC-HERE\nfn f() {}\n").unwrap();
    let mut c = Client::spawn(binary_command(&[("DYNALINT_LSP_PANIC_ON", "PANIC-HERE")]));
    c.initialize(&root);

    let junk = b"[1, 2";
    c.send_raw(format!("Content-Length: {}\r\n\r\n", junk.len()).as_bytes());
    c.send_raw(junk);
    assert_eq!(c.notification(UNPARSED)["error"]["code"], -32700);

    assert_eq!(
        c.request("no/such/method", json!(null)).error.unwrap().code,
        -32601
    );

    let elsewhere = tempfile::tempdir().unwrap();
    let outside = std::fs::canonicalize(elsewhere.path())
        .unwrap()
        .join("x.rs");
    std::fs::write(&outside, "fn main() {}\n").unwrap();
    let r = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&outside) },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } },
                "context": { "diagnostics": [] } }),
    );
    // A file with no `dynalint.toml` above it is in a project too (its model is
    // inferred): asking about it is no error.
    assert!(r.error.is_none(), "{:?}", r.error);

    // The panicking file gets a stand-in diagnostic; the rest is analysed as usual.
    let (bad_uri, _) = c.open(&bad, "rust");
    let d = c.diagnostics(&bad_uri);
    assert_eq!(d[0]["code"], "internal-error", "{d:#?}");
    let (repo, _) = c.open(&root.join("src/repo.rs"), "rust");
    c.diagnostics_where(&repo, |d| of_rule(d).len() == 2);
    assert!(c.shutdown().unwrap().success());

    // `exit` without `shutdown` is an error exit, as the protocol says.
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    c.notify("exit", Value::Null);
    let status = c.wait_exit();
    assert!(!status.success(), "{status:?}");
}

/// A hover on the fixture's `src/repo.rs`: answered (its result does not matter) when
/// the server is still reading messages.
fn hover_is_answered(c: &mut Client, root: &std::path::Path) {
    let r = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&root.join("src/repo.rs")) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
}

/// Waits a moment, so that what was written so far reaches the server as a read of its
/// own: the next bytes start a new buffer.
fn pause() {
    std::thread::sleep(std::time::Duration::from_millis(100));
}

/// A header announcing a terabyte is refused at once, not waited for: the junk after
/// it is skipped and the next message (its header split across two reads) answered.
#[test]
fn a_huge_content_length_is_refused_and_the_next_message_answered() {
    let (_tmp, root) = fixture_copy();
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    c.send_raw(b"Content-Length: 999999999999\r\n\r\n");
    let e = c.notification(UNPARSED);
    assert_eq!(e["error"]["code"], -32700, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("larger than"),
        "{e}"
    );
    // The user is told, not only the client's log.
    let shown = c.notification("window/showMessage");
    assert!(
        shown["message"].as_str().unwrap().contains("larger than"),
        "{shown}"
    );
    let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    let rest = format!(
        "{{\"jsonrpc\": \"2.0\",\r\n \"params\": [1, \"Content-Length: 7\"]\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // Cut inside the junk's quoted header, inside the real one and between its CRLFs.
    let cuts = [
        0,
        rest.find("Length: 7").unwrap(),
        rest.rfind("Length:").unwrap(),
        rest.rfind("\r\n\r\n").unwrap() + 1,
        rest.len(),
    ];
    for w in cuts.windows(2) {
        c.send_raw(&rest.as_bytes()[w[0]..w[1]]);
        pause();
    }
    hover_is_answered(&mut c, &root);
    assert!(c.shutdown().unwrap().success());

    // A client that goes away after such a header ends the server with an ordinary
    // exit, not an abort.
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    c.send_raw(b"Content-Length: 999999999999\r\n\r\n");
    c.notification("window/showMessage");
    c.close_input();
    let status = c.wait_exit();
    assert!(status.code().is_some(), "ended by a signal: {status:?}");
}

/// Header blocks with no Content-Length, or two, are refused once each, however many
/// lines their bodies run to, and the next message is answered.
#[test]
fn header_blocks_without_one_length_are_refused_and_the_next_message_answered() {
    let (_tmp, root) = fixture_copy();
    let mut c = Client::spawn(binary_command(&[]));
    c.initialize(&root);
    let body =
        "{\r\n  \"jsonrpc\": \"2.0\",\r\n  \"method\": \"initialized\",\r\n  \"params\": {}\r\n}";
    c.send_raw(format!("Content-Type: application/vscode-jsonrpc\r\n\r\n{body}").as_bytes());
    c.send_raw(
        format!(
            "Content-Length: 3\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    // A length that announces more than was sent before the next message.
    c.send_raw(format!("Content-Length: 100000\r\n\r\n{body}").as_bytes());
    hover_is_answered(&mut c, &root);
    let mut errors = 0;
    while c.inbox.iter().any(|n| n.method == UNPARSED) {
        let e = c.notification(UNPARSED);
        assert_eq!(e["error"]["code"], -32700, "{e}");
        errors += 1;
    }
    assert_eq!(errors, 3, "one parse error per refused message");
    assert!(c.shutdown().unwrap().success());
}

/// A request waiting for an analysis when `shutdown` comes is answered (cancelled)
/// before `shutdown` is: the client waits for each of its requests.
#[test]
fn requests_waiting_on_an_analysis_are_answered_before_shutdown() {
    let (tmp, root) = fixture_copy();
    // The analysis is held underway for as long as this file exists.
    let hold = tmp.path().join("hold");
    std::fs::write(&hold, "").unwrap();
    let mut c = Client::spawn(binary_command(&[(
        "DYNALINT_LSP_HOLD_WHILE",
        hold.to_str().unwrap(),
    )]));
    c.initialize(&root);
    let (u, _) = c.open(&root.join("src/repo.rs"), "rust");
    // The project was never analysed: the hover waits for the held analysis.
    let hover = c.send_request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": { "line": 0, "character": 0 } }),
    );
    let shutdown = c.send_request("shutdown", Value::Null);
    let first = c.next_response();
    assert_eq!(first.id, hover, "{first:?}");
    let e = first.error.expect("the held hover is refused");
    assert_eq!(e.code, -32800, "RequestCancelled: {e:?}");
    let second = c.next_response();
    assert_eq!(second.id, shutdown, "{second:?}");
    assert!(second.error.is_none(), "{second:?}");
    std::fs::remove_file(&hold).unwrap();
    c.notify("exit", Value::Null);
    assert!(c.wait_exit().success());
}
