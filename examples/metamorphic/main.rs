//! The metamorphic and seeded-defect harness: every DynamoDB call site of the real-world
//! corpus (the trees `scripts/realworld-fetch` rebuilds and the crates of
//! `realworld/crates/`) is rewritten, one rewrite at a time, on the syntax tree, without
//! changing what the code does; the findings must not change. Then one known defect is
//! injected at each site; exactly its finding must appear, and nothing else new.
//!
//! ```sh
//! scripts/realworld-fetch && cargo run --release --example metamorphic -- [--only NAME,..] [--no-model] [--out DIR]
//! ```
//!
//! Each variant is analysed in this process, as `dynalint check` analyses the tree
//! (`analysis` over every file, one file's text replaced). Findings are compared as
//! (file, place, rule, severity, message without positions); a place inside the text a
//! variant inserted or replaced is the site itself. A variant whose text `syn` does not
//! parse (when the original parses) is the harness's fault and is listed apart. A
//! rewrite that cannot apply at a site is "not applicable", with its reason, never a
//! pass. Every non-invariant case and every missed defect is written to `--out`
//! (default `target/metamorphic/`), one file per case, grouped by rewrite or defect.

#![allow(clippy::print_stdout)]

mod compare;
#[path = "../realworld/corpus.rs"]
mod corpus;
mod defects;
mod edit;
mod harness;
mod project;
mod report;
mod rewrites;
mod site;
mod syntax;

use std::path::PathBuf;

use compare::Normalizer;
use project::Project;
use report::Tally;
use rewrites::REWRITES;

struct Args {
    only: Vec<String>,
    no_model: bool,
    dir: PathBuf,
    out: PathBuf,
    /// Rewrites and defects to run (all when empty).
    select: Vec<String>,
    /// Print every site and why the chain rewrites cannot take it apart.
    sites: bool,
}

fn parse_args() -> Result<Args, String> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args = Args {
        only: Vec::new(),
        no_model: false,
        dir: std::env::var_os("DYNALINT_REALWORLD_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/tmp/dynalint-realworld")),
        out: manifest.join("target/metamorphic"),
        select: Vec::new(),
        sites: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--only" => {
                let v = it.next().ok_or("--only needs a repository name")?;
                args.only.extend(v.split(',').map(str::to_string));
            }
            "--select" => {
                let v = it.next().ok_or("--select needs rewrite or defect names")?;
                args.select.extend(v.split(',').map(str::to_string));
            }
            "--no-model" => args.no_model = true,
            "--sites" => args.sites = true,
            "--dir" => args.dir = PathBuf::from(it.next().ok_or("--dir needs a folder")?),
            "--out" => args.out = PathBuf::from(it.next().ok_or("--out needs a folder")?),
            "-h" | "--help" => {
                println!(
                    "usage: cargo run --release --example metamorphic -- [--only NAME,..] [--select REWRITE|DEFECT,..] [--no-model] [--dir TREES] [--out DIR] [--sites]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    let known: Vec<&str> = REWRITES
        .iter()
        .map(|r| r.name)
        .chain(defects::DEFECTS.iter().map(|d| d.name))
        .collect();
    if let Some(bad) = args.select.iter().find(|s| !known.contains(&s.as_str())) {
        return Err(format!(
            "no rewrite or defect `{bad}`: {}",
            known.join(", ")
        ));
    }
    Ok(args)
}

fn main() {
    if let Err(e) = run() {
        eprintln!("metamorphic: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let corpus_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("realworld");
    let corpus = corpus::entries(&corpus_dir, &args.dir, &args.only)?;
    if !corpus.missing_trees.is_empty() {
        eprintln!(
            "metamorphic: no tree for {} under {} (run scripts/realworld-fetch)",
            corpus.missing_trees.join(", "),
            args.dir.display()
        );
    }
    let out = report::Out::create(&args.out)?;
    let norm = Normalizer::new();
    let selected = |name: &str| args.select.is_empty() || args.select.iter().any(|s| s == name);
    let names: Vec<&str> = REWRITES
        .iter()
        .map(|r| r.name)
        .chain(defects::DEFECTS.iter().map(|d| d.name))
        .collect();
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    let mut total_sites = 0;
    let mut harness_errors = 0;
    let started = std::time::Instant::now();
    for entry in &corpus.entries {
        let model = (!args.no_model).then(|| entry.root.join("dynalint.toml"));
        let project = match Project::load(&entry.tree, model.as_deref()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", entry.name);
                continue;
            }
        };
        let checked = match harness::check(&project, &selected, None, &norm, &names) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: {e}", entry.name);
                continue;
            }
        };
        total_sites += checked.sites.len();
        if args.sites {
            for s in &checked.sites {
                println!("{} {}", entry.name, s.describe());
            }
        }
        for (what, why) in &checked.not_applicable {
            tallies[*what].not_applicable(why);
        }
        for (what, r) in &checked.cases {
            match r {
                Ok(case) => {
                    tallies[*what].add(&entry.name, case);
                    if !case.passed() {
                        out.write_case(&entry.name, case)?;
                    }
                }
                Err(e) => {
                    harness_errors += 1;
                    tallies[*what].harness_errors += 1;
                    out.write_harness_error(&entry.name, names[*what], e)?;
                }
            }
        }
        eprintln!(
            "{:<40} {:<5} {:>3} sites, {:>5} variants ({:.0?}; {} {})",
            entry.name,
            if entry.blind { "blind" } else { "" },
            checked.sites.len(),
            checked.cases.len(),
            started.elapsed(),
            entry.kind,
            entry.origin
        );
    }
    let summary = report::summary(
        &names,
        &tallies,
        REWRITES.len(),
        total_sites,
        corpus.entries.len(),
        harness_errors,
        args.no_model,
    );
    let mut summary = summary;
    summary.push_str("\nwhat each does:\n");
    for r in REWRITES {
        summary.push_str(&format!("  {:<22} {}\n", r.name, r.does));
    }
    for d in defects::DEFECTS {
        summary.push_str(&format!("  {:<22} {}\n", d.name, d.does));
    }
    print!("{summary}");
    out.write_summary(&summary)?;
    println!("cases written to {}", args.out.display());
    Ok(())
}
