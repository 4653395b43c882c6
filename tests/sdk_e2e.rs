//! SDKs beyond Rust against `dynalint serve` (in-process, its defaults, an ephemeral
//! loopback port): boto3 (`tests/sdk/boto3_e2e.py`) and the AWS SDK for JavaScript v3
//! (`tests/sdk/js_sdk_e2e.cjs`), each driving tables, items, queries with paginators,
//! batches, transactions, PartiQL, its high-level API and DynamoDB's errors as that
//! SDK surfaces them.
//!
//! The SDKs come from `scripts/install-test-tools.sh`, pinned (target/test-tools/python
//! from `tests/sdk/python-requirements.txt`, target/test-tools/js-sdk from
//! `tests/sdk/js/package-lock.json`). Without them a test fails under CI and is
//! skipped, loudly, elsewhere; when the script found the SDK's registry unreachable
//! (`target/test-tools/<tool>.unreachable`), it is skipped with that note, CI too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where an installed tool is, or a loud skip: a failure under CI, unless the install
/// script found the tool's registry unreachable (its note, `<tool>.unreachable`).
fn installed(test: &str, path: PathBuf, marker: &str, tool: &str) -> Option<PathBuf> {
    if path.join(marker).exists() {
        return Some(path);
    }
    let note = root().join(format!("target/test-tools/{tool}.unreachable"));
    let why = match std::fs::read_to_string(&note) {
        Ok(unreachable) => unreachable.trim().to_string(),
        Err(_) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} not found: run scripts/install-test-tools.sh",
                path.join(marker).display()
            );
            format!("no {marker}. Run scripts/install-test-tools.sh to test it")
        }
    };
    // Straight to stderr: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n\n  ***** SKIPPED {test}: {why}. *****\n"
    );
    None
}

/// Runs an SDK's script against a fresh server; its output when it passes.
fn drive(mut command: Command) -> String {
    let server = serve_support::start_default();
    let out = command
        .arg(format!("http://{}", server.addr))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn boto3_drives_serve() {
    let Some(site) = installed(
        "boto3_drives_serve",
        root().join("target/test-tools/python"),
        "boto3/__init__.py",
        "boto3",
    ) else {
        return;
    };
    let mut python = Command::new(std::env::var_os("PYTHON").unwrap_or("python3".into()));
    python
        .env("PYTHONPATH", site)
        // No credentials, config or region from the machine's own AWS set-up.
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .arg(root().join("tests/sdk/boto3_e2e.py"));
    let out = drive(python);
    assert!(out.contains("checks passed"), "{out}");
}

#[test]
fn js_sdk_drives_serve() {
    let Some(modules) = installed(
        "js_sdk_drives_serve",
        root().join("target/test-tools/js-sdk/node_modules"),
        "@aws-sdk/client-dynamodb/package.json",
        "js-sdk",
    ) else {
        return;
    };
    let mut node = Command::new("node");
    node.env("NODE_PATH", modules)
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .arg(root().join("tests/sdk/js_sdk_e2e.cjs"));
    let out = drive(node);
    assert!(out.contains("checks passed"), "{out}");
}
