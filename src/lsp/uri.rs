//! `file:` URIs ↔ paths. The protocol names documents by URI; analysis names files by
//! path. Paths are canonicalised so that a document and the same file found by the
//! workspace walk are one key.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The file path a `file:` URI names, canonicalised when the file (or its folder)
/// exists. `None` for other schemes (`untitled:`, `git:`...) and URIs with a host.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    if let Some(auth) = uri.authority() {
        let host = auth.host().as_str();
        if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
            return None;
        }
    }
    let bytes = uri.path().as_estr().decode().into_bytes();
    let text = String::from_utf8(bytes.into_owned()).ok()?;
    Some(normalize(&native_path(&text)))
}

/// Turns the URI's path (`/home/x` or `/C:/x`) into a native path.
fn native_path(text: &str) -> PathBuf {
    if cfg!(windows) {
        let t = text.strip_prefix('/').unwrap_or(text);
        PathBuf::from(t.replace('/', "\\"))
    } else {
        PathBuf::from(text)
    }
}

/// Canonicalises a path whose file may not exist yet (a new, unsaved document): the
/// folder is canonicalised and the name kept.
pub fn normalize(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

/// The `file:` URI of an absolute path, percent-encoding what a URI path cannot hold.
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    let text = if cfg!(windows) {
        format!("/{}", text.replace('\\', "/"))
    } else {
        text.to_string()
    };
    let mut out = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_paths_with_spaces_and_non_ascii() {
        let p = PathBuf::from("/tmp/dynalint does-not-exist/é€ x.rs");
        let uri = from_path(&p).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///tmp/dynalint%20does-not-exist/%C3%A9%E2%82%AC%20x.rs"
        );
        assert_eq!(to_path(&uri).unwrap(), p);
    }

    #[test]
    fn other_schemes_are_not_files() {
        let uri = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(to_path(&uri), None);
        let uri = Uri::from_str("file://server/share/a.rs").unwrap();
        assert_eq!(to_path(&uri), None);
    }
}
