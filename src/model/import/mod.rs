//! Model import: the tables a project already declares in its infrastructure files —
//! CloudFormation/SAM/CDK templates, Serverless Framework, Terraform, NoSQL Workbench
//! exports, `describe-table` JSON — read into model [`Table`]s, each with the file and
//! line it came from. The environment variables a template hands a function
//! (`TABLE_NAME: !Ref OrdersTable`) become the table's `refs`.
//!
//! Importing never fails: a file that does not read, or a table whose keys cannot be
//! known, is an [`ImportNote`] with a location. Two declarations of one table with
//! different keys are a note naming both, never silently resolved.
//!
//! One file per format; `tree` is the spanned YAML/JSON tree they share, `shape` the
//! `KeySchema`/`AttributeDefinitions` shape DynamoDB's own JSON and CloudFormation share.

mod cdk_ts;
mod cloudformation;
mod describe;
mod discover;
mod merge;
mod serverless;
mod shape;
mod terraform;
pub mod tree;
mod workbench;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use discover::{discover, discover_to};
pub use merge::{apply_to_model, fill_keys, merge};

use crate::model::types::{OriginKind, Table, TableOrigin};
use crate::source::{FilePath, Span};

/// What importing found: tables, notes, and which files were read as what.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    /// The tables, in file order (files in path order).
    pub tables: Vec<Table>,
    /// Files or declarations that could not be read, conflicts.
    pub notes: Vec<ImportNote>,
    /// Every file recognised as a format, with how many tables it gave.
    pub files: Vec<ImportedFile>,
    /// Environment variables handed a table name that no file read so far declares
    /// (`TABLE: orders-${Stage}` in one template, the table in another), as
    /// (variable, name): they become refs when a table of that name is merged in.
    pub env_names: Vec<(String, String)>,
    /// Environment variables handed a stack parameter with no default (`TABLE_NAME:
    /// !Ref AccountsTableName`, the table declared by another stack), as (variable,
    /// parameter): a parameter named after one table of another file names it.
    pub env_params: Vec<(String, String)>,
    /// SSM parameters that hold a table's name (a Terraform `aws_ssm_parameter` whose
    /// value is `aws_dynamodb_table.x.name`), as (parameter name, table name).
    pub parameter_tables: Vec<(String, String)>,
    /// Environment variables handed an SSM parameter's value (another module's
    /// `data "aws_ssm_parameter"` read by the same name), as (variable, parameter
    /// name): they become refs of the table the parameter holds the name of.
    pub env_parameters: Vec<(String, String)>,
}

/// A file that was read as one of the formats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedFile {
    /// The file.
    pub path: FilePath,
    /// What it was read as.
    pub kind: OriginKind,
    /// How many tables it declared.
    pub tables: usize,
}

/// Something importing could not do, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportNote {
    /// The file.
    pub path: FilePath,
    /// 1-based line; 0 when the note is about the whole file.
    pub line: usize,
    /// Byte span in the file (empty when about the whole file).
    pub span: Span,
    /// Lowercase, code in backticks.
    pub message: String,
}

impl fmt::Display for ImportNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.to_string_lossy().replace('\\', "/");
        if self.line > 0 {
            write!(f, "{path}:{}: {}", self.line, self.message)
        } else {
            write!(f, "{path}: {}", self.message)
        }
    }
}

/// One file being imported: its tables and notes.
pub(crate) struct Found {
    path: FilePath,
    kind: OriginKind,
    tables: Vec<Table>,
    notes: Vec<ImportNote>,
    env_names: Vec<(String, String)>,
    env_params: Vec<(String, String)>,
}

impl Found {
    fn new(path: FilePath, kind: OriginKind) -> Self {
        Self {
            path,
            kind,
            tables: Vec::new(),
            notes: Vec::new(),
            env_names: Vec::new(),
            env_params: Vec::new(),
        }
    }

    /// A note about a node of the file.
    fn note(&mut self, node: &tree::Node, message: impl Into<String>) {
        self.note_at(node.span, node.line, message);
    }

    fn note_at(&mut self, span: Span, line: usize, message: impl Into<String>) {
        self.notes.push(ImportNote {
            path: self.path.clone(),
            line,
            span,
            message: message.into(),
        });
    }

    /// Where a declaration at `line` came from.
    fn origin(&self, line: usize, id: Option<String>) -> TableOrigin {
        TableOrigin {
            kind: self.kind,
            path: self.path.clone(),
            line,
            id,
        }
    }

    fn finish(self) -> Imported {
        Imported {
            files: vec![ImportedFile {
                path: self.path,
                kind: self.kind,
                tables: self.tables.len(),
            }],
            tables: self.tables,
            notes: self.notes,
            env_names: self.env_names,
            env_params: self.env_params,
            ..Imported::default()
        }
    }
}

/// Which format a file is in, from its name and content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Terraform,
    /// A CDK app's TypeScript.
    CdkTypeScript,
    /// A CDK app's Python.
    CdkPython,
    /// YAML or JSON; which document it is decides after parsing.
    Document,
}

fn format_of(path: &Path) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some("tf" | "tfvars") => Format::Terraform,
        Some("ts") => Format::CdkTypeScript,
        Some("py") => Format::CdkPython,
        _ => Format::Document,
    }
}

/// Imports one file, detecting its format by name and content. A file that is none of
/// the formats is a note.
pub fn import_file(path: &Path, text: &str) -> Imported {
    import_known(path, text).unwrap_or_else(|| {
        let mut f = Found::new(Arc::from(path), OriginKind::CloudFormation);
        f.note_at(
            Span::default(),
            0,
            "not a CloudFormation, SAM, Serverless, Terraform, NoSQL Workbench or \
             describe-table file; nothing was imported",
        );
        Imported {
            notes: f.notes,
            ..Imported::default()
        }
    })
}

/// [`import_file`], or `None` for a file that is none of the formats (when walking a
/// project, most YAML and JSON files are not templates, and say nothing).
fn import_known(path: &Path, text: &str) -> Option<Imported> {
    let file: FilePath = Arc::from(path);
    match format_of(path) {
        Format::Terraform => return Some(terraform::import(file, text)),
        Format::CdkTypeScript => return Some(cdk_ts::import_app(&[(file, text.to_string())])),
        Format::CdkPython => {
            return Some(cdk_ts::import_app_in(
                &[(file, text.to_string())],
                cdk_ts::Dialect::Python,
            ))
        }
        Format::Document => {}
    }
    let (docs, duplicates) = match tree::parse_all_with_duplicates(text) {
        Ok(parsed) => parsed,
        Err(e) => {
            let mut f = Found::new(file, OriginKind::CloudFormation);
            f.note_at(
                Span::new(e.offset, e.offset),
                e.line,
                format!("cannot read this file as YAML or JSON: {}", e.message),
            );
            return Some(Imported {
                notes: f.notes,
                ..Imported::default()
            });
        }
    };
    // A stream of several documents (`---`): each is read as what it is.
    let mut out: Option<Imported> = None;
    for (d, doc) in docs.iter().enumerate() {
        let mut one = if workbench::is_workbench(doc) {
            workbench::import(file.clone(), doc)
        } else if describe::is_describe(doc) {
            describe::import(file.clone(), doc)
        } else if serverless::is_serverless(doc) {
            serverless::import(file.clone(), doc)
        } else if cloudformation::is_template(doc) {
            cloudformation::import(file.clone(), doc)
        } else {
            continue;
        };
        // A logical id written twice: the last is read, the other silently lost.
        for dup in duplicates
            .iter()
            .filter(|k| k.document == d && k.path.last().is_some_and(|p| p == "Resources"))
        {
            one.notes.push(ImportNote {
                path: file.clone(),
                line: dup.again.line,
                span: dup.again.span,
                message: format!(
                    "logical id `{}` is written twice in `Resources`, at line {} and at line {}: only the one at line {} is read; rename or remove the other",
                    dup.key, dup.first.line, dup.again.line, dup.again.line
                ),
            });
        }
        match &mut out {
            Some(all) => merge(all, one),
            None => out = Some(one),
        }
    }
    // One entry per file, however many documents it holds.
    if let Some(all) = &mut out {
        let mut files: Vec<ImportedFile> = Vec::new();
        for f in all.files.drain(..) {
            match files.iter_mut().find(|k| k.path == f.path) {
                Some(k) => k.tables += f.tables,
                None => files.push(f),
            }
        }
        all.files = files;
    }
    out
}

#[cfg(test)]
mod tests;
