//! Which crate each file is in, and which crates its code can name: a call resolves by
//! name only to functions of its own crate and of the crates its `Cargo.toml` lists as
//! dependencies (Rust lets a crate name its direct dependencies only). Without this, a
//! monorepo's crates that share function names (`handler`, `get`, `execute`) were one
//! crate to the call graph: chains ran through crates that do not depend on each other,
//! and a chain on a helper's builder was matched to every copy of the helper.
//!
//! A file's crate is the nearest `Cargo.toml` at or above it with a `[package]`. Its
//! dependencies are the keys of every dependency table (`[dependencies]`, dev, build,
//! `[target.*.dependencies]`), by their package (`package = "real-name"` renames, and
//! `workspace = true` looked up in the workspace root's `[workspace.dependencies]`).
//! A dependency is found in the tree by its `path`, else by its name; when several
//! crates share the name (copies of a repository side by side), the ones whose folder
//! shares the longest path with the depending crate's.
//!
//! What is not known never hides a function: a file with no manifest above it (or
//! only a workspace's virtual one), and a
//! crate whose manifest does not read, see every crate and are seen by every crate, as
//! the whole tree was one crate before. A manifest that does not read is a note.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The crate of a file no readable manifest describes: it sees and is seen by all.
pub(in crate::scanner) const NO_CRATE: u32 = u32::MAX;

/// Every file's crate and what each crate can name.
#[derive(Debug, Default, PartialEq)]
pub(in crate::scanner) struct Crates {
    /// Each file's crate (a number into `sees`), or [`NO_CRATE`].
    files: Vec<u32>,
    /// Per crate: itself and the crates it names, sorted; `None` when it sees every
    /// crate (a `workspace = true` dependency whose workspace does not read).
    sees: Vec<Option<Vec<u32>>>,
    /// Per crate: itself, the crates that name it and those that see every crate.
    seen_by: Vec<Vec<u32>>,
    /// Manifests that do not read, and why (notes: nothing is wrong with the code).
    pub notes: Vec<(PathBuf, String)>,
}

impl Crates {
    /// The crates of the files at `paths` (in that order), reading the manifests above
    /// them from disk, each once.
    pub fn read<'p>(paths: impl IntoIterator<Item = &'p Path>) -> Self {
        let mut reader = Reader::default();
        let crates_of: Vec<Option<PathBuf>> = paths
            .into_iter()
            .map(|p| {
                let dir = absolute(p.parent().unwrap_or(Path::new(".")));
                reader.crate_at(&dir)
            })
            .collect();
        build(&mut reader, &crates_of)
    }

    /// `n` files none of which is in a known crate: the whole tree is one crate.
    #[cfg(test)]
    pub fn unknown(n: usize) -> Self {
        Self {
            files: vec![NO_CRATE; n],
            ..Self::default()
        }
    }

    /// File `fi`'s crate, or [`NO_CRATE`].
    pub fn of(&self, fi: usize) -> u32 {
        self.files.get(fi).copied().unwrap_or(NO_CRATE)
    }

    /// Whether code in crate `from` can call a function of crate `to`.
    pub fn sees(&self, from: u32, to: u32) -> bool {
        if from == to || from == NO_CRATE || to == NO_CRATE {
            return true;
        }
        match self.sees.get(from as usize) {
            Some(Some(list)) => list.binary_search(&to).is_ok(),
            _ => true,
        }
    }

    /// Whether code in file `from` can call a function of file `to`.
    pub fn file_sees(&self, from: usize, to: usize) -> bool {
        self.sees(self.of(from), self.of(to))
    }

    /// The crates code in `from` can call into (with [`NO_CRATE`]'s files, which the
    /// caller adds); `None`: every crate.
    pub fn visible_from(&self, from: u32) -> Option<&[u32]> {
        self.sees.get(from as usize)?.as_deref()
    }

    /// The crates whose code can call into `to` (with [`NO_CRATE`]'s files, which the
    /// caller adds); `None`: every crate.
    pub fn visible_to(&self, to: u32) -> Option<&[u32]> {
        self.seen_by.get(to as usize).map(Vec::as_slice)
    }

    /// `from` as a lookup key: every crate that sees all crates has the same answers,
    /// so a search expands a name once for all of them.
    pub fn scope(&self, from: u32) -> u32 {
        match self.visible_from(from) {
            Some(_) => from,
            None => NO_CRATE,
        }
    }
}

/// One manifest, as far as the crate model needs it.
#[derive(Debug, Default, PartialEq)]
pub(in crate::scanner) struct Manifest {
    /// `[package] name`, `-` written `_`; `None` for a workspace's virtual manifest.
    pub package: Option<String>,
    /// `[package] workspace = "path"`: where its workspace root is, when not above it.
    pub workspace_root: Option<String>,
    /// Every dependency of every kind and target.
    pub dependencies: Vec<Dependency>,
    /// `[workspace.dependencies]`, when this is a workspace root.
    pub workspace: Option<Vec<Dependency>>,
}

/// One dependency entry.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::scanner) struct Dependency {
    /// The key the manifest lists it under.
    pub key: String,
    /// The package it is (`package = ".."`, else the key), `-` written `_`.
    pub package: String,
    /// `path = ".."`, relative to the manifest's folder.
    pub path: Option<String>,
    /// `workspace = true`: the workspace root's entry of the same key says what it is.
    pub inherited: bool,
}

/// Reads a manifest's text; `Err` says why it does not read (with its line).
pub(in crate::scanner) fn parse_manifest(text: &str) -> Result<Manifest, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let at = e
            .span()
            .map(|s| {
                let line = text.get(..s.start).map_or(0, |t| t.matches('\n').count()) + 1;
                format!(" at line {line}")
            })
            .unwrap_or_default();
        format!("does not read as TOML{at}: {}", e.message().trim())
    })?;
    let package = table.get("package").and_then(toml::Value::as_table);
    let mut m = Manifest {
        package: package
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            .map(normalise),
        workspace_root: package
            .and_then(|p| p.get("workspace"))
            .and_then(toml::Value::as_str)
            .map(str::to_string),
        ..Manifest::default()
    };
    dependency_tables(&table, &mut m.dependencies);
    if let Some(targets) = table.get("target").and_then(toml::Value::as_table) {
        for t in targets.values().filter_map(toml::Value::as_table) {
            dependency_tables(t, &mut m.dependencies);
        }
    }
    if let Some(ws) = table.get("workspace").and_then(toml::Value::as_table) {
        let mut deps = Vec::new();
        if let Some(d) = ws.get("dependencies").and_then(toml::Value::as_table) {
            entries(d, &mut deps);
        }
        m.workspace = Some(deps);
    }
    Ok(m)
}

/// The dependency tables of a manifest or of one `[target.'cfg(..)']`.
fn dependency_tables(table: &toml::Table, out: &mut Vec<Dependency>) {
    const KINDS: [&str; 5] = [
        "dependencies",
        "dev-dependencies",
        "dev_dependencies",
        "build-dependencies",
        "build_dependencies",
    ];
    for kind in KINDS {
        if let Some(d) = table.get(kind).and_then(toml::Value::as_table) {
            entries(d, out);
        }
    }
}

fn entries(deps: &toml::Table, out: &mut Vec<Dependency>) {
    for (key, v) in deps {
        let detail = v.as_table();
        let get = |k: &str| detail.and_then(|d| d.get(k));
        out.push(Dependency {
            key: normalise(key),
            package: normalise(get("package").and_then(toml::Value::as_str).unwrap_or(key)),
            path: get("path")
                .and_then(toml::Value::as_str)
                .map(str::to_string),
            inherited: get("workspace").and_then(toml::Value::as_bool) == Some(true),
        });
    }
}

/// Cargo treats `-` and `_` in a package name alike.
fn normalise(name: &str) -> String {
    name.replace('-', "_")
}

/// What is at or above a folder.
#[derive(Debug, Clone)]
enum Found {
    /// The nearest manifest with a `[package]`: its folder.
    Package(PathBuf),
    /// The nearest manifest does not read.
    Unreadable,
    /// No manifest up to the root.
    Nothing,
}

/// Manifests read so far, and the answer for each folder asked about.
#[derive(Default)]
struct Reader {
    manifests: HashMap<PathBuf, Option<Result<Manifest, String>>>,
    found: HashMap<PathBuf, Found>,
}

impl Reader {
    /// The manifest in `dir`, read once: `None` when there is none.
    fn manifest(&mut self, dir: &Path) -> Option<&Result<Manifest, String>> {
        if !self.manifests.contains_key(dir) {
            let read = match std::fs::read_to_string(dir.join("Cargo.toml")) {
                Ok(text) => Some(parse_manifest(&text)),
                // None there (or a folder of that name).
                Err(_) if !dir.join("Cargo.toml").is_file() => None,
                Err(e) => Some(Err(format!("cannot be read: {e}"))),
            };
            self.manifests.insert(dir.to_path_buf(), read);
        }
        self.manifests.get(dir).and_then(Option::as_ref)
    }

    /// The folder of the crate a file in `dir` is in, `None` when unknown. Each folder
    /// is looked at once for a whole run (thousands of files share a few folders).
    fn crate_at(&mut self, dir: &Path) -> Option<PathBuf> {
        let mut walked: Vec<PathBuf> = Vec::new();
        let mut at = Some(dir);
        let found = loop {
            let Some(d) = at else { break Found::Nothing };
            if let Some(f) = self.found.get(d) {
                break f.clone();
            }
            walked.push(d.to_path_buf());
            match self.manifest(d) {
                Some(Ok(m)) if m.package.is_some() => break Found::Package(d.to_path_buf()),
                Some(Err(_)) => break Found::Unreadable,
                // A workspace's virtual manifest: a file below it that no member's
                // manifest is above is in no package (whatever is further up).
                Some(Ok(m)) if m.workspace.is_some() => break Found::Nothing,
                _ => at = d.parent(),
            }
        };
        for d in walked {
            self.found.insert(d, found.clone());
        }
        match found {
            Found::Package(d) => Some(d),
            Found::Unreadable | Found::Nothing => None,
        }
    }

    /// The folder of the workspace root a crate at `dir` belongs to.
    fn workspace_of(&mut self, dir: &Path, explicit: Option<&str>) -> Option<PathBuf> {
        if let Some(rel) = explicit {
            return Some(lexical(&dir.join(rel)));
        }
        let mut at = Some(dir);
        while let Some(d) = at {
            if let Some(Ok(m)) = self.manifest(d) {
                if m.workspace.is_some() {
                    return Some(d.to_path_buf());
                }
            }
            at = d.parent();
        }
        None
    }
}

/// Numbers the crates that hold files and resolves their dependencies among them.
fn build(reader: &mut Reader, crates_of: &[Option<PathBuf>]) -> Crates {
    let mut number: HashMap<PathBuf, u32> = HashMap::new();
    let mut dirs: Vec<PathBuf> = Vec::new();
    let files = crates_of
        .iter()
        .map(|c| match c {
            None => NO_CRATE,
            Some(dir) => *number.entry(dir.clone()).or_insert_with(|| {
                dirs.push(dir.clone());
                u32::try_from(dirs.len() - 1).unwrap_or(NO_CRATE)
            }),
        })
        .collect();
    let mut by_name: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, d) in dirs.iter().enumerate() {
        if let (Some(Ok(m)), Ok(i)) = (reader.manifest(d), u32::try_from(i)) {
            if let Some(name) = &m.package {
                by_name.entry(name.clone()).or_default().push(i);
            }
        }
    }
    let mut sees: Vec<Option<Vec<u32>>> = Vec::with_capacity(dirs.len());
    for (i, dir) in dirs.iter().enumerate() {
        let me = u32::try_from(i).unwrap_or(NO_CRATE);
        let deps = dependencies(reader, dir);
        sees.push(deps.map(|deps| {
            let mut list = vec![me];
            for d in deps {
                let in_tree = d
                    .path
                    .as_ref()
                    .and_then(|p| number.get(p))
                    .map(|n| vec![*n])
                    .unwrap_or_else(|| nearest(&by_name, &dirs, dir, &d.package));
                list.extend(in_tree);
            }
            list.sort_unstable();
            list.dedup();
            list
        }));
    }
    let mut seen_by: Vec<Vec<u32>> = (0..dirs.len())
        .map(|i| vec![u32::try_from(i).unwrap_or(NO_CRATE)])
        .collect();
    for (i, s) in sees.iter().enumerate() {
        let from = u32::try_from(i).unwrap_or(NO_CRATE);
        match s {
            Some(list) => {
                for to in list.iter().filter(|t| **t != from) {
                    if let Some(v) = seen_by.get_mut(*to as usize) {
                        v.push(from);
                    }
                }
            }
            None => seen_by.iter_mut().for_each(|v| v.push(from)),
        }
    }
    for v in &mut seen_by {
        v.sort_unstable();
        v.dedup();
    }
    let mut notes: Vec<(PathBuf, String)> = reader
        .manifests
        .iter()
        .filter_map(|(d, m)| match m {
            Some(Err(e)) => Some((
                d.join("Cargo.toml"),
                format!("Cargo.toml {e}; dynalint follows calls from its files into every crate"),
            )),
            _ => None,
        })
        .collect();
    notes.sort();
    Crates {
        files,
        sees,
        seen_by,
        notes,
    }
}

/// A dependency, as found: its package, and its folder when it is a `path` one.
struct Resolved {
    package: String,
    path: Option<PathBuf>,
}

/// The dependencies of the crate at `dir`, `workspace = true` ones looked up in its
/// workspace; `None` when one of those cannot be (its workspace does not read).
fn dependencies(reader: &mut Reader, dir: &Path) -> Option<Vec<Resolved>> {
    let (deps, explicit) = match reader.manifest(dir) {
        Some(Ok(m)) => (m.dependencies.clone(), m.workspace_root.clone()),
        _ => return Some(Vec::new()),
    };
    let mut out = Vec::with_capacity(deps.len());
    let mut workspace: Option<(PathBuf, Vec<Dependency>)> = None;
    for d in deps {
        if !d.inherited {
            out.push(Resolved {
                package: d.package,
                path: d.path.map(|p| lexical(&dir.join(p))),
            });
            continue;
        }
        if workspace.is_none() {
            let root = reader.workspace_of(dir, explicit.as_deref())?;
            let entries = match reader.manifest(&root) {
                Some(Ok(m)) => m.workspace.clone().unwrap_or_default(),
                _ => return None,
            };
            workspace = Some((root, entries));
        }
        let Some((root, entries)) = &workspace else {
            return None;
        };
        // Not in the workspace's table: cargo would not build it; nothing to follow.
        if let Some(w) = entries.iter().find(|w| w.key == d.key) {
            out.push(Resolved {
                package: w.package.clone(),
                path: w.path.as_ref().map(|p| lexical(&root.join(p))),
            });
        }
    }
    Some(out)
}

/// The crates named `package` whose folders share the longest path with `from`'s
/// (all of them on a tie); none when no crate in the tree has that name.
fn nearest(
    by_name: &HashMap<String, Vec<u32>>,
    dirs: &[PathBuf],
    from: &Path,
    package: &str,
) -> Vec<u32> {
    let Some(cands) = by_name.get(package) else {
        return Vec::new();
    };
    let shared = |c: &u32| {
        dirs.get(*c as usize).map_or(0, |d| {
            d.components()
                .zip(from.components())
                .take_while(|(a, b)| a == b)
                .count()
        })
    };
    let best = cands.iter().map(shared).max().unwrap_or(0);
    cands
        .iter()
        .copied()
        .filter(|c| shared(c) == best)
        .collect()
}

/// `path` made absolute against the working folder, `.` and `..` taken out without
/// asking the file system (symlinks are rare in source trees; a stat per folder is not).
fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `a/./b/../c` as `a/c`.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_lists_every_kind_of_dependency_by_its_package() {
        let m = parse_manifest(
            r#"
[package]
name = "orders-api"
[dependencies]
serde = "1"
store = { package = "orders-store", path = "../store" }
shared = { workspace = true }
[dev-dependencies]
test_utils = { path = "../test-utils" }
[build-dependencies.cc]
version = "1"
[target.'cfg(unix)'.dependencies]
nix = "0.29"
[target.'cfg(windows)'.dev-dependencies]
winapi = "0.3"
"#,
        )
        .unwrap();
        assert_eq!(m.package.as_deref(), Some("orders_api"));
        let got: Vec<(&str, &str, Option<&str>, bool)> = m
            .dependencies
            .iter()
            .map(|d| (&*d.key, &*d.package, d.path.as_deref(), d.inherited))
            .collect();
        assert_eq!(
            got,
            [
                ("serde", "serde", None, false),
                ("shared", "shared", None, true),
                ("store", "orders_store", Some("../store"), false),
                ("test_utils", "test_utils", Some("../test-utils"), false),
                ("cc", "cc", None, false),
                ("nix", "nix", None, false),
                ("winapi", "winapi", None, false),
            ]
        );
        assert_eq!(m.workspace, None);
    }

    #[test]
    fn a_workspace_root_lists_its_dependencies_renamed() {
        let m = parse_manifest(
            "[workspace]\nmembers = [\"a\"]\n[workspace.dependencies]\n\
             shared = { package = \"shared-lib\", path = \"libs/shared\" }\n",
        )
        .unwrap();
        assert_eq!(m.package, None);
        let ws = m.workspace.unwrap();
        assert_eq!(ws[0].package, "shared_lib");
        assert_eq!(ws[0].path.as_deref(), Some("libs/shared"));
    }

    #[test]
    fn a_manifest_that_does_not_read_says_where() {
        let e = parse_manifest("[package]\nname = \"x\"\nversion = \n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn crates_see_themselves_and_their_dependencies_only() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(
            root,
            "Cargo.toml",
            "[workspace]\nmembers = [\"*\"]\n[workspace.dependencies]\n\
             common = { package = \"common-lib\", path = \"common\" }\n",
        );
        write(
            root,
            "common/Cargo.toml",
            "[package]\nname = \"common-lib\"\n",
        );
        write(
            root,
            "api/Cargo.toml",
            "[package]\nname = \"api\"\n[dependencies]\ncommon = { workspace = true }\n\
             db = { package = \"store\", version = \"1\" }\n",
        );
        write(root, "store/Cargo.toml", "[package]\nname = \"store\"\n");
        write(root, "other/Cargo.toml", "[package]\nname = \"other\"\n");
        write(root, "broken/Cargo.toml", "[package\nname = \"broken\"\n");
        let files = [
            "api/src/main.rs",
            "common/src/lib.rs",
            "store/src/lib.rs",
            "other/src/lib.rs",
            "broken/src/lib.rs",
            "scripts/loose.rs",
        ];
        let paths: Vec<PathBuf> = files.iter().map(|f| root.join(f)).collect();
        let c = Crates::read(paths.iter().map(PathBuf::as_path));
        let (api, common, store, other, broken, loose) = (0, 1, 2, 3, 4, 5);
        assert!(c.file_sees(api, common), "workspace = true, renamed");
        assert!(c.file_sees(api, store), "package = renamed");
        assert!(!c.file_sees(api, other));
        assert!(
            !c.file_sees(common, api),
            "a dependency does not see its user"
        );
        assert!(!c.file_sees(other, store));
        // What is not known sees and is seen by everything.
        assert!(c.file_sees(broken, api) && c.file_sees(other, broken));
        assert!(c.file_sees(loose, api) && c.file_sees(other, loose));
        assert_eq!(c.of(broken), NO_CRATE);
        assert_eq!(c.notes.len(), 1);
        assert!(c.notes[0].0.ends_with("broken/Cargo.toml"));
    }

    #[test]
    fn a_name_several_crates_share_is_the_nearest_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for repo in ["repo0", "repo1"] {
            write(
                root,
                &format!("{repo}/vendor/sdk/Cargo.toml"),
                "[package]\nname = \"sdk\"\n",
            );
            write(
                root,
                &format!("{repo}/svc/app/Cargo.toml"),
                "[package]\nname = \"app\"\n[dependencies]\nsdk = \"1\"\n",
            );
        }
        let files = [
            "repo0/svc/app/src/lib.rs",
            "repo0/vendor/sdk/src/lib.rs",
            "repo1/svc/app/src/lib.rs",
            "repo1/vendor/sdk/src/lib.rs",
        ];
        let paths: Vec<PathBuf> = files.iter().map(|f| root.join(f)).collect();
        let c = Crates::read(paths.iter().map(PathBuf::as_path));
        assert!(c.file_sees(0, 1) && c.file_sees(2, 3));
        assert!(!c.file_sees(0, 3) && !c.file_sees(2, 1));
    }
}
