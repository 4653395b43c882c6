//! Shared test helpers: snapshot files blessed with `DYNALINT_BLESS=1`, and running the
//! built binaries.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True when snapshots should be rewritten instead of compared.
pub fn blessing() -> bool {
    std::env::var_os("DYNALINT_BLESS").is_some_and(|v| v == "1")
}

/// Compares `actual` with the snapshot file, or writes it when blessing.
pub fn assert_snapshot(path: &Path, actual: &str) {
    if blessing() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!("missing snapshot {}; run `DYNALINT_BLESS=1 cargo test` to create it\n--- actual ---\n{actual}", path.display())
    });
    if expected != actual {
        let mut diff = String::new();
        for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
            if e != a {
                diff.push_str(&format!("line {}:\n- {e}\n+ {a}\n", i + 1));
            }
        }
        if expected.lines().count() != actual.lines().count() {
            diff.push_str(&format!(
                "line count: {} expected, {} actual\n",
                expected.lines().count(),
                actual.lines().count()
            ));
        }
        panic!(
            "snapshot {} differs (bless with `DYNALINT_BLESS=1 cargo test`):\n{diff}\n--- actual ---\n{actual}",
            path.display()
        );
    }
}

/// Runs a built binary in `dir` and returns its output.
pub fn run_in(bin: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env_remove("DYNALINT_BLESS")
        .env("NO_COLOR", "1")
        .output()
        .expect("binary runs")
}

/// `dynalint` with `args` in `dir`: (stdout, stderr, exit code).
pub fn dynalint(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = run_in(env!("CARGO_BIN_EXE_dynalint"), dir, args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}
