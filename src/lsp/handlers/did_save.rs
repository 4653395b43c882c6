//! `textDocument/didSave`: the disk now holds what the editor had.

use lsp_server::ResponseError;
use lsp_types::DidSaveTextDocumentParams;

use super::{is_config, is_manifest, is_tracked, other_file, OtherFile};
use crate::lsp::session::Session;
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
            if let Some(project) = s.projects.get_mut(&config) {
                // A saved document is a file: only a manifest changes the layout.
                let matters = match other_file(&path) {
                    Some(OtherFile::Template) => project.forget_templates(),
                    Some(OtherFile::Layout) if is_manifest(&path) => {
                        project.forget_disk();
                        true
                    }
                    _ => false,
                };
                if matters {
                    s.schedule(&config);
                }
            }
        }
        return Ok(());
    }
    let Some(config) = s.config_of(&path) else {
        return Ok(());
    };
    if is_config(&path) {
        let text = s.docs.get(&path).map(|d| d.file.text.clone());
        s.project(&config).reload_model(text.as_deref());
        s.schedule(&config);
    } else if let Some(project) = s.projects.get_mut(&config) {
        // The open document already is the truth; the disk copy matters once closed.
        project.refresh_disk_file(&path);
        if !s.docs.contains_key(&path) {
            s.schedule(&config);
        }
    }
    Ok(())
}
