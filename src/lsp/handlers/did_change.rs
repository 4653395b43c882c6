//! `textDocument/didChange`: incremental edits, then a debounced re-analysis.

use lsp_server::{ErrorCode, ResponseError};
use lsp_types::DidChangeTextDocumentParams;

use super::is_config;
use crate::lsp::session::{error, too_large_diagnostic, Change, Session};
use crate::lsp::uri;

/// Applies the edits to the open document and schedules its project.
pub fn handle(s: &mut Session, p: DidChangeTextDocumentParams) -> Result<(), ResponseError> {
    let Some(path) = uri::to_path(&p.text_document.uri) else {
        return Ok(());
    };
    let Some(doc) = s.docs.get_mut(&path) else {
        // Files we do not follow (not `.rs`, not `dynalint.toml`) are never recorded.
        if !super::is_tracked(&path) {
            return Ok(());
        }
        return Err(error(
            ErrorCode::InvalidParams,
            format!("change to `{}`, which is not open", path.display()),
        ));
    };
    let was_large = too_large_diagnostic(&doc.file).is_some();
    doc.apply_changes(p.text_document.version, p.content_changes);
    let text = doc.file.text.clone();
    s.say_if_too_large(&path, was_large);
    let Some(config) = s.config_of(&path) else {
        return Ok(());
    };
    if is_config(&path) {
        // Every open file of the project is re-checked against the edited model.
        s.change(&config, Change::Model(Some(text)));
    }
    s.schedule(&config);
    Ok(())
}
