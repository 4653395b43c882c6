//! `textDocument/didClose`: the disk is the truth again for that file.

use lsp_server::ResponseError;
use lsp_types::DidCloseTextDocumentParams;

use super::is_config;
use crate::lsp::session::{Change, Session};
use crate::lsp::uri;

/// Forgets the document, clears its diagnostics and re-checks its project with the
/// disk copy (unsaved edits in it may have made calls elsewhere hot).
pub fn handle(s: &mut Session, p: DidCloseTextDocumentParams) -> Result<(), ResponseError> {
    let Some(path) = uri::to_path(&p.text_document.uri) else {
        return Ok(());
    };
    let Some(doc) = s.docs.remove(&path) else {
        return Ok(());
    };
    let Some(config) = s.config_of(&path) else {
        s.clear(&doc.uri);
        return Ok(());
    };
    if is_config(&path) {
        if !path.is_file() {
            // A model never saved is gone with its editor.
            s.remove_project(&config);
            return Ok(());
        }
        s.change(&config, Change::Model(None));
    } else {
        s.clear(&doc.uri);
        s.change(&config, Change::DiskFile(path));
    }
    s.schedule(&config);
    Ok(())
}
