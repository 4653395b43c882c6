//! How the commands open a project (`crate::project`): their path arguments and
//! stdin as the host takes them, and what the host could not do said on stderr as
//! exit 2.

use std::io::Read;
use std::path::PathBuf;

use super::args::ProjectArgs;
use super::{error, EXIT_ERROR};
use crate::model::ModelError;
use crate::project::{Config, Given, Open, Project, ProjectError, Texts};
use crate::report::human;
use crate::scanner::Report;
use crate::workspace::display_path;

/// The path that stands for stdin (`dynalint check - --stdin-filename src/db.rs`).
pub(super) const STDIN: &str = "-";

/// Opens the project the arguments name (stdin's text read when `-` is one of the
/// paths); errors are said on stderr, and are `Err(exit code)`.
pub(super) fn open(
    p: &ProjectArgs,
    texts: Texts,
    color: bool,
    report: Report<'_>,
) -> Result<Project, i32> {
    let stdin = p.paths.iter().any(|p| p.as_os_str() == STDIN);
    let paths: Vec<PathBuf> = (p.paths.iter())
        .filter(|p| p.as_os_str() != STDIN)
        .cloned()
        .collect();
    let given = match stdin {
        true => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| error(format!("cannot read stdin: {e}")))?;
            Some(Given {
                name: p.stdin_filename.clone(),
                text,
            })
        }
        false => None,
    };
    let open = Open {
        paths,
        config: match &p.config {
            Some(c) => Config::File(c.clone()),
            None => Config::Find,
        },
        given,
        texts,
    };
    Project::open(&open, report).map_err(|e| fail(e, color))
}

/// Says what stopped the project on stderr; the exit code is 2. A `dynalint.toml`
/// that does not load shows every problem at its place.
pub(super) fn fail(e: ProjectError, color: bool) -> i32 {
    match e {
        ProjectError::Model(e) => {
            eprint!("{}", human::render_model_error(&e, color));
            if let ModelError::Invalid { path, problems, .. } = &e {
                eprintln!(
                    "error: `{}` has {} problem(s); fix them and run again",
                    display_path(path),
                    problems.len()
                );
            }
            EXIT_ERROR
        }
        other => error(other),
    }
}
