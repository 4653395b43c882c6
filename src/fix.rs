//! Applying the mechanical fixes rules attach to findings (`dynalint check --fix`).
//!
//! A fix is a set of edits; it is applied whole or not at all. Fixes whose edits would
//! overlap an edit already accepted are left for the next run (like `cargo fix` and
//! `ruff --fix`, which re-check after fixing), so the edits applied never conflict.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use crate::diagnostic::{Diagnostic, Edit};
use crate::source::{FilePath, SourceFile, Span};

/// The new text of one file and how many fixes it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedFile {
    pub path: FilePath,
    pub text: String,
    pub fixes: usize,
}

/// Why a fixed file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the fixed `{path}`: {source}")]
pub struct WriteError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

/// The fixed text of every file some fix edits, in path order. Only edits inside
/// `files` are applied; a fix with an edit elsewhere (or out of range) is skipped.
pub fn apply(files: &[SourceFile], diagnostics: &[Diagnostic]) -> Vec<FixedFile> {
    // Accepted edits per file, kept sorted and disjoint.
    let mut accepted: BTreeMap<FilePath, (Vec<&Edit>, usize)> = BTreeMap::new();
    let mut fixes: Vec<&crate::diagnostic::Fix> =
        diagnostics.iter().filter_map(|d| d.fix.as_ref()).collect();
    fixes.sort_by_key(|f| f.edits.iter().map(|e| e.location.span.start).min());
    for fix in fixes {
        let fits = !fix.edits.is_empty()
            && fix.edits.iter().enumerate().all(|(i, e)| {
                let in_file = files
                    .iter()
                    .find(|f| f.path == e.location.file)
                    .is_some_and(|f| within(&f.text, e.location.span));
                let clear_of_accepted = accepted
                    .get(&e.location.file)
                    .is_none_or(|(taken, _)| taken.iter().all(|t| disjoint(t, e)));
                let clear_of_siblings = fix.edits[..i]
                    .iter()
                    .filter(|o| o.location.file == e.location.file)
                    .all(|o| disjoint(o, e));
                in_file && clear_of_accepted && clear_of_siblings
            });
        if !fits {
            continue;
        }
        let mut touched: Vec<&FilePath> = Vec::new();
        for e in &fix.edits {
            let entry = accepted.entry(e.location.file.clone()).or_default();
            entry.0.push(e);
            if !touched.contains(&&e.location.file) {
                touched.push(&e.location.file);
                entry.1 += 1;
            }
        }
    }
    accepted
        .into_iter()
        .filter_map(|(path, (mut edits, fixes))| {
            let file = files.iter().find(|f| f.path == path)?;
            // From the end, so earlier offsets stay valid; inserts at one point keep
            // their order.
            edits.sort_by_key(|e| (e.location.span.start, e.location.span.end));
            let mut text = file.text.to_string();
            for e in edits.iter().rev() {
                text.replace_range(e.location.span.range(), &e.replacement);
            }
            Some(FixedFile { path, text, fixes })
        })
        .collect()
}

/// Writes a fixed file in place: a temp file beside it, then a rename, so a crash never
/// leaves half a source file.
pub fn write(file: &FixedFile) -> Result<(), WriteError> {
    let path: &Path = &file.path;
    let err = |source| WriteError {
        path: path.display().to_string(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    tmp.write_all(file.text.as_bytes()).map_err(err)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

fn within(text: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

/// Two edits conflict when their ranges overlap, or when one inserts at the start or
/// end of the other (the order of the two texts would be a guess).
fn disjoint(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.location.span, b.location.span);
    if a.start == a.end || b.start == b.end {
        return a.end < b.start || b.end < a.start;
    }
    a.end <= b.start || b.end <= a.start
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Category, Fix, Severity};
    use crate::source::Location;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("a.rs", text.to_string())
    }

    fn finding(edits: &[(usize, usize, &str)]) -> Diagnostic {
        let path: FilePath = std::path::PathBuf::from("a.rs").into();
        let mut d = Diagnostic::new(
            "rejected-request",
            Category::Correctness,
            Severity::Error,
            path.clone(),
            Span::new(0, 1),
            "m",
        );
        d.fix = Some(Fix {
            title: "t".into(),
            edits: edits
                .iter()
                .map(|(s, e, r)| Edit {
                    location: Location::new(path.clone(), Span::new(*s, *e)),
                    replacement: r.to_string(),
                })
                .collect(),
        });
        d
    }

    #[test]
    fn applies_every_edit_of_a_fix_from_the_end() {
        let f = file("q.filter(\"status = :s\").send()");
        // `status` → `#status`, and the names setter inserted before `.send()`.
        let d = finding(&[
            (10, 16, "#status"),
            (23, 23, ".names(\"#status\", \"status\")"),
        ]);
        let out = apply(&[f], &[d]);
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].text,
            "q.filter(\"#status = :s\").names(\"#status\", \"status\").send()"
        );
        assert_eq!(out[0].fixes, 1);
    }

    #[test]
    fn overlapping_fixes_leave_the_later_one_for_the_next_run() {
        let f = file("abcdefgh");
        let first = finding(&[(2, 5, "X")]);
        let overlapping = finding(&[(4, 6, "Y")]);
        let same_insert_point = finding(&[(2, 2, "Z")]);
        let apart = finding(&[(6, 8, "")]);
        let out = apply(&[f], &[overlapping, first, apart, same_insert_point]);
        assert_eq!(out[0].text, "abXf");
        assert_eq!(out[0].fixes, 2);
    }

    #[test]
    fn edits_out_of_range_or_in_unknown_files_are_not_applied() {
        let f = file("abc");
        assert!(apply(std::slice::from_ref(&f), &[finding(&[(2, 9, "")])]).is_empty());
        let mut elsewhere = finding(&[(0, 1, "")]);
        if let Some(fix) = &mut elsewhere.fix {
            fix.edits[0].location.file = std::path::PathBuf::from("b.rs").into();
        }
        assert!(apply(&[f], &[elsewhere]).is_empty());
        // Inside a multi-byte character.
        let g = file("é");
        assert!(apply(&[g], &[finding(&[(1, 2, "")])]).is_empty());
    }
}
