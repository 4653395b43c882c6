//! `scripts/test`, the README's test command, run with stand-in tools: a failed
//! editor-tool install does not stop the Rust tests, and a passing run is quiet.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/usr/bin/env bash\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A copy of scripts/test in a scratch tree whose install step runs `install`, with
/// `cargo` and `npm` stand-ins that record their runs. Returns (stdout+stderr, code,
/// what ran).
fn run_scripts_test(install: &str) -> (String, i32, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::create_dir_all(dir.join("editors/vscode")).unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/test"),
        dir.join("scripts/test"),
    )
    .unwrap();
    script(&dir.join("scripts/install-test-tools.sh"), install);
    let ran = dir.join("ran");
    script(
        &dir.join("bin/cargo"),
        &format!("echo \"cargo $*\" >> {:?}", ran.display().to_string()),
    );
    script(
        &dir.join("bin/npm"),
        &format!(
            "echo \"npm $*\" >> {:?}; echo 'WARNING  This extension consists of 9 files'",
            ran.display().to_string()
        ),
    );
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let out = Command::new("bash")
        .arg(dir.join("scripts/test"))
        .env("PATH", path)
        .env_remove("CI")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let ran = std::fs::read_to_string(&ran).unwrap_or_default();
    (text, out.status.code().unwrap_or(-1), ran)
}

#[test]
fn rust_tests_run_when_the_editor_tools_fail_to_install() {
    let (out, code, ran) = run_scripts_test("echo 'pip: no network'; exit 1");
    assert!(ran.contains("cargo test"), "cargo test did not run: {out}");
    assert_eq!(code, 1, "the run still fails: {out}");
    assert!(
        out.contains("pip: no network"),
        "the failed step's log is shown: {out}"
    );
    assert!(
        out.contains("FAILED: installing the editor test tools"),
        "{out}"
    );
}

#[test]
fn a_passing_run_is_quiet() {
    let (out, code, ran) = run_scripts_test("echo 'install-test-tools: nvim installed'");
    assert_eq!(code, 0, "{out}");
    assert!(
        ran.contains("npm ci")
            && ran.contains("npm run --silent test")
            && ran.contains("cargo test"),
        "the extension is built and tested, and the Rust tests run: {ran}"
    );
    assert_eq!(out, "", "set-up chatter on a passing run");
}
