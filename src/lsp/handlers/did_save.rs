//! `textDocument/didSave`: the disk now holds what the editor had.

use lsp_server::ResponseError;
use lsp_types::DidSaveTextDocumentParams;

use super::{is_config, is_manifest, is_tracked, other_file, OtherFile};
use crate::lsp::session::{Change, Session};
use crate::lsp::uri;

/// Re-reads the saved file's disk copy; a saved `dynalint.toml` re-checks the project,
/// a saved `Cargo.toml` links it again (the link reads manifests from disk), a saved
/// template is read again when the model is inferred.
pub fn handle(s: &mut Session, p: DidSaveTextDocumentParams) -> Result<(), ResponseError> {
    let Some(path) = uri::to_path(&p.text_document.uri) else {
        return Ok(());
    };
    if !is_tracked(&path) {
        if let Some(config) = s.config_of(&path) {
            // A saved document is a file: only a manifest changes the layout.
            let change = match other_file(&path) {
                Some(OtherFile::Template) => Some(Change::Templates),
                Some(OtherFile::Layout) if is_manifest(&path) => Some(Change::Layout),
                _ => None,
            };
            if change.is_some_and(|c| s.change(&config, c)) {
                s.schedule(&config);
            }
        }
        return Ok(());
    }
    let Some(config) = s.config_of(&path) else {
        return Ok(());
    };
    if is_config(&path) {
        let text = s.docs.get(&path).map(|d| d.file.text.clone());
        s.change(&config, Change::Model(text));
        s.schedule(&config);
    } else if s.has_project(&config) {
        // The open document already is the truth; the disk copy matters once closed.
        let open = s.docs.contains_key(&path);
        s.change(&config, Change::DiskFile(path));
        if !open {
            s.schedule(&config);
        }
    }
    Ok(())
}
