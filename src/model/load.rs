//! Finding and loading `dynalint.toml`: parse with spans, read every field, validate
//! across items, and report every problem at once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::de::DeTable;

use super::import::{self, Imported};
pub use super::problem::{ModelError, ModelProblem, ProblemKind};
use super::read::{self, Broken};
use super::types::Model;
use super::validate;
use crate::source::Span;

/// The file name dynalint looks for, walking up from the checked path.
pub const CONFIG_FILE_NAME: &str = "dynalint.toml";

/// Walks up from `start` (a file or folder) to the nearest `dynalint.toml`.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = if start.is_file() {
        // `repo.rs` has the parent "": the current folder.
        Some(start.parent()?)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    } else {
        start
    };
    let abs = std::fs::canonicalize(start).ok()?;
    abs.ancestors()
        .map(|d| d.join(CONFIG_FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and loads a model file.
pub fn load_file(path: &Path) -> Result<Model, ModelError> {
    let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    load_str(path, &text).map_err(|problems| ModelError::Invalid {
        path: path.to_path_buf(),
        text,
        problems,
    })
}

/// Loads a model from text. Every problem is reported at once, in file order; a model
/// is returned only when there is none.
pub fn load_str(path: &Path, text: &str) -> Result<Model, Vec<ModelProblem>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        // After a syntax error the document is a guess; reporting field problems on
        // it would mostly be noise, so only the syntax errors are reported.
        let mut problems: Vec<ModelProblem> = errors
            .iter()
            .map(|e| {
                let span = e
                    .span()
                    .map(|r| clamp(Span::from(r), text.len()))
                    .unwrap_or_default();
                ModelProblem::of(ProblemKind::Syntax, span, syntax_message(e.message()))
            })
            .collect();
        sort(&mut problems);
        // The recovering parser can report one error once per construct it unwinds
        // (`tables = [[[` is three unclosed arrays at one place): said once.
        problems.dedup_by(|a, b| a.span == b.span && a.message == b.message);
        return Err(problems);
    }
    let mut problems = Vec::new();
    let mut model = Model::empty(Arc::from(path));
    let mut broken = Broken::default();
    let imported = imports(path, doc.get_ref(), &mut problems);
    broken.imported = imported.tables.iter().map(|t| t.name.clone()).collect();
    read::document(doc.get_ref(), &mut model, &mut broken, &mut problems);
    for t in &mut model.tables {
        t.origin.line = line_of(text, t.span.start);
    }
    import::fill_keys(&mut model, &imported);
    validate::check(&model, text, &broken, &mut problems);
    model.import_notes = import::apply_to_model(&mut model, imported);
    if problems.is_empty() {
        Ok(model)
    } else {
        sort(&mut problems);
        Err(problems)
    }
}

/// Reads the files of `import = [..]`, relative to the `dynalint.toml`. A file that
/// cannot be read is a problem of the model (it names a file that is not there); what
/// is inside it that cannot be imported is a note.
fn imports(path: &Path, doc: &DeTable<'_>, problems: &mut Vec<ModelProblem>) -> Imported {
    let mut out = Imported::default();
    let Some(list) = doc.get("import").and_then(|v| v.get_ref().as_array()) else {
        return out;
    };
    let base = path.parent().unwrap_or(Path::new(""));
    for item in list.iter() {
        let Some(file) = item.get_ref().as_str() else {
            // `read` reports the wrong type.
            continue;
        };
        let span = Span::from(item.span());
        let p = base.join(file);
        match crate::encoding::read_to_string(&p) {
            Ok(text) => import::merge(&mut out, import::import_file(&p, &text)),
            Err(e) => problems.push(
                ModelProblem::of(
                    ProblemKind::InvalidValue,
                    span,
                    format!("cannot read `{file}` named in `import`: {e}"),
                )
                .with_help("paths in `import` are relative to the folder of `dynalint.toml`"),
            ),
        }
    }
    out
}

/// TOML's parser messages, in our style (lowercase start, no trailing period).
fn syntax_message(m: &str) -> String {
    let m = m.trim().trim_end_matches('.');
    let mut chars = m.chars();
    let first = chars.next().map(|c| c.to_lowercase().collect::<String>());
    format!(
        "invalid TOML: {}{}",
        first.unwrap_or_default(),
        chars.as_str()
    )
}

/// The 1-based line of a byte offset.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn clamp(span: Span, len: usize) -> Span {
    Span::new(span.start.min(len), span.end.min(len))
}

/// File order, then kind, so output is stable.
fn sort(problems: &mut [ModelProblem]) {
    problems.sort_by(|a, b| {
        (a.span.start, a.span.end, a.kind, &a.message).cmp(&(
            b.span.start,
            b.span.end,
            b.kind,
            &b.message,
        ))
    });
}
