//! rustc-like rendering through codespan-reporting. The only user of that crate.

use std::collections::HashMap;
use std::path::Path;

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::Buffer, Config};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::{ModelError, ModelProblem};
use crate::source::{FilePath, SourceFile};
use crate::workspace::display_path;

/// The files diagnostics point into, by path.
pub struct Files {
    db: SimpleFiles<String, std::sync::Arc<str>>,
    ids: HashMap<FilePath, usize>,
}

impl Files {
    pub fn new<'a>(sources: impl IntoIterator<Item = &'a SourceFile>) -> Self {
        let mut f = Files {
            db: SimpleFiles::new(),
            ids: HashMap::new(),
        };
        for s in sources {
            f.add(s);
        }
        f
    }

    pub fn add(&mut self, s: &SourceFile) {
        if !self.ids.contains_key(&s.path) {
            let id = self.db.add(display_path(&s.path), s.text.clone());
            self.ids.insert(s.path.clone(), id);
        }
    }

    fn id(&self, p: &FilePath) -> Option<usize> {
        self.ids.get(p).copied()
    }
}

fn buffer(color: bool) -> Buffer {
    if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    }
}

fn severity(s: Severity) -> CsSeverity {
    match s {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    }
}

/// Renders diagnostics rustc-style. A diagnostic whose file is unknown is rendered
/// without a snippet, never dropped.
pub fn render(diagnostics: &[Diagnostic], files: &Files, color: bool) -> String {
    let config = Config::default();
    let mut out = buffer(color);
    for d in diagnostics {
        let mut cs = CsDiagnostic::new(severity(d.severity))
            .with_code(d.rule)
            .with_message(&d.message);
        let mut notes = Vec::new();
        match files.id(&d.location.file) {
            Some(id) => {
                let mut labels = vec![CsLabel::primary(id, d.location.span.range())];
                for l in &d.labels {
                    match files.id(&l.location.file) {
                        Some(lid) => labels.push(
                            CsLabel::secondary(lid, l.location.span.range())
                                .with_message(&l.message),
                        ),
                        None => {
                            notes.push(format!("{}: {}", display_path(&l.location.file), l.message))
                        }
                    }
                }
                cs = cs.with_labels(labels);
            }
            None => notes.push(format!("in {}", display_path(&d.location.file))),
        }
        notes.extend(d.notes.iter().map(|n| format!("note: {n}")));
        if let Some(c) = &d.cost {
            notes.push(format!("cost: {}", c.text));
        }
        if let Some(h) = &d.help {
            notes.push(format!("help: {h}"));
        }
        notes.push(format!("note: for more, run `dynalint explain {}`", d.rule));
        cs = cs.with_notes(notes);
        if !out.is_empty() {
            let _ = std::io::Write::write_all(&mut out, b"\n");
        }
        if term::emit(&mut out, &config, &files.db, &cs).is_err() {
            // The span fell outside the file (it changed under us): say it plainly.
            let line = format!(
                "{}[{}]: {} ({})\n",
                d.severity,
                d.rule,
                d.message,
                display_path(&d.location.file)
            );
            return String::from_utf8_lossy(out.as_slice()).into_owned() + &line;
        }
    }
    String::from_utf8_lossy(out.as_slice()).into_owned()
}

/// Renders the problems of a `dynalint.toml` that failed to load.
pub fn render_model_problems(
    path: &Path,
    text: &str,
    problems: &[ModelProblem],
    color: bool,
) -> String {
    let mut db = SimpleFiles::new();
    let id = db.add(display_path(path), text.to_string());
    let config = Config::default();
    let mut out = buffer(color);
    for p in problems {
        let mut labels = vec![CsLabel::primary(id, clamp(p.span.range(), text.len()))];
        for (span, msg) in &p.labels {
            labels.push(CsLabel::secondary(id, clamp(span.range(), text.len())).with_message(msg));
        }
        let mut cs = CsDiagnostic::error()
            .with_message(&p.message)
            .with_labels(labels);
        if let Some(h) = &p.help {
            cs = cs.with_notes(vec![format!("help: {h}")]);
        }
        if term::emit(&mut out, &config, &db, &cs).is_err() {
            return String::from_utf8_lossy(out.as_slice()).into_owned()
                + &format!("error: {}\n", p.message);
        }
    }
    String::from_utf8_lossy(out.as_slice()).into_owned()
}

/// Renders any model error: IO errors as one line, invalid models with spans.
pub fn render_model_error(err: &ModelError, color: bool) -> String {
    match err {
        ModelError::Invalid {
            path,
            text,
            problems,
        } => render_model_problems(path, text, problems, color),
        other => format!("error: {other}\n"),
    }
}

fn clamp(r: std::ops::Range<usize>, len: usize) -> std::ops::Range<usize> {
    let s = r.start.min(len);
    s..r.end.clamp(s, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Category;
    use crate::source::Span;

    #[test]
    fn renders_rustc_like_with_code_and_help() {
        let f = SourceFile::new("src/a.rs", "fn a() {\n    client.scan().send();\n}\n");
        let files = Files::new([&f]);
        let d = Diagnostic::new(
            "scan-in-hot-path",
            Category::Perf,
            Severity::Warning,
            f.path.clone(),
            Span::new(20, 24),
            "boom",
        )
        .with_help("do less");
        let out = render(&[d], &files, false);
        assert!(out.contains("warning[scan-in-hot-path]: boom"), "{out}");
        assert!(out.contains("src/a.rs:2:12"), "{out}");
        assert!(out.contains("help: do less"), "{out}");
    }

    #[test]
    fn spans_outside_the_file_do_not_panic() {
        let f = SourceFile::new("a.rs", "x");
        let files = Files::new([&f]);
        let d = Diagnostic::new(
            "r",
            Category::Perf,
            Severity::Error,
            f.path.clone(),
            Span::new(50, 90),
            "m",
        );
        let out = render(&[d], &files, false);
        assert!(out.contains('m'));
        let p = ModelProblem::new(Span::new(10, 20), "bad");
        assert!(render_model_problems(Path::new("d.toml"), "x", &[p], false).contains("bad"));
    }
}
