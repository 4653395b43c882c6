//! `dynalint model check` and `dynalint model show`.

use std::path::PathBuf;

use super::args::ProjectArgs;
use super::args::{ModelArgs, ModelCommand};
use super::check::use_color;
use super::open::{fail, open};
use super::out::{out, outln};
use super::EXIT_OK;
use crate::model::IndexKind;
use crate::project::{find_config, require_config, Texts};
use crate::workspace::display_path;

pub(super) fn run(cmd: ModelCommand) -> i32 {
    match cmd {
        ModelCommand::Check(a) => check(a),
        ModelCommand::Show(a) => show(a),
    }
}

fn locate(a: &ModelArgs) -> (Vec<PathBuf>, Option<PathBuf>) {
    match (&a.config, &a.path) {
        (Some(c), _) => (Vec::new(), Some(c.clone())),
        (None, Some(p)) if p.is_file() => (Vec::new(), Some(p.clone())),
        (None, Some(p)) => (vec![p.clone()], None),
        (None, None) => (vec![PathBuf::from(".")], None),
    }
}

fn check(a: ModelArgs) -> i32 {
    let (paths, config) = locate(&a);
    let color = use_color(a.color);
    match require_config(&paths, config.as_deref()).map_err(|e| fail(e, color)) {
        Ok((m, file)) => {
            let gsis = m
                .tables
                .iter()
                .flat_map(|t| &t.indexes)
                .filter(|i| i.kind == IndexKind::Global)
                .count();
            let lsis = m
                .tables
                .iter()
                .flat_map(|t| &t.indexes)
                .filter(|i| i.kind == IndexKind::Local)
                .count();
            outln!(
                "`{}` is valid: {} table(s), {gsis} GSI(s), {lsis} LSI(s), {} access pattern(s)",
                display_path(&file.path),
                m.tables.len(),
                m.access_patterns.len()
            );
            EXIT_OK
        }
        Err(code) => code,
    }
}

fn show(a: ModelArgs) -> i32 {
    let (paths, config) = locate(&a);
    let color = use_color(a.color);
    if config.is_none() {
        match find_config(&paths, None) {
            Err(e) => return fail(e, color),
            // No `dynalint.toml`: the model a check would infer, and where it is from.
            Ok(None) => return show_inferred(paths, color),
            Ok(Some(_)) => {}
        }
    }
    match require_config(&paths, config.as_deref()).map_err(|e| fail(e, color)) {
        Ok((m, _)) => {
            out!("{}", crate::model::show::render(&m));
            EXIT_OK
        }
        Err(code) => code,
    }
}

fn show_inferred(paths: Vec<PathBuf>, color: bool) -> i32 {
    let args = ProjectArgs {
        paths,
        config: None,
        stdin_filename: None,
    };
    let quiet = |_: &'static str, _: usize, _: usize| {};
    let project = match open(&args, Texts::Kept, color, &quiet) {
        Ok(p) => p,
        Err(code) => return code,
    };
    for n in project.model_notes() {
        eprintln!("note: {n}");
    }
    outln!(
        "no `dynalint.toml`: model {} (`dynalint init` writes it out)\n",
        project.model_source().describe()
    );
    out!("{}", crate::model::show::render(project.model()));
    EXIT_OK
}
