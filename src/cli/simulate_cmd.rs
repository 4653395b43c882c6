//! `dynalint simulate`: the model's figures, measured on synthetic data.

use super::args::{SimulateArgs, SimulateFormat};

use super::check::load_project;
use super::out::{out, outln};
use super::progress::Progress;
use super::{error, EXIT_OK};
use crate::infer::ModelSource;
use crate::scanner::{self, ScanSettings};
use crate::simulate::{self, SimulateOptions};
use crate::workspace::display_path;

pub(super) fn run(args: SimulateArgs) -> i32 {
    // Generating and replaying the data takes seconds: each phase shows on a terminal.
    let progress = Progress::for_stderr(false);
    let project = match load_project(&args.project, false, progress.as_ref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let report = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = &progress {
            p.set(phase, done, total);
        }
    };
    let scanned = scanner::scan_reporting(
        &project.files,
        &ScanSettings::from_model(&project.model),
        &report,
    );
    let options = SimulateOptions {
        scale: args.scale,
        seed: args.seed,
        ..SimulateOptions::default()
    };
    // The simulation's phases name what they count (tables, access patterns, calls).
    let simulating = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = &progress {
            p.set_counting(phase, "", done, total);
        }
    };
    let result = simulate::run_reporting(
        &project.model,
        &scanned.operations,
        &project.files,
        &options,
        &simulating,
    );
    drop(progress);
    match result {
        Ok(mut report) => {
            // Without a `dynalint.toml`, the model's path is where one would be: say
            // where the model came from instead.
            report.model = match &project.source {
                ModelSource::Config(p) => display_path(p),
                inferred => inferred.describe(),
            };
            match args.format {
                SimulateFormat::Human => out!("{}", simulate::render_human(&report)),
                SimulateFormat::Json => {
                    outln!(
                        "{}",
                        serde_json::to_string_pretty(&simulate::render_json(&report))
                            .unwrap_or_default()
                    )
                }
                SimulateFormat::Html => {
                    // The page shows `check`'s findings too, at their source lines.
                    let analysis = crate::analysis::analyze_reporting(
                        &project.model,
                        &project.files,
                        &project.other_languages,
                        &crate::rules::RuleSelection::default(),
                        &|_, _, _| {},
                    );
                    let mut files = project.files.clone();
                    files.extend(project.model_file.clone());
                    out!(
                        "{}",
                        crate::report::html::render(
                            &project.model,
                            &report,
                            &analysis.diagnostics,
                            &files
                        )
                    )
                }
            }
            EXIT_OK
        }
        Err(e) => error(e),
    }
}
