//! `dynalint check`: the whole pipeline, a report, and the exit code.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::{CheckArgs, ColorChoice, Format, ProjectArgs};
use super::out::out;
use super::progress::Progress;
use super::{error, EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::analysis::{self, baseline};
use crate::infer::{self, ModelSource};
use crate::model::{self, Model};
use crate::report::{github, human, json, position::Positions, sarif, Severity, Unread};
use crate::rules::{self, RuleSelection, UNUSED_ALLOW};
use crate::scanner::{self, ScanResult, ScanSettings};
use crate::source::SourceFile;
use crate::workspace::{self, display_path, Note};

/// `--stats`: each phase's time and what it worked on, on stderr.
fn print_stats(
    project: &Project,
    s: &crate::scanner::ScanStats,
    rules: Duration,
    (loaded, total): (Duration, Duration),
) {
    let secs = total.as_secs_f64();
    let bytes = project.bytes;
    eprintln!(
        "stats: {} files, {:.1} MB, {} calls in {:.3} s ({:.0} files/s, {:.1} MB/s)",
        project.checked,
        bytes as f64 / 1e6,
        s.operations,
        secs,
        project.checked as f64 / secs.max(1e-9),
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    // A streamed project was scanned as it was read: the scan's phases are below.
    let loaded = match project.scanned_while_read {
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

/// A loaded project: the model, where it came from, and the sources to check.
pub(super) struct Project {
    pub model: Model,
    /// The `dynalint.toml`, when there is one.
    pub model_file: Option<SourceFile>,
    pub source: ModelSource,
    /// What inferring the model could not use (`file:line: message`).
    pub model_notes: Vec<String>,
    pub root: PathBuf,
    /// The sources; when [`Project::scanned_while_read`], only the texts later phases
    /// read (see `analysis::stream`).
    pub files: Vec<SourceFile>,
    /// Rust files checked, and their bytes.
    pub checked: usize,
    pub bytes: usize,
    /// Each file was scanned as it was read and most texts let go (`check`).
    pub scanned_while_read: bool,
    pub notes: Vec<Note>,
    /// The scan of the sources, when it was done while loading (an inferred model is
    /// read from it, or [`Project::scanned_while_read`]), for the analysis to reuse.
    pub scanned: Option<ScanResult>,
    /// Sources in other languages that name DynamoDB (not checked).
    pub other_languages: Vec<workspace::OtherSources>,
    /// When [`Project::scanned_while_read`]: what each text held when scanned, to tell
    /// a text read again from one saved since.
    pub fingerprints: analysis::stream::Fingerprints,
}

/// The `dynalint.toml` to use: `--config`, else the nearest one at or above `paths`;
/// `Ok(None)` when there is none. Prints the error for a path that does not exist.
pub(super) fn find_config(
    paths: &[PathBuf],
    config: Option<&Path>,
) -> Result<Option<PathBuf>, i32> {
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(error(format!("`{}` does not exist", display_path(missing))));
    }
    if let Some(c) = config {
        return Ok(Some(c.to_path_buf()));
    }
    let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    Ok(model::discover(&start).map(|p| relative_if_under_cwd(&p)))
}

/// Finds and loads the model; prints the error and returns `Err(exit code)` on failure,
/// a missing `dynalint.toml` included (`model check` needs one).
pub(super) fn load_model(
    paths: &[PathBuf],
    config: Option<&Path>,
    color: bool,
) -> Result<(Model, SourceFile), i32> {
    match find_config(paths, config)? {
        Some(c) => load_config(&c, color),
        None => {
            let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
            Err(error(format!(
                "no `{}` found in `{}` or any folder above it\n  = help: `dynalint init` writes one from the tables your templates and code declare; `dynalint check` runs without one",
                model::CONFIG_FILE_NAME,
                display_path(&start)
            )))
        }
    }
}

/// Loads a `dynalint.toml`: every problem is printed, and is exit 2.
pub(super) fn load_config(config: &Path, color: bool) -> Result<(Model, SourceFile), i32> {
    match model::load_file(config) {
        Ok(m) => {
            let text = std::fs::read_to_string(config).unwrap_or_default();
            // `[rules]` ids are checked here: the model cannot see the rule registry.
            let mut known: Vec<&str> = rules::REGISTRY.iter().map(|r| r.meta().id).collect();
            known.push(UNUSED_ALLOW);
            let problems = model::validate::unknown_rules(&m, &known);
            if !problems.is_empty() {
                eprint!(
                    "{}",
                    human::render_model_problems(config, &text, &problems, color)
                );
                eprintln!(
                    "error: `{}` has {} problem(s); fix them and run again",
                    display_path(config),
                    problems.len()
                );
                return Err(EXIT_ERROR);
            }
            Ok((m, SourceFile::new(config, text)))
        }
        Err(e) => {
            eprint!("{}", human::render_model_error(&e, color));
            if let model::ModelError::Invalid { problems, .. } = &e {
                eprintln!(
                    "error: `{}` has {} problem(s); fix them and run again",
                    display_path(config),
                    problems.len()
                );
            }
            Err(EXIT_ERROR)
        }
    }
}

/// Loads the model and reads the sources; errors are printed. Without a
/// `dynalint.toml` the model is inferred from the project (`infer`), which needs the
/// sources scanned: that scan is kept in [`Project::scanned`].
pub(super) fn load_project(
    p: &ProjectArgs,
    color: bool,
    progress: Option<&Progress>,
) -> Result<Project, i32> {
    load(p, color, progress, false)
}

/// [`load_project`] scanning each file as it is read, keeping only the texts later
/// phases read ([`analysis::stream`]): what `check` needs, in bounded memory.
fn load_project_streamed(
    p: &ProjectArgs,
    color: bool,
    progress: Option<&Progress>,
) -> Result<Project, i32> {
    load(p, color, progress, true)
}

fn load(
    p: &ProjectArgs,
    color: bool,
    progress: Option<&Progress>,
    stream: bool,
) -> Result<Project, i32> {
    let paths = if p.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        p.paths.clone()
    };
    let stdin = paths.iter().any(|p| p.as_os_str() == STDIN);
    let paths: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| p.as_os_str() != STDIN)
        .collect();
    // The model of stdin's text is found from the file it stands for.
    let discover_from = match (&p.stdin_filename, stdin) {
        (Some(name), true) => vec![parent_or_cwd(name)],
        _ if paths.is_empty() => vec![PathBuf::from(".")],
        _ => paths.clone(),
    };
    let config = find_config(&discover_from, p.config.as_deref())?;
    let loaded = match &config {
        Some(c) => Some(load_config(c, color)?),
        None => None,
    };
    let (root, reach) = match &loaded {
        Some((_, file)) => (
            file.path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            workspace::Reach::Tree,
        ),
        None => {
            // Stdin's text stands for its file: a loose one is a project of its own.
            let start = match (&p.stdin_filename, stdin) {
                (Some(name), true) => name.as_path(),
                _ => discover_from
                    .first()
                    .map_or(Path::new("."), |p| p.as_path()),
            };
            let found = workspace::project_of(start);
            (found.dir, found.reach)
        }
    };
    let root = if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    };
    let exclude = loaded
        .as_ref()
        .map(|(m, _)| m.lint.exclude.clone())
        .unwrap_or_default();
    let cb = progress.map(|pr| move |done: usize, total: usize| pr.update(done, total));
    let cb_ref: Option<&(dyn Fn(usize, usize) + Sync)> =
        cb.as_ref().map(|c| c as &(dyn Fn(usize, usize) + Sync));
    let mut given = Vec::new();
    if stdin {
        let name = p
            .stdin_filename
            .clone()
            .unwrap_or_else(|| PathBuf::from("<stdin>"));
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| error(format!("cannot read stdin: {e}")))?;
        given.push(SourceFile::new(name, text));
    }
    let report = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = progress {
            p.set(phase, done, total);
        }
    };
    let mut fingerprints = analysis::stream::Fingerprints::new();
    let (mut sources, mut scanned) = if stream {
        let found = workspace::find_sources(&paths, &root, &exclude).map_err(error)?;
        let settings = match &loaded {
            Some((m, _)) => ScanSettings::from_model(m),
            None => ScanSettings::default(),
        };
        let streamed = analysis::stream::scan_paths(&found.paths, given, &settings, &report);
        let mut notes = found.notes;
        notes.extend(streamed.notes);
        fingerprints = streamed.fingerprints;
        let sources = Sources {
            files: streamed.files,
            checked: streamed.checked,
            bytes: streamed.bytes,
            notes,
            other_languages: found.other_languages,
        };
        (sources, Some(streamed.scanned))
    } else {
        let mut read =
            workspace::collect_sources(&paths, &root, &exclude, cb_ref).map_err(error)?;
        read.files.extend(given);
        let sources = Sources {
            checked: read.files.len(),
            bytes: read.files.iter().map(|f| f.text.len()).sum(),
            files: read.files,
            notes: read.notes,
            other_languages: read.other_languages,
        };
        (sources, None)
    };
    if let Some((model, file)) = loaded {
        // What `import = [..]` could not use, said as inference's notes are.
        let model_notes = model
            .import_notes
            .iter()
            .map(|n| {
                let mut n = n.clone();
                n.path = std::sync::Arc::from(PathBuf::from(display_path(&n.path)));
                n.to_string()
            })
            .collect();
        return Ok(Project {
            source: ModelSource::Config(file.path.to_path_buf()),
            model,
            model_file: Some(file),
            model_notes,
            root,
            files: sources.files,
            checked: sources.checked,
            bytes: sources.bytes,
            scanned_while_read: stream,
            notes: sources.notes,
            scanned,
            other_languages: sources.other_languages,
            fingerprints,
        });
    }
    let scanned = match scanned.take() {
        Some(s) => s,
        None => scanner::scan_reporting(&sources.files, &ScanSettings::default(), &report),
    };
    if stream {
        // Inference names the lines of requests: their texts, if let go.
        let changed = analysis::stream::ensure_texts(
            &mut sources.files,
            analysis::stream::scanned_files(&scanned),
            &fingerprints,
        );
        sources.notes.extend(changed);
    }
    report("inferring the model", 0, 0);
    let inferred = infer::infer(
        &root,
        reach,
        &scanned.tables,
        &scanned.operations,
        &sources.files,
    );
    Ok(Project {
        model: inferred.model,
        model_file: None,
        source: inferred.source,
        model_notes: inferred.notes,
        root,
        files: sources.files,
        checked: sources.checked,
        bytes: sources.bytes,
        scanned_while_read: stream,
        notes: sources.notes,
        scanned: Some(scanned),
        other_languages: sources.other_languages,
        fingerprints,
    })
}

/// The sources of a project as [`load`] read them.
struct Sources {
    files: Vec<SourceFile>,
    checked: usize,
    bytes: usize,
    notes: Vec<Note>,
    other_languages: Vec<workspace::OtherSources>,
}

/// The files other than the checked sources and `dynalint.toml` that declare the
/// model's tables (templates), read so findings can point into them. One that cannot
/// be read is left out: its labels become notes.
fn declaring_files(model: &Model, have: &[SourceFile]) -> Vec<SourceFile> {
    let mut out: Vec<SourceFile> = Vec::new();
    for t in &model.tables {
        let p = &t.origin.path;
        if have.iter().chain(&out).any(|f| f.path == *p) {
            continue;
        }
        // Decoded as importing read it (a UTF-16 template too): spans agree.
        if let Ok(text) = crate::encoding::read_to_string(p) {
            out.push(SourceFile::new(p.to_path_buf(), text));
        }
    }
    out
}

/// The path that stands for stdin (`dynalint check - --stdin-filename src/db.rs`).
const STDIN: &str = "-";

/// The folder of `path`, or `.` for a bare file name.
fn parent_or_cwd(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn relative_if_under_cwd(p: &Path) -> PathBuf {
    PathBuf::from(display_path(p))
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
    if args.fix && !args.diff && args.project.paths.iter().any(|p| p.as_os_str() == STDIN) {
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
    let mut project = match load_project_streamed(&args.project, color, progress.as_ref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let report = |phase: &'static str, done: usize, total: usize| {
        if let Some(p) = &progress {
            p.set(phase, done, total);
        }
    };
    let loaded = started.elapsed();
    let analysis = match project.scanned.take() {
        Some(scanned) => {
            report("checking rules", 0, 0);
            // Rules name places in the files of requests: their texts, if let go.
            let changed = analysis::stream::ensure_texts(
                &mut project.files,
                analysis::stream::scanned_files(&scanned),
                &project.fingerprints,
            );
            project.notes.extend(changed);
            analysis::analyze_streamed(
                &project.model,
                &project.files,
                project.checked,
                &project.other_languages,
                scanned,
                &selection,
            )
        }
        None => analysis::analyze_reporting(
            &project.model,
            &project.files,
            &project.other_languages,
            &selection,
            &report,
        ),
    };
    let (scan_stats, rules_time) = (analysis.scan_stats.clone(), analysis.rules_time);
    drop(progress);
    // What findings point into, read again if it was let go while scanning.
    let changed = analysis::stream::ensure_texts(
        &mut project.files,
        analysis::stream::diagnostic_files(&analysis.diagnostics)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rs")),
        &project.fingerprints,
    );
    project.notes.extend(changed);

    let mut all_files: Vec<SourceFile> = project.files.clone();
    all_files.extend(project.model_file.clone());
    all_files.extend(declaring_files(&project.model, &all_files));
    // Keys only for a baseline read or written: each finding's file is canonicalized.
    let keys = if args.write_baseline.is_some() || args.baseline.is_some() {
        let root_abs =
            std::fs::canonicalize(&project.root).unwrap_or_else(|_| project.root.clone());
        baseline::entries(
            &root_abs,
            &analysis.diagnostics,
            &analysis.operations,
            &all_files,
        )
    } else {
        Vec::new()
    };
    let operations = analysis.operations.len();
    let estimate = crate::facts::spend::estimate(&project.model, &analysis.operations);
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

    let positions = Positions::new(&all_files);
    // A problem in a file's code (a syntax error) says its line and column.
    let notes: Vec<String> = project
        .notes
        .iter()
        .map(|n| format!("{}: {}", display_path(&n.path), n.message))
        .chain(project.model_notes.iter().cloned())
        .chain(
            analysis
                .problems
                .iter()
                .map(|p| format!("{}: {}", positions.place_of(&p.file, p.span), p.message)),
        )
        .collect();
    // Source files not read fail the run unless allowed: every format says so.
    let unread: Vec<Unread> = project
        .notes
        .iter()
        .filter(|n| n.unread && !project.model.lint.allow_skipped)
        .map(|n| Unread {
            file: display_path(&n.path),
            message: n.message.clone(),
        })
        .collect();
    let summary = json::Summary {
        files: project.checked,
        operations,
        model: model_summary(&project.source, &project.model),
        unread: unread.clone(),
        cost: Some(estimate),
        cost_gate: cost_gate.clone(),
    };
    let out = match args.format {
        _ if args.statistics => super::statistics::render(&diagnostics, args.format),
        Format::Human => {
            let files = human::Files::new(&all_files);
            let mut s = human::render(&diagnostics, &files, color);
            if !args.quiet {
                for n in &notes {
                    eprintln!("note: {n}");
                }
                s.push_str(&summary_line(&diagnostics, &summary, args.fix));
                s.push_str(&model_line(&project.source, &project.model));
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
        .or(project.model.lint.fail_on)
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
    let mut project = load_project(&args.project, color, None)?;
    let mut changed: Vec<FixedText> = Vec::new();
    for _ in 0..FIX_ROUNDS {
        let analysis = analysis::analyze(&project.model, &project.files, selection);
        let fixed = crate::fix::apply(&project.files, &analysis.diagnostics);
        if fixed.is_empty() {
            break;
        }
        for f in fixed {
            let Some(file) = project.files.iter_mut().find(|s| s.path == f.path) else {
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
            *file = SourceFile::new(f.path.to_path_buf(), f.text);
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
                .map(|t| format!("`{}`", t.name))
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
    diagnostics: &[crate::report::Diagnostic],
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
