//! Byte spans → 1-based line/column for the machine-readable formats.

use std::collections::HashMap;

use crate::source::{FilePath, Location, SourceFile, Span};
use crate::workspace::display_path;

/// Looks up file texts by path.
pub struct Positions<'a> {
    files: HashMap<&'a FilePath, &'a SourceFile>,
}

/// A resolved range: 1-based, end exclusive (the column after the last char).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

impl Range {
    /// `path:line:column`, as a call is named in listings.
    pub fn place(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

impl<'a> Positions<'a> {
    pub fn new(files: impl IntoIterator<Item = &'a SourceFile>) -> Self {
        Self {
            files: files.into_iter().map(|f| (&f.path, f)).collect(),
        }
    }

    /// Where a note about a file points: `path:line:column` at `span`, or the path
    /// alone (a note about the whole file).
    pub fn place_of(&self, file: &FilePath, span: Option<Span>) -> String {
        match span {
            Some(span) => self.range(&Location::new(file.clone(), span)).place(),
            None => display_path(file),
        }
    }

    /// The range of a location; a file we do not have maps to line 1, column 1.
    pub fn range(&self, loc: &Location) -> Range {
        let file = display_path(&loc.file);
        match self.files.get(&loc.file) {
            Some(f) => {
                let s = f.line_col(loc.span.start);
                let e = f.line_col(loc.span.end);
                Range {
                    file,
                    line: s.line,
                    column: s.column,
                    end_line: e.line,
                    end_column: e.column,
                }
            }
            None => Range {
                file,
                line: 1,
                column: 1,
                end_line: 1,
                end_column: 1,
            },
        }
    }
}
