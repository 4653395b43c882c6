//! Finding the project: `dynalint.toml` discovery and the source files to check.
//!
//! Shared by the CLI and the LSP. Walking respects `.gitignore`, skips `target/`
//! folders of cargo packages and `[lint] exclude` globs, and never fails on one bad
//! file: unreadable, binary and non-UTF-8 files become [`Note`]s.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

use crate::source::SourceFile;

/// Files larger than this are skipped: no hand-written module is this big. The one
/// size limit of every reader of source (CLI, LSP, scanner).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// What a file over [`MAX_FILE_BYTES`] is told, wherever it is met.
pub fn too_large_message(bytes: u64) -> String {
    format!(
        "skipped: {bytes} bytes is larger than the {} MiB ({MAX_FILE_BYTES} bytes) limit for a source file",
        MAX_FILE_BYTES >> 20
    )
}

/// Something skipped or odd, said to the user but not a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub path: PathBuf,
    pub message: String,
    /// Source that was not read (a file, or a folder that may hold some): `check`
    /// fails on it unless `[lint] skipped-files = "allow"`.
    pub unread: bool,
}

/// Errors that stop a run before analysis.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("invalid glob `{glob}` in `[lint] {field}`: {source}")]
    BadGlob {
        field: &'static str,
        glob: String,
        source: globset::Error,
    },
    #[error("`{}` does not exist", path.display())]
    Missing { path: PathBuf },
}

/// The `.rs` files to check and the notes about what was skipped.
#[derive(Debug, Default)]
pub struct Sources {
    pub files: Vec<SourceFile>,
    pub notes: Vec<Note>,
    /// Sources in other languages that name DynamoDB: code dynalint does not read
    /// that may still read the tables (a rule that concludes "never read" says so).
    pub other_languages: Vec<OtherSources>,
}

/// The files of one other language that mention DynamoDB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherSources {
    /// `TypeScript`, `Python`, ...
    pub language: &'static str,
    /// Sorted.
    pub files: Vec<PathBuf>,
}

/// The languages an AWS SDK for DynamoDB exists in, by file extension.
const OTHER_LANGUAGES: &[(&str, &str)] = &[
    ("ts", "TypeScript"),
    ("tsx", "TypeScript"),
    ("mts", "TypeScript"),
    ("cts", "TypeScript"),
    ("js", "JavaScript"),
    ("jsx", "JavaScript"),
    ("mjs", "JavaScript"),
    ("cjs", "JavaScript"),
    ("py", "Python"),
    ("go", "Go"),
    ("java", "Java"),
    ("kt", "Kotlin"),
    ("cs", "C#"),
    ("rb", "Ruby"),
    ("php", "PHP"),
];

/// Larger files are bundles or generated code, not a service's own reads.
const OTHER_SOURCE_MAX_BYTES: u64 = 1 << 20;

/// The language of a file dynalint does not read but whose code may call DynamoDB.
fn other_language(p: &Path) -> Option<&'static str> {
    let ext = p.extension()?.to_str()?;
    if p.to_string_lossy().ends_with(".d.ts") {
        return None;
    }
    OTHER_LANGUAGES
        .iter()
        .find(|(e, _)| *e == ext)
        .map(|(_, l)| *l)
}

/// Whether a file's text names DynamoDB (any SDK: `@aws-sdk/client-dynamodb`,
/// `boto3.resource("dynamodb")`, `DynamoDbClient`, `DocumentClient`).
fn mentions_dynamodb(p: &Path) -> bool {
    let small = std::fs::metadata(p).is_ok_and(|m| m.len() <= OTHER_SOURCE_MAX_BYTES);
    if !small {
        return false;
    }
    let Ok(bytes) = std::fs::read(p) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
    text.contains("dynamodb") || text.contains("documentclient")
}

/// Groups the other-language files that mention DynamoDB by language.
fn other_sources(candidates: &[PathBuf]) -> Vec<OtherSources> {
    let kept: Vec<&PathBuf> = candidates
        .par_iter()
        .filter(|p| mentions_dynamodb(p))
        .collect();
    let mut out: Vec<OtherSources> = Vec::new();
    for p in kept {
        let Some(language) = other_language(p) else {
            continue;
        };
        match out.iter_mut().find(|o| o.language == language) {
            Some(o) => o.files.push(p.clone()),
            None => out.push(OtherSources {
                language,
                files: vec![p.clone()],
            }),
        }
    }
    for o in &mut out {
        o.files.sort();
    }
    out.sort_by(|a, b| {
        b.files
            .len()
            .cmp(&a.files.len())
            .then(a.language.cmp(b.language))
    });
    out
}

/// Compiles `[lint]` globs; patterns are matched against paths relative to the root.
pub fn glob_set(field: &'static str, globs: &[String]) -> Result<GlobSet, WorkspaceError> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        let glob = Glob::new(g).map_err(|source| WorkspaceError::BadGlob {
            field,
            glob: g.clone(),
            source,
        })?;
        b.add(glob);
    }
    b.build().map_err(|source| WorkspaceError::BadGlob {
        field,
        glob: globs.join(", "),
        source,
    })
}

/// The `.rs` files to check, found but not yet read (see [`find_sources`]).
#[derive(Debug, Default)]
pub struct Found {
    /// Sorted, without duplicates.
    pub paths: Vec<PathBuf>,
    pub notes: Vec<Note>,
    pub other_languages: Vec<OtherSources>,
}

/// Finds every `.rs` file under `paths` and reads them in parallel.
///
/// `root` is the folder of `dynalint.toml`; `exclude` globs are relative to it.
/// `progress` is told `0` of the files before any is read, then bumped once per file read.
pub fn collect_sources(
    paths: &[PathBuf],
    root: &Path,
    exclude: &[String],
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Sources, WorkspaceError> {
    collect_sources_within(paths, root, exclude, Reach::Tree, progress)
}

/// [`collect_sources`] walking folders only as deep as `reach` allows.
pub fn collect_sources_within(
    paths: &[PathBuf],
    root: &Path,
    exclude: &[String],
    reach: Reach,
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Sources, WorkspaceError> {
    let Found {
        paths: found,
        mut notes,
        other_languages,
    } = find_sources_within(paths, root, exclude, reach)?;
    let total = found.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    // The phase starts before any file is read: the files are read in parallel, so
    // which count a first read would report is the threads' race.
    if let Some(cb) = progress {
        cb(0, total);
    }
    let read: Vec<Result<SourceFile, Note>> = found
        .par_iter()
        .map(|p| {
            let r = read_source(p);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if let Some(cb) = progress {
                cb(n, total);
            }
            r
        })
        .collect();
    let mut files = Vec::with_capacity(read.len());
    for r in read {
        match r {
            Ok(f) => files.push(f),
            Err(n) => notes.push(n),
        }
    }
    Ok(Sources {
        files,
        notes,
        other_languages,
    })
}

/// [`collect_sources`] without reading the `.rs` files: a caller that reads each one
/// as it indexes it need not hold every text at once.
pub fn find_sources(
    paths: &[PathBuf],
    root: &Path,
    exclude: &[String],
) -> Result<Found, WorkspaceError> {
    find_sources_within(paths, root, exclude, Reach::Tree)
}

/// [`find_sources`] walking folders only as deep as `reach` allows.
pub fn find_sources_within(
    paths: &[PathBuf],
    root: &Path,
    exclude: &[String],
    reach: Reach,
) -> Result<Found, WorkspaceError> {
    let excluded = glob_set("exclude", exclude)?;
    let root_abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut notes = Vec::new();
    let mut found: Vec<PathBuf> = Vec::new();
    let mut others: Vec<PathBuf> = Vec::new();
    for start in paths {
        if !start.exists() {
            return Err(WorkspaceError::Missing {
                path: start.clone(),
            });
        }
        if start.is_file() {
            // A file named explicitly is checked even if ignored: the user asked for it.
            found.push(start.clone());
            continue;
        }
        let walker = ignore::WalkBuilder::new(start)
            .max_depth(reach.max_depth())
            .follow_links(true)
            .require_git(false)
            .hidden(true)
            .filter_entry(|e| !is_cargo_target_dir(e.path()) && e.file_name() != "node_modules")
            .build();
        for entry in walker {
            match entry {
                Ok(e) => {
                    let p = e.path();
                    let file = e.file_type().is_some_and(|t| t.is_file());
                    if file
                        && p.extension().is_some_and(|x| x == "rs")
                        && !is_excluded(&excluded, &root_abs, p)
                    {
                        found.push(p.to_path_buf());
                    } else if file
                        && other_language(p).is_some()
                        && !is_excluded(&excluded, &root_abs, p)
                    {
                        others.push(p.to_path_buf());
                    }
                }
                Err(err) => notes.push(walk_note(err)),
            }
        }
    }
    found.sort();
    found.dedup();
    others.sort();
    others.dedup();
    Ok(Found {
        paths: found,
        notes,
        other_languages: other_sources(&others),
    })
}

/// Reads one file as a source file, or says why it is skipped.
pub fn read_source(path: &Path) -> Result<SourceFile, Note> {
    read_text(path).map(|text| SourceFile::new(path, text))
}

/// [`read_source`]'s text alone, with the same notes: a caller that may let the text
/// go (`check` indexes most files and drops them) need not find its lines.
pub fn read_text(path: &Path) -> Result<String, Note> {
    let note = |message: String| Note {
        path: path.to_path_buf(),
        message,
        unread: true,
    };
    let meta = std::fs::metadata(path).map_err(|e| note(format!("cannot read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(note(too_large_message(meta.len())));
    }
    let bytes = std::fs::read(path).map_err(|e| note(format!("cannot read: {e}")))?;
    // memchr rather than a byte-a-step search: this is every file of a tree.
    if memchr::memchr(0, bytes.get(..8192).unwrap_or(&bytes)).is_some() {
        return Err(note("skipped: binary file (contains NUL bytes)".into()));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => Err(note(format!(
            "skipped: not valid UTF-8 (first bad byte at offset {}); Rust source must be UTF-8",
            e.utf8_error().valid_up_to()
        ))),
    }
}

/// `target/` next to a `Cargo.toml` is cargo's build output, never source.
fn is_cargo_target_dir(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == "target")
        && p.parent()
            .is_some_and(|parent| parent.join("Cargo.toml").is_file())
}

fn is_excluded(set: &GlobSet, root: &Path, p: &Path) -> bool {
    if set.is_empty() {
        return false;
    }
    let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let rel = abs.strip_prefix(root).unwrap_or(&abs);
    set.is_match(rel) || set.is_match(p)
}

fn walk_note(err: ignore::Error) -> Note {
    let path = err_path(&err).unwrap_or_default();
    // A symlink loop hides nothing that is not reached another way.
    let unread = !is_loop(&err);
    let message = if is_loop(&err) {
        "skipped: directory symlink loop".to_string()
    } else {
        format!("skipped: {err}")
    };
    Note {
        path,
        message,
        unread,
    }
}

fn err_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            err_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

fn is_loop(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

/// Shows `path` relative to the current directory when it is under it.
pub fn display_path(path: &Path) -> String {
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let abs = if path.is_absolute() {
                path.to_path_buf()
            } else {
                cwd.join(path)
            };
            abs.strip_prefix(&cwd).ok().map(Path::to_path_buf)
        })
        .unwrap_or_else(|| path.to_path_buf());
    let s = shown.to_string_lossy().replace('\\', "/");
    let s = s.strip_prefix("./").map(str::to_string).unwrap_or(s);
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

/// A project found from a path when no `dynalint.toml` says where it is: its folder
/// and how much of that folder is the project's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRoot {
    /// Relative to the current folder when under it (see [`display_path`]).
    pub dir: PathBuf,
    pub reach: Reach,
}

/// How much under its folder a project holds: templates are looked for, and (in the
/// editor) sources walked, only that far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every file under the folder: a cargo package or workspace, a repository, or a
    /// folder the user named to check.
    Tree,
    /// Only the folder's own files, not its subfolders': a loose file's project (no
    /// `Cargo.toml` or `.git` at or above it), whose folder is often a shared one (the
    /// temp folder) beside unrelated projects.
    Folder,
    /// Nothing beside the files named: a loose file directly in the home folder or the
    /// filesystem root, which are never walked.
    Named,
}

impl Reach {
    /// The walk's depth below the project's folder (`ignore`'s `max_depth`).
    pub fn max_depth(self) -> Option<usize> {
        match self {
            Self::Tree => None,
            Self::Folder => Some(1),
            Self::Named => Some(0),
        }
    }
}

/// The root of the project `start` is in, when there is no `dynalint.toml` to say
/// (see [`project_of`]).
pub fn project_root(start: &Path) -> PathBuf {
    project_of(start).dir
}

/// The project `start` is in, when there is no `dynalint.toml` to say: the nearest
/// folder at or above it holding a `Cargo.toml` or `.git`, below the home folder and
/// the filesystem root (a dotfiles repository is no project of every file in it); a
/// crate inside a cargo workspace belongs to the workspace's root (the nearest
/// `Cargo.toml` above it with a `[workspace]` table that does not exclude it, no higher
/// than the repository's `.git`), as cargo decides: its members call each other, so the
/// editor must see them together as `check` of the root does. Templates are looked for
/// under it. Without either above it, a folder named to check is the project, whole;
/// a loose file is a project of its folder's own files (see [`Reach`]).
pub fn project_of(start: &Path) -> ProjectRoot {
    let named_dir = start.is_dir();
    let dir = if named_dir {
        start
    } else {
        start
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    };
    let Ok(abs) = std::fs::canonicalize(dir) else {
        // A folder that does not exist holds nothing to walk.
        return ProjectRoot {
            dir: dir.to_path_buf(),
            reach: if named_dir { Reach::Tree } else { Reach::Named },
        };
    };
    let found = project_folder_above(&abs);
    let reach = match found {
        Some(_) => Reach::Tree,
        None if named_dir => Reach::Tree,
        None => loose_reach(&abs),
    };
    let found = found.unwrap_or(&abs);
    ProjectRoot {
        dir: PathBuf::from(display_path(found)),
        reach,
    }
}

/// How much of `root` is the project's, for a root [`project_of`] found from a file
/// in it (the editor's projects without a `dynalint.toml`).
pub fn reach_of(root: &Path) -> Reach {
    let Ok(abs) = std::fs::canonicalize(root) else {
        return Reach::Named;
    };
    match project_folder_above(&abs) {
        Some(_) => Reach::Tree,
        None => loose_reach(&abs),
    }
}

/// The nearest folder at or above `abs` (canonical) with a `Cargo.toml` or `.git`,
/// short of the shared folders, lifted to its cargo workspace's root.
fn project_folder_above(abs: &Path) -> Option<&Path> {
    let found = abs
        .ancestors()
        .take_while(|d| !is_shared_folder(d))
        .find(|d| d.join("Cargo.toml").is_file() || d.join(".git").exists())?;
    let lifted = workspace_root_above(found).filter(|w| !is_shared_folder(w));
    Some(lifted.unwrap_or(found))
}

/// The reach of a loose file's folder.
fn loose_reach(abs: &Path) -> Reach {
    if is_shared_folder(abs) {
        Reach::Named
    } else {
        Reach::Folder
    }
}

/// The filesystem root and the home folder: holding everything, they are nobody's
/// project.
fn is_shared_folder(abs: &Path) -> bool {
    abs.parent().is_none()
        || ["HOME", "USERPROFILE"]
            .iter()
            .filter_map(std::env::var_os)
            .filter(|h| !h.is_empty())
            .any(|h| std::fs::canonicalize(&h).is_ok_and(|h| h == abs))
}

/// The folder of the cargo workspace whose root manifest is above `krate` (a folder
/// with a `Cargo.toml`) and does not exclude it; the search stops at a folder holding
/// `.git` (a repository's workspace is inside it) and, as cargo's does, at the first
/// workspace root. A manifest on the way that does not read ends the search: the
/// crate's own folder stays its root, as before workspaces counted.
fn workspace_root_above(krate: &Path) -> Option<&Path> {
    if !krate.join("Cargo.toml").is_file() || krate.join(".git").exists() {
        return None;
    }
    for dir in krate.ancestors().skip(1) {
        let manifest = dir.join("Cargo.toml");
        if manifest.is_file() {
            match workspace_membership(&manifest, krate)? {
                Membership::Member => return Some(dir),
                Membership::Excluded => return None,
                Membership::NoWorkspace => {}
            }
        }
        if dir.join(".git").exists() {
            return None;
        }
    }
    None
}

/// What a manifest above a crate says of it.
enum Membership {
    /// A `[workspace]` root that does not exclude the crate.
    Member,
    /// A `[workspace]` root whose `exclude` names the crate or a folder it is in.
    Excluded,
    /// A package's manifest only: cargo looks further up.
    NoWorkspace,
}

/// `None` when the manifest does not read.
fn workspace_membership(manifest: &Path, krate: &Path) -> Option<Membership> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let doc: toml::Table = text.parse().ok()?;
    let Some(ws) = doc.get("workspace").and_then(toml::Value::as_table) else {
        return Some(Membership::NoWorkspace);
    };
    let rel = krate.strip_prefix(manifest.parent()?).ok()?;
    let excluded = ws
        .get("exclude")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .any(|e| rel.starts_with(Path::new(e.trim_end_matches('/'))));
    Some(if excluded {
        Membership::Excluded
    } else {
        Membership::Member
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn a_workspace_member_belongs_to_the_workspace_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        write(&root, ".git/HEAD", "");
        write(
            &root,
            "Cargo.toml",
            "[workspace]\nmembers = [\"svc/*\"]\nexclude = [\"tools/gen\"]\n",
        );
        write(
            &root,
            "svc/orders/Cargo.toml",
            "[package]\nname = \"orders\"\n",
        );
        write(&root, "svc/orders/src/main.rs", "fn main() {}\n");
        write(&root, "tools/gen/Cargo.toml", "[package]\nname = \"gen\"\n");
        write(&root, "tools/gen/src/main.rs", "fn main() {}\n");
        let at = |rel: &str| PathBuf::from(display_path(&root.join(rel)));

        assert_eq!(project_root(&root.join("svc/orders/src/main.rs")), at(""));
        // Excluded from the workspace: its own root, as cargo builds it alone.
        assert_eq!(
            project_root(&root.join("tools/gen/src/main.rs")),
            at("tools/gen")
        );
    }

    #[test]
    fn a_loose_file_is_a_project_of_its_folder_s_own_files() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        write(&root, "scratch.rs", "fn main() {}\n");
        write(&root, "app/Cargo.toml", "[package]\nname = \"app\"\n");
        write(&root, "app/src/main.rs", "fn main() {}\n");
        let at = |rel: &str| PathBuf::from(display_path(&root.join(rel)));

        let loose = project_of(&root.join("scratch.rs"));
        assert_eq!((loose.dir, loose.reach), (at(""), Reach::Folder));
        assert_eq!(reach_of(&root), Reach::Folder);
        // Not yet written (an editor's new buffer): still a file.
        assert_eq!(project_of(&root.join("new.rs")).reach, Reach::Folder);
        // A folder named to check is walked whole.
        assert_eq!(project_of(&root).reach, Reach::Tree);
        let app = project_of(&root.join("app/src/main.rs"));
        assert_eq!((app.dir, app.reach), (at("app"), Reach::Tree));
        assert_eq!(reach_of(&root.join("app")), Reach::Tree);
        // The filesystem root is nobody's project.
        assert_eq!(reach_of(Path::new("/")), Reach::Named);
    }

    #[test]
    fn a_workspace_above_the_repository_is_not_this_projects() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        write(&root, "Cargo.toml", "[workspace]\n");
        write(&root, "repo/.git/HEAD", "");
        write(&root, "repo/Cargo.toml", "[package]\nname = \"app\"\n");
        write(&root, "repo/src/main.rs", "fn main() {}\n");
        // A broken manifest above a crate is passed over, not an error.
        write(&root, "other/Cargo.toml", "[workspace\n");
        write(&root, "other/lib/Cargo.toml", "[package]\nname = \"lib\"\n");
        write(&root, "other/lib/src/lib.rs", "\n");
        let at = |rel: &str| PathBuf::from(display_path(&root.join(rel)));

        assert_eq!(project_root(&root.join("repo/src/main.rs")), at("repo"));
        assert_eq!(
            project_root(&root.join("other/lib/src/lib.rs")),
            at("other/lib")
        );
    }
}
