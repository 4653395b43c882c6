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
        paths: vec![dir.clone()],
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
    if inferred.model.tables.is_empty() {
        // A `dynalint.toml` with no table would only turn inference off from then on.
        for n in &inferred.notes {
            eprintln!("note: {n}");
        }
        eprintln!(
            "nothing to write: no template, Terraform `aws_dynamodb_table` or `create_table` call under `{}` declares a table, and no call says one's keys, so `{}` is not written\n  = note: without it, `dynalint check` runs every rule that needs no model, and reads tables as soon as something declares one\n  = help: to declare a table by hand, write a `[[table]]` (name, refs, partition-key, sort-key, attributes) in `{}`: see the README",
            display_path(&dir),
            display_path(&target),
            display_path(&target)
        );
        return EXIT_OK;
    }
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
