//! Imports point one way. Every path into the crate (`use crate::..`, an inline
//! `crate::x::y`, a macro's `$crate::`, a `super::` that climbs out of its module)
//! in `src/` must name a module *below* the importing one in [`LAYERS`], the one
//! table of the crate's order, which ARCHITECTURE.md prints too (this test compares
//! them). Within a few folders whose parts are layered as well ([`INNER`]: the
//! scanner's phases, the engine's state below its operations below its dispatch, the
//! language server's session below its handlers below its message loop), the same
//! holds between their parts.
//!
//! Test code (`#[cfg(test)]` items and modules) is outside the layering: a test may
//! drive the crate from the top. There is no exception list.

use std::path::{Path, PathBuf};

/// The crate's top-level modules, lowest first: each may import only those before it.
const LAYERS: &[&str] = &[
    "source",
    "encoding",
    "attr",
    "figures",
    "diagnostic",
    "workspace",
    "expr",
    "model",
    "pricing",
    "engine",
    "scanner",
    "facts",
    "rules",
    "report",
    "simulate",
    "analysis",
    "infer",
    "fix",
    "project",
    "lsp",
    "cli",
];

/// Folders whose parts are layered too: (folder, its parts lowest first). A part not
/// listed (`scanner/ir.rs`, the vocabulary every phase shares) is free of the order.
const INNER: &[(&str, &[&str])] = &[
    ("scanner", &["syntax", "index", "link", "incremental"]),
    ("engine", &["db", "ops", "partiql", "dispatch"]),
    ("lsp", &["session", "handlers", "server"]),
];

/// One path into the crate found in a file: its line and the module path it names
/// from the crate's root.
struct Import {
    line: usize,
    path: Vec<String>,
}

#[test]
fn imports_point_down_the_layer_table() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    let mut files = Vec::new();
    collect(&src, &mut files);
    assert!(files.len() > 100, "read {} files of src/", files.len());
    let tests_only = test_modules(&src, &files);
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let module = module_path(rel);
        let Some(top) = module.first() else { continue };
        if rel.starts_with("bin") || top == "main" || top == "lib" {
            continue;
        }
        if tests_only.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        let code = without_tests(&strip(&text));
        for import in imports(&code, &module) {
            if let Some(why) = upward(&module, &import.path) {
                wrong.push(format!("src/{}:{}: {why}", rel.display(), import.line));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports pointing up the layer table (tests/layers.rs, ARCHITECTURE.md):\n{}",
        wrong.join("\n")
    );
}

/// Every top-level module of the crate has its place in the table, and nothing else
/// does.
#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .collect();
    let mut want: Vec<&str> = LAYERS.to_vec();
    let mut have = declared.clone();
    want.sort_unstable();
    have.sort_unstable();
    assert_eq!(
        have, want,
        "src/lib.rs's modules and the layer table differ"
    );
    for (folder, parts) in INNER {
        for part in *parts {
            let dir = src.join(folder).join(part);
            let file = src.join(folder).join(format!("{part}.rs"));
            assert!(
                dir.is_dir() || file.is_file(),
                "{folder}/{part} is in the table but not in src/"
            );
        }
    }
}

/// ARCHITECTURE.md's layer table is this one.
#[test]
fn architecture_md_prints_the_same_table() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
    // The rows of the table under `## Layers`: `| n | \`module\` | ...`.
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("ARCHITECTURE.md has a `## Layers` section");
    let printed: Vec<String> = section
        .lines()
        .filter(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(2))
        .filter_map(|cell| {
            let cell = cell.trim();
            cell.strip_prefix("`src/")
                .and_then(|c| c.split('`').next())
                .map(|c| c.trim_end_matches('/').trim_end_matches(".rs").to_string())
        })
        .collect();
    let mut bottom_up = printed.clone();
    bottom_up.reverse();
    assert_eq!(
        bottom_up, LAYERS,
        "ARCHITECTURE.md's layer table (top first) is not tests/layers.rs's"
    );
}

/// Why `path`, imported by `module`, points up; `None` when it does not.
fn upward(module: &[String], path: &[String]) -> Option<String> {
    let (from, to) = (module.first()?, path.first()?);
    if from != to {
        let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
        // A name that is no module of the crate (`crate::declare_rule!`) is no layer.
        let to_rank = rank(to)?;
        let from_rank = rank(from).unwrap_or(usize::MAX);
        return (to_rank > from_rank).then(|| {
            format!(
                "`{from}` imports `crate::{}`, which is above it",
                path.join("::")
            )
        });
    }
    let (_, parts) = INNER.iter().find(|(folder, _)| folder == from)?;
    let rank = |m: Option<&String>| m.and_then(|m| parts.iter().position(|p| p == m));
    let (from_part, to_part) = (rank(module.get(1))?, rank(path.get(1))?);
    (to_part > from_part).then(|| {
        format!(
            "`{from}::{}` imports `crate::{}`, which is above it",
            parts[from_part],
            path.join("::")
        )
    })
}

/// The modules declared `#[cfg(test)] mod name;`: files that are test code whole.
fn test_modules(src: &Path, files: &[PathBuf]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let mut module = module_path(rel);
        if module.first().is_some_and(|m| m == "lib") {
            module.clear();
        }
        let text = strip(&std::fs::read_to_string(file).expect("readable"));
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let item = rest.trim_start();
            let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
            let item = item.strip_prefix("pub ").unwrap_or(item);
            let Some(decl) = item.strip_prefix("mod ") else {
                continue;
            };
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                let mut path = module.clone();
                path.push(name);
                out.push(path);
            }
        }
    }
    out
}

/// The `.rs` files under `dir`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `scanner/index/fold.rs` → `[scanner, index, fold]`; a `mod.rs` is its folder.
fn module_path(rel: &Path) -> Vec<String> {
    let mut out: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if out.last().is_some_and(|l| l == "mod") {
        out.pop();
    }
    out
}

/// The text with comments, string and character literals blanked (newlines kept, so
/// lines stay where they were).
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |bytes: &[u8], out: &mut Vec<u8>| {
        out.extend(bytes.iter().map(|c| if *c == b'\n' { b'\n' } else { b' ' }));
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|c| *c == b'\n').unwrap_or(rest.len());
            blank(&rest[..end], &mut out);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Nested, as Rust's are.
            let (mut depth, mut j) = (0usize, 0usize);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&rest[..j], &mut out);
            i += j;
        } else if let Some(len) = raw_string(rest) {
            blank(&rest[..len], &mut out);
            i += len;
        } else if rest[0] == b'"' && !ident_before(b, i)
            || rest.starts_with(b"b\"") && !ident_before(b, i)
        {
            let start = usize::from(rest[0] == b'b');
            let mut j = start + 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let len = (j + 1).min(rest.len());
            blank(&rest[..len], &mut out);
            i += len;
        } else if rest[0] == b'\'' {
            let len = char_literal(rest).unwrap_or(1);
            if len > 1 {
                blank(&rest[..len], &mut out);
            } else {
                out.push(b'\'');
            }
            i += len;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// The length of a raw string (`r"..."`, `r#"..."#`, `br".."`) starting `rest`.
fn raw_string(rest: &[u8]) -> Option<usize> {
    let start = if rest.starts_with(b"br") {
        2
    } else if rest.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = rest[start..].iter().take_while(|c| **c == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = start + hashes + 1;
    let end = rest[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

/// The length of a character literal starting `rest` (`'a'`, `'\n'`, `'\u{1F600}'`);
/// `None` for a lifetime or a label.
fn char_literal(rest: &[u8]) -> Option<usize> {
    if rest.get(1) == Some(&b'\\') {
        let end = rest[2..].iter().position(|c| *c == b'\'')?;
        return Some(end + 3);
    }
    // One character, of up to four bytes, then the closing quote.
    (2..=5)
        .find(|&n| {
            rest.get(n) == Some(&b'\'')
                && std::str::from_utf8(&rest[1..n]).is_ok_and(|s| s.chars().count() == 1)
        })
        .map(|n| n + 1)
}

/// The code with every `#[cfg(test)]` item blanked: a test module, function or `use`.
fn without_tests(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]").map(|p| p + from) {
        let item = at + "#[cfg(test)]".len();
        let b = code.as_bytes();
        // The item ends at its `;` or at the `}` closing its first `{`.
        let mut j = item;
        let mut depth = 0usize;
        while j < b.len() {
            match b[j] {
                b';' if depth == 0 => break,
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let end = (j + 1).min(b.len());
        for c in &mut out[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every path into the crate in `code` (stripped), as module paths from the root:
/// `crate::a::b`, `$crate::a`, `crate::{a::x, b}` (each member) and a `super::` chain
/// that climbs out of `module`.
fn imports(code: &str, module: &[String]) -> Vec<Import> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let line_of = |at: usize| code[..at].bytes().filter(|c| *c == b'\n').count() + 1;
    let mut i = 0;
    while i < b.len() {
        let starts_word = !ident_before(b, i) && (i == 0 || b[i - 1] != b':');
        if starts_word && code[i..].starts_with("crate::") {
            let line = line_of(i);
            for path in group(&code[i + "crate::".len()..]) {
                out.push(Import { line, path });
            }
            i += "crate::".len();
        } else if starts_word && code[i..].starts_with("super::") {
            let line = line_of(i);
            let mut ups = 0;
            let mut j = i;
            while code[j..].starts_with("super::") {
                ups += 1;
                j += "super::".len();
            }
            // A `mod.rs` module's `super` is its folder's parent, as any file's.
            let base = module.len().saturating_sub(ups);
            for rest in group(&code[j..]) {
                let mut path: Vec<String> = module[..base].to_vec();
                path.extend(rest);
                if !path.is_empty() {
                    out.push(Import { line, path });
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The module paths a path's tail names: `a::b::C` → `[a, b, C]`; `{a::x, b}` →
/// `[a, x]`, `[b]` (one level of braces is enough to say which modules).
fn group(tail: &str) -> Vec<Vec<String>> {
    // Identifiers joined by `::`, up to the first thing that is neither.
    let segments = |s: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = s.trim_start();
        loop {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                break;
            }
            rest = &rest[name.len()..];
            out.push(name);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        out
    };
    let tail = tail.trim_start();
    if let Some(inner) = tail.strip_prefix('{') {
        let mut depth = 0usize;
        let mut end = inner.len();
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = k;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let mut members = Vec::new();
        let (mut depth, mut start) = (0usize, 0usize);
        let body = &inner[..end];
        for (k, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    members.push(&body[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        members.push(&body[start..]);
        return members
            .into_iter()
            .map(segments)
            .filter(|s| !s.is_empty() && s[0] != "self")
            .collect();
    }
    let path = segments(tail);
    if path.is_empty() {
        Vec::new()
    } else {
        vec![path]
    }
}

#[test]
fn the_reader_finds_what_it_should() {
    let code = strip(
        "use crate::model::{Model, Table};\n// crate::cli in a comment\nlet s = \"crate::lsp\";\n\
         fn f<'a>(x: &'a str) -> char { 'x' }\nuse crate::{facts::bind, rules};\n\
         #[cfg(test)]\nmod tests { use crate::cli::x; }\nuse super::super::report::X;\n",
    );
    let code = without_tests(&code);
    let module = vec![
        "scanner".to_string(),
        "index".to_string(),
        "fold".to_string(),
    ];
    let got: Vec<(usize, String)> = imports(&code, &module)
        .into_iter()
        .map(|i| (i.line, i.path.join("::")))
        .collect();
    let want = [
        (1, "model"),
        (5, "facts::bind"),
        (5, "rules"),
        (8, "scanner::report::X"),
    ];
    let want: Vec<(usize, String)> = want.iter().map(|(l, p)| (*l, p.to_string())).collect();
    assert_eq!(got, want);
    let path = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    assert!(upward(&path("facts::read_cost"), &path("simulate::domain")).is_some());
    assert!(upward(&path("simulate::run"), &path("facts::shards")).is_none());
    assert!(upward(
        &path("scanner::index::fold"),
        &path("scanner::link::tables")
    )
    .is_some());
    assert!(upward(&path("scanner::link"), &path("scanner::index::fold")).is_none());
    assert!(upward(&path("scanner::index::fold"), &path("scanner::ir")).is_none());
    assert!(upward(&path("lsp::handlers::hover"), &path("lsp::server")).is_some());
}
