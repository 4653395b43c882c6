//! The corpus entries: the repositories of `realworld/<name>/` whose trees
//! `scripts/realworld-fetch` rebuilt, and the labelled crates of `realworld/crates/`
//! (cargo downloads the pinned versions; each crate's `src/` is copied beside the
//! trees). Shared by the scorer (`examples/realworld/`) and the metamorphic harness
//! (`examples/metamorphic/`), so both see the same corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use serde_json::Value;

/// One tree: a repository of `realworld/<name>/` or a crate of `realworld/crates/`.
pub struct Entry {
    pub name: String,
    /// The folder of its `expect.toml` and `dynalint.toml`.
    pub root: PathBuf,
    pub tree: PathBuf,
    pub kind: String,
    pub origin: String,
    /// Labelled before any run of dynalint on it (`blind = true` in `source.toml`).
    pub blind: bool,
}

/// Crates are named `crate:<name>` in tables and in `--only`.
pub const CRATE_PREFIX: &str = "crate:";

/// `realworld/<name>/source.toml`.
#[derive(Deserialize)]
pub struct Source {
    pub repo: String,
    pub commit: String,
    #[serde(default)]
    pub kind: String,
    /// Labelled from the code and the rule pages before any run of dynalint on it.
    #[serde(default)]
    pub blind: bool,
    /// When and by whom a blind repository was labelled (required when `blind`).
    #[serde(default)]
    pub labelled: Option<String>,
}

/// Reads a TOML file into `T`; the error names the file.
pub fn read_toml<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// What [`entries`] found: the entries whose trees are there, and the names of the
/// repositories whose trees are missing (`scripts/realworld-fetch` makes them).
pub struct Corpus {
    pub entries: Vec<Entry>,
    pub missing_trees: Vec<String>,
}

/// Every entry of `corpus` (the `realworld/` folder) with its tree under `dir`, in
/// name order, the crates last; `only` (names, crates as `crate:<name>`) keeps those.
pub fn entries(corpus: &Path, dir: &Path, only: &[String]) -> Result<Corpus, String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus)
        .map_err(|e| format!("{}: {e}", corpus.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.path().join("source.toml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    if !only.is_empty() {
        for o in only {
            if !names.contains(o) && !o.starts_with(CRATE_PREFIX) {
                return Err(format!("no repository `{o}` in realworld/"));
            }
        }
        names.retain(|n| only.contains(n));
    }
    let mut entries = Vec::new();
    let mut missing_trees = Vec::new();
    for name in &names {
        let root = corpus.join(name);
        let source: Source = read_toml(&root.join("source.toml"))?;
        if source.blind
            && source
                .labelled
                .as_deref()
                .is_none_or(|l| l.trim().is_empty())
        {
            return Err(format!(
                "realworld/{name}/source.toml: `blind = true` needs `labelled = \"...\"` (when and by whom)"
            ));
        }
        let tree = dir.join(name);
        if !tree.is_dir() {
            missing_trees.push(name.clone());
            continue;
        }
        let origin = format!(
            "{}@{}",
            source.repo,
            &source.commit[..12.min(source.commit.len())]
        );
        entries.push(Entry {
            name: name.clone(),
            root,
            tree,
            kind: source.kind,
            origin,
            blind: source.blind,
        });
    }
    entries.extend(crate_entries(&corpus.join("crates"), dir, only)?);
    Ok(Corpus {
        entries,
        missing_trees,
    })
}

/// The labelled crates of `realworld/crates/`: cargo downloads the pinned versions
/// (`cargo metadata`), and each crate's `src/` is copied into `dir/crate-<name>`.
fn crate_entries(crates: &Path, dir: &Path, only: &[String]) -> Result<Vec<Entry>, String> {
    let mut labelled: Vec<(String, PathBuf)> = std::fs::read_dir(crates)
        .map_err(|e| format!("{}: {e}", crates.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("expect.toml").is_file())
        .filter_map(|p| Some((p.file_name()?.to_str()?.to_string(), p)))
        .filter(|(n, _)| only.is_empty() || only.contains(&format!("{CRATE_PREFIX}{n}")))
        .collect();
    labelled.sort();
    if labelled.is_empty() {
        return Ok(Vec::new());
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(crates.join("Cargo.toml"))
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    let meta: Value = serde_json::from_slice(&out.stdout).map_err(|_| {
        format!(
            "cargo metadata for realworld/crates failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let packages = meta
        .get("packages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut entries = Vec::new();
    for (name, root) in labelled {
        let package = packages
            .iter()
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name.as_str()))
            .ok_or_else(|| {
                format!("crate {name} is labelled but not pinned in realworld/crates/Cargo.toml")
            })?;
        let manifest = package
            .get("manifest_path")
            .and_then(Value::as_str)
            .unwrap_or("");
        let version = package
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("?");
        let src = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new(""))
            .join("src");
        let tree = dir.join(format!("crate-{name}"));
        let _ = std::fs::remove_dir_all(&tree);
        copy_tree(&src, &tree.join("src"))?;
        entries.push(Entry {
            name: format!("{CRATE_PREFIX}{name}"),
            root,
            tree,
            kind: "crate".into(),
            origin: format!("{name} {version}"),
            blind: false,
        });
    }
    Ok(entries)
}

/// Copies a folder, recursively.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    let err = |e: std::io::Error| format!("copying {} to {}: {e}", from.display(), to.display());
    std::fs::create_dir_all(to).map_err(err)?;
    for e in std::fs::read_dir(from).map_err(err)? {
        let e = e.map_err(err)?;
        let target = to.join(e.file_name());
        if e.file_type().map_err(err)?.is_dir() {
            copy_tree(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target).map_err(err)?;
        }
    }
    Ok(())
}
