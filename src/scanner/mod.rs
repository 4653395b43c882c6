//! Rust source → [`Operation`] IR. Only this module knows tree-sitter.
//!
//! NOTE: skeleton — the real scanner (issue 4) fills [`scan`].

pub mod ir;

pub use ir::*;

use crate::model::Model;
use crate::source::SourceFile;

/// What the scanner needs from the model: only the path globs of `[lint]`.
#[derive(Debug, Clone, Default)]
pub struct ScanSettings {
    pub hot_paths: Vec<String>,
    pub cold_paths: Vec<String>,
}

impl ScanSettings {
    pub fn from_model(model: &Model) -> Self {
        Self {
            hot_paths: model.lint.hot_paths.clone(),
            cold_paths: model.lint.cold_paths.clone(),
        }
    }
}

/// Operations found, and what could not be read. Scanning never fails.
#[derive(Debug, Default)]
pub struct ScanResult {
    pub operations: Vec<Operation>,
    pub problems: Vec<ScanProblem>,
}

/// Scans a set of files together (constants and the call graph cross files).
pub fn scan(_files: &[SourceFile], _settings: &ScanSettings) -> ScanResult {
    ScanResult::default()
}
