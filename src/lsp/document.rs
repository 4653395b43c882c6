//! Open documents: the editor's text, which wins over the disk while a file is open,
//! and incremental edits applied to it in UTF-16 positions.

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use crate::source::SourceFile;

/// One document the editor has open.
#[derive(Debug, Clone)]
pub struct Document {
    /// The URI exactly as the client sent it: diagnostics are published to it.
    pub uri: Uri,
    pub version: i32,
    /// The current text, with its line index (path is the canonical file path).
    pub file: SourceFile,
}

impl Document {
    /// Applies `didChange` content changes in order, each against the text left by
    /// the previous one, as the protocol specifies.
    pub fn apply_changes(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        let mut text = self.file.text.to_string();
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    // Positions are resolved against the text as it is before this change.
                    let current = SourceFile::new(self.file.path.to_path_buf(), text.as_str());
                    let start = current.offset_of_utf16(range.start.line, range.start.character);
                    let end = current
                        .offset_of_utf16(range.end.line, range.end.character)
                        .max(start);
                    text.replace_range(start..end, &change.text);
                }
            }
        }
        self.version = version;
        self.file = SourceFile::new(self.file.path.to_path_buf(), text);
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use lsp_types::{Position, Range};

    use super::*;

    fn change(l0: u32, c0: u32, l1: u32, c1: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: text.to_string(),
        }
    }

    fn doc(text: &str) -> Document {
        Document {
            uri: Uri::from_str("file:///a.rs").unwrap(),
            version: 0,
            file: SourceFile::new("/a.rs", text),
        }
    }

    #[test]
    fn applies_incremental_edits_in_utf16_columns() {
        // `😀` is two UTF-16 units and four bytes; `é` one unit and two bytes.
        let mut d = doc("let s = \"😀é\"; scan();\nnext();\n");
        // Replace `scan` (UTF-16 columns 15..19 on line 0) with `query`.
        d.apply_changes(1, vec![change(0, 15, 0, 19, "query")]);
        assert_eq!(&*d.file.text, "let s = \"😀é\"; query();\nnext();\n");
        // A later change in the same batch sees the earlier one's result.
        d.apply_changes(
            2,
            vec![change(1, 0, 1, 0, "// x\n"), change(2, 0, 2, 4, "done")],
        );
        assert_eq!(&*d.file.text, "let s = \"😀é\"; query();\n// x\ndone();\n");
        assert_eq!(d.version, 2);
    }

    #[test]
    fn full_text_changes_replace_everything_and_bad_ranges_clamp() {
        let mut d = doc("abc\n");
        d.apply_changes(
            1,
            vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "xyz\n".into(),
            }],
        );
        assert_eq!(&*d.file.text, "xyz\n");
        // A range past the end (a confused client) clamps instead of panicking.
        d.apply_changes(2, vec![change(9, 9, 3, 0, "!")]);
        assert_eq!(&*d.file.text, "xyz\n!");
    }
}
