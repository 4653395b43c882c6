//! `// dynalint: allow(rule-id, ..) -- reason` and `// dynalint: allow-file(rule-id)`.
//!
//! An allow on a line applies to the call on that line; on a line of its own it applies
//! to the call that starts on the next code line. Either way it covers the whole call
//! (every line of the builder chain). An allow that suppresses nothing is reported as
//! `unused-allow`, so stale suppressions do not pile up.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostic::{Category, Diagnostic, Edit, Fix, Severity};
use crate::model::Model;
use crate::rules::{self, RuleSelection, UNUSED_ALLOW};
use crate::scanner::Operation;
use crate::source::{FilePath, Location, SourceFile, Span};

/// One allow comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    /// Each rule id with its span in the file.
    pub rules: Vec<(String, Span)>,
    /// `allow-file(..)` rather than `allow(..)`.
    pub whole_file: bool,
    /// 0-based line the allow applies to.
    pub target_line: usize,
    /// The comment itself.
    pub span: Span,
    pub reason: Option<String>,
}

/// Finds every `dynalint:` allow comment in a file.
pub fn parse_allows(file: &SourceFile) -> Vec<Allow> {
    let text = &*file.text;
    let mut out = Vec::new();
    // Most files have none: one substring search instead of a walk over every line.
    if !text.contains("dynalint:") {
        return out;
    }
    let mut pending: Vec<Allow> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_no = file.line_index(offset);
        let body = line.trim_end_matches(['\n', '\r']);
        let comment_at = find_line_comment(body);
        let code_before = comment_at.map_or(body, |c| &body[..c]).trim();
        if !code_before.is_empty() {
            for mut a in pending.drain(..) {
                a.target_line = line_no;
                out.push(a);
            }
        }
        if let Some(c) = comment_at {
            if let Some(mut a) = parse_comment(&body[c..], offset + c) {
                if a.whole_file || !code_before.is_empty() {
                    a.target_line = line_no;
                    out.push(a);
                } else {
                    pending.push(a);
                }
            }
        }
        offset += line.len();
    }
    // An allow at the end of the file targets nothing; keep it so it is reported.
    out.extend(pending.into_iter().map(|mut a| {
        a.target_line = usize::MAX;
        a
    }));
    out
}

/// Byte index of a `//` comment start outside string literals, roughly: enough for
/// the lines an allow comment sits on.
fn find_line_comment(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match bytes[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && bytes[i + 1] == b'/' => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses `// dynalint: allow(a, b) -- reason` starting at `base` in the file.
fn parse_comment(comment: &str, base: usize) -> Option<Allow> {
    let after_slashes = comment.trim_start_matches('/');
    let rest_at = comment.len() - after_slashes.len();
    let trimmed = after_slashes.trim_start();
    let lead = after_slashes.len() - trimmed.len();
    let body = trimmed.strip_prefix("dynalint:")?;
    let body_at = rest_at + lead + "dynalint:".len();
    let body_trim = body.trim_start();
    let mut at = body_at + (body.len() - body_trim.len());
    let (whole_file, args) = if let Some(r) = body_trim.strip_prefix("allow-file(") {
        at += "allow-file(".len();
        (true, r)
    } else if let Some(r) = body_trim.strip_prefix("allow(") {
        at += "allow(".len();
        (false, r)
    } else {
        return None;
    };
    let close = args.find(')')?;
    let mut rules = Vec::new();
    let mut pos = 0;
    for part in args[..close].split(',') {
        let id = part.trim();
        if !id.is_empty() {
            let lead = part.len() - part.trim_start().len();
            let s = base + at + pos + lead;
            rules.push((id.to_string(), Span::new(s, s + id.len())));
        }
        pos += part.len() + 1;
    }
    let reason = args[close + 1..]
        .trim()
        .strip_prefix("--")
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    Some(Allow {
        rules,
        whole_file,
        target_line: 0,
        span: Span::new(base, base + comment.len()),
        reason,
    })
}

/// Each file's allow comments with the text they were read from, kept from one run
/// to the next: the LSP analyses the whole project on every keystroke, and reading
/// every line of every file again was most of that time on a large workspace.
#[derive(Default)]
pub struct AllowCache {
    files: HashMap<FilePath, (Arc<str>, Arc<[Allow]>)>,
    /// The last run's files in its order, each with its text and allows: a run over
    /// the same files finds each at its own position, without hashing every path
    /// (a `Path`'s hash walks its components; most of this pass on a large workspace).
    last: Vec<(FilePath, Arc<str>, Arc<[Allow]>)>,
}

impl AllowCache {
    /// The allows of `file`, the `i`-th file of the run, read again only when its text
    /// changed.
    fn get(&mut self, i: usize, file: &SourceFile) -> Arc<[Allow]> {
        if let Some((path, text, allows)) = self.last.get(i) {
            if Arc::ptr_eq(text, &file.text)
                && (Arc::ptr_eq(path, &file.path) || *path == file.path)
            {
                return Arc::clone(allows);
            }
        }
        if let Some((text, allows)) = self.files.get(&file.path) {
            if Arc::ptr_eq(text, &file.text) || **text == *file.text {
                return Arc::clone(allows);
            }
        }
        let allows: Arc<[Allow]> = parse_allows(file).into();
        self.files.insert(
            file.path.clone(),
            (Arc::clone(&file.text), Arc::clone(&allows)),
        );
        allows
    }

    /// [`AllowCache::get`], kept as the `i`-th entry of `last` (which holds the
    /// entries before it).
    fn update(&mut self, i: usize, file: &SourceFile) -> &[Allow] {
        let same = self.last.get(i).is_some_and(|(path, text, _)| {
            Arc::ptr_eq(text, &file.text) && (Arc::ptr_eq(path, &file.path) || *path == file.path)
        });
        if !same {
            let entry = (file.path.clone(), Arc::clone(&file.text), self.get(i, file));
            match self.last.get_mut(i) {
                Some(slot) => *slot = entry,
                None => self.last.push(entry),
            }
        }
        match self.last.get(i) {
            Some((_, _, allows)) => allows,
            None => &[],
        }
    }

    /// Forgets files not in `files` (deleted, or no longer part of the project).
    fn retain(&mut self, files: &[SourceFile]) {
        if self.files.len() > files.len() {
            let keep: std::collections::HashSet<&FilePath> =
                files.iter().map(|f| &f.path).collect();
            self.files.retain(|p, _| keep.contains(p));
        }
    }
}

/// Drops suppressed diagnostics and reports allows that suppressed nothing.
pub fn apply(
    files: &[SourceFile],
    operations: &[Operation],
    diagnostics: Vec<Diagnostic>,
    selection: &RuleSelection,
    model: &Model,
) -> Vec<Diagnostic> {
    apply_cached(
        files,
        operations,
        diagnostics,
        selection,
        model,
        &mut AllowCache::default(),
    )
}

/// [`apply`] with each file's allow comments from `cache` when its text is unchanged.
pub fn apply_cached(
    files: &[SourceFile],
    operations: &[Operation],
    diagnostics: Vec<Diagnostic>,
    selection: &RuleSelection,
    model: &Model,
    cache: &mut AllowCache,
) -> Vec<Diagnostic> {
    cache.retain(files);
    let mut by_path: HashMap<&FilePath, &SourceFile> = HashMap::new();
    let mut allows: HashMap<&FilePath, Vec<(Allow, Vec<bool>)>> = HashMap::new();
    // Brought up to date in place: a keystroke changes one file's entry, and making
    // the list again touched every file's text and path (their counts) on each run.
    cache.last.truncate(files.len());
    for (i, f) in files.iter().enumerate() {
        let found = cache.update(i, f);
        if found.is_empty() {
            continue;
        }
        let a: Vec<_> = found
            .iter()
            .map(|a| {
                let used = vec![false; a.rules.len()];
                (a.clone(), used)
            })
            .collect();
        by_path.insert(&f.path, f);
        allows.insert(&f.path, a);
    }
    let mut kept = Vec::new();
    for d in diagnostics {
        let (Some(file), Some(file_allows)) = (
            by_path.get(&d.location.file),
            allows.get_mut(&d.location.file),
        ) else {
            kept.push(d);
            continue;
        };
        let scope = call_scope(operations, &d);
        let first = file.line_index(scope.start);
        let last = file.line_index(scope.end.saturating_sub(1).max(scope.start));
        let mut suppressed = false;
        for (allow, used) in file_allows.iter_mut() {
            let applies = allow.whole_file || (first..=last).contains(&allow.target_line);
            if !applies {
                continue;
            }
            for (i, (id, _)) in allow.rules.iter().enumerate() {
                if id == d.rule {
                    used[i] = true;
                    suppressed = true;
                }
            }
        }
        if !suppressed {
            kept.push(d);
        }
    }
    let unused_enabled = selection.runs_builtin(UNUSED_ALLOW);
    if unused_enabled {
        for (path, file_allows) in allows {
            for (allow, used) in file_allows {
                let all_unused = used.iter().all(|u| !u);
                for (i, ((id, span), used)) in allow.rules.iter().zip(&used).enumerate() {
                    if *used {
                        continue;
                    }
                    let message = match rules::find(id) {
                        None if id != UNUSED_ALLOW => format!("`{id}` is not a dynalint rule"),
                        Some(r) if selection.severity(r.meta(), model).is_none() => {
                            format!("`allow({id})` suppresses nothing: the rule is not enabled")
                        }
                        _ => format!("`allow({id})` suppresses nothing here"),
                    };
                    let mut d = Diagnostic::new(
                        UNUSED_ALLOW,
                        Category::Suspicious,
                        Severity::Warning,
                        path.clone(),
                        *span,
                        message,
                    );
                    d.help("remove it, or move it onto the line of the call it is meant for");
                    if let Some(file) = by_path.get(path) {
                        let removal = if all_unused {
                            comment_removal(file, allow.span)
                        } else {
                            id_removal(&allow.rules, i)
                        };
                        d.fix(Fix {
                            title: format!("remove the unused `allow({id})`"),
                            edits: vec![Edit {
                                location: Location::new(path.clone(), removal),
                                replacement: String::new(),
                            }],
                        });
                    }
                    kept.push(d);
                }
            }
        }
    }
    kept
}

/// What removing a whole allow comment deletes: its line when it stands alone, else
/// the comment and the blanks before it.
fn comment_removal(file: &SourceFile, comment: Span) -> Span {
    let text = &*file.text;
    let line_start = text[..comment.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..comment.start];
    if before.trim().is_empty() {
        let line_end = text[comment.end..]
            .find('\n')
            .map_or(text.len(), |i| comment.end + i + 1);
        Span::new(line_start, line_end)
    } else {
        Span::new(line_start + before.trim_end().len(), comment.end)
    }
}

/// What removing the `i`th id of an allow list deletes: the id and one separator.
fn id_removal(ids: &[(String, Span)], i: usize) -> Span {
    let here = ids[i].1;
    match (ids.get(i + 1), i.checked_sub(1).and_then(|p| ids.get(p))) {
        (Some((_, next)), _) => Span::new(here.start, next.start),
        (None, Some((_, prev))) => Span::new(prev.end, here.end),
        (None, None) => here,
    }
}

/// The span an allow must touch to cover `d`: the smallest call containing its
/// primary span, or the primary span itself.
fn call_scope(operations: &[Operation], d: &Diagnostic) -> Span {
    let at = d.location.span;
    let mut best: Option<Span> = None;
    let mut visit = |op: &Operation| {
        let inside =
            op.file == d.location.file && op.span.start <= at.start && at.end <= op.span.end;
        if inside && best.is_none_or(|b| op.span.end - op.span.start < b.end - b.start) {
            best = Some(op.span);
        }
    };
    for op in operations {
        visit(op);
        for c in &op.children {
            visit(c);
        }
    }
    best.unwrap_or(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_allow_forms() {
        let src = "fn a() {\n    // dynalint: allow(scan-in-hot-path, filter-instead-of-index) -- nightly job\n    client.scan();\n    x(); // dynalint: allow(get-item-in-loop)\n}\n// dynalint: allow-file(low-cardinality-pk)\n";
        let f = SourceFile::new("a.rs", src);
        let allows = parse_allows(&f);
        assert_eq!(allows.len(), 3);
        assert_eq!(allows[0].rules.len(), 2);
        assert_eq!(allows[0].target_line, 2);
        assert_eq!(allows[0].reason.as_deref(), Some("nightly job"));
        assert_eq!(f.slice(allows[0].rules[1].1), "filter-instead-of-index");
        assert_eq!(allows[1].target_line, 3);
        assert!(allows[2].whole_file);
    }

    fn removed(src: &str, span: Span) -> String {
        let mut s = src.to_string();
        s.replace_range(span.range(), "");
        s
    }

    #[test]
    fn removing_an_unused_allow_keeps_the_code_and_the_other_ids() {
        let src = "fn a() {\n    // dynalint: allow(x) -- old\n    call();\n    call(); // dynalint: allow(y)\n}\n";
        let f = SourceFile::new("a.rs", src);
        let allows = parse_allows(&f);
        assert_eq!(
            removed(src, comment_removal(&f, allows[0].span)),
            "fn a() {\n    call();\n    call(); // dynalint: allow(y)\n}\n"
        );
        assert_eq!(
            removed(src, comment_removal(&f, allows[1].span)),
            "fn a() {\n    // dynalint: allow(x) -- old\n    call();\n    call();\n}\n"
        );
        let src = "// dynalint: allow(a, b, c)\n";
        let f = SourceFile::new("a.rs", src);
        let ids = &parse_allows(&f)[0].rules;
        assert_eq!(
            removed(src, id_removal(ids, 0)),
            "// dynalint: allow(b, c)\n"
        );
        assert_eq!(
            removed(src, id_removal(ids, 1)),
            "// dynalint: allow(a, c)\n"
        );
        assert_eq!(
            removed(src, id_removal(ids, 2)),
            "// dynalint: allow(a, b)\n"
        );
    }

    #[test]
    fn ignores_comment_markers_inside_strings() {
        let f = SourceFile::new("a.rs", "let s = \"// dynalint: allow(x)\";\n");
        assert!(parse_allows(&f).is_empty());
    }
}
