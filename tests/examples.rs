//! The worked examples of DOMAIN.md §5 as fixture projects
//! (`test-fixtures/examples/<name>/`): each has the model of its article, a `bad.rs`
//! with the anti-patterns the article describes and a `good.rs` with its recommended
//! design. With every rule at its configured level, each line of `bad.rs` marked
//! `//~^ rule-id` must be reported by that rule and nothing else in it; the findings
//! in `dynalint.toml` must be the rules its `// dynalint.toml:` header line lists; and
//! `good.rs` must be clean everywhere. When the recommended design changes the model
//! itself (a table keyed differently), `good.rs` is checked against the example's
//! `good.toml` instead of its `dynalint.toml`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dynalint::model::{load_file, Model};
use dynalint::project::{Analyzed as Analysis, Cancel, Project};
use dynalint::report::human;
use dynalint::rules::RuleSelection;
use dynalint::source::SourceFile;

/// `(1-based line, rule id)` of every `//~^` marker.
fn markers(text: &str) -> BTreeSet<(usize, String)> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(at) = line.find("//~") {
            let rest = &line[at + 3..];
            let ups = rest.chars().take_while(|c| *c == '^').count();
            for id in rest[ups..]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                out.insert(((i + 1).saturating_sub(ups), id.to_string()));
            }
        }
    }
    out
}

/// The rule ids of the `// dynalint.toml: a, b` header line.
fn model_findings(text: &str) -> BTreeSet<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("// dynalint.toml:"))
        .map(|ids| {
            ids.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn examples(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("test-fixtures/examples"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("bad.rs").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The path a file of the example is analysed under: `<name>/src/<file>`, as in the
/// application the article describes. Under its real path (`test-fixtures/examples/..`)
/// every call would be cold, since code in an `examples/` folder is a Cargo example.
fn as_app_source(dir: &Path, file: &str) -> PathBuf {
    let name = dir.file_name().unwrap();
    Path::new(name).join("src").join(file)
}

fn run(model: &Model, file: &SourceFile) -> Analysis {
    analyze(model, std::slice::from_ref(file), &RuleSelection::default())
}

fn render(analysis: &Analysis, file: &SourceFile, model_file: &SourceFile) -> String {
    let files = human::Files::new([file, model_file]);
    human::render(&analysis.diagnostics, &files, false)
}

#[test]
fn each_article_anti_pattern_is_reported_and_each_recommended_design_is_clean() {
    let root = common::root();
    std::env::set_current_dir(&root).unwrap();
    let dirs = examples(&root);
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "blog",
        "business-search",
        "games",
        "hr-orders",
        "invoices",
        "orders",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "no worked example `{want}` with a bad.rs"
        );
    }
    let mut failures = Vec::new();
    for dir in dirs.iter().map(|d| d.strip_prefix(&root).unwrap()) {
        let model_path = dir.join("dynalint.toml");
        let model =
            load_file(&model_path).unwrap_or_else(|e| panic!("{}: {e:?}", model_path.display()));
        let model_file =
            SourceFile::new(&model_path, std::fs::read_to_string(&model_path).unwrap());

        let bad_path = dir.join("bad.rs");
        let text = std::fs::read_to_string(&bad_path).unwrap();
        let bad = SourceFile::new(as_app_source(dir, "bad.rs"), text.clone());
        let analysis = run(&model, &bad);
        let got: BTreeSet<(usize, String)> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.location.file == bad.path)
            .map(|d| (bad.line_col(d.location.span.start).line, d.rule.to_string()))
            .collect();
        let in_model: BTreeSet<String> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.location.file == model_file.path)
            .map(|d| d.rule.to_string())
            .collect();
        let (want, want_model) = (markers(&text), model_findings(&text));
        if want.is_empty() && want_model.is_empty() {
            failures.push(format!("{}: marks no anti-pattern", bad_path.display()));
        }
        if got != want || in_model != want_model {
            failures.push(format!(
                "{}: findings differ\n  only marked: {:?}\n  only found:  {:?}\n  dynalint.toml: want {:?}, got {:?}\n{}",
                bad_path.display(),
                want.difference(&got).collect::<Vec<_>>(),
                got.difference(&want).collect::<Vec<_>>(),
                want_model,
                in_model,
                render(&analysis, &bad, &model_file)
            ));
        }

        let good_model_path = dir.join("good.toml");
        let (model, model_file) = if good_model_path.is_file() {
            let m = load_file(&good_model_path)
                .unwrap_or_else(|e| panic!("{}: {e:?}", good_model_path.display()));
            let text = std::fs::read_to_string(&good_model_path).unwrap();
            (m, SourceFile::new(&good_model_path, text))
        } else {
            (model, model_file)
        };
        let good_path = dir.join("good.rs");
        let good = SourceFile::new(
            as_app_source(dir, "good.rs"),
            std::fs::read_to_string(&good_path).unwrap(),
        );
        let analysis = run(&model, &good);
        if analysis.operations.is_empty() {
            failures.push(format!("{}: no DynamoDB call found", good_path.display()));
        }
        if !analysis.diagnostics.is_empty() {
            failures.push(format!(
                "{}: the recommended design is not clean\n{}",
                good_path.display(),
                render(&analysis, &good, &model_file)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn markers_and_headers_parse() {
    let m = markers("a\nb //~^ x\n//~^^ y, z\n");
    assert!(m.contains(&(1, "x".to_string())) && m.contains(&(1, "z".to_string())));
    let h = model_findings("// dynalint.toml: unused-index, low-cardinality-pk\nfn f() {}");
    assert_eq!(h.len(), 2);
    assert!(model_findings("fn f() {}").is_empty());
}

/// Analyses `files` against `model` as `check` does, through the project host.
fn analyze(model: &Model, files: &[SourceFile], selection: &RuleSelection) -> Analysis {
    Project::in_memory(model.clone(), files.to_vec())
        .analyze(selection, &|_, _, _| {}, &Cancel::new())
        .expect("never cancelled")
}
