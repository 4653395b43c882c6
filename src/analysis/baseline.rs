//! Baselines: adopt dynalint on a legacy codebase by recording today's findings and
//! reporting only new ones.
//!
//! A finding is keyed by rule + file (relative to the project root) + a hash of the
//! call's text with whitespace folded, so edits elsewhere in the file (lines added
//! above, reformatting) do not invalidate it. Identical keys count as a multiset.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostic;
use crate::scanner::Operation;
use crate::source::{FilePath, SourceFile, Span};

/// Baseline file errors.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("cannot read baseline `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("baseline `{}` is not a dynalint baseline: {source}", path.display())]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("cannot write baseline `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// One recorded finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    pub rule: String,
    pub file: String,
    pub fingerprint: String,
    /// For people reading the file; not part of the key.
    #[serde(default)]
    pub message: String,
}

/// The baseline file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<Entry>,
    /// The monthly estimate when it was written, for `--max-cost-increase`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<BaselineCost>,
}

/// The cost estimate a baseline records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BaselineCost {
    /// Dollars a month, each call in its table's capacity mode.
    pub monthly: f64,
    pub monthly_on_demand: f64,
    pub monthly_provisioned: f64,
    /// The prices it was made at.
    pub prices: String,
}

/// Computes baseline entries for diagnostics.
pub fn entries(
    root: &Path,
    diagnostics: &[Diagnostic],
    operations: &[Operation],
    files: &[SourceFile],
) -> Vec<Entry> {
    let texts: HashMap<_, _> = files.iter().map(|f| (&f.path, f)).collect();
    let calls = calls_by_file(operations);
    diagnostics
        .iter()
        .map(|d| {
            let scope = enclosing_call(&calls, d).unwrap_or(d.location.span);
            let text = texts
                .get(&d.location.file)
                .map(|f| fold(f.slice(scope)))
                .unwrap_or_else(|| d.message.clone());
            let mut h = Sha256::new();
            h.update(d.rule.as_bytes());
            h.update([0]);
            h.update(text.as_bytes());
            let fingerprint = h
                .finalize()
                .iter()
                .take(12)
                .map(|b| format!("{b:02x}"))
                .collect();
            let abs = std::fs::canonicalize(&d.location.file)
                .unwrap_or_else(|_| d.location.file.to_path_buf());
            let rel = abs.strip_prefix(root).map(Path::to_path_buf).unwrap_or(abs);
            Entry {
                rule: d.rule.to_string(),
                file: rel.to_string_lossy().replace('\\', "/"),
                fingerprint,
                message: d.message.clone(),
            }
        })
        .collect()
}

/// Writes a baseline atomically: a temp file in the same folder, then a rename.
pub fn write(
    path: &Path,
    entries: Vec<Entry>,
    cost: Option<BaselineCost>,
) -> Result<(), BaselineError> {
    let err = |source| BaselineError::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut findings = entries;
    findings.sort_by(|a, b| {
        (&a.file, &a.rule, &a.fingerprint).cmp(&(&b.file, &b.rule, &b.fingerprint))
    });
    let doc = Baseline {
        version: 1,
        findings,
        cost,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    let json = serde_json::to_string_pretty(&doc).map_err(|e| err(std::io::Error::other(e)))?;
    tmp.write_all(json.as_bytes()).map_err(err)?;
    tmp.write_all(b"\n").map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

/// Reads a baseline file.
pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
    let text = std::fs::read_to_string(path).map_err(|source| BaselineError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| BaselineError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// Keeps the diagnostics the baseline does not account for.
pub fn filter(
    baseline: &Baseline,
    diagnostics: Vec<Diagnostic>,
    keys: &[Entry],
) -> Vec<Diagnostic> {
    let mut budget: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for e in &baseline.findings {
        *budget
            .entry((&e.rule, &e.file, &e.fingerprint))
            .or_default() += 1;
    }
    diagnostics
        .into_iter()
        .zip(keys)
        .filter_map(|(d, k)| {
            match budget.get_mut(&(k.rule.as_str(), k.file.as_str(), k.fingerprint.as_str())) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    None
                }
                _ => Some(d),
            }
        })
        .collect()
}

fn enclosing_call(calls: &HashMap<&FilePath, Vec<Span>>, d: &Diagnostic) -> Option<Span> {
    let at = d.location.span;
    calls
        .get(&d.location.file)?
        .iter()
        .filter(|s| s.start <= at.start && at.end <= s.end)
        .min_by_key(|s| s.end - s.start)
        .copied()
}

/// The spans of every operation and its children, by file, in the order of
/// `operations`: each finding looks only at its own file's calls (looking at every
/// operation for every finding grew with their product: a hundredth of `check` on the
/// 10x real tree).
fn calls_by_file(operations: &[Operation]) -> HashMap<&FilePath, Vec<Span>> {
    let mut calls: HashMap<&FilePath, Vec<Span>> = HashMap::new();
    for op in operations
        .iter()
        .flat_map(|op| std::iter::once(op).chain(op.children.iter()))
    {
        calls.entry(&op.file).or_default().push(op.span);
    }
    calls
}

/// Folds all whitespace runs to one space.
fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
