//! `textDocument/codeAction`: for each finding under the cursor, its mechanical fix
//! (when the rule has one) and "allow this finding here".

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::Value;

use crate::analysis::suppress::parse_allows;
use crate::diagnostic::{Diagnostic, Fix};
use crate::lsp::session::{HandlerResult, Session};
use crate::lsp::{convert, uri};
use crate::project::Snapshot;
use crate::rules::UNUSED_ALLOW;
use crate::scanner::Operation;
use crate::source::{SourceFile, Span};

/// The placeholder the user replaces with why the finding is acceptable.
pub const REASON_PLACEHOLDER: &str = "<reason>";

/// Lists the quick fixes for the findings overlapping the requested range.
pub fn handle(s: &mut Session, p: CodeActionParams) -> HandlerResult {
    let (path, config) = s.locate(&p.text_document.uri)?;
    let wants_quickfix = p.context.only.as_ref().is_none_or(|only| {
        only.iter()
            .any(|k| CodeActionKind::QUICKFIX.as_str().starts_with(k.as_str()))
    });
    if !wants_quickfix {
        return Ok(Value::Array(Vec::new()));
    }
    let Some((snap, _)) = s.view(&config) else {
        return Ok(Value::Array(Vec::new()));
    };
    let Some(file) = snap.file(&path) else {
        return Ok(Value::Array(Vec::new()));
    };
    let uri = p.text_document.uri;
    let wanted = convert::span(file, p.range);
    let mut actions = Vec::new();
    for d in snap
        .analysis
        .diagnostics
        .iter()
        .filter(|d| *d.location.file == *path && overlaps(d.location.span, wanted))
    {
        let shown = convert::diagnostic(d, file, |p| snap.file(p));
        if let Some(fix) = &d.fix {
            if let Some(edit) = fix_edit(fix, snap, &path, &uri) {
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![shown.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(true),
                    ..Default::default()
                }));
            }
        }
        if d.rule != UNUSED_ALLOW && path.extension().is_some_and(|e| e == "rs") {
            let edit = allow_edit(file, &snap.analysis.operations, d);
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Allow `{}` here", d.rule),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![shown]),
                edit: Some(WorkspaceEdit::new(HashMap::from([(
                    uri.clone(),
                    vec![edit],
                )]))),
                is_preferred: Some(false),
                ..Default::default()
            }));
        }
    }
    Ok(serde_json::to_value(actions).unwrap_or(Value::Array(Vec::new())))
}

/// Touching counts: a cursor right after a finding still offers its fixes.
fn overlaps(a: Span, b: Span) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// A rule's fix as a workspace edit; edits may reach into other files of the project.
// `Uri` hashes its text; the lint sees a `Cell` inside it that never affects hashing.
#[allow(clippy::mutable_key_type)]
fn fix_edit(fix: &Fix, snap: &Snapshot, path: &Path, uri: &Uri) -> Option<WorkspaceEdit> {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for e in &fix.edits {
        let file = snap.file(&e.location.file)?;
        let target = if *e.location.file == *path {
            uri.clone()
        } else {
            uri::from_path(&e.location.file)?
        };
        changes.entry(target).or_default().push(TextEdit::new(
            convert::range(file, e.location.span),
            e.replacement.clone(),
        ));
    }
    Some(WorkspaceEdit::new(changes))
}

/// The edit that suppresses `d`: its id added to an allow comment already standing
/// above the call, or a new comment line above the call, indented like it.
pub fn allow_edit(file: &SourceFile, operations: &[Operation], d: &Diagnostic) -> TextEdit {
    let start = call_start(operations, d);
    let line = file.line_index(start);
    let line_start = file.line_start(line);
    let existing = parse_allows(file)
        .into_iter()
        .find(|a| !a.whole_file && a.target_line == line && file.line_index(a.span.start) < line);
    if let Some((_, last)) = existing.as_ref().and_then(|a| a.rules.last()) {
        let at = convert::range(file, Span::new(last.end, last.end));
        return TextEdit::new(at, format!(", {}", d.rule));
    }
    let text = &file.text[line_start..];
    let indent: String = text
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let eol = if text.split('\n').next().is_some_and(|l| l.ends_with('\r')) {
        "\r\n"
    } else {
        "\n"
    };
    let at = convert::range(file, Span::new(line_start, line_start));
    TextEdit::new(
        at,
        format!(
            "{indent}// dynalint: allow({}) -- {REASON_PLACEHOLDER}{eol}",
            d.rule
        ),
    )
}

/// Where the call holding the finding starts (an allow must touch the call), or the
/// finding itself when it is not inside a call.
fn call_start(operations: &[Operation], d: &Diagnostic) -> usize {
    let at = d.location.span;
    let mut best: Option<Span> = None;
    let mut stack: Vec<&Operation> = operations.iter().collect();
    while let Some(op) = stack.pop() {
        stack.extend(op.children.iter());
        let inside =
            op.file == d.location.file && op.span.start <= at.start && at.end <= op.span.end;
        if inside && best.is_none_or(|b| op.span.end - op.span.start < b.end - b.start) {
            best = Some(op.span);
        }
    }
    best.map_or(at.start, |s| s.start)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use lsp_types::Position;

    use super::*;
    use crate::diagnostic::{Category, Severity};
    use crate::scanner::OpKind;

    fn diag(file: &SourceFile, needle: &str) -> Diagnostic {
        let at = file.text.find(needle).unwrap();
        Diagnostic::new(
            "scan-in-hot-path",
            Category::Perf,
            Severity::Warning,
            file.path.clone(),
            Span::new(at, at + needle.len()),
            "x",
        )
    }

    #[test]
    fn inserts_an_indented_comment_above_the_start_of_the_call() {
        let src = "fn h() {\n\tlet r = client\n\t    .scan()\n\t    .send();\n}\n";
        let f = SourceFile::new("/p/a.rs", src);
        let d = diag(&f, "scan");
        let start = src.find("client").unwrap();
        let end = src.find(";\n}").unwrap();
        let op = Operation::new(
            OpKind::Scan,
            Arc::from(Path::new("/p/a.rs")),
            Span::new(start, end),
        );
        let e = allow_edit(&f, &[op], &d);
        assert_eq!(e.range.start, Position::new(1, 0));
        assert_eq!(e.range.end, Position::new(1, 0));
        assert_eq!(
            e.new_text,
            "\t// dynalint: allow(scan-in-hot-path) -- <reason>\n"
        );
    }

    #[test]
    fn extends_an_allow_comment_already_above_the_call() {
        let src =
            "fn h() {\n    // dynalint: allow(other-rule) -- ok\n    client.scan(); // é\n}\n";
        let f = SourceFile::new("/p/a.rs", src);
        let d = diag(&f, "scan");
        let e = allow_edit(&f, &[], &d);
        let after = src.find("other-rule").unwrap() + "other-rule".len();
        assert_eq!(
            e.range.start,
            convert::range(&f, Span::new(after, after)).start
        );
        assert_eq!(e.new_text, ", scan-in-hot-path");
    }

    #[test]
    fn keeps_crlf_line_endings() {
        let f = SourceFile::new("/p/a.rs", "fn h() {\r\n  c.scan();\r\n}\r\n");
        let e = allow_edit(&f, &[], &diag(&f, "scan"));
        assert_eq!(
            e.new_text,
            "  // dynalint: allow(scan-in-hot-path) -- <reason>\r\n"
        );
    }
}
