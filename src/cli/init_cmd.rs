//! `dynalint init`: writes `dynalint.toml` from what the repository declares. Never
//! overwrites one.

use std::path::PathBuf;

use super::args::InitArgs;
use super::open::fail;
use super::out::out;
use super::{error, EXIT_OK};
use crate::infer;
use crate::model::CONFIG_FILE_NAME;
use crate::project::{Config, Open, Project};
use crate::workspace::display_path;

pub(super) fn run(a: InitArgs) -> i32 {
    let dir = a.path.unwrap_or_else(|| PathBuf::from("."));
    if !dir.is_dir() {
        return error(format!("`{}` is not a folder", display_path(&dir)));
    }
    let target = dir.join(CONFIG_FILE_NAME);
    if target.exists() && !a.stdout {
        return error(format!(
            "`{}` already exists; `dynalint init` never overwrites it\n  = help: `dynalint init --stdout` prints what it would write",
            display_path(&target)
        ));
    }
    let open = Open {
        paths: vec![dir],
        config: Config::Infer,
        ..Open::default()
    };
    let project = match Project::open(&open, &|_, _, _| {}) {
        Ok(p) => p,
        Err(e) => return fail(e, false),
    };
    let Some(inferred) = project.inferred() else {
        return error("the model was read from a `dynalint.toml`, not inferred");
    };
    let text = infer::init::render(&inferred);
    if a.stdout {
        out!("{text}");
        return EXIT_OK;
    }
    if let Err(e) = std::fs::write(&target, &text) {
        return error(format!("cannot write `{}`: {e}", display_path(&target)));
    }
    for n in &inferred.notes {
        eprintln!("note: {n}");
    }
    eprintln!(
        "wrote `{}`: {} table{} {}; check it with `dynalint model check`",
        display_path(&target),
        inferred.model.tables.len(),
        if inferred.model.tables.len() == 1 {
            ""
        } else {
            "s"
        },
        inferred.source.describe()
    );
    EXIT_OK
}
