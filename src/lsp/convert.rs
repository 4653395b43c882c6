//! Library data → protocol data. Byte spans become UTF-16 ranges here, through
//! [`SourceFile::utf16_position`] and nowhere else.

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString, Position, Range,
};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::ModelProblem;
use crate::source::{SourceFile, Span};

use super::uri;

/// What diagnostics are labelled with in the editor.
pub const SOURCE: &str = "dynalint";

/// The protocol range of a byte span.
pub fn range(file: &SourceFile, span: Span) -> Range {
    let (l0, c0) = file.utf16_position(span.start);
    let (l1, c1) = file.utf16_position(span.end.max(span.start));
    Range::new(Position::new(l0, c0), Position::new(l1, c1))
}

/// The byte offset of a protocol position.
pub fn offset(file: &SourceFile, pos: Position) -> usize {
    file.offset_of_utf16(pos.line, pos.character)
}

/// The byte span of a protocol range.
pub fn span(file: &SourceFile, r: Range) -> Span {
    Span::new(offset(file, r.start), offset(file, r.end))
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// A finding as the editor shows it: the message with its help and notes appended
/// (editors show one text), labels as related information.
///
/// `file_of` returns the text of any file a label points into.
pub fn diagnostic<'a>(
    d: &Diagnostic,
    file: &SourceFile,
    file_of: impl Fn(&std::path::Path) -> Option<&'a SourceFile>,
) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(c) = &d.cost {
        message.push_str("\ncost: ");
        message.push_str(&c.text);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter_map(|l| {
            let f = file_of(&l.location.file)?;
            Some(DiagnosticRelatedInformation {
                location: lsp_types::Location::new(
                    uri::from_path(&l.location.file)?,
                    range(f, l.location.span),
                ),
                message: l.message.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range: range(file, d.location.span),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.rule.to_string())),
        code_description: None,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The code of diagnostics about `dynalint.toml` itself, and about the model inferred
/// without one.
pub const MODEL_CODE: &str = "model";

/// Something inferring the model could not use (a template that does not read, a
/// `create_table` whose name is not known), where it is, as information: the
/// project's calls bind to less than they could, and this says why.
pub fn inference_note(n: &crate::infer::InferNote, file: &SourceFile) -> lsp_types::Diagnostic {
    let range = if n.span.start == n.span.end && n.line > 0 {
        let line = u32::try_from(n.line - 1).unwrap_or(u32::MAX);
        Range::new(Position::new(line, 0), Position::new(line, 0))
    } else {
        range(file, n.span)
    };
    lsp_types::Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::INFORMATION),
        code: Some(NumberOrString::String(MODEL_CODE.into())),
        code_description: None,
        source: Some(SOURCE.into()),
        message: format!("model inferred without a `dynalint.toml`: {}", n.message),
        related_information: None,
        tags: None,
        data: None,
    }
}

/// A problem in `dynalint.toml` (bad TOML, unknown field, ...), at its TOML span.
pub fn model_problem(p: &ModelProblem, config: &SourceFile) -> lsp_types::Diagnostic {
    let mut message = p.message.clone();
    if let Some(help) = &p.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related: Vec<DiagnosticRelatedInformation> = uri::from_path(&config.path)
        .map(|u| {
            p.labels
                .iter()
                .map(|(span, msg)| DiagnosticRelatedInformation {
                    location: lsp_types::Location::new(u.clone(), range(config, *span)),
                    message: msg.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    lsp_types::Diagnostic {
        range: range(config, p.span),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(MODEL_CODE.to_string())),
        code_description: None,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Category;

    #[test]
    fn ranges_count_utf16_units_after_non_ascii_text() {
        let text = "// 😀 naïve\nlet x = client.scan();\n";
        let f = SourceFile::new("/p/a.rs", text);
        let start = text.find("scan").unwrap();
        let r = range(&f, Span::new(start, start + 4));
        assert_eq!(r, Range::new(Position::new(1, 15), Position::new(1, 19)));
        // Line 0: `// ` (3) + 😀 (2 units) + ` naïve` (6) = 11 units.
        let end0 = text.find('\n').unwrap();
        assert_eq!(range(&f, Span::new(end0, end0)).start, Position::new(0, 11));
        assert_eq!(span(&f, r), Span::new(start, start + 4));
    }

    #[test]
    fn diagnostics_carry_rule_help_notes_and_labels() {
        let f = SourceFile::new("/p/a.rs", "fn h() { c.scan(); }\n");
        let mut d = Diagnostic::new(
            "scan-in-hot-path",
            Category::Perf,
            Severity::Warning,
            f.path.clone(),
            Span::new(11, 15),
            "`scan` runs on every request",
        );
        d.label(
            f.path.clone(),
            Span::new(3, 4),
            "`h` is on the request path",
        )
        .note("hot because: axum route")
        .help("query instead");
        let out = diagnostic(&d, &f, |_| Some(&f));
        assert_eq!(out.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(
            out.code,
            Some(NumberOrString::String("scan-in-hot-path".into()))
        );
        assert_eq!(
            out.message,
            "`scan` runs on every request\nnote: hot because: axum route\nhelp: query instead"
        );
        let rel = out.related_information.unwrap();
        assert_eq!(rel[0].location.uri.as_str(), "file:///p/a.rs");
        assert_eq!(rel[0].location.range.start, Position::new(0, 3));
    }
}
