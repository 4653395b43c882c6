//! `dynalint simulate`: the model's figures, measured on synthetic data.

use super::args::{ListFormat, SimulateArgs};
use super::check::load_project;
use super::out::{out, outln};
use super::{error, EXIT_OK};
use crate::scanner::{self, ScanSettings};
use crate::simulate::{self, SimulateOptions};

pub(super) fn run(args: SimulateArgs) -> i32 {
    let project = match load_project(&args.project, false, None) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let scanned = scanner::scan(&project.files, &ScanSettings::from_model(&project.model));
    let options = SimulateOptions {
        scale: args.scale,
        seed: args.seed,
        ..SimulateOptions::default()
    };
    match simulate::run(
        &project.model,
        &scanned.operations,
        &project.files,
        &options,
    ) {
        Ok(report) => {
            match args.format {
                ListFormat::Human => out!("{}", simulate::render_human(&report)),
                ListFormat::Json => {
                    outln!(
                        "{}",
                        serde_json::to_string_pretty(&simulate::render_json(&report))
                            .unwrap_or_default()
                    )
                }
            }
            EXIT_OK
        }
        Err(e) => error(e),
    }
}
