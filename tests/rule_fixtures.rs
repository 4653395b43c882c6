//! Rule fixtures (`test-fixtures/<rule-id>/`): every `.rs` case is checked with only
//! that rule enabled. A `//~^ rule-id` comment marks the line above it as flagged
//! (`//~^^` two lines above, and so on); the marked lines must be exactly the flagged
//! ones. The full rendered output is compared with `<case>.stderr` beside the case
//! (`DYNALINT_BLESS=1 cargo test` rewrites them; orphan `.stderr` files fail).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dynalint::model::{load_file, Model};
use dynalint::project::{Analyzed, Cancel, Project};
use dynalint::report::human;
use dynalint::rules::{RuleSelection, REGISTRY};
use dynalint::source::SourceFile;

/// `(1-based line, rule id)` of every `//~^` marker.
fn markers(text: &str) -> BTreeSet<(usize, String)> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(at) = line.find("//~") {
            let rest = &line[at + 3..];
            let ups = rest.chars().take_while(|c| *c == '^').count();
            let ids = rest[ups..].trim();
            for id in ids.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                out.insert(((i + 1).saturating_sub(ups), id.to_string()));
            }
        }
    }
    out
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    v.sort();
    v
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn every_rule_has_a_fixture_folder_and_each_case_matches_its_markers_and_snapshot() {
    let root = common::root();
    std::env::set_current_dir(&root).unwrap();
    let mut failures = Vec::new();
    for rule in REGISTRY {
        let id = rule.meta().id;
        let dir = PathBuf::from("test-fixtures").join(id);
        let model_path = dir.join("dynalint.toml");
        assert!(
            model_path.is_file(),
            "rule `{id}` has no fixture model {}",
            model_path.display()
        );
        let model =
            load_file(&model_path).unwrap_or_else(|e| panic!("{}: {e:?}", model_path.display()));
        let case_files = cases(&dir);
        assert!(
            !case_files.is_empty(),
            "rule `{id}` has no fixture cases in {}",
            dir.display()
        );
        let selection = RuleSelection {
            only: Some(vec![id.to_string()]),
            ..Default::default()
        };
        for case in &case_files {
            let text = std::fs::read_to_string(case).unwrap();
            let file = SourceFile::new(case, text.clone());
            let analysis = analyze(&model, std::slice::from_ref(&file), &selection);
            let model_file =
                SourceFile::new(&model_path, std::fs::read_to_string(&model_path).unwrap());
            let got: BTreeSet<(usize, String)> = analysis
                .diagnostics
                .iter()
                .filter(|d| d.location.file == file.path)
                .map(|d| {
                    (
                        file.line_col(d.location.span.start).line,
                        d.rule.to_string(),
                    )
                })
                .collect();
            let want = markers(&text);
            if got != want {
                failures.push(format!(
                    "{}: markers and findings differ\n  only marked: {:?}\n  only found:  {:?}",
                    case.display(),
                    want.difference(&got).collect::<Vec<_>>(),
                    got.difference(&want).collect::<Vec<_>>()
                ));
            }
            let files = human::Files::new([&file, &model_file]);
            let rendered = human::render(&analysis.diagnostics, &files, false);
            let snap = case.with_extension("stderr");
            if rendered.is_empty() && !snap.exists() {
                continue;
            }
            if let Err(e) = std::panic::catch_unwind(|| common::assert_snapshot(&snap, &rendered)) {
                failures.push(e.downcast_ref::<String>().cloned().unwrap_or_default());
            }
        }
        for f in walk(&dir) {
            if f.extension().is_some_and(|e| e == "stderr") && !f.with_extension("rs").exists() {
                failures.push(format!("orphan snapshot {}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn markers_parse() {
    let m = markers("a\nb //~^ x\n//~^^ y, z\n");
    assert!(m.contains(&(1, "x".to_string())));
    assert!(m.contains(&(1, "y".to_string())));
    assert!(m.contains(&(1, "z".to_string())));
}

/// Analyses `files` against `model` as `check` does, through the project host.
fn analyze(model: &Model, files: &[SourceFile], selection: &RuleSelection) -> Analyzed {
    Project::in_memory(model.clone(), files.to_vec())
        .analyze(selection, &|_, _, _| {}, &Cancel::new())
        .expect("never cancelled")
}
