//! The command-line grammar (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diagnostic::Severity;

const AFTER_HELP: &str = "\
Exit codes:
  0  no finding at or above the fail level
  1  findings at or above the fail level (--fail-on, [lint] fail-on, default: warning),
     or a source file that could not be read ([lint] skipped-files = \"allow\" to pass)
  2  usage, config, model or IO error

Configuration is read from the nearest dynalint.toml at or above the first PATH; without
one, the tables the repository's templates and create_table calls declare are used
(`dynalint init` writes them out as a dynalint.toml).
Suppress a finding with `// dynalint: allow(rule-id) -- reason` on the line or the line above.";

/// A static access-pattern linter for Amazon DynamoDB code.
#[derive(Debug, Parser)]
#[command(name = "dynalint", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check Rust sources against the key model (the default subcommand).
    Check(CheckArgs),
    /// List every rule with its category, default level and summary.
    Rules(RulesArgs),
    /// Print a rule's documentation.
    Explain(ExplainArgs),
    /// List every DynamoDB call found: the team's access-pattern inventory.
    Calls(CallsArgs),
    /// Write a dynalint.toml from the tables the repository declares (templates,
    /// Terraform, `create_table` calls), with the figures to fill in commented out.
    Init(InitArgs),
    /// Validate or show the key model (`dynalint.toml`).
    #[command(subcommand)]
    Model(ModelCommand),
    /// Fill an in-memory DynamoDB with data that follows the model, run every access
    /// pattern and code read on it, and report cost, hot partitions and coverage.
    Simulate(SimulateArgs),
    /// Run the language server on stdin/stdout (for editors).
    Lsp,
    /// Serve an in-memory DynamoDB over HTTP (DynamoDB's JSON protocol) for local tests.
    Serve(ServeArgs),
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-like text, coloured on a terminal.
    Human,
    /// The stable JSON report (version 1).
    Json,
    /// SARIF 2.1.0 for code scanning.
    Sarif,
    /// GitHub Actions workflow annotations.
    Github,
}

/// Output formats of listing commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Human,
    Json,
}

/// Output formats of `simulate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimulateFormat {
    /// Aligned tables for a terminal.
    Human,
    /// The simulation's JSON (versioned by `schema_version`).
    Json,
    /// One self-contained HTML page: cost bars, partition heat, tables and indexes
    /// with their code, and the findings at their source lines.
    Html,
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Where the model is and which files to read.
#[derive(Debug, Clone, Args)]
pub struct ProjectArgs {
    /// Files or folders to check, `-` for stdin [default: .]
    pub paths: Vec<PathBuf>,
    /// The key model to use instead of the nearest dynalint.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The file that stdin's text stands for, when a PATH is `-` (editors, pre-commit):
    /// findings carry its name and dynalint.toml is found from its folder.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub project: ProjectArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit 1 when a finding is at or above this level.
    #[arg(long, value_name = "LEVEL", value_parser = parse_severity)]
    pub fail_on: Option<Severity>,
    /// Run only these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub select: Option<Vec<String>>,
    /// Never run these rules (comma-separated ids), whatever `--select` and `[rules]` say.
    #[arg(long, value_delimiter = ',', value_name = "RULES")]
    pub ignore: Vec<String>,
    /// Exit 0 even when findings are at or above the fail level (errors still exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print how many findings each rule has instead of the findings (human or json).
    #[arg(long)]
    pub statistics: bool,
    /// Report only findings that are not in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in this baseline file and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Exit 1 when the monthly cost estimate of the code's calls rose by more than
    /// this many dollars over the `--baseline` file's (which `--write-baseline`
    /// records).
    #[arg(long, value_name = "DOLLARS", requires = "baseline", value_parser = parse_dollars)]
    pub max_cost_increase: Option<f64>,
    /// No progress and no summary line; findings only.
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour the human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print timing and throughput figures on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Apply the findings' mechanical fixes to the source files, then report what is
    /// left.
    #[arg(long)]
    pub fix: bool,
    /// With --fix: print the fixes as a unified diff instead of writing them; exit 1
    /// when there is something to fix.
    #[arg(long, requires = "fix")]
    pub diff: bool,
}

#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
}

#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// The rule id, e.g. `scan-in-hot-path`.
    pub rule: String,
}

#[derive(Debug, Clone, Args)]
pub struct CallsArgs {
    #[command(flatten)]
    pub project: ProjectArgs,
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
}

#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// The project folder to read and to write dynalint.toml into [default: .]
    pub path: Option<PathBuf>,
    /// Print the file instead of writing it.
    #[arg(long)]
    pub stdout: bool,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ModelCommand {
    /// Validate dynalint.toml; exit 0 when valid, 2 when not.
    Check(ModelArgs),
    /// Print tables, key schemas, indexes, projections and which entities each index holds.
    Show(ModelArgs),
}

#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// A dynalint.toml, or a folder to search upward from [default: .]
    pub path: Option<PathBuf>,
    /// The key model file (same as giving it as PATH).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Colour the output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

fn parse_severity(s: &str) -> Result<Severity, String> {
    s.parse()
}

#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub project: ProjectArgs,
    /// Fraction of the model's items to generate, in (0, 1] [default: as much as fits 200,000 items]
    #[arg(long, value_name = "FRACTION")]
    pub scale: Option<f64>,
    /// Seed of the data generator: the same seed gives the same figures.
    #[arg(long, default_value_t = crate::simulate::run::DEFAULT_SEED)]
    pub seed: u64,
    /// Output format: `html` is one self-contained page to open from disk.
    #[arg(long, value_enum, default_value_t = SimulateFormat::Human)]
    pub format: SimulateFormat,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Address to bind; anything but loopback exposes an unauthenticated database.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Connections open at once [default: as many as the open-file limit allows]; at
    /// the bound the longest-idle connection is closed to make room (clients reconnect),
    /// and a new client is never refused.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,
    /// Seconds a request may take to arrive whole once it has begun (else 408).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout,
          default_value_t = crate::engine::server::DEFAULT_LIMITS.request_timeout.as_secs_f64())]
    pub request_timeout: f64,
    /// Seconds a kept-alive connection may wait for its next request before it is closed.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout,
          default_value_t = crate::engine::server::DEFAULT_LIMITS.idle_timeout.as_secs_f64())]
    pub idle_timeout: f64,
    /// Requests read or run at once; more wait their turn (503 if it does not come
    /// within --request-timeout).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          default_value_t = crate::engine::server::DEFAULT_LIMITS.max_in_flight as u32)]
    pub max_in_flight: u32,
    /// Keep tables and items in DIR (created if missing) across restarts: a write is
    /// answered once it is on disk. Without it, everything is in memory.
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<std::path::PathBuf>,
    /// With --data-dir: write a snapshot once the log holds more than MB megabytes (and
    /// more than the last snapshot), so that a restart replays little.
    #[arg(long, value_name = "MB", requires = "data_dir",
          value_parser = clap::value_parser!(u64).range(1..=1 << 20),
          default_value_t = crate::engine::persist::StoreOptions::default().compact_after_bytes >> 20)]
    pub compact_after: u64,
}

fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!("`{s}` is not a number of seconds in (0, 3600]")),
    }
}

/// A non-negative amount of dollars: `100`, `12.5`, `$100`.
fn parse_dollars(s: &str) -> Result<f64, String> {
    let n: f64 = s
        .trim()
        .trim_start_matches('$')
        .replace(',', "")
        .parse()
        .map_err(|_| format!("`{s}` is not an amount of dollars"))?;
    if n.is_finite() && n >= 0.0 {
        Ok(n)
    } else {
        Err(format!("`{s}` is not an amount of dollars (0 or more)"))
    }
}
