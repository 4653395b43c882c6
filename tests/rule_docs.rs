//! Every rule's doc page is complete, and its examples are real: the `## Example` code
//! fires the rule and the `## Use instead` code does not (checked against the rule's
//! fixture model), so docs cannot drift from behaviour.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use dynalint::model::{load_file, Model};
use dynalint::project::{Analyzed, Cancel, Project};
use dynalint::rules::{doc_section, RuleSelection, REGISTRY};
use dynalint::source::SourceFile;

const SECTIONS: &[&str] = &[
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Configuration",
    "References",
];

/// The first ```rust block of a section.
fn rust_block(section: &str) -> Option<String> {
    let start = section.find("```rust")? + "```rust".len();
    let end = section[start..].find("```")? + start;
    Some(section[start..end].to_string())
}

#[test]
fn every_rule_page_has_every_section_and_its_examples_behave() {
    std::env::set_current_dir(common::root()).unwrap();
    for rule in REGISTRY {
        let meta = rule.meta();
        assert!(
            meta.doc.starts_with(&format!("# {}\n", meta.id)),
            "rules/{}.md must start with `# {}`",
            meta.id,
            meta.id
        );
        for s in SECTIONS {
            assert!(
                doc_section(meta.doc, s).is_some(),
                "rules/{}.md lacks `## {s}`",
                meta.id
            );
        }
        let model = load_file(std::path::Path::new(&format!(
            "test-fixtures/{}/dynalint.toml",
            meta.id
        )))
        .unwrap();
        let selection = RuleSelection {
            only: Some(vec![meta.id.to_string()]),
            ..Default::default()
        };
        // A finding is keyed by where it is (the snippet, or a span of the model) and
        // what it says. Project-level rules report on `dynalint.toml`, so "fires" means:
        // the Example yields a finding the Use instead does not; and the Use instead
        // yields no finding in its code and none the Example lacks.
        let findings = |code: &str, name: &str| -> BTreeSet<(bool, usize, String)> {
            let f = SourceFile::new(format!("rules/{}.md#{name}.rs", meta.id), code.to_string());
            let path = f.path.clone();
            analyze(&model, &[f], &selection)
                .diagnostics
                .iter()
                .filter(|d| d.rule == meta.id)
                .map(|d| {
                    let in_snippet = d.location.file == path;
                    let at = if in_snippet { 0 } else { d.location.span.start };
                    (
                        in_snippet,
                        at,
                        if in_snippet {
                            String::new()
                        } else {
                            d.message.clone()
                        },
                    )
                })
                .collect()
        };
        let example = rust_block(&doc_section(meta.doc, "Example").unwrap())
            .expect("Example has a rust block");
        let good = rust_block(&doc_section(meta.doc, "Use instead").unwrap())
            .expect("Use instead has a rust block");
        let bad = findings(&example, "example");
        let fine = findings(&good, "use-instead");
        assert!(
            bad.difference(&fine).next().is_some(),
            "rules/{}.md: the Example does not fire the rule",
            meta.id
        );
        assert!(
            !fine.iter().any(|f| f.0) && fine.difference(&bad).next().is_none(),
            "rules/{}.md: the Use instead code fires the rule: {fine:?}",
            meta.id
        );
    }
}

#[test]
fn rules_readme_table_is_generated_from_the_registry() {
    let root = common::root();
    let mut table = String::from("| rule | category | default | summary |\n|---|---|---|---|\n");
    for rule in REGISTRY {
        let m = rule.meta();
        let level = m.category.default_severity().map_or("off", |s| s.as_str());
        table.push_str(&format!(
            "| [`{}`]({}.md) | {} | {} | {} |\n",
            m.id,
            m.id,
            m.category.as_str(),
            level,
            m.summary
        ));
    }
    table.push_str("| [`unused-allow`](unused-allow.md) | suspicious | warning | a `dynalint: allow(..)` comment that suppresses nothing |\n");
    let page = format!(
        "# dynalint rules\n\nGenerated from the rule registry by `tests/rule_docs.rs` \
         (`DYNALINT_BLESS=1 cargo test` rewrites it). `dynalint explain <rule>` prints a page.\n\n{table}"
    );
    common::assert_snapshot(&root.join("rules/README.md"), &page);
    // The README's rules table is the same table.
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    let readme_table = table.replace("](", "](rules/");
    assert!(
        readme.contains(&readme_table),
        "README.md's rules table is out of date; paste:\n{readme_table}"
    );
}

/// Analyses `files` against `model` as `check` does, through the project host.
fn analyze(model: &Model, files: &[SourceFile], selection: &RuleSelection) -> Analyzed {
    Project::in_memory(model.clone(), files.to_vec())
        .analyze(selection, &|_, _, _| {}, &Cancel::new())
        .expect("never cancelled")
}
