//! The progress line covers every phase that grows with the project: `check` and
//! `simulate` report each as it starts and as its count completes
//! (`DYNALINT_PROGRESS=lines`, the same reports the terminal's line shows), and on a
//! terminal the line is drawn and cleared (run under a pseudo-terminal by `script`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

fn demo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/test-fixtures/demo"))
}

/// Runs the binary in `dir` with progress as lines: (stdout, progress lines).
fn run_with_progress(dir: &Path, args: &[&str]) -> (String, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .current_dir(dir)
        .args(args)
        .env("DYNALINT_PROGRESS", "lines")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines = stderr
        .lines()
        .filter(|l| !l.starts_with("note:") && !l.starts_with("warning:"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), lines)
}

fn rust_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                rust_files(&p)
            } else {
                usize::from(p.extension().is_some_and(|e| e == "rs"))
            }
        })
        .sum()
}

/// What the file phases show for `n` files: reading and parsing, each started and
/// completed, then linking.
fn file_phases(n: usize) -> Vec<String> {
    vec![
        format!("reading: 0/{n} files"),
        format!("reading: {n}/{n} files"),
        format!("parsing: 0/{n} files"),
        format!("parsing: {n}/{n} files"),
        "following calls across files…".to_string(),
    ]
}

/// What `check` shows for `n` files: it reads each file as it parses it (and lets
/// most texts go, to bound its memory on a large tree), so reading is parsing.
fn check_file_phases(n: usize) -> Vec<String> {
    vec![
        format!("parsing: 0/{n} files"),
        format!("parsing: {n}/{n} files"),
        "following calls across files…".to_string(),
    ]
}

#[test]
fn simulate_reports_reading_parsing_linking_generating_and_both_replays() {
    let (out, lines) = run_with_progress(
        demo(),
        &["simulate", "--scale", "0.002", "--format", "json"],
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    let count = |key: &str| report[key].as_array().unwrap().len();
    let (tables, patterns, calls) = (count("tables"), count("patterns"), count("operations"));
    assert!(tables > 0 && patterns > 0 && calls > 0, "{report:#}");
    // Generation counts items (a table can hold a million); the total it set out to
    // write is at least what it wrote (a key collision drops an item).
    let planned: usize = lines
        .iter()
        .find_map(|l| l.strip_prefix("generating items: 0/"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `generating items: 0/N` line in {lines:?}"));
    let written: u64 = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["simulated_items"].as_u64().unwrap())
        .sum();
    assert!(
        planned as u64 >= written && written > 0,
        "{planned} < {written}"
    );
    let mut expected = file_phases(rust_files(&demo().join("src")));
    expected.extend([
        format!("generating items: 0/{planned}"),
        format!("generating items: {planned}/{planned}"),
        format!("replaying access patterns: 0/{patterns}"),
        format!("replaying access patterns: {patterns}/{patterns}"),
        format!("replaying calls: 0/{calls}"),
        format!("replaying calls: {calls}/{calls}"),
    ]);
    assert_eq!(lines, expected);
}

#[test]
fn check_reports_parsing_as_it_reads_then_linking_and_rules() {
    let (_, lines) = run_with_progress(demo(), &["check", "--format", "json"]);
    let mut expected = check_file_phases(rust_files(&demo().join("src")));
    expected.push("checking rules…".to_string());
    assert_eq!(lines, expected);
}

#[test]
fn check_without_a_model_reports_inferring_it() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(
        tmp.path().join("src/main.rs"),
        "async fn all(c: &aws_sdk_dynamodb::Client) { c.scan().table_name(\"Orders\").send().await; }\n",
    )
    .unwrap();
    let (_, lines) = run_with_progress(tmp.path(), &["check", "--format", "json"]);
    let mut expected = check_file_phases(1);
    expected.extend(["inferring the model…", "checking rules…"].map(String::from));
    assert_eq!(lines, expected);
}

#[test]
fn no_progress_on_a_pipe_unless_asked() {
    let out = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .current_dir(demo())
        .args(["simulate", "--scale", "0.002"])
        .env_remove("DYNALINT_PROGRESS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("parsing"), "{stderr}");
    assert!(!stderr.contains("replaying"), "{stderr}");
}

/// On a terminal the line is redrawn in place (`\r`, clear line) once a run passes a
/// second, and cleared at the end. The full-scale simulation of the demo takes
/// seconds (generating a million items); which phases are on screen when the ticker
/// looks depends on the machine, so the test checks only that a phase was drawn.
#[test]
fn on_a_terminal_the_line_is_drawn_and_cleared() {
    if Command::new("script").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "`script` (util-linux) runs the command under a pseudo-terminal"
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("tty");
    // `script` runs the command on a pseudo-terminal and records what it shows there:
    // stderr is the terminal, stdout (the report) goes elsewhere.
    let status = Command::new("script")
        .args(["-qec"])
        .arg(format!(
            "{} simulate 2>/dev/tty >/dev/null",
            env!("CARGO_BIN_EXE_dynalint")
        ))
        .arg(&log)
        .current_dir(demo())
        .env_remove("DYNALINT_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let screen = std::fs::read_to_string(&log).unwrap();
    let phases = [
        "generating items: ",
        "replaying access patterns: ",
        "replaying calls: ",
    ];
    assert!(
        phases
            .iter()
            .any(|p| screen.contains(&format!("\r\x1b[2K{p}"))),
        "{screen:?}"
    );
    // What the command showed, without the trailer `script` adds to its log.
    let shown = screen.split("\nScript done").next().unwrap_or_default();
    let last = shown.rsplit('\r').next().unwrap_or_default();
    assert_eq!(last, "\x1b[2K", "the line is cleared at the end");
}
