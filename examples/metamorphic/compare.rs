//! Findings as the harness compares them: file, place (the site, or an original
//! offset), rule, severity and message with positions left out; and the difference of
//! two runs' findings as multisets.

use std::collections::BTreeMap;
use std::path::Path;

use dynalint::diagnostic::Diagnostic;
use regex::Regex;

use crate::edit::{Anchor, Edited};

/// One finding, keyed for comparison.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub file: String,
    pub anchor: Anchor,
    pub rule: String,
    pub severity: String,
    /// Positions (`file.rs:12`, `line 12`) left out.
    pub message: String,
    /// The original line of `anchor` (0 for the site or an unknown text), for listings:
    /// a function of file and anchor, so it never decides a comparison.
    pub line: usize,
}

impl Finding {
    /// `rule [severity] place: message`, the place as `file:line` of the original.
    pub fn show(&self) -> String {
        let place = match self.anchor {
            Anchor::Site => format!("{} (the site)", self.file),
            Anchor::At(_) => format!("{}:{}", self.file, self.line),
        };
        format!(
            "{} [{}] {place}: {}",
            self.rule, self.severity, self.message
        )
    }
}

/// Leaves positions out of messages: a rewrite moves lines.
pub struct Normalizer {
    file_line: Regex,
    line_word: Regex,
    table_label: Regex,
}

impl Normalizer {
    pub fn new() -> Self {
        Self {
            file_line: Regex::new(r"(\.[A-Za-z]{1,5}):\d+(:\d+)?").expect("a valid pattern"),
            line_word: Regex::new(r"\b(lines?) \d+").expect("a valid pattern"),
            table_label: Regex::new(r"^(`\w+` (?:on|of) )(`[^`]*`|<unknown table>)")
                .expect("a valid pattern"),
        }
    }

    /// Positions left out, and the label of a table the model does not have: for an
    /// unbound table a message shows the table argument's source text
    /// (`self.table_name`, `table_name()`), which a rewrite changes by design (`p0`).
    fn message(&self, m: &str, tables: &[String]) -> String {
        let m = self.file_line.replace_all(m, "$1:_");
        let m = self.line_word.replace_all(&m, "$1 _");
        self.table_label
            .replace(&m, |c: &regex::Captures<'_>| {
                let label = c[2].trim_matches('`');
                if tables.iter().any(|t| t == label) {
                    c[0].to_string()
                } else {
                    format!("{}<a table the model does not have>", &c[1])
                }
            })
            .into_owned()
    }
}

/// The findings of a run: those in `edited_file` are placed through `edited` (`back`
/// for the edited text's offsets when `is_edited`, `orig` for the original's).
/// `tables` are the models' table names; `project` has the files' original texts.
pub fn findings(
    diags: &[Diagnostic],
    edited_file: &Path,
    edited: &Edited,
    is_edited: bool,
    norm: &Normalizer,
    tables: &[String],
    project: &crate::project::Project,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = diags
        .iter()
        .map(|d| {
            let file = d.location.file.as_ref();
            let offset = d.location.span.start;
            let anchor = if file == edited_file {
                if is_edited {
                    edited.back(offset)
                } else {
                    edited.orig(offset)
                }
            } else {
                Anchor::At(offset)
            };
            let line = match anchor {
                Anchor::At(o) => project
                    .text_of(file)
                    .map_or(0, |t| crate::syntax::line_of(t, o)),
                Anchor::Site => 0,
            };
            Finding {
                line,
                file: display(file),
                anchor,
                rule: d.rule.to_string(),
                severity: format!("{:?}", d.severity).to_lowercase(),
                message: norm.message(&d.message, tables),
            }
        })
        .collect();
    out.sort();
    out
}

/// A path as findings show it (`./` left out).
pub fn display(p: &Path) -> String {
    let s = p.display().to_string();
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// What `after` lacks of `before`, and what it adds, as multisets.
pub fn diff(before: &[Finding], after: &[Finding]) -> (Vec<Finding>, Vec<Finding>) {
    let mut count: BTreeMap<&Finding, isize> = BTreeMap::new();
    for f in before {
        *count.entry(f).or_default() += 1;
    }
    for f in after {
        *count.entry(f).or_default() -= 1;
    }
    let mut missing = Vec::new();
    let mut added = Vec::new();
    for (f, n) in count {
        for _ in 0..n.max(0) {
            missing.push(f.clone());
        }
        for _ in 0..(-n).max(0) {
            added.push(f.clone());
        }
    }
    (missing, added)
}
