//! Which `dynalint.toml` governs a project, and loading it: every problem comes back
//! as an error with its place, for the front end to show.

use std::path::{Path, PathBuf};

use crate::model::{self, Model, ModelError, CONFIG_FILE_NAME};
use crate::rules::{self, UNUSED_ALLOW};
use crate::source::SourceFile;
use crate::workspace::{self, display_path};

use super::ProjectError;

/// The `dynalint.toml` to use: `config` when given, else the nearest one at or above
/// the first of `paths` (shown relative to the current folder when under it);
/// `Ok(None)` when there is none. A path that does not exist is an error.
pub fn find_config(
    paths: &[PathBuf],
    config: Option<&Path>,
) -> Result<Option<PathBuf>, ProjectError> {
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(ProjectError::Missing {
            path: missing.clone(),
        });
    }
    if let Some(c) = config {
        return Ok(Some(c.to_path_buf()));
    }
    let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    Ok(model::discover(&start).map(|p| PathBuf::from(display_path(&p))))
}

/// The `dynalint.toml` governing `path` for an editor: the nearest one above it that
/// `exists` (on disk, or open in the editor though never saved). A `dynalint.toml`
/// governs itself. Without one, a Rust file belongs to the project at its root
/// (`workspace::project_root`), whose model is inferred; the path is where that
/// project's `dynalint.toml` would be. `None` for a path with no folder.
pub fn governing_config(path: &Path, exists: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    if path.file_name().is_some_and(|n| n == CONFIG_FILE_NAME) {
        return Some(path.to_path_buf());
    }
    let declared = path.ancestors().skip(1).find_map(|dir| {
        let c = dir.join(CONFIG_FILE_NAME);
        exists(&c).then_some(c)
    });
    declared.or_else(|| {
        let dir = path.parent()?;
        let root = workspace::project_root(dir);
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        Some(root.join(CONFIG_FILE_NAME))
    })
}

/// Finds and loads the `dynalint.toml` of `paths` ([`find_config`]); none is an error
/// ([`ProjectError::NoConfig`]: `model check` needs one).
pub fn require_config(
    paths: &[PathBuf],
    config: Option<&Path>,
) -> Result<(Model, SourceFile), ProjectError> {
    match find_config(paths, config)? {
        Some(c) => load_config(&c),
        None => Err(ProjectError::NoConfig {
            start: paths.first().cloned().unwrap_or_else(|| PathBuf::from(".")),
        }),
    }
}

/// Loads a `dynalint.toml`, with its text. Its `[rules]` ids are checked against the
/// registry here (the model cannot see the rules): an unknown one is a problem of the
/// file, as a syntax error is.
pub fn load_config(config: &Path) -> Result<(Model, SourceFile), ProjectError> {
    let m = model::load_file(config)?;
    let text = std::fs::read_to_string(config).unwrap_or_default();
    let mut known: Vec<&str> = rules::REGISTRY.iter().map(|r| r.meta().id).collect();
    known.push(UNUSED_ALLOW);
    let problems = model::validate::unknown_rules(&m, &known);
    if !problems.is_empty() {
        return Err(ModelError::Invalid {
            path: config.to_path_buf(),
            text,
            problems,
        }
        .into());
    }
    Ok((m, SourceFile::new(config, text)))
}
