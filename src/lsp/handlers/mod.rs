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

/// True for a `dynalint.toml`.
pub fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == CONFIG_FILE_NAME)
}
