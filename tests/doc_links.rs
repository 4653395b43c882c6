//! Every link a user can follow leads somewhere: relative links in the docs name files
//! of the repository, and the SARIF report carries no address that does not exist.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};

use common::{dynalint, root};

/// The user-facing Markdown pages: README, the rule pages, the editor guides.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for dir in ["rules", "editors/helix", "editors/neovim", "editors/vscode"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                pages.push(p);
            }
        }
    }
    pages
}

/// The targets of `[text](target)` links.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

#[test]
fn relative_links_in_the_docs_name_existing_files() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split('#').next().unwrap();
            let base = page.parent().unwrap_or(Path::new("."));
            if !base.join(file).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
        // A document outside the repository cited by name is a link the user cannot follow.
        if text.contains("DOMAIN.md") || text.contains("DOMAIN §") {
            broken.push(format!("{}: cites DOMAIN.md", page.display()));
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn sarif_points_at_no_placeholder_address() {
    let (out, _, _) = dynalint(
        &root().join("test-fixtures/_cli/basic"),
        &["--format", "sarif"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let driver = &v["runs"][0]["tool"]["driver"];
    assert!(driver.get("informationUri").is_none(), "{driver}");
    for rule in driver["rules"].as_array().unwrap() {
        assert!(rule.get("helpUri").is_none(), "{rule}");
        assert!(
            rule["help"]["markdown"].as_str().is_some() || rule["id"] == "unused-allow",
            "the page travels with the rule instead: {rule}"
        );
    }
}
