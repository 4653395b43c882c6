//! One handler per protocol method.

pub mod code_action;
pub mod did_change;
pub mod did_change_watched_files;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod hover;

use std::path::Path;

use crate::model::CONFIG_FILE_NAME;

/// Files the server follows: Rust sources and the key model.
pub fn is_tracked(path: &Path) -> bool {
    is_config(path) || path.extension().is_some_and(|e| e == "rs")
}

/// True for a `Cargo.toml`: which crates see which (the link reads manifests).
pub fn is_manifest(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "Cargo.toml")
}

/// What a non-Rust file's change can alter in a project.
pub enum OtherFile {
    /// A `Cargo.toml`, or a path with no extension (a folder moved or deleted): walk
    /// and link again.
    Layout,
    /// A file that may be a template the model is inferred from.
    Template,
}

/// The template extensions `import::discover` reads (the server watches them).
pub const TEMPLATE_GLOB: &str = "**/*.{yaml,yml,json,template,tf,tfvars,ts,py}";

/// How a change to `path`, neither Rust nor a `dynalint.toml`, matters; `None`: not
/// at all (a README). A path with no extension is taken for a folder (a watched
/// folder moved or deleted).
pub fn other_file(path: &Path) -> Option<OtherFile> {
    if is_manifest(path) {
        return Some(OtherFile::Layout);
    }
    match path.extension().and_then(|e| e.to_str()) {
        None => Some(OtherFile::Layout),
        Some("yaml" | "yml" | "json" | "template" | "tf" | "tfvars" | "ts" | "py") => {
            Some(OtherFile::Template)
        }
        Some(_) => None,
    }
}

/// True for a `dynalint.toml`.
pub fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == CONFIG_FILE_NAME)
}
