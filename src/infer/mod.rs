//! The key model when there is no `dynalint.toml`: inferred from what the repository
//! already declares — infrastructure templates (`model::import::discover`) and the
//! Rust code's own `create_table` / `update_table` calls — so a first run needs no
//! configuration. An explicit `dynalint.toml` always wins: nothing here runs then.
//!
//! `init.rs` writes the inferred model out as a `dynalint.toml` to start from.

pub mod from_code;
pub mod init;
pub mod shared_refs;
pub mod usage;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::model::import::{self, Imported};
use crate::model::Model;
use crate::scanner::{Operation, TableDecl};
use crate::source::SourceFile;
use crate::workspace::Reach;

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

/// The inferred model (each table with its origin) and what could not be used.
#[derive(Debug, Clone)]
pub struct Inferred {
    pub model: Model,
    pub source: ModelSource,
    /// `file:line: message`, ready to print.
    pub notes: Vec<String>,
    /// The same notes with their place, for the editor.
    pub located: Vec<InferNote>,
    /// The template files read (their text, for findings that point into them).
    pub files: Vec<PathBuf>,
}

/// A note about inference with its place: a template that does not read, a
/// `create_table` skipped, a table whose calls do not settle its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InferNote {
    pub file: PathBuf,
    /// 1-based; 0 when about the whole file.
    pub line: usize,
    /// Byte span in the file (empty when about the whole file).
    pub span: crate::source::Span,
    pub message: String,
}

/// The path an inferred model stands at: where `dynalint init` would write one.
pub fn model_path(root: &Path) -> PathBuf {
    root.join(crate::model::CONFIG_FILE_NAME)
}

/// Infers the model of the project at `root`: the tables its templates declare
/// (`model::import::discover`), then those its code creates (`decls`, found by the
/// scanner in `files`). A table declared in both with the same keys is one table;
/// with different keys the template's is kept and a note names both places; a name
/// the code builds (`Users_{1}`) is the one template table built the same way. Last,
/// the tables the calls (`ops`) use that nothing declares, from the keys the calls
/// agree on (`usage`, marked as such). Templates are looked for as far below `root`
/// as `reach` says (a loose file's project: its folder's own files).
pub fn infer(
    root: &Path,
    reach: Reach,
    decls: &[TableDecl],
    ops: &[Operation],
    files: &[SourceFile],
) -> Inferred {
    let imported = import::discover_to(root, reach.max_depth());
    infer_with(root, imported, decls, ops, files)
}

/// [`infer`] with the templates already read.
pub fn infer_with(
    root: &Path,
    mut imported: Imported,
    decls: &[TableDecl],
    ops: &[Operation],
    files: &[SourceFile],
) -> Inferred {
    let (mut code, mut code_notes) = from_code::tables(decls, files, &mut imported.tables);
    for c in &mut code {
        same_shape_as_declared(&mut c.table, &imported.tables);
    }
    import::merge(
        &mut imported,
        Imported {
            tables: code.into_iter().map(|c| c.table).collect(),
            ..Imported::default()
        },
    );
    // Before the calls are bound to the declared tables: a ref two of them answer to
    // binds neither.
    code_notes.extend(shared_refs::drop_shared(&mut imported.tables));
    if !ops.is_empty() {
        let mut declared = Model::empty(Arc::from(model_path(root)));
        declared.tables = std::mem::take(&mut imported.tables);
        let (used, notes) = usage::tables(&declared, ops, files);
        imported.tables = declared.tables;
        imported.tables.extend(used);
        code_notes.extend(notes);
    }
    infer_from(root, imported, code_notes)
}

/// A table the code creates under a built name (`Users_{1}`, from
/// `format!("Users_{}", env)`) is the one table a template builds the same way
/// (`Users_{EnvironmentName}`): named as the template names it, so the merge makes them
/// one (or notes both places when their keys differ), and the calls that build the
/// name bind to it instead of to neither of two.
fn same_shape_as_declared(t: &mut crate::model::Table, declared: &[crate::model::Table]) {
    use crate::facts::bind::skeleton;
    if t.name_template().is_none() {
        return;
    }
    let Some(shape) = skeleton(&t.name) else {
        return;
    };
    let mut same = declared
        .iter()
        .filter(|d| d.name_template().is_some() && skeleton(&d.name).as_ref() == Some(&shape));
    if let (Some(d), None) = (same.next(), same.next()) {
        t.name = d.name.clone();
    }
}

fn infer_from(root: &Path, imported: Imported, code_notes: Vec<from_code::CodeNote>) -> Inferred {
    let mut model = Model::empty(Arc::from(model_path(root)));
    let located: Vec<InferNote> = imported
        .notes
        .iter()
        .map(|n| InferNote {
            file: n.path.to_path_buf(),
            line: n.line,
            span: n.span,
            message: n.message.clone(),
        })
        .chain(code_notes.iter().map(|n| InferNote {
            file: n.file.to_path_buf(),
            line: n.line,
            span: n.span,
            message: n.message.clone(),
        }))
        .collect();
    let mut notes: Vec<String> = imported
        .notes
        .iter()
        .map(|n| {
            let mut n = n.clone();
            n.path = Arc::from(PathBuf::from(show(&n.path)));
            n.to_string()
        })
        .collect();
    notes.extend(
        code_notes
            .into_iter()
            .map(|n| format!("{}:{}: {}", show(&n.file), n.line, n.message)),
    );
    model.tables = imported.tables;
    let mut used: Vec<PathBuf> = Vec::new();
    for t in &model.tables {
        if !used.iter().any(|u| u.as_path() == &*t.origin.path) {
            used.push(t.origin.path.to_path_buf());
        }
    }
    let source = if used.is_empty() {
        ModelSource::None
    } else {
        ModelSource::Inferred(used)
    };
    let files = imported
        .files
        .into_iter()
        .map(|f| f.path.to_path_buf())
        .collect();
    Inferred {
        model,
        source,
        notes,
        located,
        files,
    }
}

fn show(p: &Path) -> String {
    crate::workspace::display_path(p)
}

#[cfg(test)]
mod tests {
    use crate::model::import::import_file;
    use crate::scanner::{scan, ScanSettings};
    use crate::source::SourceFile;

    const TEMPLATE: &str = r#"
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Parameters:
  EnvironmentName:
    Type: String
Resources:
  UserTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub "Users_${EnvironmentName}"
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: userId
          AttributeType: S
        - AttributeName: email
          AttributeType: S
      KeySchema:
        - AttributeName: userId
          KeyType: HASH
      GlobalSecondaryIndexes:
        - IndexName: EmailIndex
          KeySchema:
            - AttributeName: email
              KeyType: HASH
          Projection:
            ProjectionType: ALL
"#;

    /// A bootstrap binary creates for local runs the table the template deploys, both
    /// named after the environment: one table, which the handlers' calls bind to.
    #[test]
    fn a_table_the_code_creates_as_the_template_builds_its_name_is_the_template_s() {
        let bootstrap = SourceFile::new(
            "src/bootstrap.rs",
            r#"
async fn create_users_table(client: &Client, env: &str) -> Result<()> {
    client
        .create_table()
        .table_name(format!("Users_{}", env))
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("userId").attribute_type(ScalarAttributeType::S).build()?)
        .key_schema(KeySchemaElement::builder().attribute_name("userId").key_type(KeyType::Hash).build()?)
        .send()
        .await?;
    Ok(())
}
"#,
        );
        let handlers = SourceFile::new(
            "src/handlers.rs",
            r#"
pub async fn get_user(client: &Client, env: &str, user_id: &str) -> Result<Option<User>> {
    let out = client
        .get_item()
        .table_name(format!("Users_{}", env))
        .key("userId", AttributeValue::S(user_id.to_string()))
        .send()
        .await?;
    Ok(out.item.map(|i| from_item(i)).transpose()?)
}
"#,
        );
        let files = [bootstrap, handlers];
        let scanned = scan(&files, &ScanSettings::default());
        let inf = super::infer_with(
            std::path::Path::new("."),
            import_file(std::path::Path::new("template.yaml"), TEMPLATE),
            &scanned.tables,
            &scanned.operations,
            &files,
        );
        let names: Vec<&str> = inf.model.tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Users_{EnvironmentName}"], "{:?}", inf.notes);
        assert_eq!(inf.model.tables[0].indexes[0].name, "EmailIndex");
        let get = scanned
            .operations
            .iter()
            .find(|o| o.file.ends_with("handlers.rs"))
            .unwrap();
        let bound = crate::facts::bind::find_table(&inf.model, get.table.as_ref().unwrap());
        assert_eq!(
            bound.map(|t| t.name.as_str()),
            Some("Users_{EnvironmentName}")
        );
    }
}
