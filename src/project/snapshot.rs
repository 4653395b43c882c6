//! The result of an editor's analysis of a project, shared with the front end, which
//! answers requests from it while the next analysis runs.

use std::collections::HashMap;
use std::path::Path;

use crate::analysis::Analysis;
use crate::infer;
use crate::source::{FilePath, SourceFile};

use super::guard::Crash;

/// The result of one analysis of a project.
pub struct Snapshot {
    pub analysis: Analysis,
    /// Without a `dynalint.toml`: what inferring the model could not use (a template
    /// that does not read, a `create_table` skipped), shown where it is.
    pub model_notes: Vec<infer::InferNote>,
    /// Every file the analysis saw, by path: spans in `analysis` index into these.
    pub files: HashMap<FilePath, SourceFile>,
    pub crashed: Vec<Crash>,
}

impl Snapshot {
    /// The analysed text of a file.
    pub fn file(&self, path: &Path) -> Option<&SourceFile> {
        self.files.get(path)
    }
}
