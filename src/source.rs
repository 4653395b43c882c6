//! Source files and byte spans: the one place positions are defined.
//!
//! Everything downstream of parsing speaks byte ranges into a file's text; line and
//! column (1-based, in chars for humans, UTF-16 for LSP) are computed only at the edge.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A half-open byte range into one file's text.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self {
            start,
            end: end.max(start),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A file name shared cheaply between operations and diagnostics.
pub type FilePath = Arc<Path>;

/// A span in a named file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub file: FilePath,
    pub span: Span,
}

impl Location {
    pub fn new(file: FilePath, span: Span) -> Self {
        Self { file, span }
    }
}

/// One file's text with its line starts, for turning byte offsets into positions.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: FilePath,
    pub text: Arc<str>,
    /// Shared like the text: the LSP hands every file of a workspace to each analysis.
    line_starts: Arc<[usize]>,
}

/// A 1-based line and column; the column counts chars (what editors and rustc show).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> Self {
        let path: PathBuf = path.into();
        let text: Arc<str> = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            path: Arc::from(path.as_path()),
            text,
            line_starts,
        }
    }

    /// Clamps an offset into the text and onto a char boundary.
    fn clamp(&self, offset: usize) -> usize {
        let mut o = offset.min(self.text.len());
        while o > 0 && !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        let o = self.clamp(offset);
        match self.line_starts.binary_search(&o) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// Byte offset where a 0-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len())
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based line and char column of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let o = self.clamp(offset);
        let line = self.line_index(o);
        let start = self.line_start(line);
        let column = self.text[start..o].chars().count() + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// 0-based line and UTF-16 column, as the LSP wants.
    pub fn utf16_position(&self, offset: usize) -> (u32, u32) {
        let o = self.clamp(offset);
        let line = self.line_index(o);
        let start = self.line_start(line);
        let col: usize = self.text[start..o].chars().map(char::len_utf16).sum();
        (line as u32, col as u32)
    }

    /// Byte offset of a 0-based line and UTF-16 column; past the end clamps.
    pub fn offset_of_utf16(&self, line: u32, col: u32) -> usize {
        let line = line as usize;
        if line >= self.line_starts.len() {
            return self.text.len();
        }
        let start = self.line_start(line);
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        let mut units = 0usize;
        for (i, ch) in self.text[start..end].char_indices() {
            if units >= col as usize || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16();
        }
        end
    }

    /// The text of a span, clamped to the file.
    pub fn slice(&self, span: Span) -> &str {
        let s = self.clamp(span.start);
        let e = self.clamp(span.end).max(s);
        &self.text[s..e]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_chars_and_utf16() {
        let f = SourceFile::new("a.rs", "ab\n€x😀y\n");
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, column: 1 });
        let y = f.text.find('y').unwrap_or(0);
        assert_eq!(f.line_col(y), LineCol { line: 2, column: 4 });
        assert_eq!(f.utf16_position(y), (1, 4));
        assert_eq!(f.offset_of_utf16(1, 4), y);
        assert_eq!(f.offset_of_utf16(9, 0), f.text.len());
        // An offset inside a multi-byte char never panics.
        assert_eq!(f.line_col(4).line, 2);
    }
}
