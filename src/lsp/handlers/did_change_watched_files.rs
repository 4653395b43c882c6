//! `workspace/didChangeWatchedFiles`: files changed outside the editor (a `git
//! checkout`, a generator, another editor).

use lsp_server::ResponseError;
use lsp_types::{DidChangeWatchedFilesParams, FileChangeType};

use super::{is_config, other_file, OtherFile};
use crate::lsp::session::{Change, Session};
use crate::lsp::uri;

/// Reloads models and disk copies of changed files and re-checks their projects.
pub fn handle(s: &mut Session, p: DidChangeWatchedFilesParams) -> Result<(), ResponseError> {
    for change in p.changes {
        let Some(path) = uri::to_path(&change.uri) else {
            continue;
        };
        if is_config(&path) {
            if change.typ == FileChangeType::DELETED && !s.docs.contains_key(&path) {
                s.remove_project(&path);
                continue;
            }
            if s.has_project(&path) && !s.docs.contains_key(&path) {
                s.change(&path, Change::Model(None));
            }
            // A new model may adopt open files that had none.
            s.schedule(&path);
            continue;
        }
        let Some(config) = s.config_of(&path) else {
            continue;
        };
        let open = s.docs.contains_key(&path);
        if s.has_project(&config) {
            let matters = if path.extension().is_some_and(|e| e == "rs") {
                s.change(&config, Change::DiskFile(path)) && !open
            } else {
                match other_file(&path) {
                    Some(OtherFile::Template) => s.change(&config, Change::Templates),
                    // A manifest, or a folder moved or deleted: walk again rather
                    // than guess.
                    Some(OtherFile::Layout) => s.change(&config, Change::Layout),
                    None => false,
                }
            };
            if matters {
                s.schedule(&config);
            }
        }
    }
    Ok(())
}
