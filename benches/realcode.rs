//! `dynalint check` on trees of real code, side by side with a parse-only pass over the
//! same files, at about 0.1x, 1x and 10x a million lines.
//!
//! The sources are real crates at pinned versions (`benches/realcode/Cargo.toml`:
//! tokio, syn, serde, the AWS SDK for DynamoDB and its runtime, and published crates
//! that call DynamoDB), downloaded by cargo. A 1x tree is one monorepo: ordinary crates
//! vendored under `vendor/` and ten services, each a copy of every DynamoDB-calling
//! crate, so the same function and type names recur across many crates as they do in
//! real monorepos. The 10x tree is ten such repositories side by side. Each crate keeps
//! its published `Cargo.toml`, so calls resolve within a crate and its dependencies.
//!
//! Each size runs `dynalint check --stats` (a child process) and the parse-only pass
//! (this benchmark re-run as a child) alternately, twice, and prints wall time, CPU
//! time (user + system, both cores), peak memory, their ratio and the growth between
//! sizes, of the best rounds and of the median rounds (CPU time is printed beside wall time because a loaded host stretches wall
//! time by more on a long run than on a short one); then one file with 40,000
//! `get_item` calls. Targets (issue 16): check <= 1.0x parse-only on 1x, growth 10x
//! tree <= 11x time, peak <= 256 MB on 1x and <= 512 MB on 10x, the 40k-call file < 2 s.
//!
//! Run with `cargo bench --bench realcode` (first run downloads the crates and builds
//! the trees under `/tmp/dynalint-realcode`, or `$DYNALINT_REALCODE_DIR`).
//! `DYNALINT_REALCODE_SIZES=0.1,1` picks sizes; `DYNALINT_REALCODE_ROUNDS` the rounds.

// The `dynalint` binary's allocator (src/main.rs): figures are the product's, and a
// parse-only pass parses with the same allocator as `check`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use dynalint::scanner::parse_only;
use dynalint::workspace::collect_sources;
use rayon::prelude::*;

/// Published crates that call DynamoDB: copied into every service of a tree.
const DYNAMODB_CRATES: &[&str] = &[
    "modyne",
    "dynamo-es",
    "tower-sessions-dynamodb-store",
    "dynomite",
    "dynamodb_lock",
    "dynarust",
    "dynamodb-mutex",
    "dynamodb-tools",
    "dynamodel",
];

/// Lines of ordinary code in one 1x repository, and the largest crate taken whole.
const ORDINARY_LINES: usize = 850_000;
const LARGEST_CRATE: usize = 150_000;
/// Services (copies of the DynamoDB crates) in one 1x repository.
const SERVICES: usize = 10;

/// One table, so calls bind and the model-based rules run.
const MODEL: &str = r#"# Written by benches/realcode.rs.
[lint]
fail-on = "error"

[[table]]
name = "events"
refs = ["TABLE_NAME", "table_name"]
partition-key = "pk"
sort-key = "sk"

[table.attributes]
pk = "S"
sk = "S"
"#;

struct Crate {
    name: String,
    dir: PathBuf,
    files: Vec<(PathBuf, usize)>,
    lines: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--parse-only") {
        let dir = args.get(i + 1).map(PathBuf::from).unwrap_or_default();
        parse_only_child(&dir);
        return;
    }
    let base = std::env::var_os("DYNALINT_REALCODE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("dynalint-realcode"));
    let sizes: Vec<f64> = std::env::var("DYNALINT_REALCODE_SIZES")
        .unwrap_or_else(|_| "0.1,1,10".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let rounds: usize = std::env::var("DYNALINT_REALCODE_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let crates = match real_crates() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("realcode: cannot get the crates' sources: {e}");
            std::process::exit(1);
        }
    };
    let dynalint = PathBuf::from(env!("CARGO_BIN_EXE_dynalint"));
    let mut results: Vec<(f64, Measure)> = Vec::new();
    for scale in sizes {
        let dir = base.join(format!("tree-{scale}"));
        let shape = match build_tree(&dir, scale, &crates) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("realcode: cannot build {}: {e}", dir.display());
                std::process::exit(1);
            }
        };
        println!("\n{scale}x tree: {shape}  ({})", dir.display());
        let m = measure(&dynalint, &dir, rounds);
        results.push((scale, m));
    }
    if results.len() > 1 {
        println!("\ngrowth between sizes (best round of each):");
        let grew = |b: Duration, a: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-9);
        for w in results.windows(2) {
            let ((s0, a), (s1, b)) = (&w[0], &w[1]);
            println!(
                "  {s0}x -> {s1}x: files {:.1}x, check time {:.1}x (CPU {:.1}x), parse-only time {:.1}x (CPU {:.1}x), check peak {:.1}x",
                b.files as f64 / a.files.max(1) as f64,
                grew(b.check, a.check),
                grew(b.check_cpu, a.check_cpu),
                grew(b.parse, a.parse),
                grew(b.parse_cpu, a.parse_cpu),
                b.check_peak_mb / a.check_peak_mb.max(1e-9),
            );
        }
        // On a shared host a short run's best round is often luckier than a long
        // one's, which skews the best-round growth; the medians are steadier.
        println!("growth between sizes (median round of each):");
        for w in results.windows(2) {
            let ((s0, a), (s1, b)) = (&w[0], &w[1]);
            let (a, b) = (a.median(), b.median());
            println!(
                "  {s0}x -> {s1}x: check time {:.1}x (CPU {:.1}x), parse-only time {:.1}x (CPU {:.1}x)",
                grew(b.check, a.check),
                grew(b.check_cpu, a.check_cpu),
                grew(b.parse, a.parse),
                grew(b.parse_cpu, a.parse_cpu),
            );
        }
    }
    many_calls_in_one_file(&dynalint, &base);
}

/// The best round of each command on one tree.
struct Measure {
    files: usize,
    check: Duration,
    parse: Duration,
    /// CPU time (user + system) of the best round of each.
    check_cpu: Duration,
    parse_cpu: Duration,
    check_peak_mb: f64,
    /// Every round's times.
    rounds: Vec<Times>,
}

/// One round's wall and CPU times of both commands.
#[derive(Clone, Copy, Default)]
struct Times {
    check: Duration,
    check_cpu: Duration,
    parse: Duration,
    parse_cpu: Duration,
}

impl Measure {
    /// Each time's median over the rounds (an even count's: the middle two's mean).
    fn median(&self) -> Times {
        let of = |get: fn(&Times) -> Duration| {
            let mut v: Vec<Duration> = self.rounds.iter().map(get).collect();
            v.sort();
            let n = v.len();
            match (v.get(n.saturating_sub(1) / 2), v.get(n / 2)) {
                (Some(a), Some(b)) => (*a + *b) / 2,
                _ => Duration::ZERO,
            }
        };
        Times {
            check: of(|t| t.check),
            check_cpu: of(|t| t.check_cpu),
            parse: of(|t| t.parse),
            parse_cpu: of(|t| t.parse_cpu),
        }
    }
}

fn measure(dynalint: &Path, dir: &Path, rounds: usize) -> Measure {
    let me = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("realcode"));
    let mut best = Measure {
        files: 0,
        check: Duration::MAX,
        parse: Duration::MAX,
        check_cpu: Duration::MAX,
        parse_cpu: Duration::MAX,
        check_peak_mb: 0.0,
        rounds: Vec::with_capacity(rounds),
    };
    let mut stats = String::new();
    for round in 1..=rounds {
        let (t, cpu) = (Instant::now(), children_cpu());
        let out = Command::new(dynalint)
            .args([
                "check",
                "--format",
                "json",
                "--stats",
                "--fail-on",
                "error",
                "--exit-zero",
            ])
            .arg(dir)
            .output();
        let check = t.elapsed();
        let check_cpu = cpu_since(cpu);
        let Ok(out) = out else {
            println!("  check: could not start {}", dynalint.display());
            return best;
        };
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let peak = after(&err, "stats: peak memory ").unwrap_or(0.0);
        let findings = serde_json::from_slice::<serde_json::Value>(&out.stdout)
            .ok()
            .and_then(|v| {
                v.get("diagnostics")
                    .and_then(|d| d.as_array())
                    .map(Vec::len)
            });
        let (t, cpu) = (Instant::now(), children_cpu());
        let parsed = Command::new(&me).arg("--parse-only").arg(dir).output();
        let parse = t.elapsed();
        let parse_cpu = cpu_since(cpu);
        let parsed = parsed
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let parse_peak = after(&parsed, "peak_kb ").unwrap_or(0.0) / 1024.0;
        best.files = after(&parsed, "files ").unwrap_or(0.0) as usize;
        println!(
            "  round {round}: check {:>7.2} s (CPU {:>6.2} s) {:>6.0} MB ({} findings, exit {:?})   parse-only {:>7.2} s (CPU {:>6.2} s) {:>6.0} MB   ratio {:.2}x (CPU {:.2}x)",
            check.as_secs_f64(),
            check_cpu.as_secs_f64(),
            peak,
            findings.map_or("?".into(), |n| n.to_string()),
            out.status.code(),
            parse.as_secs_f64(),
            parse_cpu.as_secs_f64(),
            parse_peak,
            check.as_secs_f64() / parse.as_secs_f64().max(1e-9),
            check_cpu.as_secs_f64() / parse_cpu.as_secs_f64().max(1e-9),
        );
        if check < best.check {
            best.check = check;
            best.check_peak_mb = peak;
            stats =
                err.lines()
                    .filter(|l| l.starts_with("stats:"))
                    .fold(String::new(), |mut s, l| {
                        let _ = writeln!(s, "    {l}");
                        s
                    });
        }
        best.rounds.push(Times {
            check,
            check_cpu,
            parse,
            parse_cpu,
        });
        best.parse = best.parse.min(parse);
        best.check_cpu = best.check_cpu.min(check_cpu);
        best.parse_cpu = best.parse_cpu.min(parse_cpu);
    }
    print!("  check's phases (best round):\n{stats}");
    println!(
        "  best: {} files walked; check {:.2} s, parse-only {:.2} s, ratio {:.2}x; CPU: check {:.2} s, parse-only {:.2} s, ratio {:.2}x",
        best.files,
        best.check.as_secs_f64(),
        best.parse.as_secs_f64(),
        best.check.as_secs_f64() / best.parse.as_secs_f64().max(1e-9),
        best.check_cpu.as_secs_f64(),
        best.parse_cpu.as_secs_f64(),
        best.check_cpu.as_secs_f64() / best.parse_cpu.as_secs_f64().max(1e-9),
    );
    best
}

/// CPU time (user + system) of this process's children that have been waited for
/// (`cutime` and `cstime` of Linux's `/proc/self/stat`); zero where there is none.
fn children_cpu() -> Duration {
    /// `/proc` counts in USER_HZ, 100 on every Linux architecture's ABI.
    const TICKS_PER_SECOND: u64 = 100;
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces:
    // state is field 3, cutime field 16, cstime field 17.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    let ticks = field(16).unwrap_or(0) + field(17).unwrap_or(0);
    Duration::from_millis(ticks * 1000 / TICKS_PER_SECOND)
}

/// The children's CPU time since `before` ([`children_cpu`]).
fn cpu_since(before: Duration) -> Duration {
    children_cpu().saturating_sub(before)
}

/// The number after `prefix` on the line that starts with it.
fn after(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The baseline: walk and read the same files as `check` (same walker), and parse each
/// with tree-sitter in parallel. Prints its file count and peak memory.
fn parse_only_child(dir: &Path) {
    let sources = match collect_sources(&[dir.to_path_buf()], dir, &[], None) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("parse-only: {e}");
            std::process::exit(1);
        }
    };
    let parsed = sources.files.par_iter().filter(|f| parse_only(f)).count();
    println!("files {}", sources.files.len());
    println!("parsed {parsed}");
    if let Some(kb) = support::peak_kb() {
        println!("peak_kb {kb}");
    }
}

/// Every package of the pinned dependency graph, with its `.rs` files and lines.
fn real_crates() -> Result<Vec<Crate>, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/realcode/Cargo.toml");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--manifest-path",
        ])
        .arg(&manifest)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata output: {e}"))?;
    let mut crates = Vec::new();
    for p in meta["packages"].as_array().into_iter().flatten() {
        let (Some(name), Some(manifest)) = (p["name"].as_str(), p["manifest_path"].as_str()) else {
            continue;
        };
        if name == "dynalint-realcode-sources" {
            continue;
        }
        let dir = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new("/"))
            .to_path_buf();
        let mut files = Vec::new();
        rust_files(&dir, &dir, &mut files);
        files.sort();
        let lines = files.iter().map(|(_, n)| n).sum();
        crates.push(Crate {
            name: name.to_string(),
            dir,
            files,
            lines,
        });
    }
    crates.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(crates)
}

fn rust_files(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, usize)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() && p.file_name().is_some_and(|n| n != "target") {
            rust_files(root, &p, out);
        } else if t.is_file() && p.extension().is_some_and(|x| x == "rs") {
            let lines = std::fs::read(&p).map_or(0, |b| b.iter().filter(|c| **c == b'\n').count());
            if let Ok(rel) = p.strip_prefix(root) {
                out.push((rel.to_path_buf(), lines));
            }
        }
    }
}

/// Lays out one tree (reused when its plan is unchanged) and describes it.
fn build_tree(dir: &Path, scale: f64, crates: &[Crate]) -> std::io::Result<String> {
    let repos = if scale > 1.0 {
        scale.round() as usize
    } else {
        1
    };
    let per_repo = scale.min(1.0);
    let budget = (ORDINARY_LINES as f64 * per_repo) as usize;
    let services = ((SERVICES as f64 * per_repo).round() as usize).max(1);
    // Ordinary crates, in name order, until the budget is spent.
    let mut ordinary = Vec::new();
    let mut lines = 0;
    for c in crates {
        if DYNAMODB_CRATES.contains(&c.name.as_str()) || c.lines > LARGEST_CRATE || c.lines == 0 {
            continue;
        }
        if lines >= budget {
            break;
        }
        lines += c.lines;
        ordinary.push(c);
    }
    let dynamo: Vec<&Crate> = crates
        .iter()
        .filter(|c| DYNAMODB_CRATES.contains(&c.name.as_str()))
        .collect();
    let plan: BTreeMap<String, usize> = ordinary
        .iter()
        .chain(&dynamo)
        .map(|c| (c.dir.display().to_string(), c.lines))
        .collect();
    // The layout's version: a tree laid out by an earlier one (`.rs` files only, no
    // manifests) is laid out again.
    let plan = format!("{repos} repos, {services} services, with manifests\n{plan:?}\n{MODEL}");
    let stamp = dir.join(".plan");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(plan.as_str()) {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        for r in 0..repos {
            let repo = dir.join(format!("repo{r:02}"));
            for c in &ordinary {
                copy_crate(c, &repo.join("vendor").join(&c.name))?;
            }
            for s in 0..services {
                for c in &dynamo {
                    copy_crate(c, &repo.join(format!("service{s:02}")).join(&c.name))?;
                }
            }
        }
        std::fs::write(dir.join("dynalint.toml"), MODEL)?;
        std::fs::write(&stamp, &plan)?;
    }
    let dynamo_lines: usize = dynamo.iter().map(|c| c.lines).sum();
    let total = repos * (lines + services * dynamo_lines);
    let files: usize = repos
        * (ordinary.iter().map(|c| c.files.len()).sum::<usize>()
            + services * dynamo.iter().map(|c| c.files.len()).sum::<usize>());
    Ok(format!(
        "{files} files, {:.0}k lines ({repos} repo(s), {} ordinary crates, {services} services of {} DynamoDB crates each)",
        total as f64 / 1000.0,
        ordinary.len(),
        dynamo.len()
    ))
}

/// A crate's `.rs` files and its manifest: the published, normalised `Cargo.toml`
/// cargo downloaded, which lists the crate's real dependencies (by name, since the
/// registry's copy has no `path`s), so dynalint resolves calls crate by crate.
fn copy_crate(c: &Crate, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    std::fs::copy(c.dir.join("Cargo.toml"), to.join("Cargo.toml"))?;
    for (rel, _) in &c.files {
        let dest = to.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(c.dir.join(rel), dest)?;
    }
    Ok(())
}

/// One file with 40,000 `get_item` calls (generated code, a migration, a big test):
/// ten requests repeated, then 40,000 different ones (each its own literal sort key,
/// as a data migration writes them): a memo of requests must not search them all.
fn many_calls_in_one_file(dynalint: &Path, base: &Path) {
    many_calls(dynalint, base, "many-calls", false);
    many_calls(dynalint, base, "many-distinct-calls", true);
}

/// Writes and checks one file of 40,000 `get_item` calls; `distinct`: every call's
/// sort key differs.
fn many_calls(dynalint: &Path, base: &Path, name: &str, distinct: bool) {
    const CALLS: usize = 40_000;
    let dir = base.join(name);
    let src = dir.join("src");
    if std::fs::create_dir_all(&src).is_err() {
        println!("\nmany calls: cannot create {}", src.display());
        return;
    }
    let mut text = String::from(
        "use aws_sdk_dynamodb::types::AttributeValue;\nuse aws_sdk_dynamodb::Client;\n\n",
    );
    for i in 0..CALLS / 10 {
        let _ = writeln!(text, "pub async fn load_{i}(c: &Client, id: &str) {{");
        for j in 0..10 {
            let sk = if distinct { i * 10 + j } else { j };
            let _ = writeln!(
                text,
                "    let _ = c.get_item().table_name(\"events\").key(\"pk\", AttributeValue::S(id.into())).key(\"sk\", AttributeValue::S(\"v{sk}\".into())).send().await;"
            );
        }
        text.push_str("}\n");
    }
    let written = std::fs::write(src.join("lib.rs"), &text)
        .and_then(|()| std::fs::write(dir.join("dynalint.toml"), MODEL));
    if let Err(e) = written {
        println!("\nmany calls: cannot write: {e}");
        return;
    }
    let (t, cpu) = (Instant::now(), children_cpu());
    let out = Command::new(dynalint)
        .args(["check", "--format", "json", "--stats", "--exit-zero"])
        .arg(&dir)
        .output();
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_since(cpu).as_secs_f64();
    let peak = out
        .as_ref()
        .ok()
        .and_then(|o| after(&String::from_utf8_lossy(&o.stderr), "stats: peak memory "));
    println!(
        "\none file with {CALLS} {}get_item calls ({:.1} MB): check {secs:.2} s (CPU {cpu:.2} s), peak {} MB",
        if distinct { "different " } else { "" },
        text.len() as f64 / 1e6,
        peak.map_or("?".into(), |p| format!("{p:.0}"))
    );
}
