//! End-to-end: what a new user types in the first hour — bare file names, typos,
//! missing paths, flags before the subcommand, stdin, and a closed output pipe.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{dynalint, root};

fn basic() -> PathBuf {
    root().join("test-fixtures/_cli/basic")
}

/// Runs `dynalint args` in `dir` with `input` on stdin: (stdout, stderr, exit code).
fn with_stdin(dir: &std::path::Path, args: &[&str], input: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_bare_file_name_finds_the_model_from_the_current_folder() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        basic().join("dynalint.toml"),
        tmp.path().join("dynalint.toml"),
    )
    .unwrap();
    std::fs::copy(basic().join("src/main.rs"), tmp.path().join("repo.rs")).unwrap();
    let (out, err, code) = dynalint(tmp.path(), &["check", "repo.rs"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("repo.rs:10:22"), "{out}");
    let (_, err, code) = dynalint(tmp.path(), &["repo.rs"]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn a_missing_path_says_it_is_missing() {
    let (_, err, code) = dynalint(&basic(), &["check", "no/such/file.rs"]);
    assert_eq!(code, 2);
    assert!(err.contains("`no/such/file.rs` does not exist"), "{err}");
    assert!(!err.contains("dynalint.toml"), "{err}");
    let (_, err, code) = dynalint(&basic(), &["no-such-dir"]);
    assert_eq!(code, 2);
    assert!(err.contains("`no-such-dir` does not exist"), "{err}");
}

#[test]
fn a_mistyped_subcommand_gets_did_you_mean() {
    let (_, err, code) = dynalint(&basic(), &["chek"]);
    assert_eq!(code, 2);
    assert!(err.contains("'check'"), "{err}");
    let (_, err, code) = dynalint(&basic(), &["rulez"]);
    assert_eq!(code, 2);
    assert!(err.contains("'rules'"), "{err}");
}

#[test]
fn flags_before_the_subcommand_apply_to_it() {
    let (out, err, code) = dynalint(&basic(), &["--format", "json", "check"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    let (out, _, code) = dynalint(&basic(), &["--format", "json", "rules"]);
    assert_eq!(code, 0);
    assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok());
}

#[test]
fn stdin_is_checked_as_the_file_it_stands_for() {
    let text = std::fs::read_to_string(basic().join("src/main.rs")).unwrap();
    let (out, err, code) = with_stdin(
        &basic(),
        &[
            "check",
            "-",
            "--stdin-filename",
            "src/main.rs",
            "--format",
            "json",
        ],
        &text,
    );
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["diagnostics"][0]["file"], "src/main.rs");
    assert_eq!(v["summary"]["files"], 1);
    // From a folder below the model, and with `-` alone.
    let (out, err, code) = with_stdin(
        &basic().join("src"),
        &["-", "--stdin-filename", "main.rs", "--format", "github"],
        &text,
    );
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("file=main.rs,line=10"), "{out}");
    // Clean text passes.
    let (_, err, code) = with_stdin(
        &basic(),
        &["-", "--stdin-filename", "src/x.rs"],
        "fn x() {}\n",
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_closed_output_pipe_ends_quietly() {
    for args in [
        &["check", "--format", "sarif"][..],
        &["calls", "--format", "json"][..],
        &["rules"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dynalint"))
            .args(args)
            .current_dir(basic())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the first write, as `| head -0` would.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn exit_zero_and_ignore() {
    let (_, err, code) = dynalint(&basic(), &["check", "--exit-zero"]);
    assert_eq!(code, 0, "{err}");
    let (out, _, _) = dynalint(
        &basic(),
        &["check", "--ignore", "scan-in-hot-path,unused-allow"],
    );
    assert!(!out.contains("scan-in-hot-path]"), "{out}");
    assert!(!out.contains("unused-allow]"), "{out}");
    assert!(out.contains("unpaginated-query]"), "{out}");
    let (_, err, code) = dynalint(&basic(), &["check", "--ignore", "scan-in-hot-pth"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("in --ignore") && err.contains("did you mean `scan-in-hot-path`"),
        "{err}"
    );
}

#[test]
fn statistics_count_findings_per_rule() {
    let (out, err, code) = dynalint(&basic(), &["check", "--statistics"]);
    assert_eq!(code, 1, "the gate is the same: {err}");
    assert_eq!(
        out,
        "1  scan-in-hot-path\n1  unpaginated-query\n1  unused-allow  (1 fixable)\n"
    );
    let (out, _, _) = dynalint(&basic(), &["check", "--statistics", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["statistics"][2]["rule"], "unused-allow");
    assert_eq!(v["statistics"][2]["fixable"], 1);
}

#[test]
fn rules_say_which_are_fixable() {
    let (out, _, _) = dynalint(&basic(), &["rules", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fixable: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["fixable"] == true)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(fixable, ["rejected-request", "unused-allow"]);
    let (out, _, _) = dynalint(&basic(), &["rules"]);
    assert!(out.lines().next().unwrap().contains("fixable"), "{out}");
}

#[test]
fn fix_diff_shows_the_fixes_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("src")).unwrap();
    std::fs::copy(
        basic().join("dynalint.toml"),
        tmp.path().join("dynalint.toml"),
    )
    .unwrap();
    let main = tmp.path().join("src/main.rs");
    std::fs::copy(basic().join("src/main.rs"), &main).unwrap();
    let before = std::fs::read_to_string(&main).unwrap();
    let (out, err, code) = dynalint(tmp.path(), &["check", "--fix", "--diff"]);
    assert_eq!(code, 1, "something to fix: {err}");
    assert!(
        out.starts_with("--- a/src/main.rs\n+++ b/src/main.rs\n@@ "),
        "{out}"
    );
    assert!(
        out.contains("\n-    // dynalint: allow(scan-in-hot-path) -- stale: this is a query now\n"),
        "the unused allow is removed: {out}"
    );
    assert_eq!(
        std::fs::read_to_string(&main).unwrap(),
        before,
        "--diff writes nothing"
    );
    let (_, err, code) = dynalint(tmp.path(), &["check", "--diff"]);
    assert_eq!(code, 2, "--diff needs --fix: {err}");
    // --fix removes the stale allow; nothing is left to fix.
    let (_, err, _) = dynalint(tmp.path(), &["check", "--fix"]);
    assert!(err.contains("fixed 1 finding in 1 file"), "{err}");
    assert!(!std::fs::read_to_string(&main).unwrap().contains("stale"));
    let (out, _, code) = dynalint(tmp.path(), &["check", "--fix", "--diff"]);
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn a_file_that_cannot_be_read_fails_the_gate_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("src")).unwrap();
    let model = std::fs::read_to_string(basic().join("dynalint.toml")).unwrap();
    std::fs::write(dir.join("dynalint.toml"), &model).unwrap();
    std::fs::write(dir.join("src/ok.rs"), "fn ok() {}\n").unwrap();
    std::fs::write(dir.join("src/latin1.rs"), b"fn caf\xe9() {}\n").unwrap();
    let mut big = b"// ".to_vec();
    big.resize(8 * 1024 * 1024 + 1, b'x');
    std::fs::write(dir.join("src/big.rs"), &big).unwrap();

    let (out, err, code) = dynalint(dir, &["check"]);
    assert_eq!(code, 1, "no finding, but two files unread\n{out}\n{err}");
    assert!(out.contains("no findings"), "{out}");
    assert!(err.contains("latin1.rs: skipped: not valid UTF-8"), "{err}");
    assert!(
        err.contains(
            "big.rs: skipped: 8388609 bytes is larger than the 8 MiB (8388608 bytes) limit"
        ),
        "one limit, one wording: {err}"
    );
    assert!(err.contains("2 source files could not be read"), "{err}");
    let (_, err, code) = dynalint(dir, &["check", "--quiet", "--format", "json"]);
    assert_eq!(code, 1);
    assert!(err.contains("error: src/latin1.rs: skipped"), "{err}");
    let (_, _, code) = dynalint(dir, &["check", "--exit-zero"]);
    assert_eq!(code, 0);

    std::fs::write(
        dir.join("dynalint.toml"),
        model.replacen("[lint]", "[lint]\nskipped-files = \"allow\"", 1),
    )
    .unwrap();
    let text = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(
        text.contains("skipped-files"),
        "the fixture has a [lint] table"
    );
    let (out, err, code) = dynalint(dir, &["check"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains("note: src/latin1.rs: skipped"),
        "still said: {err}"
    );

    std::fs::write(
        dir.join("dynalint.toml"),
        model.replacen("[lint]", "[lint]\nskipped-files = \"alow\"", 1),
    )
    .unwrap();
    let (_, err, code) = dynalint(dir, &["check"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `allow`"), "{err}");
}

#[test]
fn check_calls_and_simulate_name_a_call_alike() {
    let demo = root().join("test-fixtures/demo");
    let json = |args: &[&str]| -> serde_json::Value {
        let (out, err, _) = dynalint(&demo, args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{err}"))
    };
    let check = json(&["check", "--format", "json"]);
    let calls = json(&["calls", "--format", "json"]);
    let sim = json(&["simulate", "--format", "json"]);
    let simulated: Vec<String> = sim["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["location"].as_str().unwrap().to_string())
        .collect();
    let listed: Vec<String> = calls["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}:{}:{}",
                c["file"].as_str().unwrap(),
                c["line"],
                c["column"]
            )
        })
        .collect();
    for place in &listed {
        assert!(simulated.contains(place), "{place} not in {simulated:?}");
    }
    let scans: Vec<String> = check["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "scan-in-hot-path")
        .map(|d| {
            format!(
                "{}:{}:{}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"]
            )
        })
        .collect();
    assert!(!scans.is_empty());
    for place in &scans {
        assert!(simulated.contains(place), "{place} not in {simulated:?}");
    }
    // And the same cost: `check`'s "about N RCU" is `simulate`'s full-scale RCU.
    for d in check["diagnostics"].as_array().unwrap() {
        if d["rule"] != "scan-in-hot-path" {
            continue;
        }
        let place = format!(
            "{}:{}:{}",
            d["file"].as_str().unwrap(),
            d["line"],
            d["column"]
        );
        let message = d["message"].as_str().unwrap();
        let said: f64 = message
            .split("about ")
            .nth(1)
            .and_then(|r| r.split(" RCU").next())
            .map(|n| n.replace(',', "").parse().unwrap())
            .unwrap_or_else(|| panic!("{message}"));
        let op = sim["operations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["location"] == place.as_str())
            .unwrap();
        let full = op["cost"]["full"]["rcu"].as_f64().unwrap();
        assert_eq!(said, full.round(), "{place}: {message} vs {}", op["cost"]);
        let items = op["cost"]["full"]["items_read"].as_f64().unwrap();
        assert_eq!(
            message.contains("reads every item"),
            items >= 5_000_000.0,
            "{place}: {message} vs {items} items read"
        );
    }
    // The query behind `a user's blogs` has a filter DynamoDB rejects (a reserved
    // word): the pattern is implemented all the same, and the filter is its own finding.
    assert_eq!(
        sim["coverage"]["patterns_without_code"],
        serde_json::json!([]),
        "{}",
        sim["coverage"]
    );
}

#[test]
fn analysis_reports_progress_through_every_phase() {
    use std::sync::Mutex;
    let model = dynalint::model::load_file(&basic().join("dynalint.toml")).unwrap();
    let files: Vec<dynalint::source::SourceFile> = (0..5)
        .map(|i| {
            dynalint::source::SourceFile::new(
                format!("src/f{i}.rs"),
                std::fs::read_to_string(basic().join("src/main.rs")).unwrap(),
            )
        })
        .collect();
    let seen: Mutex<Vec<(&'static str, usize, usize)>> = Mutex::new(Vec::new());
    let report = |phase: &'static str, done: usize, total: usize| {
        seen.lock().unwrap().push((phase, done, total));
    };
    let a = dynalint::project::Project::in_memory(model, files)
        .analyze(
            &Default::default(),
            &report,
            &dynalint::project::Cancel::new(),
        )
        .unwrap();
    assert!(!a.diagnostics.is_empty());
    let seen = seen.into_inner().unwrap();
    let phases: Vec<&str> = seen.iter().map(|s| s.0).fold(Vec::new(), |mut v, p| {
        if v.last() != Some(&p) {
            v.push(p);
        }
        v
    });
    assert_eq!(
        phases,
        ["parsing", "following calls across files", "checking rules"],
        "{seen:?}"
    );
    let parsed: Vec<usize> = seen
        .iter()
        .filter(|s| s.0 == "parsing")
        .map(|s| s.1)
        .collect();
    assert_eq!(
        parsed.iter().max(),
        Some(&5),
        "every file is counted: {seen:?}"
    );
}

#[test]
fn serve_takes_its_connection_bound_from_the_command_line() {
    use std::io::{BufRead, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["serve", "--port", "0", "--max-connections", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    // The held connection takes the only place; the next client is still served, and
    // the idle one is closed to make room.
    let mut held = std::net::TcpStream::connect(&addr).unwrap();
    held.set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut other = std::net::TcpStream::connect(&addr).unwrap();
    other
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    other
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    let _ = other.read_to_string(&mut out);
    let mut rest = Vec::new();
    let closed = held.read_to_end(&mut rest).is_ok();
    let _ = child.kill();
    let _ = child.wait();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    assert!(closed && rest.is_empty(), "{rest:?}");
    let (_, err, code) = dynalint(&basic(), &["serve", "--max-connections", "0"]);
    assert_eq!(code, 2, "{err}");
}
