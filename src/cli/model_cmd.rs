//! `dynalint model check` and `dynalint model show`.

use std::path::PathBuf;

use super::args::ProjectArgs;
use super::args::{ModelArgs, ModelCommand};
use super::check::use_color;
use super::open::{fail, open};
use super::out::{out, outln};
use super::EXIT_OK;
use crate::model::{IndexKind, Model};
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
    if config.is_none() {
        match find_config(&paths, None) {
            Err(e) => return fail(e, color),
            // No `dynalint.toml`: the model `check` infers is the one to validate.
            Ok(None) => return check_inferred(paths, color),
            Ok(Some(_)) => {}
        }
    }
    match require_config(&paths, config.as_deref()).map_err(|e| fail(e, color)) {
        Ok((m, file)) => {
            outln!("`{}` is valid: {}", display_path(&file.path), counts(&m));
            outln!(
                "prices: {}",
                crate::pricing::Prices::for_model(&m).describe()
            );
            EXIT_OK
        }
        Err(code) => code,
    }
}

/// `1 table(s), 2 GSI(s), 0 LSI(s), 0 access pattern(s)`.
fn counts(m: &Model) -> String {
    let indexes = |kind: IndexKind| {
        m.tables
            .iter()
            .flat_map(|t| &t.indexes)
            .filter(|i| i.kind == kind)
            .count()
    };
    format!(
        "{} table(s), {} GSI(s), {} LSI(s), {} access pattern(s)",
        m.tables.len(),
        indexes(IndexKind::Global),
        indexes(IndexKind::Local),
        m.access_patterns.len()
    )
}

/// `model check` without a `dynalint.toml`: the inferred model, validated as the
/// `dynalint.toml` that `dynalint init` would write from it (which must load as is).
fn check_inferred(paths: Vec<PathBuf>, color: bool) -> i32 {
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
    if project.model().tables.is_empty() {
        outln!(
            "no `dynalint.toml`, and no template or `create_table` call declares a table: there is no model to check (`dynalint check` runs every rule that needs none)"
        );
        return EXIT_OK;
    }
    let inferred = crate::infer::Inferred {
        model: project.model().clone(),
        source: project.model_source().clone(),
        notes: project.model_notes().to_vec(),
        located: Vec::new(),
        files: Vec::new(),
    };
    let text = crate::infer::init::render(&inferred);
    let path = crate::infer::model_path(project.root());
    match crate::model::load_str(&path, &text) {
        Ok(m) => {
            outln!(
                "no `dynalint.toml`: the model {} is valid: {} (`dynalint init` writes it out)",
                inferred.source.describe(),
                counts(&m)
            );
            outln!(
                "prices: {}",
                crate::pricing::Prices::for_model(&m).describe()
            );
            EXIT_OK
        }
        Err(problems) => {
            eprint!(
                "{}",
                crate::report::human::render_model_problems(&path, &text, &problems, color)
            );
            eprintln!(
                "error: the model {} has {} problem(s), shown in the `{}` that `dynalint init` would write",
                inferred.source.describe(),
                problems.len(),
                display_path(&path)
            );
            super::EXIT_ERROR
        }
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
