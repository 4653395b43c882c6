//! The set-up the README promises: the stated Rust versions are what the locked crates
//! need, `cargo install` gets lean binaries, and the cargo shim is no second copy.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifest() -> toml::Table {
    std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap()
}

fn version(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap()).collect()
}

fn host() -> String {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-vV")
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap()
        .to_string()
}

/// Every locked crate this platform builds, with its `rust-version`, split into what
/// the build needs and what only the tests need.
/// Crates ("name version") with the Rust version each needs, newest need first.
type Needs = Vec<(String, Vec<u64>)>;

fn locked_requirements() -> (Needs, Needs) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages: HashMap<&str, &Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let root_id = meta["resolve"]["root"].as_str().unwrap();
    let reach = |with_dev: bool| {
        let mut seen = HashSet::new();
        let mut todo = vec![root_id];
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            for dep in nodes[id]["deps"].as_array().unwrap() {
                let kinds = dep["dep_kinds"].as_array().unwrap();
                let dev_only = kinds.iter().all(|k| k["kind"] == "dev");
                if dev_only && !(with_dev && id == root_id) {
                    continue;
                }
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
        let mut v: Needs = seen
            .into_iter()
            .filter(|id| *id != root_id)
            .filter_map(|id| {
                let p = packages[id];
                let rv = p["rust_version"].as_str()?;
                Some((format!("{} {}", p["name"], p["version"]), version(rv)))
            })
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1));
        v
    };
    (reach(false), reach(true))
}

#[test]
fn the_stated_rust_versions_are_what_the_lockfile_needs() {
    let m = manifest();
    let build = m["package"]["rust-version"].as_str().unwrap().to_string();
    let test = m["package"]["metadata"]["dynalint"]["test-rust-version"]
        .as_str()
        .unwrap()
        .to_string();
    let (build_deps, all_deps) = locked_requirements();
    let too_new: Vec<_> = build_deps
        .iter()
        .filter(|(_, v)| *v > version(&build))
        .collect();
    assert!(
        too_new.is_empty(),
        "Cargo.toml says rust-version {build}, but these locked crates need more: {too_new:?}"
    );
    let too_new: Vec<_> = all_deps
        .iter()
        .filter(|(_, v)| *v > version(&test))
        .collect();
    assert!(
        too_new.is_empty(),
        "test-rust-version is {test}, but these locked crates need more: {too_new:?}"
    );
    // Not needlessly high either: the newest requirement is the stated one.
    assert_eq!(all_deps[0].1, version(&test), "{:?}", all_deps[0]);
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust toolchain ({build} or newer")),
        "the README states rust-version {build}"
    );
    assert!(
        readme.contains(&format!("{test} or newer")),
        "the README states the tests' {test}"
    );
}

#[test]
fn installed_binaries_carry_no_debug_info() {
    let m = manifest();
    let release = m["profile"]["release"].as_table().unwrap();
    assert!(
        release
            .get("debug")
            .is_none_or(|d| *d == toml::Value::Boolean(false)
                || *d == toml::Value::Integer(0)
                || d.as_str() == Some("none")),
        "{release:?}"
    );
    assert_eq!(release["strip"].as_str(), Some("debuginfo"));
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for line in readme.lines().filter(|l| l.contains("cargo install")) {
        assert!(
            line.contains("--locked"),
            "installs use the lockfile: {line}"
        );
    }
}

#[test]
fn the_cargo_shim_is_small() {
    let shim = std::fs::read(env!("CARGO_BIN_EXE_cargo-dynalint")).unwrap();
    let rule_id = b"unserved-access-pattern";
    assert!(
        !shim.windows(rule_id.len()).any(|w| w == rule_id),
        "the shim carries the library's rule registry"
    );
    let shim = shim.len() as u64;
    let main = std::fs::metadata(env!("CARGO_BIN_EXE_dynalint"))
        .unwrap()
        .len();
    // Both carry the standard library's debug info in a test build; the shim adds
    // next to nothing to it.
    assert!(
        shim * 5 < main,
        "cargo-dynalint is {shim} bytes, dynalint {main}: the shim must not link the library"
    );
}
