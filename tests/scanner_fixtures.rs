#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Data-driven scanner tests: each `test-fixtures/scanner/<shape>.rs` (or a directory
//! `<shape>/` of files for cross-file shapes) is scanned and its Operations rendered as
//! compact text, compared with `<shape>.expected` beside it. Regenerate with
//! `DYNALINT_BLESS=1 cargo test --test scanner_fixtures`; orphan `.expected` files fail.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use dynalint::analysis::stream;
use dynalint::scanner::{
    scan, AttrMap, ExprArg, Operation, Provenance, Resolved, ScanResult, ScanSettings, ValueInfo,
};
use dynalint::source::SourceFile;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/scanner")
}

fn res(r: &Resolved) -> String {
    match r {
        Resolved::Literal { value } => format!("{value:?}"),
        Resolved::Const { name, value } => format!("{name}={}", res(value)),
        Resolved::Env { var } => format!("env({var})"),
        Resolved::Template { template } => format!("template({template:?})"),
        Resolved::Unknown { reason } => format!("unknown({reason})"),
    }
}

fn prov(p: &Provenance) -> String {
    match p {
        Provenance::Literal => "literal".into(),
        Provenance::Constant => "constant".into(),
        Provenance::Hashed { function } => format!("hashed({function})"),
        Provenance::ShardSuffix { modulus } => match modulus {
            Some(m) => format!("shard(%{m})"),
            None => "shard".into(),
        },
        Provenance::EnumLike => "enum-like".into(),
        Provenance::Param => "param".into(),
        Provenance::GeneratedId => "generated-id".into(),
        Provenance::Unknown => "unknown".into(),
    }
}

fn value(v: &ValueInfo) -> String {
    let mut s = String::new();
    if let Some(t) = v.ty {
        write!(s, "{t} ").unwrap();
    }
    s.push_str(&prov(&v.provenance));
    if let Some(l) = &v.literal {
        write!(s, " {l:?}").unwrap();
    } else if let Some(t) = &v.text {
        write!(s, " {}", res(t)).unwrap();
    }
    if v.nullable {
        s.push_str(" nullable");
    }
    if !v.parts.is_empty() && v.literal.is_none() {
        let parts: Vec<String> = v.parts.iter().map(value).collect();
        write!(s, " parts[{}]", parts.join(", ")).unwrap();
    }
    s
}

fn expr(name: &str, e: &Option<Box<ExprArg>>, out: &mut String, ind: &str) {
    if let Some(e) = e {
        let c = if e.conditional { " (conditional)" } else { "" };
        let lit = if e.literal_start.is_some() {
            ""
        } else {
            " (not a literal)"
        };
        writeln!(out, "{ind}  {name}: {}{c}{lit}", res(&e.text)).unwrap();
        // A string appended to on some paths only: its text on each.
        for p in &e.paths {
            writeln!(out, "{ind}    path: {p:?}").unwrap();
        }
    }
}

fn map(name: &str, m: &Option<AttrMap>, out: &mut String, ind: &str) {
    let Some(m) = m else { return };
    let mut head = format!("{ind}  {name}:");
    if let Some(t) = &m.from_type {
        write!(head, " from {t}").unwrap();
    }
    if !m.complete {
        head.push_str(" (incomplete)");
    }
    writeln!(out, "{head}").unwrap();
    for a in &m.attributes {
        let c = if a.conditional { " (conditional)" } else { "" };
        writeln!(out, "{ind}    {} = {}{c}", res(&a.name), value(&a.value)).unwrap();
    }
}

fn render_op(op: &Operation, files: &[SourceFile], out: &mut String, ind: &str) {
    let file = files.iter().find(|f| f.path == op.file).unwrap();
    let lc = file.line_col(op.span.start);
    let name = shown(&op.file);
    writeln!(
        out,
        "{ind}{} at {name}:{}:{}",
        op.kind.api_name(),
        lc.line,
        lc.column
    )
    .unwrap();
    if let Some(t) = &op.table {
        let possible = if op.possible_table { " (possible)" } else { "" };
        writeln!(out, "{ind}  table: {}{possible}", res(t)).unwrap();
    }
    if let Some(i) = &op.index {
        writeln!(out, "{ind}  index: {}", res(i)).unwrap();
    }
    expr("key_condition", &op.key_condition, out, ind);
    expr("filter", &op.filter, out, ind);
    expr("condition", &op.condition, out, ind);
    expr("projection", &op.projection, out, ind);
    expr("update", &op.update, out, ind);
    expr("statement", &op.statement, out, ind);
    for (k, n) in &op.names {
        let c = if n.conditional { " (conditional)" } else { "" };
        writeln!(out, "{ind}  name {k} = {}{c}", res(&n.name)).unwrap();
    }
    for (k, v) in &op.values {
        writeln!(out, "{ind}  value {k} = {}", value(v)).unwrap();
    }
    map("item", &op.item, out, ind);
    map("key", &op.key, out, ind);
    let mut flags = Vec::new();
    // A flag set only on some paths is marked `?`.
    let cond = |m: &str| {
        if op.setter(m).is_some_and(|s| s.conditional) {
            "?"
        } else {
            ""
        }
    };
    if let Some(c) = op.consistent_read {
        flags.push(format!("consistent_read={c}{}", cond("consistent_read")));
    }
    if let Some(l) = &op.limit {
        flags.push(format!("limit={}{}", value(l), cond("limit")));
    }
    if let Some(s) = op.scan_index_forward {
        flags.push(format!(
            "scan_index_forward={s}{}",
            cond("scan_index_forward")
        ));
    }
    if let Some(s) = &op.select {
        flags.push(format!("select={s}"));
    }
    if !op.select_choices.is_empty() {
        flags.push(format!("select in [{}]", op.select_choices.join(", ")));
    }
    if op.paginated {
        flags.push("paginated".into());
    }
    if op.exclusive_start_key {
        flags.push("exclusive_start_key".into());
    }
    if op.first_item_only {
        flags.push("first_item_only".into());
    }
    if !op.names_complete {
        flags.push("names_incomplete".into());
    }
    if !op.values_complete {
        flags.push("values_incomplete".into());
    }
    if let Some(t) = &op.total_segments {
        flags.push(format!("total_segments={}", value(t)));
    }
    if !flags.is_empty() {
        writeln!(out, "{ind}  flags: {}", flags.join(" ")).unwrap();
    }
    if ind.is_empty() {
        let cx = &op.context;
        let mut c = vec![format!("fn={}", cx.function.as_deref().unwrap_or("-"))];
        if let Some(l) = &cx.in_loop {
            let lf = files.iter().find(|f| &f.path == l.file(op)).unwrap();
            let lc = lf.line_col(l.span.start);
            match &l.caller {
                Some(caller) => c.push(format!(
                    "loop={}@{}:{} via={}",
                    l.kind,
                    shown(&lf.path),
                    lc.line,
                    caller.function
                )),
                None => c.push(format!("loop={}@{}", l.kind, lc.line)),
            }
        }
        if let Some(h) = &cx.hot {
            let chain: Vec<&str> = h.chain.iter().map(|s| s.function.as_str()).collect();
            c.push(format!("hot=[{}: {}]", h.entry, chain.join(" -> ")));
        }
        if let Some(k) = &cx.cold {
            c.push(format!(
                "cold={}",
                serde_json::to_value(k).unwrap()["kind"].as_str().unwrap()
            ));
        }
        writeln!(out, "{ind}  context: {}", c.join(" ")).unwrap();
        writeln!(
            out,
            "{ind}  text: {}",
            op.fingerprint_text.chars().take(100).collect::<String>()
        )
        .unwrap();
    }
    for ch in &op.children {
        render_op(ch, files, out, &format!("{ind}  > "));
    }
}

/// A path as the snapshot shows it: relative to its case's folder (a case with a
/// `Cargo.toml` is scanned by its files' full paths, so their manifests are found).
fn shown(path: &Path) -> String {
    let rel = path
        .strip_prefix(fixtures_dir())
        .ok()
        .map(|r| r.components().skip(1).collect::<PathBuf>());
    rel.as_deref()
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn render(result: &ScanResult, files: &[SourceFile]) -> String {
    let mut out = String::new();
    for op in &result.operations {
        render_op(op, files, &mut out, "");
        out.push('\n');
    }
    for p in &result.problems {
        writeln!(out, "problem: {}: {}", shown(&p.file), p.message).unwrap();
    }
    out
}

/// Reads a fixture: one file, or every `.rs` under a directory (paths relative to it).
fn load(path: &Path) -> (Vec<SourceFile>, ScanSettings) {
    let mut settings = ScanSettings::default();
    if path.is_file() {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        return (vec![SourceFile::new(name, text)], settings);
    }
    let mut files = Vec::new();
    let manifests = path.join("Cargo.toml").is_file();
    let mut stack = vec![path.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(path).unwrap().to_path_buf();
                let name = if manifests { p.clone() } else { rel };
                files.push(SourceFile::new(name, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    for (name, slot) in [
        ("hot-paths.txt", &mut settings.hot_paths),
        ("cold-paths.txt", &mut settings.cold_paths),
    ] {
        if let Ok(t) = std::fs::read_to_string(path.join(name)) {
            slot.extend(
                t.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string),
            );
        }
    }
    (files, settings)
}

#[test]
fn scanner_fixtures() {
    let dir = fixtures_dir();
    let bless = std::env::var_os("DYNALINT_BLESS").is_some();
    let mut failures = Vec::new();
    let mut seen = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let is_case = p.is_dir() || p.extension().is_some_and(|x| x == "rs");
        if !is_case {
            continue;
        }
        let expected_path = if p.is_dir() {
            p.join("expected.txt")
        } else {
            p.with_extension("expected")
        };
        seen.push(expected_path.clone());
        let (files, settings) = load(&p);
        let got = render(&scan(&files, &settings), &files);
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if want != got {
            failures.push(format!("--- {}\n{got}", p.display()));
        }
    }
    // Orphans: an expected file without its case.
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "expected") && !seen.contains(&p) {
            failures.push(format!("orphan snapshot {}", p.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "scanner fixtures differ (DYNALINT_BLESS=1 to accept):\n{}",
        failures.join("\n")
    );
}

/// `check` scans each file as it reads it, indexed lean, and lets most texts go
/// (`analysis::stream`): on every fixture that gives the operations a scan of the
/// texts held in memory gives, and the texts of their files can be had again.
#[test]
fn a_streamed_scan_finds_what_a_scan_finds() {
    let dir = fixtures_dir();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "rs"))
        .collect();
    entries.sort();
    for p in entries {
        let (files, settings) = load(&p);
        // On disk, as the streamed scan reads them.
        let base = if p.is_dir() { p.clone() } else { dir.clone() };
        let files: Vec<SourceFile> = files
            .iter()
            .map(|f| SourceFile::new(base.join(&f.path), f.text.clone()))
            .collect();
        let paths: Vec<PathBuf> = files.iter().map(|f| f.path.to_path_buf()).collect();
        let want = render(&scan(&files, &settings), &files);
        let streamed = stream::scan_paths(&paths, Vec::new(), &settings, &|_, _, _| {});
        assert_eq!(render(&streamed.scanned, &files), want, "{}", p.display());
        assert_eq!(streamed.checked, files.len());
        let mut kept = streamed.files;
        let changed = stream::ensure_texts(
            &mut kept,
            stream::operation_files(&streamed.scanned.operations),
            &streamed.fingerprints,
        );
        assert!(changed.is_empty(), "{changed:?}");
        for op in &streamed.scanned.operations {
            assert!(
                kept.iter().any(|f| f.path == op.file),
                "{}",
                op.file.display()
            );
        }
    }
}
