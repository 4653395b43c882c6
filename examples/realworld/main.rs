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
//! are still bound; a label on `dynalint.toml` lines then also matches a finding of its
//! rule about the same table and index, placed where the inferred model declares it.
//!
//! Repositories whose `source.toml` says `blind = true` were labelled, from the code and
//! the rule pages only, before anyone ran dynalint on them (`labelled = "..."` says when
//! and by whom): the totals are printed for the whole corpus, then for the blind part and
//! the rest apart. A label changed after a run carries `triage = "..."` (why); triaged
//! labels are counted and listed, per part.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod corpus;
mod labels;
use corpus::{read_toml, Entry};
use labels::{diagnostics, Expect};

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
    /// Every label changed after a run (`triage`), as printed.
    triaged: Vec<String>,
    /// Syntax-error notes: the corpus's code compiles, so each is the grammar's.
    syntax_errors: Vec<String>,
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
    // The refs of each table the inferred model declares (`dynalint init --stdout`).
    let mut inferred_refs = BTreeMap::new();
    let report = if no_model {
        place_model()?;
        let with = run_json(bin, tree, &["calls", "--format", "json", "."])?;
        let _ = std::fs::remove_file(&placed);
        inferred_refs = table_refs(&run_text(bin, tree, &["init", "--stdout", "."]));
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
    let syntax_errors = report["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|n| n.contains("syntax error"))
        .map(|n| format!("SYNTAX {name} {n}"))
        .collect();
    // Without the hand-written model, a finding about a model entry is placed where the
    // inferred model declares it (the `create_table` call, the template): the same
    // finding when it names the same table and index.
    let hand_model = if no_model {
        std::fs::read_to_string(&model).unwrap_or_default()
    } else {
        String::new()
    };
    let refs = Refs {
        hand: table_refs(&hand_model),
        inferred: inferred_refs,
    };
    let covers = |l: &labels::Label, d: &labels::Diag| {
        l.covers(d) || (no_model && same_model_entry(l, d, &hand_model, &refs))
    };

    let mut per_rule: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut false_positives = Vec::new();
    let mut error_false_positives = 0;
    for f in &expect.finding {
        let t = per_rule.entry(f.rule.clone()).or_default();
        t.required += 1;
        if diags.iter().any(|d| covers(f, d)) {
            t.found += 1;
        } else {
            misses.push(format!(
                "MISS {name} {} {}:{}-{} — {}{}",
                f.rule,
                f.file,
                f.lines[0],
                f.lines[1],
                f.why,
                pending_note(f)
            ));
        }
    }
    for d in &diags {
        let t = per_rule.entry(d.rule.clone()).or_default();
        let silent = expect.silent.iter().find(|s| covers(s, d));
        if silent.is_none() && expect.finding.iter().any(|f| covers(f, d)) {
            t.reported_true += 1;
        } else if silent.is_none() && expect.debatable.iter().any(|l| covers(l, d)) {
            // not scored
        } else {
            t.false_positives += 1;
            if d.severity == "error" {
                error_false_positives += 1;
            }
            let tag = if silent.is_some() { "FP(silent)" } else { "FP" };
            let why = silent
                .map(|s| format!(" — labelled silent: {}{}", s.why, pending_note(s)))
                .unwrap_or_default();
            false_positives.push(format!(
                "{tag} {name} {} [{}] {}:{}: {}{why}",
                d.rule, d.severity, d.file, d.line, d.message
            ));
        }
    }
    let triaged = expect
        .finding
        .iter()
        .map(|l| ("finding", l))
        .chain(expect.silent.iter().map(|l| ("silent", l)))
        .chain(expect.debatable.iter().map(|l| ("debatable", l)))
        .filter_map(|(kind, l)| {
            let why = l.triage.as_ref()?;
            Some(format!(
                "TRIAGE {name} {kind} {} {}:{}-{} — {why}",
                l.rule, l.file, l.lines[0], l.lines[1]
            ))
        })
        .collect();
    Ok(Outcome {
        triaged,
        syntax_errors,
        per_rule,
        misses,
        false_positives,
        error_false_positives,
        binding,
        bound,
    })
}

/// The table and index (if any) a label on `dynalint.toml` lines points at: the
/// `[[table]]` whose `name` is the last one read by its last line, and the
/// `[[table.index]]` around it, if the label is on one.
fn model_entry(model: &str, lines: [u32; 2]) -> Option<(String, Option<String>)> {
    let mut table = None;
    let mut index = None;
    let mut in_index = false;
    for (n, line) in model.lines().enumerate() {
        if n as u32 + 1 > lines[1] {
            break;
        }
        let line = line.trim();
        if line.starts_with('[') {
            in_index = line == "[[table.index]]";
            if line == "[[table]]" {
                table = None;
                index = None;
            } else if in_index {
                index = None;
            }
            continue;
        }
        let Some(value) = line
            .strip_prefix("name")
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix('='))
        else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_string();
        if in_index {
            index = Some(value);
        } else {
            table = Some(value);
        }
    }
    Some((table?, index))
}

/// A diagnostic of a label's rule about the same model entry the label's
/// `dynalint.toml` lines declare, wherever the inferred model put it: its message names
/// ``index `I` of `T` `` (or, for a table's own finding, `T` anywhere).
fn same_model_entry(l: &labels::Label, d: &labels::Diag, model: &str, refs: &Refs) -> bool {
    if l.rule != d.rule || l.file != "dynalint.toml" {
        return false;
    }
    match model_entry(model, l.lines) {
        Some((table, Some(index))) => named_after(&d.message, &format!("index `{index}` of `"))
            .is_some_and(|named| refs.same_table(named, &table)),
        // A table's own finding names it as the rule phrases it (``of `T` ``,
        // ``reads `T` by its partition key``): any backquoted name that is the table.
        Some((table, None)) => {
            !d.message.contains("of index `")
                && backquoted(&d.message).any(|named| refs.same_table(named, &table))
        }
        None => false,
    }
}

/// The `refs` (env vars, consts) of each table of the hand-written model and of the
/// inferred one, by table name.
struct Refs {
    hand: BTreeMap<String, BTreeSet<String>>,
    inferred: BTreeMap<String, BTreeSet<String>>,
}

impl Refs {
    /// Whether the table a no-model finding names (`named`, the inferred model's name)
    /// is the hand-written model's `table`: the same name or name pattern, or a table
    /// the code knows by the same env var or const (a CDK stack's
    /// `{projectName}-{stage}-primary`, handed to the code as `PRIMARY_TABLE`, is the
    /// hand-written `primary` with `refs = ["PRIMARY_TABLE"]`).
    fn same_table(&self, named: &str, table: &str) -> bool {
        names_table(named, table)
            || match (self.inferred.get(named), self.hand.get(table)) {
                (Some(a), Some(b)) => !a.is_disjoint(b),
                _ => false,
            }
    }
}

/// The `refs` of each `[[table]]` of a `dynalint.toml`'s text, by name; empty when it
/// does not read.
fn table_refs(model: &str) -> BTreeMap<String, BTreeSet<String>> {
    #[derive(serde::Deserialize, Default)]
    struct Model {
        #[serde(default)]
        table: Vec<Table>,
    }
    #[derive(serde::Deserialize)]
    struct Table {
        name: String,
        #[serde(default)]
        refs: Vec<String>,
    }
    toml::from_str::<Model>(model)
        .unwrap_or_default()
        .table
        .into_iter()
        .map(|t| (t.name, t.refs.into_iter().collect()))
        .collect()
}

/// Runs dynalint in `tree` and returns its stdout (empty when it cannot run).
fn run_text(bin: &Path, tree: &Path, args: &[&str]) -> String {
    Command::new(bin)
        .args(args)
        .current_dir(tree)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Every backquoted name in `message`, in order.
fn backquoted(message: &str) -> impl Iterator<Item = &str> {
    message.split('`').skip(1).step_by(2)
}

/// The backquoted name that follows `lead` in `message`.
fn named_after<'m>(message: &'m str, lead: &str) -> Option<&'m str> {
    let rest = &message[message.find(lead)? + lead.len()..];
    Some(&rest[..rest.find('`')?])
}

/// Whether a table name in a finding is the model's `table`: the same name, or an
/// inferred name pattern (`UserRefreshTokens_{EnvironmentName}`, from a template's
/// `!Sub`; `{1}tsa_users`, from the code's `format!("{}{}", prefix, TABLE_USERS)`)
/// that the model's concrete name is one value of. A pattern with a name of its own
/// (three letters or digits besides its holes) may have its holes empty (a prefix
/// left empty); one without (`{a}-{b}`) needs each hole filled.
fn names_table(named: &str, table: &str) -> bool {
    if !named.contains('{') {
        return named == table;
    }
    let mut depth = 0;
    let own = named
        .chars()
        .filter(|c| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            depth == 0 && c.is_alphanumeric()
        })
        .count();
    let least = usize::from(own < 3);
    // Literal parts in order, each `{..}` standing for one or more characters.
    let mut parts = Vec::new();
    let mut rest = named;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return false;
        };
        parts.push(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    parts.push(rest);
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if first.len() + last.len() + least > table.len()
        || !table.starts_with(first)
        || !table.ends_with(last)
    {
        return false;
    }
    let mut at = first.len();
    let end = table.len() - last.len();
    for part in &parts[1..parts.len() - 1] {
        match table[at..end].find(part) {
            Some(i) if i >= least => at += i + part.len(),
            _ => return false,
        }
    }
    at + least <= end
}

/// ` [pending: shape]` for a label dynalint is known not to meet yet.
fn pending_note(l: &labels::Label) -> String {
    l.pending
        .as_ref()
        .map(|p| format!(" [pending: {p}]"))
        .unwrap_or_default()
}

fn main() {
    if let Err(e) = run() {
        eprintln!("realworld: {e}");
        std::process::exit(2);
    }
}

/// The scores of a part of the corpus (all of it, the blind part, the rest).
#[derive(Default)]
struct Totals {
    entries: usize,
    per_rule: BTreeMap<String, Tally>,
    error_fps: usize,
    /// Calls the hand-written models bind that stay bound without them, of those, of all
    /// calls (`--no-model`).
    binding: (usize, usize, usize),
    triaged: Vec<String>,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.entries += o.entries;
        for (rule, t) in &o.per_rule {
            self.per_rule.entry(rule.clone()).or_default().add(*t);
        }
        self.error_fps += o.error_fps;
        self.binding.0 += o.binding.0;
        self.binding.1 += o.binding.1;
        self.binding.2 += o.binding.2;
        self.triaged.extend(o.triaged.iter().cloned());
    }

    /// Per rule, then overall: required, found, missed, false positives, recall and
    /// precision; error-level false positives, triaged labels and, with `--no-model`,
    /// the binding kept.
    fn print(&self, title: &str, no_model: bool) {
        println!();
        println!("{title}: {} entries", self.entries);
        println!(
            "{:<26} {:>4} {:>5} {:>6} {:>3} {:>7} {:>9}",
            "rule", "req", "found", "missed", "FP", "recall", "precision"
        );
        let mut all = Tally::default();
        for (rule, t) in &self.per_rule {
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
        println!("error-level false positives: {}", self.error_fps);
        println!(
            "labels changed after a run (triage): {}",
            self.triaged.len()
        );
        if no_model {
            let (kept, hand, total) = self.binding;
            let share = (hand > 0).then(|| kept as f64 / hand as f64);
            println!(
                "binding without the hand-written models: {kept} of the {hand} calls the hand-written models bind ({}), of {total} calls",
                ratio(share),
            );
        }
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let corpus_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("realworld");
    let corpus = corpus::entries(&corpus_dir, &args.dir, &args.only)?;
    let bin = match &args.bin {
        Some(b) => b.clone(),
        None => dynalint_bin()?,
    };

    // [blind part, the rest]
    let mut parts: [Totals; 2] = Default::default();
    // (repository, rule) rows with something required or reported, printed after the table.
    let mut repo_rule: Vec<(String, String, Tally)> = Vec::new();
    let mut misses = Vec::new();
    let mut fps = Vec::new();
    let mut syntax_errors = Vec::new();
    println!(
        "{:<36} {:<14} {:<5} {:>4} {:>5} {:>6} {:>3} {:>7}",
        "repository", "kind", "set", "req", "found", "missed", "FP", "bound"
    );
    for Entry {
        name,
        root,
        tree,
        kind,
        origin,
        blind,
    } in &corpus.entries
    {
        let o = match score_repo(name, root, tree, &bin, args.no_model) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{name} ({origin}): {e}");
                continue;
            }
        };
        let part = &mut parts[if *blind { 0 } else { 1 }];
        part.entries += 1;
        let mut t = Tally::default();
        for (rule, rt) in &o.per_rule {
            t.add(*rt);
            part.per_rule.entry(rule.clone()).or_default().add(*rt);
            if rt.required + rt.reported_true + rt.false_positives > 0 {
                repo_rule.push((name.clone(), rule.clone(), *rt));
            }
        }
        println!(
            "{:<36} {:<14} {:<5} {:>4} {:>5} {:>6} {:>3} {:>7}",
            name,
            kind,
            if *blind { "blind" } else { "" },
            t.required,
            t.found,
            t.required - t.found,
            t.false_positives,
            format!("{}/{}", o.bound.0, o.bound.1)
        );
        misses.extend(o.misses);
        fps.extend(o.false_positives);
        syntax_errors.extend(o.syntax_errors);
        part.error_fps += o.error_false_positives;
        part.triaged.extend(o.triaged);
        if let Some((kept, hand, total)) = o.binding {
            part.binding.0 += kept;
            part.binding.1 += hand;
            part.binding.2 += total;
        }
    }

    println!();
    println!(
        "{:<36} {:<26} {:>4} {:>5} {:>6} {:>3}",
        "repository", "rule", "req", "found", "missed", "FP"
    );
    for (name, rule, t) in &repo_rule {
        println!(
            "{:<36} {:<26} {:>4} {:>5} {:>6} {:>3}",
            name,
            rule,
            t.required,
            t.found,
            t.required - t.found,
            t.false_positives
        );
    }

    let [blind, rest] = &parts;
    let mut all = Totals::default();
    all.add(blind);
    all.add(rest);
    all.print("the whole corpus", args.no_model);
    if blind.entries == 0 {
        println!();
        println!("blind part: no scored entry says `blind = true`");
    } else {
        blind.print("the blind part (labelled before any run)", args.no_model);
        rest.print("the rest", args.no_model);
    }
    if !misses.is_empty() || !fps.is_empty() || !all.triaged.is_empty() {
        println!();
    }
    for m in &misses {
        println!("{m}");
    }
    for f in &fps {
        println!("{f}");
    }
    for t in &all.triaged {
        println!("{t}");
    }
    // The corpus compiles: a syntax-error note is the grammar's failing (tree-sitter-rust
    // behind the language), or code that does not build upstream.
    println!();
    println!(
        "syntax-error notes on the corpus's code: {}",
        syntax_errors.len()
    );
    for e in &syntax_errors {
        println!("{e}");
    }
    if !corpus.missing_trees.is_empty() {
        eprintln!(
            "realworld: no tree for {} under {} (run scripts/realworld-fetch)",
            corpus.missing_trees.join(", "),
            args.dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{names_table, table_refs, Refs};

    #[test]
    fn an_inferred_name_pattern_names_the_model_s_concrete_table() {
        assert!(names_table("Users", "Users"));
        assert!(!names_table("Users", "Users_Prod"));
        assert!(names_table(
            "UserRefreshTokens_{EnvironmentName}",
            "UserRefreshTokens_Prod"
        ));
        assert!(!names_table(
            "UserRefreshTokens_{EnvironmentName}",
            "Users_Prod"
        ));
        // A prefix the code builds in (`format!("{}{}", prefix, TABLE_IP_RULES)`) may
        // be left empty: the model's unprefixed name is one value of it.
        assert!(names_table("{1}tsa_ip_rules", "tsa_ip_rules"));
        assert!(names_table("{1}tsa_ip_rules", "prod_tsa_ip_rules"));
        assert!(!names_table("{1}tsa_ip_rules", "tsa_ip_rules_old"));
        assert!(!names_table("{1}tsa_ip_rules", "tsa_users"));
        assert!(!names_table("{a}-{b}", "-"));
        assert!(names_table("{a}-{b}", "x-y"));
        assert!(names_table(
            "{projectName}-{stage}-primary",
            "dice-dev-primary"
        ));
        assert!(!names_table("{projectName}-{stage}-primary", "primary"));
        assert!(!names_table("{a}-{b}", "-"));
    }

    /// A CDK stack names its table `{projectName}-{stage}-primary` and hands it to the
    /// code as `PRIMARY_TABLE`; the hand-written model calls it `primary` with that ref:
    /// the same table. Another table of the stack, or one with no ref in common, is not.
    #[test]
    fn a_table_the_code_knows_by_the_same_ref_is_the_model_s_table() {
        let refs = Refs {
            hand: table_refs(
                "[[table]]\nname = \"primary\"\nrefs = [\"PRIMARY_TABLE\"]\npartition-key = \"pk\"\n\n\
                 [[table]]\nname = \"ttl\"\nrefs = [\"TTL_TABLE\"]\npartition-key = \"pk\"\n",
            ),
            inferred: table_refs(
                "[[table]]\nname = \"{projectName}-{stage}-primary\"\nrefs = [\"PRIMARY_TABLE\"]\npartition-key = \"pk\"\n\n\
                 [[table]]\nname = \"{projectName}-{stage}-ttl\"\nrefs = [\"TTL_TABLE\"]\npartition-key = \"pk\"\n",
            ),
        };
        assert!(refs.same_table("{projectName}-{stage}-primary", "primary"));
        assert!(refs.same_table("{projectName}-{stage}-ttl", "ttl"));
        assert!(!refs.same_table("{projectName}-{stage}-ttl", "primary"));
        assert!(!refs.same_table("{projectName}-{stage}-other", "primary"));
    }
}
