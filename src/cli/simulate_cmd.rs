//! `dynalint simulate`: the model's figures, measured on synthetic data.

use super::args::{SimulateArgs, SimulateFormat};

use super::open::open;
use super::out::{out, outln};
use super::progress::Progress;
use super::{error, EXIT_OK};
use crate::infer::ModelSource;
use crate::project::{Cancel, Texts};
use crate::simulate::{self, SimulateOptions};
use crate::workspace::display_path;

pub(super) fn run(args: SimulateArgs) -> i32 {
    // Generating and replaying the data takes seconds: each phase shows on a terminal.
    let progress = Progress::for_stderr(false);
    let report = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = &progress {
            p.set(phase, done, total);
        }
    };
    let mut project = match open(&args.project, Texts::Kept, false, &report) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let scanned = project.scan(&report);
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
        project.model(),
        &scanned.operations,
        project.files(),
        &options,
        &simulating,
    );
    drop(progress);
    match result {
        Ok(mut report) => {
            // Without a `dynalint.toml`, the model's path is where one would be: say
            // where the model came from instead.
            report.model = match project.model_source() {
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
                    let selection = crate::rules::RuleSelection::default();
                    let analyzed = match project.analyze(&selection, &|_, _, _| {}, &Cancel::new())
                    {
                        Ok(a) => a,
                        Err(e) => return error(e),
                    };
                    out!(
                        "{}",
                        simulate::html::render(
                            project.model(),
                            &report,
                            &analyzed.diagnostics,
                            &analyzed.files
                        )
                    )
                }
            }
            EXIT_OK
        }
        Err(e) => error(e),
    }
}
