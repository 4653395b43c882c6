//! Finding a project's infrastructure files: every template under a folder that
//! declares a table, respecting `.gitignore`, skipping build output (`target/`,
//! `node_modules/`, hidden folders such as `.aws-sam/`, `.serverless/`,
//! `.terraform/` that hold copies of the sources). CDK's `cdk.out/` is read beside
//! each `cdk.json` even when ignored: it is where a CDK app's tables are written down.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{cdk_ts, import_known, merge, terraform, ImportNote, Imported};
use crate::source::{FilePath, Span};

/// Larger files are not templates a person maintains (CDK output of a big app stays
/// well under this).
const MAX_BYTES: u64 = 8 * 1024 * 1024;

/// Folders never searched.
const SKIPPED_DIRS: &[&str] = &[
    "target",
    "node_modules",
    "cdk.out",
    "vendor",
    "venv",
    "site-packages",
];

/// What a file must mention to be worth parsing: a CloudFormation type (a template
/// may declare tables, or only functions that name another template's), a key field of
/// DynamoDB's JSON or Workbench's, or a Serverless service's provider.
pub(super) const MARKERS: &[&str] = &["AWS::", "KeySchema", "KeyAttributes", "provider:"];

/// Imports every recognised file under `root`, in path order, joining tables declared
/// in several files and noting conflicts.
pub fn discover(root: &Path) -> Imported {
    discover_to(root, None)
}

/// [`discover`] looking at most `max_depth` folders below `root` (`Some(1)`: its own
/// files; `Some(0)`: none), for a loose file's project.
pub fn discover_to(root: &Path, max_depth: Option<usize>) -> Imported {
    let mut out = Imported::default();
    let mut documents = Vec::new();
    let mut terraform_dirs: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    let mut cdk_apps = Vec::new();
    // TypeScript that may belong to a CDK app whose `cdk.json` is not here (a
    // subfolder checked out alone, an app driven by a parent's tooling).
    let mut loose_ts = Vec::new();
    // Python that may be a CDK app (`app.py` and the stacks it imports).
    let mut python = Vec::new();
    let walker = ignore::WalkBuilder::new(root)
        .max_depth(max_depth)
        .follow_links(true)
        .require_git(false)
        .hidden(true)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && e.file_name()
                    .to_str()
                    .is_some_and(|n| SKIPPED_DIRS.contains(&n)))
        })
        .build();
    for entry in walker {
        let e = match entry {
            Ok(e) => e,
            Err(err) => {
                out.notes.push(note(
                    root,
                    format!("cannot search this folder fully: {err}"),
                ));
                continue;
            }
        };
        if !e.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let ext = p.extension().and_then(|x| x.to_str()).unwrap_or_default();
        if name == "cdk.json" {
            if let Some(dir) = p.parent() {
                cdk_apps.push(dir.to_path_buf());
            }
        }
        match ext {
            "tf" | "tfvars" => terraform_dirs
                .entry(p.parent().unwrap_or(root).to_path_buf())
                .or_default()
                .push(p.to_path_buf()),
            "yaml" | "yml" | "json" | "template" => documents.push(p.to_path_buf()),
            "ts" if is_app_typescript(p) => loose_ts.push(p.to_path_buf()),
            "py" if !p.components().any(|c| c.as_os_str() == "tests") => {
                python.push(p.to_path_buf())
            }
            _ => {}
        }
    }
    loose_ts.retain(|p| !cdk_apps.iter().any(|app| p.starts_with(app)));
    let mut cdk_sources = Vec::new();
    for app in cdk_apps {
        let synthesised: Vec<PathBuf> = std::fs::read_dir(app.join("cdk.out"))
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.to_string_lossy().ends_with(".template.json"))
                    .collect()
            })
            .unwrap_or_default();
        if synthesised.is_empty() {
            // Not synthesised here: the app's TypeScript says what it declares.
            cdk_sources.push(typescript_of(&app));
        } else {
            documents.extend(synthesised);
        }
    }
    documents.sort();
    documents.dedup();
    // Serverless services first: the files their `resources` include are read with the
    // service's variables, and not again on their own.
    documents.sort_by_key(|p| {
        !p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("serverless."))
    });
    for p in documents {
        if out.files.iter().any(|f| *f.path == *p) {
            continue;
        }
        if let Some(text) = read(&p, &mut out.notes) {
            if MARKERS.iter().any(|m| text.contains(m)) {
                // A YAML file that mentions one but is no template says nothing; one that
                // does not parse is a note only when it is plainly a template.
                if let Some(i) = import_known(&p, &text) {
                    if !i.files.is_empty() || plainly_a_template(&p, &text) {
                        merge(&mut out, i);
                    }
                }
            }
        }
    }
    // Without a `cdk.json`, the files that import the CDK are the app: one of them
    // importing its DynamoDB module is as plain a declaration as `cdk.json` next to it.
    let mut loose: Vec<PathBuf> = loose_ts
        .into_iter()
        .filter(|p| read_quiet(p).is_some_and(|t| imports_cdk(&t)))
        .collect();
    loose.sort();
    if !loose.is_empty() {
        cdk_sources.push(loose);
    }
    // A CDK app in Python: the files that import `aws_cdk`, read together.
    python.sort();
    let py_texts: Vec<(FilePath, String)> = python
        .iter()
        .filter_map(|p| Some((Arc::from(p.as_path()), read_quiet(p)?)))
        .filter(|(_, t)| t.contains("aws_cdk"))
        .collect();
    if py_texts.iter().any(|(_, t)| cdk_ts::mentions_table_py(t)) {
        merge(
            &mut out,
            cdk_ts::import_app_in(&py_texts, cdk_ts::Dialect::Python),
        );
    }
    for files in cdk_sources {
        let texts: Vec<(FilePath, String)> = files
            .iter()
            .filter_map(|p| Some((Arc::from(p.as_path()), read(p, &mut out.notes)?)))
            // The app's entry point too: the props it gives a stack can name a table.
            .filter(|(_, t)| {
                cdk_ts::mentions_table(t) || t.contains("environment") || t.contains("Stack")
            })
            .collect();
        if texts.iter().any(|(_, t)| cdk_ts::mentions_table(t)) {
            merge(&mut out, cdk_ts::import_app(&texts));
        }
    }
    for (_, mut files) in terraform_dirs {
        files.sort();
        let texts: Vec<(FilePath, String)> = files
            .iter()
            .filter_map(|p| Some((Arc::from(p.as_path()), read(p, &mut out.notes)?)))
            .collect();
        if texts
            .iter()
            .any(|(_, t)| terraform::mentions_table(t) || terraform::mentions_parameter(t))
        {
            merge(&mut out, terraform::import_module(&texts));
        }
    }
    out
}

/// A file that is a template by its name or its content, so that failing to read it
/// is worth a note.
fn plainly_a_template(p: &Path, text: &str) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.starts_with("template.")
        || name.starts_with("serverless.")
        || name.ends_with(".template.json")
        || [
            "AWSTemplateFormatVersion",
            "AWS::DynamoDB::",
            "AWS::Serverless-",
            "KeySchema",
        ]
        .iter()
        .any(|m| text.contains(m))
}

/// TypeScript that is an app's source: not a declaration file, a test, or a test folder's.
fn is_app_typescript(p: &Path) -> bool {
    let s = p.to_string_lossy();
    !s.ends_with(".d.ts")
        && !s.ends_with(".test.ts")
        && !p.components().any(|c| c.as_os_str() == "test")
}

/// Whether TypeScript imports the AWS CDK (v2 `aws-cdk-lib`, v1 `@aws-cdk/...`).
fn imports_cdk(text: &str) -> bool {
    text.contains("'aws-cdk-lib")
        || text.contains("\"aws-cdk-lib")
        || text.contains("'@aws-cdk/")
        || text.contains("\"@aws-cdk/")
}

/// A file's text when it is small enough to be an app's source; no note otherwise
/// (most TypeScript is no CDK app, and `read` notes the files that are).
fn read_quiet(p: &Path) -> Option<String> {
    if std::fs::metadata(p).ok()?.len() > MAX_BYTES {
        return None;
    }
    crate::encoding::read_to_string(p).ok()
}

/// The TypeScript of a CDK app (not its tests, declarations or dependencies), in path
/// order.
fn typescript_of(app: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ignore::WalkBuilder::new(app)
        .require_git(false)
        .hidden(true)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && e.file_name()
                    .to_str()
                    .is_some_and(|n| SKIPPED_DIRS.contains(&n) || n == "test"))
        })
        .build()
        .flatten()
        .map(|e| e.into_path())
        .filter(|p| {
            let s = p.to_string_lossy();
            s.ends_with(".ts") && !s.ends_with(".d.ts") && !s.ends_with(".test.ts")
        })
        .collect();
    out.sort();
    out
}

fn note(path: &Path, message: String) -> ImportNote {
    ImportNote {
        path: Arc::from(path),
        line: 0,
        span: Span::default(),
        message,
    }
}

/// A file's text, or a note saying why not.
fn read(p: &Path, notes: &mut Vec<ImportNote>) -> Option<String> {
    match std::fs::metadata(p) {
        Ok(m) if m.len() > MAX_BYTES => {
            notes.push(note(
                p,
                format!(
                    "skipped: {} bytes is larger than the {} MB a template is read up to",
                    m.len(),
                    MAX_BYTES / (1024 * 1024)
                ),
            ));
            return None;
        }
        Ok(_) => {}
        Err(e) => {
            notes.push(note(p, format!("cannot read this file: {e}")));
            return None;
        }
    }
    match std::fs::read(p) {
        // UTF-8 with or without a BOM, or UTF-16 with one.
        Ok(bytes) => match crate::encoding::decode(bytes.clone()) {
            Ok(s) => Some(s),
            Err(e) => {
                // Binary, or another encoding: a note only when it would have been read.
                let lossy = String::from_utf8_lossy(&bytes);
                if MARKERS.iter().any(|m| lossy.contains(m)) {
                    notes.push(note(p, format!("skipped: this file is {e}")));
                }
                None
            }
        },
        Err(e) => {
            notes.push(note(p, format!("cannot read this file: {e}")));
            None
        }
    }
}
