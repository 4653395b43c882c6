//! `dynalint check`: its arguments, the project host's analysis (`crate::project`)
//! rendered in the format asked for, and the exit code.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use super::args::{CheckArgs, ColorChoice, Format};
use super::open::{fail, open};
use super::out::out;
use super::progress::Progress;
use super::{error, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::baseline;
use crate::diagnostic::Severity;
use crate::infer::ModelSource;
use crate::model::Model;
use crate::project::{Cancel, Project, Texts};
use crate::report::{github, human, json, position::Positions, sarif, Unread};
use crate::rules::{self, RuleSelection, UNUSED_ALLOW};
use crate::source::SourceFile;
use crate::workspace::display_path;

/// `--stats`: each phase's time and what it worked on, on stderr.
fn print_stats(
    project: &Project,
    s: &crate::scanner::ScanStats,
    rules: Duration,
    (loaded, total): (Duration, Duration),
) {
    let secs = total.as_secs_f64();
    let (checked, bytes) = project.checked();
    eprintln!(
        "stats: {} files, {:.1} MB, {} calls in {:.3} s ({:.0} files/s, {:.1} MB/s)",
        checked,
        bytes as f64 / 1e6,
        s.operations,
        secs,
        checked as f64 / secs.max(1e-9),
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    // A streamed project was scanned as it was read: the scan's phases are below.
    let loaded = match project.scanned_while_read() {
        true => loaded.saturating_sub(s.index + s.link),
        false => loaded,
    };
    eprintln!("stats:   walk and read  {:>8.3} s", loaded.as_secs_f64());
    eprintln!(
        "stats:   index          {:>8.3} s  {} files parsed for calls, {} skipped by the pre-filter ({} of them parsed only if the link asks), {} skipped as generated SDK code, {} functions, {} call edges",
        s.index.as_secs_f64(),
        s.parsed,
        s.skipped_by_prefilter,
        s.deferred,
        s.generated_sdk,
        s.functions,
        s.call_edges
    );
    eprintln!(
        "stats:   link           {:>8.3} s  {} files parsed again, {} operations",
        s.link.as_secs_f64(),
        s.reparsed,
        s.operations
    );
    eprintln!("stats:   rules          {:>8.3} s", rules.as_secs_f64());
    if let Some(kb) = peak_memory_kb() {
        eprintln!("stats: peak memory {:.0} MB", kb as f64 / 1024.0);
    }
}

/// The process's peak resident memory (Linux `VmHWM`), where the platform says it.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(super) fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    }
}

/// Validates `--select` and `--ignore` ids, suggesting the closest rule for a typo.
fn selection(select: &Option<Vec<String>>, ignore: &[String]) -> Result<RuleSelection, i32> {
    let named = select
        .iter()
        .flatten()
        .map(|id| (id, "--select"))
        .chain(ignore.iter().map(|id| (id, "--ignore")));
    {
        for (id, flag) in named {
            if rules::find(id).is_none() && id != UNUSED_ALLOW {
                let best = rules::REGISTRY.iter().map(|r| r.meta().id).max_by(|a, b| {
                    strsim::jaro_winkler(id, a).total_cmp(&strsim::jaro_winkler(id, b))
                });
                let hint = best
                    .filter(|b| strsim::jaro_winkler(id, b) > 0.8)
                    .map(|b| format!("\n  = help: did you mean `{b}`?"))
                    .unwrap_or_else(|| "\n  = help: `dynalint rules` lists every rule".into());
                return Err(error(format!("unknown rule `{id}` in {flag}{hint}")));
            }
        }
    }
    Ok(RuleSelection {
        only: select.clone(),
        ignore: ignore.to_vec(),
    })
}

pub(super) fn run(args: CheckArgs) -> i32 {
    let started = Instant::now();
    let color = use_color(args.color);
    let selection = match selection(&args.select, &args.ignore) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if args.statistics && matches!(args.format, Format::Sarif | Format::Github) {
        return error("--statistics prints `human` or `json`, not a code-scanning format");
    }
    if args.fix
        && !args.diff
        && args
            .project
            .paths
            .iter()
            .any(|p| p.as_os_str() == super::open::STDIN)
    {
        return error("`--fix` cannot write stdin back; add `--diff` to see the fixes");
    }
    if args.fix {
        let fixed = match fix_all(&args, color, &selection) {
            Ok(f) => f,
            Err(code) => return code,
        };
        if args.diff {
            for f in &fixed.files {
                out!(
                    "{}",
                    super::diff::unified(&display_path(&f.path), &f.before, &f.text)
                );
            }
            return if fixed.files.is_empty() {
                EXIT_OK
            } else {
                EXIT_FINDINGS
            };
        }
        for f in &fixed.files {
            let file = crate::fix::FixedFile {
                path: f.path.clone(),
                text: f.text.clone(),
                fixes: f.fixes,
            };
            if let Err(e) = crate::fix::write(&file) {
                return error(e);
            }
        }
        match (fixed.fixes(), fixed.files.len()) {
            (0, _) => {}
            (fixes, files) => {
                if !args.quiet {
                    eprintln!(
                        "fixed {fixes} finding{} in {files} file{}",
                        if fixes == 1 { "" } else { "s" },
                        if files == 1 { "" } else { "s" }
                    );
                }
            }
        }
    }
    let progress = Progress::for_stderr(args.quiet);
    let report = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = &progress {
            p.set(phase, done, total);
        }
    };
    let mut project = match open(&args.project, Texts::Streamed, color, &report) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let loaded = started.elapsed();
    let analysis = match project.analyze(&selection, &report, &Cancel::new()) {
        Ok(a) => a,
        Err(e) => return fail(e, color),
    };
    let (scan_stats, rules_time) = (analysis.scan_stats.clone(), analysis.rules_time);
    drop(progress);
    let all_files = &analysis.files;
    // Keys only for a baseline read or written: each finding's file is canonicalized.
    let keys = if args.write_baseline.is_some() || args.baseline.is_some() {
        let root = project.root();
        let root_abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        baseline::entries(
            &root_abs,
            &analysis.diagnostics,
            &analysis.operations,
            all_files,
        )
    } else {
        Vec::new()
    };
    let operations = analysis.operations.len();
    let estimate = crate::facts::spend::estimate(project.model(), &analysis.operations);
    // Not freed: the process ends after the report, and the system takes the memory
    // back at once. Freeing 40,000 operations one by one held the end of a large
    // file's run on one core.
    std::mem::forget(analysis.operations);
    if let Some(path) = &args.write_baseline {
        let n = keys.len();
        let cost = baseline::BaselineCost {
            monthly: estimate.monthly,
            monthly_on_demand: estimate.monthly_on_demand,
            monthly_provisioned: estimate.monthly_provisioned,
            prices: estimate.prices.clone(),
        };
        return match baseline::write(path, keys, Some(cost)) {
            Ok(()) => {
                eprintln!(
                    "wrote {n} finding(s) to `{}`; check with `--baseline {}` to see only new ones",
                    display_path(path),
                    display_path(path)
                );
                EXIT_OK
            }
            Err(e) => error(e),
        };
    }
    let read_baseline = match &args.baseline {
        Some(path) => match baseline::read(path) {
            Ok(b) => Some(b),
            Err(e) => return error(e),
        },
        None => None,
    };
    let cost_gate = match (args.max_cost_increase, &read_baseline) {
        (Some(max), Some(b)) => match &b.cost {
            Some(c) => Some(json::CostGate {
                baseline_monthly: c.monthly,
                increase: estimate.monthly - c.monthly,
                max_increase: max,
                exceeded: estimate.monthly - c.monthly > max,
            }),
            None => {
                return error(format!(
                    "`--max-cost-increase`: the baseline `{}` records no cost estimate; write it again with `--write-baseline`",
                    args.baseline
                        .as_deref()
                        .map(display_path)
                        .unwrap_or_default()
                ))
            }
        },
        _ => None,
    };
    let diagnostics = match &read_baseline {
        Some(b) => baseline::filter(b, analysis.diagnostics, &keys),
        None => analysis.diagnostics,
    };

    let positions = Positions::new(all_files);
    // A problem in a file's code (a syntax error) says its line and column.
    let notes: Vec<String> = project
        .notes()
        .iter()
        .map(|n| format!("{}: {}", display_path(&n.path), n.message))
        .chain(project.model_notes().iter().cloned())
        .chain(
            analysis
                .problems
                .iter()
                .map(|p| format!("{}: {}", positions.place_of(&p.file, p.span), p.message)),
        )
        .collect();
    // Source files not read fail the run unless allowed: every format says so.
    let unread: Vec<Unread> = project
        .notes()
        .iter()
        .filter(|n| n.unread && !project.model().lint.allow_skipped)
        .map(|n| Unread {
            file: display_path(&n.path),
            message: n.message.clone(),
        })
        .collect();
    let summary = json::Summary {
        files: project.checked().0,
        operations,
        model: model_summary(project.model_source(), project.model()),
        unread: unread.clone(),
        cost: Some(estimate),
        cost_gate: cost_gate.clone(),
    };
    let out = match args.format {
        _ if args.statistics => super::statistics::render(&diagnostics, args.format),
        Format::Human => {
            let files = human::Files::new(all_files);
            let mut s = human::render(&diagnostics, &files, color);
            if !args.quiet {
                for n in &notes {
                    eprintln!("note: {n}");
                }
                s.push_str(&summary_line(&diagnostics, &summary, args.fix));
                s.push_str(&model_line(project.model_source(), project.model()));
                if let Some(g) = &cost_gate {
                    s.push_str(&cost_gate_line(g));
                }
            }
            s
        }
        Format::Json => json::render(&diagnostics, &positions, summary, &notes),
        Format::Sarif => sarif::render(&diagnostics, &positions, &unread),
        Format::Github => {
            let mut s = github::render(&diagnostics, &positions, &unread);
            if let Some(g) = &cost_gate {
                s.push_str(&github::cost_gate(g));
            }
            s
        }
    };
    out!("{out}");
    if args.stats {
        print_stats(
            &project,
            &scan_stats,
            rules_time,
            (loaded, started.elapsed()),
        );
    }
    let fail_on = args
        .fail_on
        .or(project.model().lint.fail_on)
        .unwrap_or(Severity::Warning);
    let unread_fails = !unread.is_empty();
    if unread_fails {
        if args.quiet || args.format != Format::Human {
            for u in &unread {
                eprintln!("error: {}: {}", u.file, u.message);
            }
        }
        let n = unread.len();
        eprintln!(
            "error: {n} source file{} could not be read, so the run fails: a gate must not pass on code it did not check\n  = help: fix or exclude {} (`[lint] exclude`), or set `[lint] skipped-files = \"allow\"` to pass anyway",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        );
    }
    let exceeded = cost_gate.as_ref().filter(|g| g.exceeded);
    let cost_fails = exceeded.is_some();
    if let Some(g) = exceeded.filter(|_| args.quiet || args.format != Format::Human) {
        eprint!("error: {}", cost_gate_line(g));
    }
    if args.exit_zero {
        return EXIT_OK;
    }
    if unread_fails || cost_fails || diagnostics.iter().any(|d| d.severity >= fail_on) {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

/// `monthly cost estimate: $1,234, up $150 from the baseline's $1,084 (over
/// --max-cost-increase $100)`.
fn cost_gate_line(g: &json::CostGate) -> String {
    let now = g.baseline_monthly + g.increase;
    let change = if g.increase.abs() < 0.005 {
        "unchanged".to_string()
    } else if g.increase > 0.0 {
        format!("up {}", crate::pricing::dollars(g.increase))
    } else {
        format!("down {}", crate::pricing::dollars(-g.increase))
    };
    format!(
        "monthly cost estimate: {}, {change} from the baseline's {} ({} --max-cost-increase {})\n",
        crate::pricing::dollars(now),
        crate::pricing::dollars(g.baseline_monthly),
        if g.exceeded { "over" } else { "within" },
        crate::pricing::dollars(g.max_increase)
    )
}

/// How many times `--fix` re-checks: fixes that overlap wait for the next round, and
/// a fix never makes another, so a few rounds reach the end.
const FIX_ROUNDS: usize = 8;

/// What `--fix` changed: each file's text before and after.
struct Fixed {
    files: Vec<FixedText>,
}

struct FixedText {
    path: crate::source::FilePath,
    before: String,
    text: String,
    fixes: usize,
}

impl Fixed {
    fn fixes(&self) -> usize {
        self.files.iter().map(|f| f.fixes).sum()
    }
}

/// Applies fixes in memory until none is left (or [`FIX_ROUNDS`]); nothing is written.
fn fix_all(args: &CheckArgs, color: bool, selection: &RuleSelection) -> Result<Fixed, i32> {
    let quiet = |_: &'static str, _: usize, _: usize| {};
    let mut project = open(&args.project, Texts::Kept, color, &quiet)?;
    let mut changed: Vec<FixedText> = Vec::new();
    for _ in 0..FIX_ROUNDS {
        let analysis = project
            .analyze(selection, &quiet, &Cancel::new())
            .map_err(|e| fail(e, color))?;
        let fixed = crate::fix::apply(project.files(), &analysis.diagnostics);
        if fixed.is_empty() {
            break;
        }
        for f in fixed {
            let Some(file) = project.files().iter().find(|s| s.path == f.path) else {
                continue;
            };
            match changed.iter_mut().find(|c| c.path == f.path) {
                Some(c) => {
                    c.text.clone_from(&f.text);
                    c.fixes += f.fixes;
                }
                None => changed.push(FixedText {
                    path: f.path.clone(),
                    before: file.text.to_string(),
                    text: f.text.clone(),
                    fixes: f.fixes,
                }),
            }
            project.set_text(SourceFile::new(f.path.to_path_buf(), f.text));
        }
    }
    Ok(Fixed { files: changed })
}

/// Where the model came from, for the JSON summary.
fn model_summary(source: &ModelSource, model: &Model) -> json::ModelSummary {
    let declared_nowhere = model
        .tables
        .iter()
        .filter(|t| t.origin.kind == crate::model::OriginKind::Usage)
        .map(|t| t.name.clone())
        .collect();
    match source {
        ModelSource::Config(p) => json::ModelSummary {
            source: "dynalint.toml",
            files: vec![display_path(p)],
            declared_nowhere: Vec::new(),
        },
        ModelSource::Inferred(files) => json::ModelSummary {
            source: "inferred",
            files: files.iter().map(|f| display_path(f)).collect(),
            declared_nowhere,
        },
        ModelSource::None => json::ModelSummary {
            source: "none",
            files: Vec::new(),
            declared_nowhere: Vec::new(),
        },
    }
}

/// The summary's second line: which model the findings rest on.
fn model_line(source: &ModelSource, model: &Model) -> String {
    match source {
        ModelSource::Config(_) => format!("model: {}\n", source.describe()),
        ModelSource::Inferred(_) => {
            let guessed: Vec<String> = model
                .tables
                .iter()
                .filter(|t| t.origin.kind == crate::model::OriginKind::Usage)
                .map(|t| {
                    let indexes: Vec<String> =
                        t.indexes.iter().map(|i| format!("`{}`", i.name)).collect();
                    if indexes.is_empty() {
                        format!("`{}`", t.name)
                    } else {
                        format!(
                            "`{}` (with the index{} its queries name: {})",
                            t.name,
                            if indexes.len() == 1 { "" } else { "es" },
                            indexes.join(", ")
                        )
                    }
                })
                .collect();
            let guessed = if guessed.is_empty() {
                String::new()
            } else {
                format!(
                    "; declared nowhere, keyed as the code's calls use {}: {} (warnings at most)",
                    if guessed.len() == 1 { "it" } else { "them" },
                    guessed.join(", ")
                )
            };
            format!(
                "model: {} table{} {}{guessed} (no `dynalint.toml`; `dynalint init` writes one to add figures to)\n",
                model.tables.len(),
                if model.tables.len() == 1 { "" } else { "s" },
                source.describe()
            )
        }
        ModelSource::None => "model: none (no `dynalint.toml`, and no template or `create_table` call declares a table): rules that need a key model had no table to bind to\n".to_string(),
    }
}

fn summary_line(
    diagnostics: &[crate::diagnostic::Diagnostic],
    s: &json::Summary,
    fixing: bool,
) -> String {
    let count = |sev| diagnostics.iter().filter(|d| d.severity == sev).count();
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("{n} {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    let (e, w, i) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    let findings = if e + w + i == 0 {
        "no findings".to_string()
    } else {
        let mut parts = vec![plural(e, "error"), plural(w, "warning")];
        if i > 0 {
            parts.push(plural(i, "info"));
        }
        parts.join(", ")
    };
    let fixable = diagnostics.iter().filter(|d| d.fix.is_some()).count();
    let fixable = if fixable > 0 && !fixing {
        format!(" ({fixable} fixable with `--fix`)")
    } else {
        String::new()
    };
    // "no findings" alone would read as a pass, and the run fails on these.
    let unread = match s.unread.len() {
        0 => String::new(),
        n => format!(
            "; {} could not be read, so the run fails",
            plural(n, "source file")
        ),
    };
    format!(
        "checked {} and {}: {}{fixable}{unread}\n",
        plural(s.files, "file"),
        plural(s.operations, "DynamoDB call"),
        findings
    )
}
