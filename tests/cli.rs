//! End-to-end: the built `dynalint` and `cargo-dynalint` binaries on fixture projects.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};

use common::{assert_snapshot, dynalint, root};

fn fixture(name: &str) -> PathBuf {
    root().join("test-fixtures/_cli").join(name)
}

fn snap(name: &str) -> PathBuf {
    root().join("test-fixtures/_cli/snapshots").join(name)
}

#[test]
fn human_json_github_reports_and_exit_codes() {
    let dir = fixture("basic");
    for (format, file) in [
        ("human", "basic.human.txt"),
        ("json", "basic.json"),
        ("github", "basic.github.txt"),
    ] {
        let (out, err, code) = dynalint(&dir, &["check", "--format", format]);
        assert_eq!(
            code, 1,
            "{format}: findings at warning fail by default\n{out}\n{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert_snapshot(&snap(file), &out);
    }
    // The JSON contract: exactly these keys.
    let (out, _, _) = dynalint(&dir, &["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    let d = &v["diagnostics"][0];
    for key in [
        "rule",
        "category",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "help",
        "labels",
    ] {
        assert!(d.get(key).is_some(), "json diagnostic lacks `{key}`: {d}");
    }
    for key in ["files", "operations", "errors", "warnings"] {
        assert!(
            v["summary"].get(key).is_some(),
            "json summary lacks `{key}`"
        );
    }
    assert_eq!(
        d["file"], "src/main.rs",
        "paths are relative to the current directory"
    );
}

#[test]
fn fail_on_sets_the_gate() {
    let dir = fixture("basic");
    let (_, _, code) = dynalint(&dir, &["check", "--fail-on", "error"]);
    assert_eq!(code, 0, "only warnings: --fail-on error passes");
    let (_, _, code) = dynalint(&dir, &["--fail-on", "info"]);
    assert_eq!(code, 1);
    let (_, err, code) = dynalint(&dir, &["--fail-on", "fatal"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn stats_print_each_phase_and_what_it_worked_on() {
    let (out, err, code) = dynalint(&fixture("basic"), &["check", "--stats", "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        serde_json::from_str::<serde_json::Value>(&out).is_ok(),
        "stats stay off stdout"
    );
    for phase in ["walk and read", "index", "link", "rules"] {
        assert!(
            err.contains(&format!("stats:   {phase} ")),
            "{phase}:\n{err}"
        );
    }
    let index = err.lines().find(|l| l.contains("stats:   index")).unwrap();
    let parsed: usize = index
        .split(" files parsed for calls")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no parsed count: {index}"));
    assert!(parsed >= 1, "the fixture's request file is parsed: {index}");
    assert!(index.contains("skipped by the pre-filter") && index.contains("call edges"));
}

/// The official SARIF 2.1.0 schema's validator.
fn sarif_validator() -> jsonschema::Validator {
    let mut schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("test-fixtures/_report/sarif-schema-2.1.0.json"))
            .unwrap(),
    )
    .unwrap();
    // The official schema's `language` patterns have a stray `]` that only ECMA regex
    // accepts; the validator's meta-check rejects it. We never emit `language`, so give
    // them the intended pattern rather than weakening validation.
    fix_language_patterns(&mut schema);
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    // `fixable` has results with `fixes`.
    for project in ["fixable", "basic"] {
        let (out, _, code) = dynalint(&fixture(project), &["check", "--format", "sarif"]);
        assert_eq!(code, 1);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "SARIF of {project} is invalid:\n{}",
            errors.join("\n")
        );
    }
    let (out, _, _) = dynalint(&fixture("basic"), &["check", "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rules = doc["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().all(|r| r["fullDescription"]["text"]
        .as_str()
        .is_some_and(|t| !t.is_empty())));
    assert!(!doc["runs"][0]["results"].as_array().unwrap().is_empty());
    // An empty run is valid too.
    let empty =
        dynalint::report::sarif::render(&[], &dynalint::report::position::Positions::new([]), &[]);
    let empty: serde_json::Value = serde_json::from_str(&empty).unwrap();
    assert!(validator.is_valid(&empty));
}

fn fix_language_patterns(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "pattern" && x.as_str() == Some("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$")
                {
                    *x = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                } else {
                    fix_language_patterns(x);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(fix_language_patterns),
        _ => {}
    }
}

#[test]
fn unused_allow_is_reported_and_select_limits_rules() {
    let (out, _, _) = dynalint(
        &fixture("basic"),
        &["check", "--format", "json", "--select", "unused-allow"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rules: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["unused-allow"]);
    let (_, err, code) = dynalint(&fixture("basic"), &["check", "--select", "scan-in-hot-pth"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `scan-in-hot-path`"), "{err}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn baseline_records_todays_findings_and_reports_only_new_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    copy_dir(&fixture("basic"), &dir);
    let (_, err, code) = dynalint(
        &dir,
        &["check", "--write-baseline", "dynalint-baseline.json"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote"), "{err}");
    let (out, _, code) = dynalint(
        &dir,
        &[
            "check",
            "--baseline",
            "dynalint-baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    // Lines added above the findings do not invalidate the baseline.
    let main = dir.join("src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, format!("// a new header line\n\n{text}")).unwrap();
    let (out, _, code) = dynalint(&dir, &["check", "--baseline", "dynalint-baseline.json"]);
    assert_eq!(code, 0, "{out}");
    // A new finding is reported.
    std::fs::write(
        &main,
        format!("{text}\n// dynalint: allow(get-item-in-loop)\nfn later() {{}}\n"),
    )
    .unwrap();
    let (out, _, code) = dynalint(
        &dir,
        &[
            "check",
            "--baseline",
            "dynalint-baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 1, "{out}");
    // A broken baseline is a clear error.
    std::fs::write(dir.join("bad.json"), "{not json").unwrap();
    let (_, err, code) = dynalint(&dir, &["check", "--baseline", "bad.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a dynalint baseline"), "{err}");
}

#[test]
fn cargo_dynalint_shim_drops_cargos_argument() {
    let out = common::run_in(
        env!("CARGO_BIN_EXE_cargo-dynalint"),
        &fixture("basic"),
        &["dynalint", "rules", "--format", "json"],
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["id"] == "scan-in-hot-path"));
    let out = common::run_in(
        env!("CARGO_BIN_EXE_cargo-dynalint"),
        &fixture("basic"),
        &["dynalint", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let out = common::run_in(
        env!("CARGO_BIN_EXE_cargo-dynalint"),
        &fixture("basic"),
        &["dynalint", "--help"],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: cargo dynalint"));
}

#[test]
fn missing_and_broken_models_exit_2_with_a_location() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.rs"), "fn a() {}").unwrap();
    // No model is no error: `check` runs what needs none, and `model check` checks
    // the inferred one (here none).
    let (out, err, code) = dynalint(tmp.path(), &["check"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("model: none"), "{out}");
    let (out, err, code) = dynalint(tmp.path(), &["model", "check"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("there is no model to check"), "{out}");
    // `--config` names a file that must exist.
    let (_, err, code) = dynalint(tmp.path(), &["model", "check", "--config", "none.toml"]);
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = dynalint(&fixture("broken-model"), &["check"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("dynalint.toml:4:"),
        "the error points into the TOML: {err}"
    );
    let (_, err, code) = dynalint(&fixture("broken-model"), &["model", "check"]);
    assert_eq!(code, 2, "{err}");
    let (out, _, code) = dynalint(&fixture("basic"), &["model", "check"]);
    assert_eq!(code, 0);
    assert!(out.contains("is valid"), "{out}");
}

#[test]
fn model_show_prints_indexes_projections_and_sparse_membership() {
    let (out, err, code) = dynalint(&root().join("test-fixtures/demo"), &["model", "show"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ByFacet (global) partition facet (S), sort createdAt (S)"),
        "{out}"
    );
    assert!(out.contains("absent: User"), "{out}");
    let (_, _, code) = dynalint(&fixture("broken-model"), &["model", "show"]);
    assert_eq!(code, 2);
}

#[test]
fn bad_files_are_skipped_with_a_note_and_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::copy(
        fixture("basic").join("dynalint.toml"),
        dir.join("dynalint.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("src/loop")).unwrap();
    std::fs::write(dir.join("src/ok.rs"), "fn ok() {}\n").unwrap();
    std::fs::write(dir.join("src/latin1.rs"), b"fn caf\xe9() {}\n").unwrap();
    std::fs::write(dir.join("src/blob.rs"), b"\x7fELF\x00\x00\x01").unwrap();
    std::fs::write(
        dir.join("src/broken.rs"),
        "fn broken( { client.scan(.table_name(\"x\"\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("src"), dir.join("src/loop/back")).unwrap();
        std::os::unix::fs::symlink(dir.join("nowhere.rs"), dir.join("src/dangling.rs")).unwrap();
    }
    let (out, err, code) = dynalint(dir, &["check"]);
    assert!(code == 0 || code == 1, "exit {code}\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("latin1.rs: skipped: not valid UTF-8"), "{err}");
    assert!(err.contains("blob.rs: skipped: binary file"), "{err}");
    // A syntax error says where it is.
    assert!(err.contains("broken.rs:1:"), "{err}");
    #[cfg(unix)]
    {
        assert!(err.contains("symlink loop"), "{err}");
        assert!(err.contains("dangling.rs"), "{err}");
    }
    let (out, _, _) = dynalint(dir, &["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["notes"].as_array().unwrap().len() >= 2, "{out}");
}

#[test]
fn a_file_that_could_not_be_read_fails_the_run_and_every_format_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("dynalint.toml"), "[lint]\n").unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/ok.rs"), "fn ok() {}\n").unwrap();
    std::fs::write(dir.join("src/latin1.rs"), b"fn caf\xe9() {}\n").unwrap();
    let why = "skipped: not valid UTF-8";

    let (out, err, code) = dynalint(dir, &["check"]);
    assert_eq!(code, 1, "{out}{err}");
    let summary = out.lines().find(|l| l.starts_with("checked ")).unwrap();
    assert_eq!(
        summary,
        "checked 1 file and 0 DynamoDB calls: no findings; 1 source file could not be read, so the run fails"
    );

    let (out, _, code) = dynalint(dir, &["check", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let unread = &v["summary"]["unread"];
    assert_eq!(unread[0]["file"], "src/latin1.rs", "{out}");
    assert!(
        unread[0]["message"].as_str().unwrap().starts_with(why),
        "{out}"
    );

    let (out, _, code) = dynalint(dir, &["check", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let validator = sarif_validator();
    assert!(validator.is_valid(&doc), "{out}");
    let n = &doc["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error", "{out}");
    assert!(
        n["message"]["text"].as_str().unwrap().contains(why),
        "{out}"
    );
    assert_eq!(
        n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/latin1.rs"
    );

    let (out, _, code) = dynalint(dir, &["check", "--format", "github"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("::error file=src/latin1.rs,title=dynalint%3A file not checked::skipped: not valid UTF-8"),
        "{out}"
    );

    // Allowed: a note only, and the run passes.
    std::fs::write(
        dir.join("dynalint.toml"),
        "[lint]\nskipped-files = \"allow\"\n",
    )
    .unwrap();
    let (out, _, code) = dynalint(dir, &["check", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["unread"], serde_json::json!([]));
    assert!(v["notes"][0].as_str().unwrap().contains(why), "{out}");
}

/// A report that cannot be written is an I/O error (exit 2), whatever the findings;
/// a reader that closes the pipe early is not.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_exits_2() {
    for args in [
        &["check", "--format", "json"][..],
        &["check", "--exit-zero"],
        &["rules"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynalint"))
            .args(args)
            .current_dir(fixture("basic"))
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot write the output"), "{err}");
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["check", "--format", "json"])
        .current_dir(fixture("basic"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "findings, as without the pipe: {err}"
    );
    assert!(!err.contains("cannot write"), "{err}");
}

#[test]
fn rules_and_explain() {
    let (out, _, code) = dynalint(&root(), &["rules"]);
    assert_eq!(code, 0);
    assert!(out.contains("scan-in-hot-path"));
    let (out, _, code) = dynalint(&root(), &["explain", "scan-in-hot-path"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# scan-in-hot-path"));
    let (_, err, code) = dynalint(&root(), &["explain", "scan-in-hot"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean"));
    let (out, _, code) = dynalint(&root(), &["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Exit codes"), "{out}");
}

#[test]
fn simulate_reports_each_access_pattern_as_json() {
    let (out, err, code) = dynalint(
        &root().join("test-fixtures/demo"),
        &["simulate", "--scale", "0.002", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = v.to_string();
    for pattern in ["latest blogs", "published blogs", "user by email"] {
        assert!(text.contains(pattern), "{pattern} missing from {text}");
    }
    let (_, err, code) = dynalint(
        &root().join("test-fixtures/demo"),
        &["simulate", "--scale", "7"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--scale"), "{err}");
}

#[test]
fn unknown_rule_ids_in_the_model_are_config_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let model = std::fs::read_to_string(fixture("basic").join("dynalint.toml")).unwrap();
    std::fs::write(
        tmp.path().join("dynalint.toml"),
        format!("{model}\n[rules]\nscan-in-hot-paths = \"error\"\n"),
    )
    .unwrap();
    let (_, err, code) = dynalint(tmp.path(), &["check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did you mean `scan-in-hot-path`"), "{err}");
}

#[test]
fn serve_answers_dynamodb_json_on_loopback() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["serve", "--port", "0"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let body = "{}";
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"TableNames\""), "{response}");
}

#[test]
fn calls_lists_every_operation_with_its_table_and_context() {
    let (out, err, code) = dynalint(
        &root().join("test-fixtures/demo"),
        &["calls", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let calls = v["calls"].as_array().unwrap();
    assert!(calls.len() >= 12, "{out}");
    let latest = calls
        .iter()
        .find(|c| c["function"] == "BlogRepo::latest_blogs")
        .expect("latest_blogs is listed");
    assert_eq!(latest["kind"], "Query");
    assert_eq!(
        latest["table"]["name"], "BlogApp",
        "self.table comes from env TABLE_NAME, a ref of BlogApp"
    );
    assert_eq!(latest["index"], "ByFacet");
    assert!(
        latest["hot"]["entry"]
            .as_str()
            .unwrap()
            .contains("GET /blogs"),
        "{latest}"
    );
    let backfill = calls
        .iter()
        .find(|c| c["file"] == "src/bin/backfill.rs")
        .unwrap();
    assert!(
        backfill["hot"].is_null() && !backfill["cold"].is_null(),
        "{backfill}"
    );
    assert_eq!(backfill["paginated"], true);
    // `format!` keys keep their template, in values and in written attributes.
    let texts: Vec<&str> = calls
        .iter()
        .flat_map(|c| {
            let values = c["values"].as_object().into_iter().flat_map(|m| m.values());
            let attrs = ["item", "key"]
                .into_iter()
                .flat_map(|k| c[k]["attributes"].as_array().into_iter().flatten());
            values
                .chain(attrs)
                .filter_map(|v| v["text"].as_str())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(texts.contains(&"format!(\"USER#{}\")"), "{texts:?}");
    let (out, _, code) = dynalint(&root().join("test-fixtures/demo"), &["calls"]);
    assert_eq!(code, 0);
    assert!(out.contains("Query BlogApp index ByFacet"), "{out}");
}

#[test]
fn allow_comments_suppress_the_call_they_sit_on_or_above() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    copy_dir(&fixture("basic"), &dir);
    let main = dir.join("src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    let scan_line =
        "    let out = client.scan().table_name(TABLE).send().await.unwrap_or_default();";
    assert!(text.contains(scan_line));
    let rules_of = |dir: &Path| -> Vec<String> {
        let (out, _, _) = dynalint(dir, &["check", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(rules_of(&dir).contains(&"scan-in-hot-path".to_string()));
    // On the line above.
    let above = text.replace(
        scan_line,
        &format!("    // dynalint: allow(scan-in-hot-path) -- admin only, 50 items\n{scan_line}"),
    );
    std::fs::write(&main, &above).unwrap();
    assert!(!rules_of(&dir).contains(&"scan-in-hot-path".to_string()));
    // At the end of the line.
    let trailing = text.replace(
        scan_line,
        &format!("{scan_line} // dynalint: allow(scan-in-hot-path)"),
    );
    std::fs::write(&main, &trailing).unwrap();
    assert!(!rules_of(&dir).contains(&"scan-in-hot-path".to_string()));
    // For the whole file.
    std::fs::write(
        &main,
        format!("// dynalint: allow-file(scan-in-hot-path)\n{text}"),
    )
    .unwrap();
    assert!(!rules_of(&dir).contains(&"scan-in-hot-path".to_string()));
    // An allow for another rule does not hide it, and is itself reported.
    let other = text.replace(
        scan_line,
        &format!("    // dynalint: allow(get-item-in-loop)\n{scan_line}"),
    );
    std::fs::write(&main, &other).unwrap();
    let rules = rules_of(&dir);
    assert!(rules.contains(&"scan-in-hot-path".to_string()));
    assert_eq!(
        rules.iter().filter(|r| *r == "unused-allow").count(),
        2,
        "{rules:?}"
    );
}

#[test]
fn fix_applies_the_mechanical_fixes_and_reports_what_is_left() {
    let dir = fixture("fixable");
    // Before: the fixes are announced, in every format.
    let (out, _, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1);
    // DynamoDB reports one error per request: the others show once it is fixed.
    assert!(out.contains("(2 fixable with `--fix`)"), "{out}");
    let (out, _, _) = dynalint(&dir, &["check", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fixes: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["fix"].as_object().map(|_| &d["fix"]))
        .collect();
    assert_eq!(fixes.len(), 2, "{out}");
    assert!(fixes
        .iter()
        .all(|f| f["edits"][0]["replacement"].is_string() && f["edits"][0]["line"].is_u64()));

    // `--fix` rewrites the copy, re-checking until nothing is left to fix.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("p");
    copy_dir(&dir, &copy);
    let (out, err, code) = dynalint(&copy, &["check", "--fix"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("fixed 4 findings in 1 file"), "{err}");
    assert!(out.contains("no findings"), "{out}");
    let fixed = std::fs::read_to_string(copy.join("src/lib.rs")).unwrap();
    assert_snapshot(&snap("fixable.fixed.rs"), &fixed);
    // Nothing left: a second run changes nothing.
    let (_, err, code) = dynalint(&copy, &["check", "--fix"]);
    assert_eq!(code, 0);
    assert!(!err.contains("fixed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(copy.join("src/lib.rs")).unwrap(),
        fixed
    );
}

/// A repository whose TypeScript also calls DynamoDB: `unused-index` cannot know the
/// index is never read, says what it checked, and does not fail the gate. Without the
/// TypeScript it is a warning, and says nothing of an entry count the model lacks.
/// `git` and `patch`, or `None` (with a note) outside CI when one is missing.
fn patch_tools() -> Option<()> {
    let have = |tool: &str| {
        std::process::Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let missing: Vec<&str> = ["git", "patch"].into_iter().filter(|t| !have(t)).collect();
    if missing.is_empty() {
        return Some(());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{missing:?} missing in CI (patch comes with build-essential's dpkg-dev)"
    );
    eprintln!("note: skipped: {missing:?} not installed");
    None
}

#[test]
fn fix_diff_is_minimal_and_git_apply_and_patch_apply_it() {
    let Some(()) = patch_tools() else { return };
    // The fixable project with its two functions 40 lines apart: two small hunks.
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    copy_dir(&fixture("fixable"), &project);
    let lib = project.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    let filler: String = (1..=40).map(|i| format!("// filler {i}\n")).collect();
    let spread = text.replace("pub async fn top(", &format!("{filler}pub async fn top("));
    std::fs::write(&lib, &spread).unwrap();

    let (diff, err, code) = dynalint(&project, &["check", "--fix", "--diff"]);
    assert_eq!(code, 1, "something to fix: {err}");
    assert!(
        diff.starts_with("--- a/src/lib.rs\n+++ b/src/lib.rs\n"),
        "{diff}"
    );
    assert_eq!(diff.matches("\n@@ ").count(), 2, "{diff}");
    // Each hunk has at most three lines of context around its changes, so of the 40
    // lines between the two functions at most six are shown.
    for hunk in diff.split("\n@@ ").skip(1) {
        let lines: Vec<&str> = hunk.lines().skip(1).collect();
        let lead = lines.iter().take_while(|l| l.starts_with(' ')).count();
        let trail = lines
            .iter()
            .rev()
            .take_while(|l| l.starts_with(' '))
            .count();
        assert!(lead <= 3 && trail <= 3, "{diff}");
    }
    assert!(diff.matches("// filler").count() <= 6, "{diff}");
    // Nothing was written.
    assert_eq!(std::fs::read_to_string(&lib).unwrap(), spread);

    // What `--fix` writes is what either tool makes of the diff.
    let fixed_copy = tmp.path().join("fixed");
    copy_dir(&project, &fixed_copy);
    let (_, err, code) = dynalint(&fixed_copy, &["check", "--fix"]);
    assert_eq!(code, 0, "{err}");
    let fixed = std::fs::read_to_string(fixed_copy.join("src/lib.rs")).unwrap();
    for (tool, args) in [
        ("git", &["apply", "-"][..]),
        ("patch", &["-p1", "--quiet"][..]),
    ] {
        let copy = tmp.path().join(tool);
        copy_dir(&project, &copy);
        let mut child = std::process::Command::new(tool)
            .args(args)
            .current_dir(&copy)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(diff.as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().success(), "{tool} rejects:\n{diff}");
        assert_eq!(
            std::fs::read_to_string(copy.join("src/lib.rs")).unwrap(),
            fixed,
            "{tool}"
        );
    }
}

/// An outbox table written only through a transaction whose items a helper collects
/// (so the transaction's table is not known): a write reads no index, so the
/// outbox's status index is still said unread, with what the scanner could not see.
#[test]
fn unused_index_is_not_hidden_by_a_transaction_of_items_built_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::write(
        root.join("dynalint.toml"),
        r#"
[[table]]
name = "journal"
partition-key = "pkey"
[table.attributes]
pkey = "S"

[[table]]
name = "outbox"
partition-key = "pkey"
sort-key = "skey"
[table.attributes]
pkey = "S"
skey = "S"
status = "S"
[[table.index]]
name = "outbox-status-index"
partition-key = "status"
sort-key = "skey"
"#,
    )
    .unwrap();
    std::fs::create_dir_all(root.join("src/store")).unwrap();
    std::fs::write(
        root.join("src/store/helper.rs"),
        r#"
use aws_sdk_dynamodb::types::TransactWriteItem;
use aws_sdk_dynamodb::Client;

pub async fn commit_transactions(client: &Client, items: Vec<TransactWriteItem>) -> Result<(), Error> {
    client.transact_write_items().set_transact_items(Some(items)).send().await?;
    Ok(())
}
"#,
    )
    .unwrap();
    std::fs::write(
        root.join("src/store.rs"),
        r#"
mod helper;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use aws_sdk_dynamodb::Client;

pub struct Store { client: Client, outbox_name: String }

impl Store {
    pub async fn journal(&self, id: &str) -> Result<(), Error> {
        self.client.get_item().table_name("journal")
            .key("pkey", AttributeValue::S(id.to_string())).send().await?;
        Ok(())
    }

    pub async fn persist(&self, id: &str, events: &[String]) -> Result<(), Error> {
        let mut transactions: Vec<TransactWriteItem> = Vec::new();
        for (i, _event) in events.iter().enumerate() {
            let put = Put::builder()
                .table_name(&self.outbox_name)
                .item("pkey", AttributeValue::S(id.to_string()))
                .item("skey", AttributeValue::S(i.to_string()))
                .item("status", AttributeValue::S("PENDING".into()))
                .build()?;
            transactions.push(TransactWriteItem::builder().put(put).build());
        }
        helper::commit_transactions(&self.client, transactions).await
    }
}
"#,
    )
    .unwrap();
    let (out, err, _) = dynalint(root, &["check", "--format", "json"]);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let found: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unused-index")
        .collect();
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(found[0]["severity"], "info", "{out}");
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("index `outbox-status-index` of `outbox` is never read"),
        "{out}"
    );
}

#[test]
fn unused_index_says_what_it_checked_beside_other_languages() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::write(
        root.join("dynalint.toml"),
        r#"
[[table]]
name = "Users"
partition-key = "id"
[table.attributes]
id = "S"
email = "S"
[[table.index]]
name = "ByEmail"
partition-key = "email"
"#,
    )
    .unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        r#"
pub async fn user(client: &aws_sdk_dynamodb::Client, id: &str) {
    let _ = client.get_item().table_name("Users")
        .key("id", aws_sdk_dynamodb::types::AttributeValue::S(id.into())).send().await;
}
"#,
    )
    .unwrap();
    std::fs::create_dir_all(root.join("web/node_modules/sdk")).unwrap();
    std::fs::write(
        root.join("web/node_modules/sdk/index.js"),
        "// a vendored DynamoDB client",
    )
    .unwrap();
    let unused = |out: &str| -> Vec<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"] == "unused-index")
            .cloned()
            .collect()
    };
    // Only vendored JavaScript: not the project's code.
    let (out, err, code) = dynalint(root, &["check", "--format", "json"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let found = unused(&out);
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(found[0]["severity"], "warning");
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.contains("is never read"), "{message}");
    assert!(
        !message.contains("index entries"),
        "no count in the model: {message}"
    );

    std::fs::write(
        root.join("web/users.ts"),
        "import { DynamoDBClient, QueryCommand } from \"@aws-sdk/client-dynamodb\";\n\
         export const byEmail = (email: string) => new QueryCommand({ TableName: \"Users\", IndexName: \"ByEmail\" });\n",
    )
    .unwrap();
    std::fs::write(root.join("web/types.d.ts"), "// DynamoDB types").unwrap();
    let (out, err, code) = dynalint(root, &["check", "--format", "json"]);
    assert_eq!(code, 0, "a hint does not fail the gate: {out}\n{err}");
    let found = unused(&out);
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(found[0]["severity"], "info");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("TypeScript sources (1 file that names DynamoDB, e.g. ")
            && message.contains("users.ts")
            && message.contains("may read it"),
        "{message}"
    );
}

/// `hot-paths`, `cold-paths` and `exclude` are relative to the folder of
/// `dynalint.toml`, whichever path names the files: `.`, a sub-folder, the project from
/// its parent, an absolute path, or `cargo dynalint` run inside a sub-folder.
#[test]
fn path_globs_match_from_the_project_root_whatever_path_is_given() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = tmp.path().join("proj");
    for d in ["src/api", "src/jobs", "src/gen"] {
        std::fs::create_dir_all(proj.join(d)).unwrap();
    }
    std::fs::write(
        proj.join("dynalint.toml"),
        "[lint]\nhot-paths = [\"src/api/**\"]\ncold-paths = [\"src/jobs/**\"]\nexclude = [\"src/gen/**\"]\n\n[[table]]\nname = \"Orders\"\npartition-key = \"PK\"\n[table.attributes]\nPK = \"S\"\n",
    )
    .unwrap();
    let scan = |f: &str| {
        format!("pub async fn {f}(c: &Client) {{ for x in xs {{ c.scan().table_name(\"Orders\").send().await; }} }}\n")
    };
    std::fs::write(proj.join("src/api/list.rs"), scan("list")).unwrap();
    std::fs::write(proj.join("src/jobs/nightly.rs"), scan("nightly")).unwrap();
    std::fs::write(proj.join("src/gen/generated.rs"), scan("generated")).unwrap();
    let abs = proj.to_string_lossy().into_owned();
    let runs: [(&Path, Vec<&str>); 4] = [
        (&proj, vec!["check", "--format", "json"]),
        (&proj, vec!["check", "--format", "json", "./src"]),
        (tmp.path(), vec!["check", "--format", "json", "proj"]),
        (tmp.path(), vec!["check", "--format", "json", abs.as_str()]),
    ];
    for (dir, args) in runs {
        let (out, err, _) = dynalint(dir, &args);
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        let hot: Vec<String> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["rule"] == "scan-in-hot-path")
            .map(|d| format!("{} {}", d["file"], d["message"]))
            .collect();
        assert_eq!(hot.len(), 1, "{args:?}: {hot:#?}");
        assert!(
            hot[0].contains("list.rs") && hot[0].contains("on every request"),
            "{args:?}: {hot:?}"
        );
        assert!(
            !out.contains("generated.rs"),
            "{args:?}: excluded file checked"
        );
    }
    let out = common::run_in(
        env!("CARGO_BIN_EXE_cargo-dynalint"),
        &proj.join("src"),
        &["dynalint", "--format", "json"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("hot-paths glob"), "{text}");
}

#[test]
fn findings_come_in_one_order_however_a_path_is_spelled() {
    let demo = root().join("test-fixtures/demo");
    let places = |arg: &str| -> Vec<String> {
        let (out, err, code) = dynalint(&demo, &["check", "--format", "json", arg]);
        assert_eq!(code, 1, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        v["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .map(|d| {
                let file = d["file"].as_str().unwrap_or_default();
                format!("{}:{}", file.trim_start_matches("./"), d["line"])
            })
            .collect()
    };
    let plain = places("src");
    assert!(plain.len() > 1, "{plain:?}");
    assert_eq!(places("./src"), plain);
}

#[test]
fn a_helpers_table_passed_from_a_file_that_never_names_the_sdk_binds_in_every_command() {
    // The helpers take their table from their callers; the caller's file names no SDK
    // type or method, so the byte pre-filter rules it out and it is parsed only for
    // its calls' arguments. `check` (which reads files again rather than keep them)
    // and `calls` (which keeps them) must both follow the argument.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    copy_dir(
        &root().join("test-fixtures/scanner/param_from_ruled_out_file"),
        &dir,
    );
    std::fs::remove_file(dir.join("expected.txt")).unwrap();
    std::fs::create_dir(dir.join(".git")).unwrap();
    std::fs::write(
        dir.join("dynalint.toml"),
        "[[table]]\nname = \"LeoStats\"\nrefs = [\"leo_stats\"]\npartition-key = \"id\"\n\
         [table.attributes]\nid = \"S\"\nperiod = \"S\"\n",
    )
    .unwrap();
    let (out, err, _) = dynalint(&dir, &["calls", "--format", "json"]);
    let calls: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let query = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["function"] == "stats_for_period")
        .unwrap();
    assert_eq!(query["table"]["name"], "LeoStats", "{query}");
    // The Query keys `period`, which is not the table's partition key: `check` says so,
    // which it can only do once it knows the table.
    let (out, err, _) = dynalint(&dir, &["check", "--format", "json"]);
    let report: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let rejected = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["rule"] == "rejected-request" && d["file"] == "src/dynamo.rs");
    assert!(rejected, "{out}");
}

#[test]
fn a_helpers_limit_is_judged_per_caller_from_a_file_that_never_names_the_sdk() {
    // `find_by_user` sends its Query with `.limit(limit as i32)`; `count_by_user`, in a
    // file the byte pre-filter rules out, passes `u32::MAX` (-1 once cast: rejected),
    // and `page` passes its own caller's page size (unknown: nothing said).
    let dir = fixture("limit_per_caller");
    let (out, err, code) = dynalint(&dir, &["check", "--format", "json"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let report: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let rejected: Vec<&serde_json::Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "rejected-request")
        .collect();
    assert_eq!(rejected.len(), 1, "{out}");
    let d = rejected[0];
    assert_eq!(
        (&d["file"], &d["line"], &d["severity"]),
        (&"src/repo.rs".into(), &31.into(), &"error".into()),
        "{d}"
    );
    assert!(d["message"].as_str().unwrap().contains("'Limit'"), "{d}");
    // One request per caller: the count's and the page's.
    let (out, err, _) = dynalint(&dir, &["calls", "--format", "json"]);
    let calls: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let sent = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["function"] == "AuditLogRepository::find_by_user")
        .count();
    assert_eq!(sent, 2, "{out}");
}
