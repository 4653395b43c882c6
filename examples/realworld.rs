//! The real-world corpus scorer: runs the `dynalint` binary on every tree that
//! `scripts/realworld-fetch` rebuilt from `realworld/<name>/source.toml`, and scores
//! its JSON report against the labels in `realworld/<name>/expect.toml`.
//!
//! ```sh
//! scripts/realworld-fetch && cargo run --release --example realworld -- [--only NAME,..] [--no-model]
//! ```
//!
//! A `[[finding]]` is found when a diagnostic of its rule, in its file, overlaps its
//! lines. A diagnostic that overlaps no `[[finding]]` and no `[[debatable]]` of its rule
//! is a false positive; one on a `[[silent]]` entry is too. `--no-model` leaves the
//! hand-written `dynalint.toml` out (what `dynalint` infers from the repository's own
//! templates is used) and prints the share of calls the hand-written model binds that
//! are still bound.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Source {
    repo: String,
    commit: String,
    #[serde(default)]
    kind: String,
}

#[derive(Deserialize, Default)]
struct Expect {
    #[serde(default)]
    finding: Vec<Label>,
    #[serde(default)]
    silent: Vec<Label>,
    #[serde(default)]
    debatable: Vec<Label>,
}

#[derive(Deserialize, Clone)]
struct Label {
    rule: String,
    file: String,
    lines: [u32; 2],
    #[serde(default)]
    why: String,
}

impl Label {
    fn covers(&self, d: &Diag) -> bool {
        self.rule == d.rule
            && self.file == d.file
            && d.line <= self.lines[1]
            && d.end_line >= self.lines[0]
    }
}

/// One diagnostic of the JSON report (`src/report/json.rs`).
struct Diag {
    rule: String,
    severity: String,
    message: String,
    file: String,
    line: u32,
    end_line: u32,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    required: usize,
    found: usize,
    reported_true: usize,
    false_positives: usize,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.required += o.required;
        self.found += o.found;
        self.reported_true += o.reported_true;
        self.false_positives += o.false_positives;
    }
    fn recall(&self) -> Option<f64> {
        (self.required > 0).then(|| self.found as f64 / self.required as f64)
    }
    fn precision(&self) -> Option<f64> {
        let reported = self.reported_true + self.false_positives;
        (reported > 0).then(|| self.reported_true as f64 / reported as f64)
    }
}

fn ratio(r: Option<f64>) -> String {
    r.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into())
}

struct Args {
    only: Vec<String>,
    no_model: bool,
    dir: PathBuf,
    bin: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        only: Vec::new(),
        no_model: false,
        dir: std::env::var_os("DYNALINT_REALWORLD_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/tmp/dynalint-realworld")),
        bin: std::env::var_os("DYNALINT_BIN").map(PathBuf::from),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--only" => {
                let v = it.next().ok_or("--only needs a repository name")?;
                args.only.extend(v.split(',').map(str::to_string));
            }
            "--no-model" => args.no_model = true,
            "--dir" => args.dir = PathBuf::from(it.next().ok_or("--dir needs a folder")?),
            "--bin" => args.bin = Some(PathBuf::from(it.next().ok_or("--bin needs a path")?)),
            "-h" | "--help" => {
                println!(
                    "usage: cargo run --release --example realworld -- [--only NAME,..] [--no-model] [--dir TREES] [--bin DYNALINT]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    Ok(args)
}

/// The `dynalint` binary of the same profile as this example, built first so the
/// scorer never measures a stale binary.
fn dynalint_bin() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    // target/<profile>/examples/realworld
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("cannot find the target folder")?
        .to_path_buf();
    let profile = profile_dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("debug")
        .to_string();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let profile_arg = if profile == "debug" {
        "dev"
    } else {
        profile.as_str()
    };
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--bin",
            "dynalint",
            "--profile",
            profile_arg,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build --bin dynalint failed".into());
    }
    Ok(profile_dir.join(format!("dynalint{}", std::env::consts::EXE_SUFFIX)))
}

fn read_toml<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs dynalint in `tree`; `Err` carries its stderr when it gave no JSON.
fn run_json(bin: &Path, tree: &Path, args: &[&str]) -> Result<Value, String> {
    let out = Command::new(bin)
        .args(args)
        .current_dir(tree)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    serde_json::from_slice(&out.stdout).map_err(|_| {
        let err = String::from_utf8_lossy(&out.stderr);
        format!(
            "dynalint {} exited {:?}: {}",
            args.join(" "),
            out.status.code(),
            err.lines().take(3).collect::<Vec<_>>().join(" | ")
        )
    })
}

fn diagnostics(report: &Value) -> Vec<Diag> {
    let s = |d: &Value, k: &str| d.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |d: &Value, k: &str| d.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
    report
        .get("diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|d| Diag {
            rule: s(d, "rule"),
            severity: s(d, "severity"),
            message: s(d, "message"),
            file: s(d, "file").trim_start_matches("./").to_string(),
            line: n(d, "line"),
            end_line: n(d, "end_line").max(n(d, "line")),
        })
        .collect()
}

/// `file:line:column` of every call (transaction and batch items included) bound to a
/// declared table.
fn bound_calls(calls: &Value) -> (BTreeSet<String>, usize) {
    fn walk(v: &Value, bound: &mut BTreeSet<String>, total: &mut usize) {
        for c in v.as_array().into_iter().flatten() {
            *total += 1;
            // Keyed by place only: an inferred model may name the table differently.
            if c.pointer("/table/name").and_then(Value::as_str).is_some() {
                let at = format!(
                    "{}:{}:{}:{}",
                    c.get("file").and_then(Value::as_str).unwrap_or(""),
                    c.get("line").and_then(Value::as_u64).unwrap_or(0),
                    c.get("column").and_then(Value::as_u64).unwrap_or(0),
                    c.get("kind").and_then(Value::as_str).unwrap_or("")
                );
                bound.insert(at);
            }
            if let Some(children) = c.get("children") {
                walk(children, bound, total);
            }
        }
    }
    let mut bound = BTreeSet::new();
    let mut total = 0;
    walk(
        calls.get("calls").unwrap_or(&Value::Null),
        &mut bound,
        &mut total,
    );
    (bound, total)
}

struct Outcome {
    per_rule: BTreeMap<String, Tally>,
    misses: Vec<String>,
    false_positives: Vec<String>,
    error_false_positives: usize,
    binding: Option<(usize, usize, usize)>,
    /// Calls bound to a declared table, of all calls, in this run.
    bound: (usize, usize),
}

fn score_repo(
    name: &str,
    root: &Path,
    tree: &Path,
    bin: &Path,
    no_model: bool,
) -> Result<Outcome, String> {
    let expect: Expect = read_toml(&root.join("expect.toml"))?;
    let model = root.join("dynalint.toml");
    let placed = tree.join("dynalint.toml");
    // The model sits at the tree's root, as a user would put it: `hot-paths` and the
    // other globs are relative to it.
    let place_model = || -> Result<(), String> {
        std::fs::copy(&model, &placed)
            .map(|_| ())
            .map_err(|e| format!("{}: {e}", placed.display()))
    };
    let mut binding = None;
    let bound;
    let report = if no_model {
        place_model()?;
        let with = run_json(bin, tree, &["calls", "--format", "json", "."])?;
        let _ = std::fs::remove_file(&placed);
        let report = run_json(
            bin,
            tree,
            &["check", "--format", "json", "--exit-zero", "--quiet", "."],
        );
        let without = run_json(bin, tree, &["calls", "--format", "json", "."]);
        let (hand, total) = bound_calls(&with);
        let inferred = without.map(|w| bound_calls(&w).0).unwrap_or_default();
        bound = (inferred.len(), total);
        binding = Some((hand.intersection(&inferred).count(), hand.len(), total));
        match report {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{name}: without a model: {e}");
                Value::Null
            }
        }
    } else {
        place_model()?;
        let (b, total) = bound_calls(&run_json(bin, tree, &["calls", "--format", "json", "."])?);
        bound = (b.len(), total);
        run_json(
            bin,
            tree,
            &["check", "--format", "json", "--exit-zero", "--quiet", "."],
        )?
    };
    let diags = diagnostics(&report);

    let mut per_rule: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut false_positives = Vec::new();
    let mut error_false_positives = 0;
    for f in &expect.finding {
        let t = per_rule.entry(f.rule.clone()).or_default();
        t.required += 1;
        if diags.iter().any(|d| f.covers(d)) {
            t.found += 1;
        } else {
            misses.push(format!(
                "MISS {name} {} {}:{}-{} — {}",
                f.rule, f.file, f.lines[0], f.lines[1], f.why
            ));
        }
    }
    for d in &diags {
        let t = per_rule.entry(d.rule.clone()).or_default();
        let silent = expect.silent.iter().find(|s| s.covers(d));
        if silent.is_none() && expect.finding.iter().any(|f| f.covers(d)) {
            t.reported_true += 1;
        } else if silent.is_none() && expect.debatable.iter().any(|l| l.covers(d)) {
            // not scored
        } else {
            t.false_positives += 1;
            if d.severity == "error" {
                error_false_positives += 1;
            }
            let tag = if silent.is_some() { "FP(silent)" } else { "FP" };
            let why = silent
                .map(|s| format!(" — labelled silent: {}", s.why))
                .unwrap_or_default();
            false_positives.push(format!(
                "{tag} {name} {} [{}] {}:{}: {}{why}",
                d.rule, d.severity, d.file, d.line, d.message
            ));
        }
    }
    Ok(Outcome {
        per_rule,
        misses,
        false_positives,
        error_false_positives,
        binding,
        bound,
    })
}

fn main() {
    if let Err(e) = run() {
        eprintln!("realworld: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("realworld");
    let mut names: Vec<String> = std::fs::read_dir(&corpus)
        .map_err(|e| format!("{}: {e}", corpus.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.path().join("source.toml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    if !args.only.is_empty() {
        for o in &args.only {
            if !names.contains(o) {
                return Err(format!("no repository `{o}` in realworld/"));
            }
        }
        names.retain(|n| args.only.contains(n));
    }
    let bin = match &args.bin {
        Some(b) => b.clone(),
        None => dynalint_bin()?,
    };

    let mut total_rule: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut fps = Vec::new();
    let mut error_fps = 0;
    let mut binding = (0, 0, 0);
    let mut missing_trees = Vec::new();
    println!(
        "{:<34} {:<14} {:>4} {:>5} {:>6} {:>3} {:>7}",
        "repository", "kind", "req", "found", "missed", "FP", "bound"
    );
    for name in &names {
        let root = corpus.join(name);
        let source: Source = read_toml(&root.join("source.toml"))?;
        let tree = args.dir.join(name);
        if !tree.is_dir() {
            missing_trees.push(name.clone());
            continue;
        }
        let o = match score_repo(name, &root, &tree, &bin, args.no_model) {
            Ok(o) => o,
            Err(e) => {
                eprintln!(
                    "{name} ({}@{}): {e}",
                    source.repo,
                    &source.commit[..12.min(source.commit.len())]
                );
                continue;
            }
        };
        let mut t = Tally::default();
        for (rule, rt) in &o.per_rule {
            t.add(*rt);
            total_rule.entry(rule.clone()).or_default().add(*rt);
        }
        println!(
            "{:<34} {:<14} {:>4} {:>5} {:>6} {:>3} {:>7}",
            name,
            source.kind,
            t.required,
            t.found,
            t.required - t.found,
            t.false_positives,
            format!("{}/{}", o.bound.0, o.bound.1)
        );
        misses.extend(o.misses);
        fps.extend(o.false_positives);
        error_fps += o.error_false_positives;
        if let Some((kept, hand, total)) = o.binding {
            binding.0 += kept;
            binding.1 += hand;
            binding.2 += total;
        }
    }

    println!();
    println!(
        "{:<26} {:>4} {:>5} {:>6} {:>3} {:>7} {:>9}",
        "rule", "req", "found", "missed", "FP", "recall", "precision"
    );
    let mut all = Tally::default();
    for (rule, t) in &total_rule {
        all.add(*t);
        println!(
            "{:<26} {:>4} {:>5} {:>6} {:>3} {:>7} {:>9}",
            rule,
            t.required,
            t.found,
            t.required - t.found,
            t.false_positives,
            ratio(t.recall()),
            ratio(t.precision())
        );
    }
    println!(
        "{:<26} {:>4} {:>5} {:>6} {:>3} {:>7} {:>9}",
        "overall",
        all.required,
        all.found,
        all.required - all.found,
        all.false_positives,
        ratio(all.recall()),
        ratio(all.precision())
    );
    println!("error-level false positives: {error_fps}");
    if args.no_model {
        let share = if binding.1 == 0 {
            None
        } else {
            Some(binding.0 as f64 / binding.1 as f64)
        };
        println!(
            "binding without the hand-written models: {} of the {} calls the hand-written models bind ({}), of {} calls",
            binding.0,
            binding.1,
            ratio(share),
            binding.2
        );
    }
    if !misses.is_empty() || !fps.is_empty() {
        println!();
    }
    for m in &misses {
        println!("{m}");
    }
    for f in &fps {
        println!("{f}");
    }
    if !missing_trees.is_empty() {
        eprintln!(
            "realworld: no tree for {} under {} (run scripts/realworld-fetch)",
            missing_trees.join(", "),
            args.dir.display()
        );
    }
    Ok(())
}
