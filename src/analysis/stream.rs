//! `check` over a large tree without holding every file at once: each file is read,
//! indexed lean ([`scanner::index_file_lean`]) and its text dropped, unless it has
//! allow comments (suppressions read every one). The texts later phases read — the
//! files of requests and table declarations (rules and inference name their lines),
//! those findings point into — are read again once the scan is done and its indexes
//! freed ([`ensure_texts`], [`scanned_files`], [`diagnostic_files`]).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::scanner::{self, FileIndex, Operation, ScanResult, ScanSettings};
use crate::source::{FilePath, SourceFile};
use crate::workspace::{read_source, read_text, Note};

/// A scan of files read one at a time.
#[derive(Debug, Default)]
pub struct Streamed {
    pub scanned: ScanResult,
    /// The texts of files with allow comments and of `given`, in the order scanned.
    pub files: Vec<SourceFile>,
    /// Files that could not be read.
    pub notes: Vec<Note>,
    /// Files scanned, and their bytes.
    pub checked: usize,
    pub bytes: usize,
    /// What each file read from disk held when it was indexed ([`ensure_texts`]).
    pub fingerprints: Fingerprints,
}

/// A hash of each scanned text, so that a text read again after the scan is known to
/// be the one the findings were computed from (the file may be saved meanwhile).
pub type Fingerprints = HashMap<FilePath, u64>;

fn fingerprint(text: &str) -> u64 {
    // foldhash, fixed within the process: every byte of the tree is hashed, where
    // SipHash cost a hundredth of `check`; the fingerprints never leave the run.
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(text)
}

/// One file indexed: its index, its text when kept, its size and fingerprint.
type Indexed = (Arc<FileIndex>, Option<SourceFile>, usize, u64);

/// Reads, indexes and links `paths` then `given` (texts not on disk, such as stdin's,
/// indexed in full and kept), keeping only the texts later phases read.
pub fn scan_paths(
    paths: &[PathBuf],
    given: Vec<SourceFile>,
    settings: &ScanSettings,
    report: scanner::Report<'_>,
) -> Streamed {
    let settings = ScanSettings {
        reread: Some(reread),
        ..settings.clone()
    };
    let started = std::time::Instant::now();
    let total = paths.len() + given.len();
    let done = AtomicUsize::new(0);
    report("parsing", 0, total);
    let index_one = |p: &PathBuf| -> Result<Indexed, Note> {
        // The text alone: most files are let go once indexed, and only a kept one
        // needs its lines (finding them was a fiftieth of `check`).
        let text: Arc<str> = read_text(p)?.into();
        let path: FilePath = Arc::from(p.as_path());
        let index = scanner::index_text_lean(&path, &text, &settings);
        let bytes = text.len();
        let print = fingerprint(&text);
        let kept = read_later(&text).then(|| SourceFile::new(p, text));
        report("parsing", done.fetch_add(1, Ordering::Relaxed) + 1, total);
        Ok((Arc::new(index), kept, bytes, print))
    };
    // In walk order: ordering the work largest first (so that no thread would end
    // alone on a large file) measured slower on the 1x tree, and its peak higher.
    let read: Vec<Result<Indexed, Note>> = paths.par_iter().map(index_one).collect();
    let mut out = Streamed::default();
    let mut indexes = Vec::with_capacity(paths.len() + given.len());
    for r in read {
        match r {
            Ok((index, kept, bytes, print)) => {
                out.fingerprints.insert(index.path.clone(), print);
                indexes.push(index);
                out.files.extend(kept);
                out.checked += 1;
                out.bytes += bytes;
            }
            Err(note) => out.notes.push(note),
        }
    }
    for file in given {
        indexes.push(Arc::new(scanner::index_file(&file, &settings)));
        report("parsing", done.fetch_add(1, Ordering::Relaxed) + 1, total);
        out.checked += 1;
        out.bytes += file.text.len();
        out.files.push(file);
    }
    out.scanned = scanner::link_indexed(indexes, &settings, started.elapsed(), report);
    out
}

/// Whether a text is kept while scanning: suppressions read every allow comment.
/// Others are read again after the scan, when the indexes are gone.
fn read_later(text: &str) -> bool {
    text.contains("dynalint:")
}

/// A file's text read again ([`ScanSettings::reread`]).
fn reread(path: &Path) -> Option<Arc<str>> {
    read_text(path).ok().map(Arc::from)
}

/// Reads the texts of `paths` that `files` lacks (one that cannot be read is left
/// out, as it would have been at the start). A text that differs from the one scanned
/// (`fingerprints`: the file was saved during the run) is left out too, with a note:
/// its findings' places were computed from the old text, so its lines are not shown.
pub fn ensure_texts<'a>(
    files: &mut Vec<SourceFile>,
    paths: impl IntoIterator<Item = &'a FilePath>,
    fingerprints: &Fingerprints,
) -> Vec<Note> {
    let have: HashSet<FilePath> = files.iter().map(|f| f.path.clone()).collect();
    let mut missing: Vec<&FilePath> = paths.into_iter().filter(|p| !have.contains(*p)).collect();
    missing.sort();
    missing.dedup();
    // Read in parallel (the files of every request: a few MB on a large tree), then
    // taken in path order as before.
    let read: Vec<(&FilePath, Option<SourceFile>)> = missing
        .into_par_iter()
        .map(|path| (path, read_source(path).ok()))
        .collect();
    let mut notes = Vec::new();
    for (path, file) in read {
        let Some(file) = file else {
            continue;
        };
        match fingerprints.get(path) {
            Some(&print) if print != fingerprint(&file.text) => notes.push(Note {
                path: path.to_path_buf(),
                message: "changed on disk while dynalint was checking it: its findings are \
                          shown without their lines; run again"
                    .to_string(),
                unread: false,
            }),
            _ => files.push(file),
        }
    }
    notes
}

/// Every file an operation names: its own, its requests', and those of its hot chain
/// and of the loop at its call site.
pub fn operation_files(operations: &[Operation]) -> Vec<&FilePath> {
    let mut out = Vec::new();
    let mut stack: Vec<&Operation> = operations.iter().collect();
    while let Some(op) = stack.pop() {
        out.push(&op.file);
        if let Some(hot) = &op.context.hot {
            out.extend(hot.chain.iter().map(|s| &s.file));
        }
        if let Some(c) = op.context.in_loop.as_ref().and_then(|l| l.caller.as_ref()) {
            out.push(&c.file);
        }
        stack.extend(&op.children);
    }
    out
}

/// The files of a scan's requests (see [`operation_files`]) and table declarations:
/// what the rules and inference name lines in.
pub fn scanned_files(scanned: &ScanResult) -> Vec<&FilePath> {
    let mut out = operation_files(&scanned.operations);
    out.extend(scanned.tables.iter().map(|t| &t.file));
    out
}

/// Every file a finding points into: its place, its labels and its fix.
pub fn diagnostic_files(diagnostics: &[Diagnostic]) -> Vec<&FilePath> {
    let mut out = Vec::new();
    for d in diagnostics {
        out.push(&d.location.file);
        out.extend(d.labels.iter().map(|l| &l.location.file));
        out.extend(
            d.fix
                .iter()
                .flat_map(|f| &f.edits)
                .map(|e| &e.location.file),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `texts` written under `dir`, scanned as `check` streams them and as a scan of
    /// the whole texts; the two must find the same operations.
    fn streamed_and_whole(dir: &Path, texts: &[(&str, &str)]) -> (Streamed, ScanResult) {
        let mut paths = Vec::new();
        let mut files = Vec::new();
        for (name, text) in texts {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            files.push(SourceFile::new(path.clone(), text.to_string()));
            paths.push(path);
        }
        let settings = ScanSettings::default();
        let streamed = scan_paths(&paths, Vec::new(), &settings, &|_, _, _| {});
        let whole = scanner::scan(&files, &settings);
        let show = |ops: &[Operation]| format!("{ops:?}");
        assert_eq!(show(&streamed.scanned.operations), show(&whole.operations));
        (streamed, whole)
    }

    /// Each operation's table name, when known, in order.
    fn table_names(ops: &[Operation]) -> Vec<Option<&str>> {
        ops.iter()
            .map(|o| o.table.as_ref().and_then(|t| t.value()))
            .collect()
    }

    /// A file saved between the scan and the read for its findings' lines is not shown
    /// with lines from its new text; a file unchanged is read again as it was.
    #[test]
    fn a_text_saved_during_the_run_is_not_shown_for_the_old_findings() {
        let dir = tempfile::tempdir().unwrap();
        let same = dir.path().join("same.rs");
        let saved = dir.path().join("saved.rs");
        std::fs::write(&same, "async fn a(c: &Client) { c.scan().send().await; }\n").unwrap();
        std::fs::write(
            &saved,
            "async fn b(c: &Client) { c.scan().send().await; }\n",
        )
        .unwrap();
        let paths = vec![same.clone(), saved.clone()];
        let streamed = scan_paths(&paths, Vec::new(), &ScanSettings::default(), &|_, _, _| {});
        assert_eq!(streamed.fingerprints.len(), 2);
        std::fs::write(
            &saved,
            "\n\nasync fn b(c: &Client) { c.scan().send().await; }\n",
        )
        .unwrap();
        let mut files = Vec::new();
        let wanted: Vec<FilePath> = paths.iter().map(|p| FilePath::from(p.as_path())).collect();
        let notes = ensure_texts(&mut files, &wanted, &streamed.fingerprints);
        assert_eq!(files.len(), 1);
        assert_eq!(&*files[0].path, same.as_path());
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].path, saved);
        assert!(
            notes[0].message.contains("changed on disk"),
            "{}",
            notes[0].message
        );
        assert!(!notes[0].unread);
    }

    /// Indexed lean, files keep only their calls' keys; the link reads again those
    /// whose calls answer a parameter it follows, through a parameter passed on in
    /// another file, and finds what a scan of the whole texts finds.
    #[test]
    fn a_parameter_is_followed_as_a_whole_scan_follows_it() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            (
                "store.rs",
                "pub async fn put_in(c: &Client, table: &str) {\n    \
                 c.put_item().table_name(table).send().await;\n}\n",
            ),
            (
                "service.rs",
                "// Parsed for calls (the pre-filter sees `query()`).\n\
                 pub async fn save(c: &Client, name: &str) { put_in(c, name).await; }\n\
                 fn other() { let x = compute(1, 2); log(x, \"y\"); }\n",
            ),
            (
                "main.rs",
                "// Parsed for calls (the pre-filter sees `query()`).\n\
                 const ORDERS: &str = \"Orders\";\n\
                 async fn run(c: &Client) { save(c, ORDERS).await; }\n",
            ),
            ("unrelated.rs", "fn f() { g(\"a\", 1); h(k(2)); }\n"),
        ];
        let (streamed, _) = streamed_and_whole(dir.path(), &texts);
        let table = streamed.scanned.operations[0].table.as_ref().unwrap();
        assert_eq!(table.value(), Some("Orders"), "{table:?}");
        // Only the two files whose calls the parameters asked about were read again.
        assert_eq!(streamed.scanned.stats.reparsed, 2);
    }

    /// Files the pre-filter rules out are parsed only when the link looks up a name
    /// they hold: a constant naming a table, a struct's field type and a constructor
    /// setting the field, each in a file of its own, are found as a scan of the whole
    /// texts finds them, and files no lookup names are never parsed.
    #[test]
    fn a_file_ruled_out_is_parsed_when_the_link_looks_up_its_names() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            (
                "store.rs",
                "pub struct Store { client: Client, table: String }\n\
                 impl Store {\n    pub async fn load(&self) {\n        \
                 self.client.get_item().table_name(&self.table).send().await;\n    }\n\
                 pub async fn all(&self) { self.client.scan().table_name(names::ORDERS).send().await; }\n}\n",
            ),
            (
                "config.rs",
                "impl Store { pub fn new(client: Client) -> Self { Store { client, table: USERS.to_string() } } }\n",
            ),
            (
                "names.rs",
                "pub const ORDERS: &str = \"Orders\";\npub const USERS: &str = \"Users\";\n",
            ),
            ("unrelated.rs", "pub struct Other { x: u32 }\nfn f() { g(\"a\", 1); }\n"),
            ("more.rs", "pub const LIMIT: u32 = 5;\nfn h() -> u32 { LIMIT }\n"),
        ];
        let (streamed, _) = streamed_and_whole(dir.path(), &texts);
        let tables = table_names(&streamed.scanned.operations);
        assert_eq!(tables, [Some("Users"), Some("Orders")]);
        // `config.rs` and `names.rs` were parsed; `unrelated.rs` and `more.rs` never.
        assert_eq!(streamed.scanned.stats.reparsed, 2);
    }

    /// A ruled-out file the link wants to parse but cannot read again (removed during
    /// the run) is left unparsed with a note naming it, not silently, and the value
    /// it would have given is unknown.
    #[test]
    fn a_deferred_file_that_cannot_be_read_again_is_a_note() {
        let texts = [
            (
                "store.rs",
                "async fn all(c: &Client) { c.scan().table_name(names::ORDERS).send().await; }\n",
            ),
            ("names.rs", "pub const ORDERS: &str = \"Orders\";\n"),
        ];
        let settings = ScanSettings {
            reread: Some(|_| None),
            ..ScanSettings::default()
        };
        let indexes: Vec<Arc<FileIndex>> = texts
            .iter()
            .map(|(name, text)| {
                let file = SourceFile::new(PathBuf::from(name), text.to_string());
                Arc::new(scanner::index_file_lean(&file, &settings))
            })
            .collect();
        let linked = scanner::link_indexed(indexes, &settings, Default::default(), &|_, _, _| {});
        assert_eq!(table_names(&linked.operations), [None]);
        let notes: Vec<String> = linked
            .problems
            .iter()
            .map(|p| format!("{}: {}", p.file.display(), p.message))
            .collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("names.rs: could not be read again"),
            "{notes:?}"
        );
    }

    /// A later round of the link (after files are indexed again with their
    /// arguments) links again only the files that read an asked parameter; the
    /// operations and tables of the others are the first round's, and together they
    /// are what a scan of the whole texts gives, in its order.
    #[test]
    fn a_later_round_links_only_the_files_that_read_a_parameter() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            (
                "a_plain.rs",
                "async fn get(c: &Client) {\n    \
                 c.get_item().table_name(\"Plain\").send().await;\n}\n",
            ),
            (
                "b_store.rs",
                "pub async fn put_in(c: &Client, table: &str) {\n    \
                 c.put_item().table_name(table).send().await;\n}\n\
                 pub async fn make(c: &Client, t: &str) {\n    \
                 c.create_table().table_name(t).send().await;\n}\n\
                 async fn own(c: &Client) { c.delete_item().table_name(\"Own\").send().await; }\n",
            ),
            (
                "c_main.rs",
                "// Parsed for calls (the pre-filter sees `query()`).\n\
                 const ORDERS: &str = \"Orders\";\n\
                 async fn run(c: &Client) {\n    \
                 put_in(c, ORDERS).await;\n    make(c, \"Made\").await;\n    \
                 c.scan().table_name(\"Other\").send().await;\n}\n",
            ),
            (
                "d_plain.rs",
                "async fn later(c: &Client) { c.query().table_name(\"Last\").send().await; }\n",
            ),
        ];
        let (streamed, whole) = streamed_and_whole(dir.path(), &texts);
        assert_eq!(
            format!("{:?}", streamed.scanned.tables),
            format!("{:?}", whole.tables)
        );
        let names = table_names(&streamed.scanned.operations);
        assert_eq!(
            names,
            [
                Some("Plain"),
                Some("Orders"),
                Some("Own"),
                Some("Other"),
                Some("Last")
            ]
        );
        assert_eq!(streamed.scanned.tables.len(), 1);
        assert_eq!(streamed.scanned.stats.reparsed, 1);
    }

    /// A deferred file parsed in a later round links again only the files whose
    /// lookups it may answer (and itself); the others keep the first round's
    /// operations, and together they are what a scan of the whole texts gives.
    #[test]
    fn a_deferred_file_parsed_later_relinks_only_the_files_that_looked_it_up() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            (
                "a_first.rs",
                "async fn get(c: &Client) { c.get_item().table_name(\"Plain\").send().await; }\n",
            ),
            (
                "b_uses.rs",
                "async fn put(c: &Client) { c.put_item().table_name(names::ORDERS).send().await; }\n",
            ),
            ("names.rs", "pub const ORDERS: &str = \"Orders\";\n"),
            (
                "z_last.rs",
                "async fn scan(c: &Client) { c.scan().table_name(\"Last\").send().await; }\n",
            ),
        ];
        let (streamed, _) = streamed_and_whole(dir.path(), &texts);
        let tables = table_names(&streamed.scanned.operations);
        assert_eq!(tables, [Some("Plain"), Some("Orders"), Some("Last")]);
        assert_eq!(streamed.scanned.stats.reparsed, 1);
    }

    /// One piece of a generated file: what `piece` writes for `(kind, a, b)`, with
    /// names from small pools so that files look each other's names up, pass
    /// parameters on, and call helpers in loops across files and crates.
    fn piece(kind: usize, a: usize, b: usize) -> String {
        let (k, f, g, s) = (
            format!("T{a}"),
            format!("put{a}"),
            format!("pass{b}"),
            format!("Repo{b}"),
        );
        match kind {
            0 => format!("pub const {k}: &str = \"Table{a}{b}\";\n"),
            1 => format!(
                "pub async fn {f}(c: &Client, t: &str) {{ c.put_item().table_name(t).send().await; }}\n"
            ),
            2 => format!("pub async fn {g}(c: &Client, t: &str) {{ {f}(c, t).await; }}\n"),
            3 => format!("async fn run{a}{b}(c: &Client) {{ {g}(c, {k}).await; }}\n"),
            4 => format!(
                "async fn each{a}{b}(c: &Client, ids: &[u32]) {{ for _ in ids {{ {f}(c, \"Loop{b}\").await; }} }}\n"
            ),
            5 => format!(
                "async fn q{a}{b}(c: &Client) {{ c.query().table_name({k}).send().await; }}\n"
            ),
            6 => format!(
                "pub struct {s} {{ table: String }}\n\
                 impl {s} {{ pub fn new() -> Self {{ {s} {{ table: {k}.to_string() }} }} }}\n"
            ),
            _ => format!(
                "impl {s} {{ pub async fn get{a}(&self, c: &Client) {{ \
                 c.get_item().table_name(&self.table).send().await; }} }}\n"
            ),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// On generated trees of two crates (`b` depending on `a` or not) and files
        /// no manifest holds, the link in rounds (files indexed lean, read again with
        /// their arguments or parsed when a lookup names them, the files affected
        /// linked again) finds the operations and tables of a scan that parsed every
        /// file up front.
        #[test]
        fn rounds_find_what_parsing_everything_up_front_finds(
            b_uses_a in proptest::bool::ANY,
            files in proptest::collection::vec(
                (0..3usize, proptest::collection::vec((0..8usize, 0..3usize, 0..3usize), 1..4)),
                2..8,
            ),
        ) {
            let dir = tempfile::tempdir().unwrap();
            for (folder, manifest) in [
                ("a", "[package]\nname = \"a\"\n".to_string()),
                (
                    "b",
                    format!(
                        "[package]\nname = \"b\"\n{}",
                        if b_uses_a { "[dependencies]\na = { path = \"../a\" }\n" } else { "" }
                    ),
                ),
            ] {
                std::fs::create_dir_all(dir.path().join(folder).join("src")).unwrap();
                std::fs::write(dir.path().join(folder).join("Cargo.toml"), manifest).unwrap();
            }
            let texts: Vec<(String, String)> = files
                .iter()
                .enumerate()
                .map(|(i, (krate, pieces))| {
                    let folder = ["a/src/", "b/src/", ""][*krate];
                    let text: String = pieces.iter().map(|(k, a, b)| piece(*k, *a, *b)).collect();
                    (format!("{folder}f{i}.rs"), text)
                })
                .collect();
            let texts: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
            let (streamed, whole) = streamed_and_whole(dir.path(), &texts);
            proptest::prop_assert_eq!(
                format!("{:?}", streamed.scanned.tables),
                format!("{:?}", whole.tables)
            );
        }
    }
}
