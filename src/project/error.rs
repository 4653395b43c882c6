//! What can stop a project from opening or an analysis from finishing. The host
//! returns these; the front end says them (the CLI on stderr with an exit code, the
//! editor as diagnostics and log lines).

use std::path::PathBuf;

use crate::model::{ModelError, CONFIG_FILE_NAME};
use crate::workspace::{display_path, WorkspaceError};

/// Why a project could not be opened or analysed.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// A path to check does not exist.
    #[error("`{}` does not exist", display_path(.path))]
    Missing { path: PathBuf },
    /// A `dynalint.toml` was needed (`model check`) and none was found.
    #[error(
        "no `{CONFIG_FILE_NAME}` found in `{}` or any folder above it\n  = help: `dynalint init` writes one from the tables your templates and code declare; `dynalint check` runs without one",
        display_path(.start)
    )]
    NoConfig { start: PathBuf },
    /// The `dynalint.toml` does not load (every problem, with its place), or names a
    /// rule that does not exist.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The sources could not be walked (an `exclude` glob that does not parse).
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    /// The caller cancelled the analysis (a newer edit arrived): nothing is lost, the
    /// next analysis starts from what the project keeps.
    #[error("the analysis was cancelled")]
    Cancelled,
}
