//! Text files as editors save them: UTF-8 with or without a byte order mark, and
//! UTF-16 (little or big endian) with one (Windows tools, PowerShell's `Out-File`,
//! some template exporters write it). Templates and `dynalint.toml`'s imports are read
//! through here, so a file is never skipped for its encoding alone; the text handed
//! on has no BOM, and every span indexes into it.

use std::path::Path;

/// Why bytes are no text this reader knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Undecodable {
    #[error("not valid UTF-8 (first bad byte at offset {offset})")]
    Utf8 { offset: usize },
    #[error("not valid UTF-16 ({endian}, with a byte order mark): {why}")]
    Utf16 {
        endian: &'static str,
        why: &'static str,
    },
}

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];
const UTF16LE_BOM: &[u8] = &[0xFF, 0xFE];
const UTF16BE_BOM: &[u8] = &[0xFE, 0xFF];

/// The text of `bytes`: UTF-8 (a BOM dropped), or UTF-16 when a BOM says so.
pub fn decode(bytes: Vec<u8>) -> Result<String, Undecodable> {
    if let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        return utf8(rest.to_vec());
    }
    if let Some(rest) = bytes.strip_prefix(UTF16LE_BOM) {
        return utf16(rest, "little endian", u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(UTF16BE_BOM) {
        return utf16(rest, "big endian", u16::from_be_bytes);
    }
    utf8(bytes)
}

fn utf8(bytes: Vec<u8>) -> Result<String, Undecodable> {
    String::from_utf8(bytes).map_err(|e| Undecodable::Utf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

fn utf16(
    bytes: &[u8],
    endian: &'static str,
    unit: fn([u8; 2]) -> u16,
) -> Result<String, Undecodable> {
    let (pairs, odd) = bytes.as_chunks::<2>();
    if !odd.is_empty() {
        return Err(Undecodable::Utf16 {
            endian,
            why: "an odd number of bytes",
        });
    }
    char::decode_utf16(pairs.iter().map(|p| unit(*p)))
        .collect::<Result<String, _>>()
        .map_err(|_| Undecodable::Utf16 {
            endian,
            why: "a lone surrogate",
        })
}

/// [`std::fs::read_to_string`] through [`decode`]: undecodable text is
/// `ErrorKind::InvalidData` saying why.
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    decode(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn utf16(text: &str, be: bool) -> Vec<u8> {
        let mut out = if be {
            UTF16BE_BOM.to_vec()
        } else {
            UTF16LE_BOM.to_vec()
        };
        for u in text.encode_utf16() {
            out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        out
    }

    #[test]
    fn byte_order_marks_say_the_encoding_and_are_dropped() {
        let text = "Resources:\n  Orders: # café\n";
        assert_eq!(decode(text.as_bytes().to_vec()).unwrap(), text);
        let mut bom = UTF8_BOM.to_vec();
        bom.extend(text.as_bytes());
        assert_eq!(decode(bom).unwrap(), text);
        assert_eq!(decode(utf16(text, false)).unwrap(), text);
        assert_eq!(decode(utf16(text, true)).unwrap(), text);
    }

    #[test]
    fn what_does_not_decode_says_why() {
        assert_eq!(
            decode(b"ok \xe9".to_vec()),
            Err(Undecodable::Utf8 { offset: 3 })
        );
        let mut odd = utf16("ab", false);
        odd.push(0);
        assert!(matches!(decode(odd), Err(Undecodable::Utf16 { .. })));
        let mut lone = UTF16LE_BOM.to_vec();
        lone.extend(0xD800u16.to_le_bytes());
        assert!(matches!(decode(lone), Err(Undecodable::Utf16 { .. })));
    }
}
