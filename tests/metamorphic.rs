//! The metamorphic harness (`examples/metamorphic/`) over what CI has: the published
//! crates of `realworld/crates/` (downloaded by cargo), a few rewrites and seeded
//! defects each, so the harness itself cannot rot. Every variant must parse, every
//! rewrite and defect chosen must apply somewhere, and the counts of non-invariant
//! rewrites and missed defects must not grow past today's (a change that makes one
//! grow, or shrink, says which: lower the figure when a shape is handled). The cases
//! that fail are written under `target/metamorphic-ci/` to be read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../examples/metamorphic/compare.rs"]
mod compare;
#[allow(dead_code)]
#[path = "../examples/realworld/corpus.rs"]
mod corpus;
#[allow(dead_code)]
#[path = "../examples/metamorphic/defects/mod.rs"]
mod defects;
#[allow(dead_code)]
#[path = "../examples/metamorphic/edit.rs"]
mod edit;
#[allow(dead_code)]
#[path = "../examples/metamorphic/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "../examples/metamorphic/project.rs"]
mod project;
#[allow(dead_code)]
#[path = "../examples/metamorphic/report.rs"]
mod report;
#[allow(dead_code)]
#[path = "../examples/metamorphic/rewrites/mod.rs"]
mod rewrites;
#[allow(dead_code)]
#[path = "../examples/metamorphic/site.rs"]
mod site;
#[allow(dead_code)]
#[path = "../examples/metamorphic/syntax.rs"]
mod syntax;

use std::collections::BTreeMap;
use std::path::Path;

/// The rewrites and defects CI runs, and how many of their cases fail today (not
/// invariant, or the defect's finding missing) over the crates.
const CHOSEN: &[(&str, usize)] = &[
    ("helper-fn", 0),
    ("split-let", 0),
    ("table-field", 0),
    ("if-to-match", 0),
    ("undefined-placeholder", 0),
    ("wrong-key", 0),
    ("get-per-element", 0),
    ("no-pagination", 0),
];

#[test]
fn the_harness_runs_over_the_published_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let trees = tempfile::tempdir().unwrap();
    // Every labelled crate by name: an empty list would mean every repository too,
    // whose trees CI does not have.
    let crates: Vec<String> = std::fs::read_dir(root.join("realworld/crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expect.toml").is_file())
        .map(|p| {
            format!(
                "{}{}",
                corpus::CRATE_PREFIX,
                p.file_name().unwrap().to_str().unwrap()
            )
        })
        .collect();
    let corpus = corpus::entries(&root.join("realworld"), trees.path(), &crates).unwrap();
    assert!(corpus.entries.len() >= 2, "no crates to run the harness on");

    let names: Vec<&str> = rewrites::REWRITES
        .iter()
        .map(|r| r.name)
        .chain(defects::DEFECTS.iter().map(|d| d.name))
        .collect();
    for (c, _) in CHOSEN {
        assert!(names.contains(c), "no rewrite or defect `{c}`");
    }
    let selected = |n: &str| CHOSEN.iter().any(|(c, _)| *c == n);
    let norm = compare::Normalizer::new();
    let out = report::Out::create(&root.join("target/metamorphic-ci")).unwrap();
    let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sites = 0;
    let mut harness_errors = Vec::new();
    let cwd = std::env::current_dir().unwrap();
    for e in &corpus.entries {
        let project = project::Project::load(&e.tree, Some(&e.root.join("dynalint.toml"))).unwrap();
        // The untouched tree analysed twice gives the same findings: a variant's
        // difference is the variant's.
        let (a, b) = (
            project.run(None, None).unwrap(),
            project.run(None, None).unwrap(),
        );
        assert_eq!(
            a.diagnostics.len(),
            b.diagnostics.len(),
            "{}: two analyses of the same tree differ",
            e.name
        );
        let checked = harness::check(&project, &selected, Some(2), &norm, &names).unwrap();
        sites += checked.sites.len();
        for (what, r) in &checked.cases {
            let name = names[*what];
            match r {
                Ok(case) => {
                    *applied.entry(name).or_default() += 1;
                    if !case.passed() && (case.expect.is_none() || !case.detected()) {
                        *failed.entry(name).or_default() += 1;
                        out.write_case(&e.name, case).unwrap();
                    }
                }
                Err(err) => harness_errors.push(format!("{} {name}: {err}", e.name)),
            }
        }
    }
    std::env::set_current_dir(cwd).unwrap();
    assert!(
        harness_errors.is_empty(),
        "variants that do not parse (the harness's fault):\n{}",
        harness_errors.join("\n\n")
    );
    assert!(sites >= 20, "the crates hold {sites} call sites");
    let mut problems = Vec::new();
    for (name, today) in CHOSEN {
        let n = applied.get(name).copied().unwrap_or(0);
        if n == 0 {
            problems.push(format!("`{name}` applies at no site of the crates"));
        }
        let f = failed.get(name).copied().unwrap_or(0);
        if f != *today {
            problems.push(format!(
                "`{name}`: {f} of {n} cases fail, {today} did (target/metamorphic-ci/ lists them; update the figure if the change is right)"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
