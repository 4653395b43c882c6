//! What the harness prints and writes: per rewrite and per defect kind, the counts; per
//! failing case, one Markdown file (the site, the original and edited code, findings
//! before and after) under `<out>/rewrites/<rewrite>/` or `<out>/defects/<kind>/`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::compare::Finding;
use crate::defects::{Expect, ExpectAt};
use crate::edit::Anchor;

/// One analysed variant.
pub struct Case {
    pub what: String,
    /// The defect's variation (names, values, shape), empty for a rewrite.
    pub label: String,
    pub path: String,
    pub line: usize,
    pub kind: String,
    pub table: Option<String>,
    pub original: String,
    pub edited: String,
    pub original_ranges: Vec<Range<usize>>,
    pub edited_ranges: Vec<Range<usize>>,
    pub before: Vec<Finding>,
    pub after: Vec<Finding>,
    /// Before, not after.
    pub lost: Vec<Finding>,
    /// After, not before.
    pub gained: Vec<Finding>,
    /// What a defect must add.
    pub expect: Option<Expect>,
    /// `original` is the defect's baseline (the site with a correct form of what the
    /// defect gets wrong), not the untouched file.
    pub baseline: bool,
}

impl Case {
    /// The expected finding among the gained ones (a defect only).
    pub fn detected(&self) -> bool {
        self.expect
            .as_ref()
            .is_some_and(|e| self.gained.iter().any(|f| e.matches(f)))
    }

    /// Findings gained besides the expected one. The expected finding said at more
    /// than one place (a hot index key on the model's index and on the write that
    /// shows it) is one finding. A finding that was there before, at the same place
    /// with the same rule and severity, whose message the defect changed (a Scan in a
    /// loop no longer "reads every page" once its pagination is gone) is not new; nor
    /// is one the defect weakened to a lower severity (a warning that a put appends to
    /// a Query's collection without bound becomes that Query's question once the put is
    /// rejected and writes nothing).
    pub fn others_gained(&self) -> Vec<&Finding> {
        let mut lost: Vec<&Finding> = self.lost.iter().collect();
        self.gained
            .iter()
            .filter(|f| {
                if self.expect.as_ref().is_some_and(|e| e.matches(f)) {
                    return false;
                }
                if self.expect.as_ref().is_some_and(|e| e.repeats_in_loop)
                    && f.anchor == Anchor::Site
                    && f.message.contains("once per iteration of a loop")
                {
                    return false;
                }
                let same_place = |l: &&Finding| {
                    l.file == f.file
                        && l.anchor == f.anchor
                        && l.rule == f.rule
                        && rank(&l.severity) >= rank(&f.severity)
                };
                if let Some(i) = lost.iter().position(same_place) {
                    lost.remove(i);
                    return false;
                }
                true
            })
            .collect()
    }

    /// A rewrite left every finding as it was; a defect added its finding and nothing else.
    pub fn passed(&self) -> bool {
        match &self.expect {
            None => self.lost.is_empty() && self.gained.is_empty(),
            Some(_) => self.detected() && self.others_gained().is_empty(),
        }
    }
}

/// A severity's order: an error above a warning above the rest (info, a note).
fn rank(severity: &str) -> u8 {
    match severity {
        "error" => 2,
        "warning" => 1,
        _ => 0,
    }
}

impl Expect {
    pub fn matches(&self, f: &Finding) -> bool {
        f.rule == self.rule
            && match &self.at {
                ExpectAt::Site => f.anchor == Anchor::Site,
                ExpectAt::Message(m) => f.message.contains(m.as_str()),
            }
    }
}

/// Counts of one rewrite or defect kind.
#[derive(Default)]
pub struct Tally {
    pub cases: usize,
    /// Invariant (a rewrite) or detected (a defect).
    pub passed: usize,
    /// A defect detected with nothing else new.
    pub exact: usize,
    pub harness_errors: usize,
    pub not_applicable: BTreeMap<String, usize>,
    /// The distinct sites with a case (`path:line`).
    pub sites: std::collections::BTreeSet<String>,
}

impl Tally {
    pub fn not_applicable(&mut self, why: &str) {
        *self.not_applicable.entry(why.to_string()).or_default() += 1;
    }

    pub fn add(&mut self, entry: &str, c: &Case) {
        self.cases += 1;
        self.sites.insert(format!("{entry} {}:{}", c.path, c.line));
        match &c.expect {
            None => self.passed += usize::from(c.passed()),
            Some(_) => {
                self.passed += usize::from(c.detected());
                self.exact += usize::from(c.passed());
            }
        }
    }
}

fn rate(n: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / of as f64)
    }
}

/// The tables, and the reasons for "not applicable".
pub fn summary(
    names: &[&str],
    tallies: &[Tally],
    rewrites: usize,
    sites: usize,
    entries: usize,
    harness_errors: usize,
    no_model: bool,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{sites} call sites in {entries} trees ({})",
        if no_model {
            "models inferred: --no-model"
        } else {
            "hand-written models"
        }
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<22} {:>7} {:>9} {:>7} {:>9} {:>6} {:>7}",
        "rewrite", "applied", "invariant", "changed", "rate", "n/a", "harness"
    );
    // `applied` counts sites: each rewrite makes one variant per site.
    for (i, t) in tallies.iter().enumerate().take(rewrites) {
        let na: usize = t.not_applicable.values().sum();
        let _ = writeln!(
            s,
            "{:<22} {:>7} {:>9} {:>7} {:>9} {:>6} {:>7}",
            names[i],
            t.cases,
            t.passed,
            t.cases - t.passed,
            rate(t.passed, t.cases),
            na,
            t.harness_errors
        );
    }
    let _ = writeln!(s);
    // `n/a` counts sites; `sites` those with a case; `exact`: detected, nothing else new.
    let _ = writeln!(
        s,
        "{:<22} {:>7} {:>6} {:>9} {:>9} {:>7} {:>9} {:>6} {:>7}",
        "defect", "cases", "sites", "detected", "rate", "exact", "rate", "n/a", "harness"
    );
    for (i, t) in tallies.iter().enumerate().skip(rewrites) {
        let na: usize = t.not_applicable.values().sum();
        let _ = writeln!(
            s,
            "{:<22} {:>7} {:>6} {:>9} {:>9} {:>7} {:>9} {:>6} {:>7}",
            names[i],
            t.cases,
            t.sites.len(),
            t.passed,
            rate(t.passed, t.cases),
            t.exact,
            rate(t.exact, t.cases),
            na,
            t.harness_errors
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "variants the harness got wrong (did not parse): {harness_errors}"
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "not applicable, by reason:");
    for (i, t) in tallies.iter().enumerate() {
        let mut reasons: Vec<(&String, &usize)> = t.not_applicable.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1));
        for (why, n) in reasons {
            let _ = writeln!(s, "  {:<22} {:>5}  {why}", names[i], n);
        }
    }
    s
}

/// What the output folder holds, written into it.
const OUT_README: &str = "\
# Metamorphic and seeded-defect cases

Written by `cargo run --release --example metamorphic` (see the project's README).

- `summary.txt`: invariance per rewrite, detection per defect kind, and why each could
  not apply where it did not.
- `rewrites/<rewrite>/<tree>--<file>-L<line>.md`: a rewrite after which the findings
  changed: the findings lost and gained (a place shown as \"the site\" is inside the
  call or the code the rewrite wrote), the original and the edited code, every finding
  before and after.
- `defects/<kind>/<tree>--<file>-L<line>--<variation>.md`: a defect whose finding did
  not appear at the site, or that brought other new findings.
- `harness-errors/<rewrite or defect>/`: variants that did not parse: the harness's
  fault, not dynalint's.
";

/// The output folder.
pub struct Out {
    root: PathBuf,
    counter: AtomicUsize,
}

impl Out {
    /// Empties the harness's folders under `root` (nothing else there is touched).
    pub fn create(root: &Path) -> Result<Self, String> {
        for sub in ["rewrites", "defects", "harness-errors"] {
            let d = root.join(sub);
            if d.exists() {
                std::fs::remove_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
            }
        }
        std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
        let readme = root.join("README.md");
        std::fs::write(&readme, OUT_README).map_err(|e| format!("{}: {e}", readme.display()))?;
        Ok(Self {
            root: root.to_path_buf(),
            counter: AtomicUsize::new(0),
        })
    }

    fn write(&self, dir: &Path, stem: &str, text: &str) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut path = dir.join(format!("{stem}.md"));
        let mut k = 2;
        while path.exists() {
            path = dir.join(format!("{stem}-{k}.md"));
            k += 1;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn write_summary(&self, text: &str) -> Result<(), String> {
        let p = self.root.join("summary.txt");
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    }

    pub fn write_harness_error(&self, entry: &str, what: &str, e: &str) -> Result<(), String> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.join("harness-errors").join(what);
        self.write(
            &dir,
            &format!("{}-{n}", file_stem(entry)),
            &format!("# {what} at {entry}\n\n{e}\n"),
        )
    }

    pub fn write_case(&self, entry: &str, c: &Case) -> Result<(), String> {
        let group = if c.expect.is_some() {
            "defects"
        } else {
            "rewrites"
        };
        let dir = self.root.join(group).join(&c.what);
        let mut stem = format!("{}--{}-L{}", file_stem(entry), file_stem(&c.path), c.line);
        if !c.label.is_empty() {
            stem.push_str("--");
            stem.push_str(&file_stem(&c.label));
        }
        self.write(&dir, &stem, &render_case(entry, c))
    }
}

fn file_stem(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Lines `from..=to` (1-based) of `text`, numbered.
pub fn excerpt(text: &str, from: usize, to: usize) -> String {
    text.lines()
        .enumerate()
        .filter(|(i, _)| *i + 1 >= from.max(1) && *i < to)
        .map(|(i, l)| format!("{:>5} {l}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

fn line_of(text: &str, at: usize) -> usize {
    crate::syntax::line_of(text, at)
}

fn render_case(entry: &str, c: &Case) -> String {
    let mut s = String::new();
    let what = if c.label.is_empty() {
        c.what.clone()
    } else {
        format!("{} ({})", c.what, c.label)
    };
    let _ = writeln!(
        s,
        "# {what} at {entry} {}:{} ({} on {})\n",
        c.path,
        c.line,
        c.kind,
        c.table.as_deref().unwrap_or("an unbound table")
    );
    let list = |s: &mut String, title: &str, fs: &[&Finding]| {
        let _ = writeln!(s, "## {title}\n");
        if fs.is_empty() {
            let _ = writeln!(s, "(none)");
        }
        for f in fs {
            let _ = writeln!(s, "- {}", f.show());
        }
        let _ = writeln!(s);
    };
    if let Some(e) = &c.expect {
        let _ = writeln!(
            s,
            "expected: `{}` {}; detected: {}\n",
            e.rule,
            match &e.at {
                ExpectAt::Site => "at the site".to_string(),
                ExpectAt::Message(m) => format!("naming `{m}`"),
            },
            c.detected()
        );
        list(
            &mut s,
            "Gained besides the expected finding",
            &c.others_gained(),
        );
    } else {
        list(
            &mut s,
            "Lost (before, not after)",
            &c.lost.iter().collect::<Vec<_>>(),
        );
        list(
            &mut s,
            "Gained (after, not before)",
            &c.gained.iter().collect::<Vec<_>>(),
        );
    }
    if c.expect.is_some() {
        list(
            &mut s,
            "Lost (before, not after)",
            &c.lost.iter().collect::<Vec<_>>(),
        );
    }
    let span = |text: &str, rs: &[Range<usize>]| {
        let from = rs.iter().map(|r| line_of(text, r.start)).min().unwrap_or(1);
        let to = rs.iter().map(|r| line_of(text, r.end)).max().unwrap_or(1);
        (from.saturating_sub(4), (to + 4).min(from + 160))
    };
    let (a, b) = span(&c.original, &c.original_ranges);
    let heading = if c.baseline {
        format!("Baseline, what the defect is compared with (lines {a}-{b} of its file)")
    } else {
        format!("Original ({}:{a}-{b})", c.path)
    };
    let _ = writeln!(
        s,
        "## {heading}\n\n```rust\n{}\n```\n",
        excerpt(&c.original, a, b)
    );
    let (a, b) = span(&c.edited, &c.edited_ranges);
    let _ = writeln!(
        s,
        "## Edited (lines {a}-{b} of the edited file)\n\n```rust\n{}\n```\n",
        excerpt(&c.edited, a, b)
    );
    list(
        &mut s,
        "All findings before",
        &c.before.iter().collect::<Vec<_>>(),
    );
    list(
        &mut s,
        "All findings after",
        &c.after.iter().collect::<Vec<_>>(),
    );
    s
}
