#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The scanner never panics: every `.rs` file of this repository and the fixtures,
//! truncated at many points, garbage bytes, and pathological nesting.

use std::path::{Path, PathBuf};

use dynalint::scanner::{scan, ScanSettings};
use dynalint::source::SourceFile;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

fn check(files: &[SourceFile]) {
    let result = scan(files, &ScanSettings::default());
    for op in &result.operations {
        let f = files.iter().find(|f| f.path == op.file).unwrap();
        assert!(
            op.span.end <= f.text.len(),
            "span out of the file in {}",
            f.path.display()
        );
    }
}

#[test]
fn every_repository_file_scans_together_and_truncated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(root, &mut paths);
    paths.sort();
    assert!(paths.len() > 20, "expected the repository's own sources");
    let files: Vec<SourceFile> = paths
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            SourceFile::new(
                p.strip_prefix(root).unwrap(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )
        })
        .collect();
    check(&files);
    // Each file cut at a few points (on char boundaries), as an editor sees it mid-typing.
    for f in &files {
        let n = f.text.len();
        for frac in [1, 3, 5, 7] {
            let mut cut = n * frac / 8;
            while cut > 0 && !f.text.is_char_boundary(cut) {
                cut -= 1;
            }
            check(&[SourceFile::new(f.path.to_path_buf(), &f.text[..cut])]);
        }
    }
}

#[test]
fn garbage_and_pathological_inputs_do_not_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut cases: Vec<String> = Vec::new();
    for len in [0usize, 1, 7, 100, 5000] {
        let bytes: Vec<u8> = (0..len).map(|_| (next() & 0xff) as u8).collect();
        cases.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    // Rust-ish token soup around a real call.
    let tokens = [
        "client",
        ".",
        "query",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "vec!",
        "format!",
        "\"",
        "'",
        "r#\"",
        "let",
        "=",
        ";",
        "fn",
        "impl",
        "#[",
        "/*",
        "//",
        "\n",
        "table_name",
        "hashmap!",
        "=>",
        "lazy_static!",
        "Put::builder",
    ];
    for _ in 0..200 {
        let s: String = (0..60)
            .map(|_| tokens[(next() % tokens.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ");
        cases.push(s);
    }
    let depth = 20_000;
    cases.push(format!(
        "fn f() {{ client.query().table_name({}\"T\"{}).send(); }}",
        "(".repeat(depth),
        ")".repeat(depth)
    ));
    cases.push(format!(
        "fn f() {{ {} client.scan().send(); {} }}",
        "{".repeat(depth),
        "}".repeat(depth)
    ));
    cases.push(format!(
        "fn f() {{ let q = client.query(); {} q.send(); }}",
        "q = q.limit(1);".repeat(2000)
    ));
    cases.push("fn f() { client.query().table_name(\"unterminated".to_string());
    cases.push("fn f() { client.query().table_name(vec![format!(\"{}\", ".to_string());
    for (i, c) in cases.iter().enumerate() {
        check(&[SourceFile::new(format!("case{i}.rs"), c.as_str())]);
    }
}

#[test]
fn deep_nesting_is_reported_not_fatal() {
    let depth = 3000;
    let text = format!(
        "fn f() {{ let x = {}1{}; client.scan().table_name(\"T\").send(); }}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let result = scan(
        &[SourceFile::new("deep.rs", text)],
        &ScanSettings::default(),
    );
    assert!(
        result
            .problems
            .iter()
            .any(|p| p.message.contains("nested deeper")),
        "{:?}",
        result.problems
    );
    assert_eq!(
        result.operations.len(),
        1,
        "the call beside the deep expression is still found"
    );
}

#[test]
fn linking_per_file_indexes_equals_scanning_and_one_file_can_be_reindexed() {
    use dynalint::scanner::{index_file, link};
    use std::sync::Arc;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/scanner/crate_wide");
    let mut paths = Vec::new();
    rust_files(&dir, &mut paths);
    paths.sort();
    let mut files: Vec<SourceFile> = paths
        .iter()
        .map(|p| {
            SourceFile::new(
                p.strip_prefix(&dir).unwrap(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let settings = ScanSettings::default();
    let mut indexes: Vec<Arc<_>> = files
        .iter()
        .map(|f| Arc::new(index_file(f, &settings)))
        .collect();
    let linked = link(&indexes, &settings);
    let scanned = scan(&files, &settings);
    assert_eq!(linked.operations, scanned.operations);
    // Edit the constants file: only its index is rebuilt, and every use follows.
    let names = files
        .iter()
        .position(|f| f.path.ends_with("src/names.rs"))
        .unwrap();
    files[names] = SourceFile::new("src/names.rs", "pub const TABLE: &str = \"Renamed\";\npub mod index { pub const BY_EMAIL: &str = \"ByEmail\"; }\n");
    indexes[names] = Arc::new(index_file(&files[names], &settings));
    let relinked = link(&indexes, &settings);
    let tables: Vec<_> = relinked
        .operations
        .iter()
        .filter(|o| o.file.ends_with("src/repo.rs"))
        .filter_map(|o| o.table.as_ref()?.value().map(str::to_string))
        .collect();
    assert!(
        !tables.is_empty() && tables.iter().all(|t| t == "Renamed"),
        "{tables:?}"
    );
    assert_eq!(relinked.operations, scan(&files, &settings).operations);
}
