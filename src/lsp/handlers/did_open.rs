//! `textDocument/didOpen`: the editor's text now wins over the disk.

use lsp_server::ResponseError;
use lsp_types::{DidOpenTextDocumentParams, MessageType};

use super::{is_config, is_tracked};
use crate::lsp::document::Document;
use crate::lsp::session::{Change, Session};
use crate::lsp::uri;
use crate::source::SourceFile;

/// Records the document and schedules its project's analysis.
pub fn handle(s: &mut Session, p: DidOpenTextDocumentParams) -> Result<(), ResponseError> {
    let item = p.text_document;
    let Some(path) = uri::to_path(&item.uri).filter(|p| is_tracked(p)) else {
        return Ok(());
    };
    s.docs.insert(
        path.clone(),
        Document {
            uri: item.uri,
            version: item.version,
            file: SourceFile::new(path.clone(), item.text),
        },
    );
    s.say_if_too_large(&path, false);
    let Some(config) = s.config_of(&path) else {
        s.log(
            MessageType::LOG,
            format!(
                "`{}` is outside every dynalint project: not checked",
                path.display()
            ),
        );
        return Ok(());
    };
    if is_config(&path) {
        let text = s.docs.get(&path).map(|d| d.file.text.clone());
        s.change(&config, Change::Model(text));
    }
    s.schedule(&config);
    Ok(())
}
