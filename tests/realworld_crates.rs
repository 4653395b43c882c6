//! The part of the real-world corpus CI can run: crates published on crates.io that call
//! DynamoDB, pinned in `realworld/crates/Cargo.toml` and downloaded by cargo like any
//! dependency. Each `realworld/crates/<crate>/` holds a `dynalint.toml` written from the
//! crate's own schema declarations and an `expect.toml` of labels; the crate's `src/`
//! is copied next to that model (never into this repository) and checked: every
//! `[[finding]]` is reported and every `[[silent]]` call stays silent. A label marked
//! `pending` states a shape dynalint does not handle yet: the test expects today's
//! behaviour and fails once it changes, so the marker goes when the shape is handled.
//! A second test checks that every corpus entry (repositories too) is well formed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `debatable` labels are read by the scorer only.
#[allow(dead_code)]
#[path = "../examples/realworld/labels.rs"]
mod labels;

use std::path::{Path, PathBuf};
use std::process::Command;

use labels::{diagnostics, Expect, Label};
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Crate name → its unpacked source folder, from `cargo metadata` (which downloads
/// the pinned versions when they are not in cargo's cache yet).
fn crate_sources() -> Vec<(String, PathBuf)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(root().join("realworld/crates/Cargo.toml"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata for realworld/crates failed (it downloads the pinned crates):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata JSON");
    meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().expect("manifest_path"));
            (
                p["name"].as_str().expect("name").to_string(),
                manifest.parent().expect("crate folder").to_path_buf(),
            )
        })
        .collect()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn place(l: &Label) -> String {
    format!(
        "{} {}:{}-{} ({})",
        l.rule, l.file, l.lines[0], l.lines[1], l.why
    )
}

#[test]
fn published_crates_meet_their_labels() {
    let sources = crate_sources();
    let mut labelled: Vec<PathBuf> = std::fs::read_dir(root().join("realworld/crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expect.toml").is_file())
        .collect();
    labelled.sort();
    assert!(
        labelled.len() >= 2,
        "realworld/crates holds no labelled crates"
    );

    let mut failures = Vec::new();
    for dir in &labelled {
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let src = &sources
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| {
                panic!("{name} is labelled but not pinned in realworld/crates/Cargo.toml")
            })
            .1;
        let expect: Expect =
            toml::from_str(&std::fs::read_to_string(dir.join("expect.toml")).unwrap())
                .unwrap_or_else(|e| panic!("{name}/expect.toml: {e}"));

        // Only the crate's own sources, with our model at the root as a user would put it.
        let tree = tempfile::tempdir().unwrap();
        copy_tree(&src.join("src"), &tree.path().join("src"));
        std::fs::copy(dir.join("dynalint.toml"), tree.path().join("dynalint.toml")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_dynalint"))
            .args(["check", "--format", "json", "--exit-zero", "--quiet", "."])
            .current_dir(tree.path())
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "{name}: no JSON report: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let diags = diagnostics(&report);

        for f in &expect.finding {
            let found = diags.iter().any(|d| f.covers(d));
            match (&f.pending, found) {
                (None, false) => failures.push(format!("{name}: missed {}", place(f))),
                (Some(_), true) => failures.push(format!(
                    "{name}: now found, remove its `pending`: {}",
                    place(f)
                )),
                _ => {}
            }
        }
        for s in &expect.silent {
            let hit: Vec<_> = diags.iter().filter(|d| s.covers(d)).collect();
            match (&s.pending, hit.first()) {
                (None, Some(d)) => failures.push(format!(
                    "{name}: labelled silent but reported {}: {} [{}] {}",
                    place(s),
                    d.line,
                    d.severity,
                    d.message
                )),
                (Some(_), None) => failures.push(format!(
                    "{name}: now silent, remove its `pending`: {}",
                    place(s)
                )),
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The corpus compiles, so the grammar must read all of it: `check` of every pinned
/// crate's sources and of every fixture notes no syntax error. (The fetched
/// repositories, which CI cannot see, are checked by the scorer: its `SYNTAX` lines.)
#[test]
fn the_corpus_yields_no_syntax_error_note() {
    let mut trees: Vec<(String, PathBuf)> = crate_sources()
        .into_iter()
        .filter(|(name, _)| root().join("realworld/crates").join(name).is_dir())
        .map(|(name, dir)| (name, dir.join("src")))
        .collect();
    trees.push(("test-fixtures".into(), root().join("test-fixtures")));
    assert!(trees.len() >= 3, "{trees:?}");
    let mut found = Vec::new();
    for (name, tree) in &trees {
        let out = Command::new(env!("CARGO_BIN_EXE_dynalint"))
            .args(["check", "--format", "json", "--exit-zero", "--quiet", "."])
            .current_dir(tree)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!(
                "{name}: no JSON report: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        found.extend(
            report["notes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter(|n| n.contains("syntax error"))
                .map(|n| format!("{name}: {n}")),
        );
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Every corpus entry can be scored: its three files parse, the pin is a full commit,
/// labels name a rule dynalint has and a line range that is one, and the model loads.
/// (The trees themselves need `scripts/realworld-fetch`, which CI cannot run.)
#[test]
fn corpus_entries_are_well_formed() {
    let rules_out = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .arg("rules")
        .output()
        .unwrap();
    let rules_text = String::from_utf8(rules_out.stdout).unwrap();
    let rules: Vec<&str> = rules_text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();

    let mut problems = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("realworld"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("source.toml").is_file())
        .collect();
    dirs.extend(
        std::fs::read_dir(root().join("realworld/crates"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("expect.toml").is_file()),
    );
    assert!(dirs.len() >= 25, "the corpus holds {} entries", dirs.len());
    for dir in &dirs {
        let name = dir.strip_prefix(root()).unwrap().display().to_string();
        if dir.join("source.toml").is_file() {
            let source: toml::Table =
                toml::from_str(&std::fs::read_to_string(dir.join("source.toml")).unwrap())
                    .unwrap_or_else(|e| panic!("{name}/source.toml: {e}"));
            let commit = source.get("commit").and_then(|c| c.as_str()).unwrap_or("");
            if commit.len() != 40 || !commit.chars().all(|c| c.is_ascii_hexdigit()) {
                problems.push(format!("{name}: commit `{commit}` is not a 40-hex pin"));
            }
            let repo = source.get("repo").and_then(|c| c.as_str()).unwrap_or("");
            if repo.split('/').count() != 2 {
                problems.push(format!("{name}: repo `{repo}` is not owner/name"));
            }
            let folders = source.get("folders").and_then(|f| f.as_array());
            if folders.is_none_or(|f| f.is_empty()) {
                problems.push(format!("{name}: no folders"));
            }
            // A blind repository says when and by whom it was labelled before any run.
            let blind = source.get("blind").and_then(|b| b.as_bool()) == Some(true);
            let labelled = source
                .get("labelled")
                .and_then(|l| l.as_str())
                .unwrap_or("");
            if blind && labelled.trim().is_empty() {
                problems.push(format!(
                    "{name}: `blind = true` without `labelled = \"...\"` (when and by whom)"
                ));
            }
        }
        let expect: Expect =
            toml::from_str(&std::fs::read_to_string(dir.join("expect.toml")).unwrap())
                .unwrap_or_else(|e| panic!("{name}/expect.toml: {e}"));
        for l in expect
            .finding
            .iter()
            .chain(&expect.silent)
            .chain(&expect.debatable)
        {
            if !rules.contains(&l.rule.as_str()) {
                problems.push(format!("{name}: unknown rule `{}`", l.rule));
            }
            if l.lines[0] == 0 || l.lines[0] > l.lines[1] {
                problems.push(format!("{name}: bad lines {:?} in {}", l.lines, l.file));
            }
            if l.why.trim().is_empty() {
                problems.push(format!("{name}: a {} label without `why`", l.rule));
            }
            if l.triage.as_ref().is_some_and(|t| t.trim().is_empty()) {
                problems.push(format!(
                    "{name}: a {} label with an empty `triage` (say why it changed after a run)",
                    l.rule
                ));
            }
        }
        let check = Command::new(env!("CARGO_BIN_EXE_dynalint"))
            .args(["model", "check", "--config"])
            .arg(dir.join("dynalint.toml"))
            .output()
            .unwrap();
        if !check.status.success() {
            problems.push(format!(
                "{name}/dynalint.toml: {}",
                String::from_utf8_lossy(&check.stderr)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
