//! The bundled example (`test-fixtures/demo`, what the README's first command runs):
//! each deliberate anti-pattern is reported by its rule, and the correct access paths
//! are clean.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{assert_snapshot, dynalint, root};

/// 1-based line range of `fn name` in `text` (to its closing brace at the same indent).
fn fn_lines(text: &str, name: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains(&format!("fn {name}(")))
        .expect("fn exists");
    let indent = lines[start].len() - lines[start].trim_start().len();
    let end = (start + 1..lines.len())
        .find(|&i| lines[i].trim() == "}" && lines[i].len() - lines[i].trim_start().len() == indent)
        .expect("fn ends");
    (start + 1, end + 1)
}

#[test]
fn the_demo_reports_each_anti_pattern_and_nothing_on_the_correct_paths() {
    let dir = root().join("test-fixtures/demo");
    let (out, err, code) = dynalint(&dir, &["check", "--format", "json"]);
    assert_eq!(code, 1, "the demo has findings\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(String, String, usize)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let listing: String = found
        .iter()
        .map(|(r, f, l)| format!("{f}:{l} {r}\n"))
        .collect();
    assert_snapshot(
        &root().join("test-fixtures/_cli/snapshots/demo.txt"),
        &listing,
    );

    let repo = std::fs::read_to_string(dir.join("src/repo.rs")).unwrap();
    let in_fn = |rule: &str, name: &str| {
        let (a, b) = fn_lines(&repo, name);
        found
            .iter()
            .any(|(r, f, l)| r == rule && f == "src/repo.rs" && (a..=b).contains(l))
    };
    // The anti-patterns, each where the demo puts it.
    assert!(in_fn("scan-in-hot-path", "search_titles"));
    assert!(in_fn("filter-instead-of-index", "search_titles"));
    assert!(in_fn("get-item-in-loop", "blogs_with_tag"));
    assert!(
        in_fn("rejected-request", "user_by_email"),
        "ConsistentRead on a GSI"
    );
    assert!(
        in_fn("rejected-request", "blogs_of_user"),
        "reserved word `status`"
    );
    assert!(in_fn("client-side-key-hashing", "register"));
    assert!(in_fn("missing-sparse-attribute", "tag_blog"));
    assert!(in_fn("unpaginated-query", "published_blogs"));
    assert!(in_fn("low-cardinality-pk", "drafts"));
    assert!(
        found
            .iter()
            .any(|(r, f, _)| r == "scan-in-hot-path" && f == "src/bin/notifier.rs"),
        "the Lambda handler's Scan"
    );
    assert!(
        found
            .iter()
            .any(|(r, f, _)| r == "low-cardinality-pk" && f == "dynalint.toml"),
        "the model's ByStatus index"
    );
    // The correct parts stay clean.
    for good in ["latest_blogs", "users", "put_blog"] {
        let (a, b) = fn_lines(&repo, good);
        let hits: Vec<_> = found
            .iter()
            .filter(|(_, f, l)| f == "src/repo.rs" && (a..=b).contains(l))
            .collect();
        assert!(
            hits.is_empty(),
            "`{good}` is the correct pattern but got {hits:?}"
        );
    }
    assert!(
        !found.iter().any(|(_, f, _)| f == "src/bin/backfill.rs"),
        "the one-off backfill is cold"
    );
}
