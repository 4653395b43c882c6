//! The key model when there is no `dynalint.toml`: inferred from what the repository
//! already declares — infrastructure templates (`model::import::discover`) and the
//! Rust code's own `create_table` / `update_table` calls — so a first run needs no
//! configuration. An explicit `dynalint.toml` always wins: nothing here runs then.
//!
//! `init.rs` writes the inferred model out as a `dynalint.toml` to start from.

pub mod from_code;
pub mod init;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::model::{Model, Table};
use crate::scanner::TableDecl;
use crate::source::{FilePath, SourceFile};

/// Where the model of a run came from; the summary says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A `dynalint.toml`.
    Config(PathBuf),
    /// No `dynalint.toml`: tables read from these files.
    Inferred(Vec<PathBuf>),
    /// Neither: only the rules that need no model have something to bind.
    None,
}

impl ModelSource {
    /// `dynalint.toml`, `inferred from template.yaml, src/bin/setup.rs`, `none`.
    pub fn describe(&self) -> String {
        match self {
            Self::Config(p) => crate::workspace::display_path(p),
            Self::Inferred(files) => {
                let shown: Vec<String> = files
                    .iter()
                    .map(|f| crate::workspace::display_path(f))
                    .collect();
                format!("inferred from {}", shown.join(", "))
            }
            Self::None => "none".to_string(),
        }
    }
}

/// The inferred model, where each table came from, and what could not be used.
#[derive(Debug, Clone)]
pub struct Inferred {
    pub model: Model,
    /// Per table of `model`, in order: the file and 1-based line it was declared at.
    pub origins: Vec<(FilePath, usize)>,
    pub source: ModelSource,
    /// `file:line: message`, ready to print.
    pub notes: Vec<String>,
}

/// The path an inferred model stands at: where `dynalint init` would write one. Rules
/// label model items with it only for tables declared nowhere else.
pub fn model_path(root: &Path) -> PathBuf {
    root.join(crate::model::CONFIG_FILE_NAME)
}

/// Infers the model of the project at `root` from the declarations the scanner found
/// in `files`.
pub fn infer(root: &Path, decls: &[TableDecl], files: &[SourceFile]) -> Inferred {
    let mut model = Model::empty(Arc::from(model_path(root)));
    let mut origins: Vec<(FilePath, usize)> = Vec::new();
    let mut notes = Vec::new();
    let mut others: Vec<Table> = Vec::new();
    let (code, code_notes) = from_code::tables(decls, files, &mut others);
    for c in code {
        match model.tables.iter().position(|t| t.name == c.table.name) {
            Some(i) => {
                let kept = &model.tables[i];
                if kept.partition_key != c.table.partition_key || kept.sort_key != c.table.sort_key
                {
                    let (kf, kl) = &origins[i];
                    notes.push(format!(
                        "{}:{}: table `{}` is declared with keys {} here and with keys {} at {}:{}; the declaration at {}:{} is used — remove the stale one, or declare the table in `dynalint.toml`",
                        show(&c.file),
                        c.line,
                        c.table.name,
                        keys(&c.table),
                        keys(kept),
                        show(kf),
                        kl,
                        show(kf),
                        kl
                    ));
                }
            }
            None => {
                origins.push((c.file.clone(), c.line));
                model.tables.push(c.table);
            }
        }
    }
    notes.extend(
        code_notes
            .into_iter()
            .map(|n| format!("{}:{}: {}", show(&n.file), n.line, n.message)),
    );
    let mut files_used: Vec<PathBuf> = Vec::new();
    for (f, _) in &origins {
        if !files_used.iter().any(|u| u.as_path() == &**f) {
            files_used.push(f.to_path_buf());
        }
    }
    let source = if files_used.is_empty() {
        ModelSource::None
    } else {
        ModelSource::Inferred(files_used)
    };
    Inferred {
        model,
        origins,
        source,
        notes,
    }
}

fn show(p: &Path) -> String {
    crate::workspace::display_path(p)
}

/// `(pk)` or `(pk, sk)`.
fn keys(t: &Table) -> String {
    match &t.sort_key {
        Some(sk) => format!("({}, {sk})", t.partition_key),
        None => format!("({})", t.partition_key),
    }
}
