//! Finding and loading `dynalint.toml`.
//!
//! NOTE: first cut — reads the documented fields without spans or cross-checks; the
//! model work (issue 3) replaces the body with span-aware loading and validation.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;

use super::types::*;
use crate::attr::AttributeType;
use crate::report::Severity;
use crate::source::Span;

/// The file name dynalint looks for, walking up from the checked path.
pub const CONFIG_FILE_NAME: &str = "dynalint.toml";

/// One problem in `dynalint.toml`, with the TOML span it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelProblem {
    pub message: String,
    pub span: Span,
    /// Secondary spans ("first defined here").
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl ModelProblem {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
        }
    }
}

/// Why a model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("cannot read `{path}`: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{path}` has {} problem(s)", problems.len())]
    Invalid {
        path: PathBuf,
        text: String,
        problems: Vec<ModelProblem>,
    },
}

/// Walks up from `start` (a file or folder) to the nearest `dynalint.toml`.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = if start.is_file() {
        start.parent()?
    } else {
        start
    };
    let abs = std::fs::canonicalize(start).ok()?;
    abs.ancestors()
        .map(|d| d.join(CONFIG_FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and loads a model file.
pub fn load_file(path: &Path) -> Result<Model, ModelError> {
    let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    load_str(path, &text).map_err(|problems| ModelError::Invalid {
        path: path.to_path_buf(),
        text,
        problems,
    })
}

/// Loads a model from text; every problem is reported at once.
pub fn load_str(path: &Path, text: &str) -> Result<Model, Vec<ModelProblem>> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| {
        let span = e.span().map(Span::from).unwrap_or_default();
        vec![ModelProblem::new(span, e.message().to_string())]
    })?;
    let mut problems = Vec::new();
    let mut model = Model::empty(Arc::from(path));
    if let Some(lint) = doc.get("lint").and_then(|v| v.as_table()) {
        model.lint.fail_on = lint.get("fail-on").and_then(|v| v.as_str()).and_then(|s| {
            s.parse::<Severity>()
                .map_err(|e| problems.push(ModelProblem::new(Span::default(), e)))
                .ok()
        });
        model.lint.exclude = strings(lint.get("exclude"));
        model.lint.hot_paths = strings(lint.get("hot-paths"));
        model.lint.cold_paths = strings(lint.get("cold-paths"));
    }
    if let Some(rules) = doc.get("rules").and_then(|v| v.as_table()) {
        for (id, v) in rules {
            let (level, options) = match v {
                toml::Value::String(s) => (Some(s.clone()), toml::Table::new()),
                toml::Value::Table(t) => {
                    let mut t = t.clone();
                    let level = t.remove("level").and_then(|l| l.as_str().map(String::from));
                    (level, t)
                }
                _ => (None, toml::Table::new()),
            };
            let level = level.map(|l| match l.as_str() {
                "off" | "allow" => RuleLevel::Off,
                other => RuleLevel::On(other.parse().unwrap_or(Severity::Warning)),
            });
            model.rules.insert(
                id.clone(),
                RuleSettings {
                    level,
                    options,
                    span: Span::default(),
                },
            );
        }
    }
    for t in doc
        .get("table")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
    {
        let Some(t) = t.as_table() else { continue };
        let s = |k: &str| t.get(k).and_then(|v| v.as_str()).map(String::from);
        let mut attributes = IndexMap::new();
        for (name, a) in t
            .get("attributes")
            .and_then(|v| v.as_table())
            .into_iter()
            .flatten()
        {
            let ty = match a {
                toml::Value::String(s) => s.clone(),
                toml::Value::Table(t) => t
                    .get("type")
                    .and_then(|v| v.as_str())
                    .unwrap_or("S")
                    .to_string(),
                _ => "S".to_string(),
            };
            let ty = AttributeType::parse(&ty).unwrap_or(AttributeType::S);
            attributes.insert(
                name.clone(),
                Attribute {
                    name: name.clone(),
                    ty,
                    values: None,
                    unique: false,
                    cardinality: None,
                    span: Span::default(),
                },
            );
        }
        let mut indexes = Vec::new();
        for i in t
            .get("index")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let Some(i) = i.as_table() else { continue };
            let s = |k: &str| i.get(k).and_then(|v| v.as_str()).map(String::from);
            indexes.push(Index {
                name: s("name").unwrap_or_default(),
                kind: if s("kind").as_deref() == Some("local") {
                    IndexKind::Local
                } else {
                    IndexKind::Global
                },
                partition_key: s("partition-key").unwrap_or_default(),
                sort_key: s("sort-key"),
                projection: match s("projection").as_deref() {
                    Some("KEYS_ONLY") => Projection::KeysOnly,
                    _ => Projection::All,
                },
                span: Span::default(),
                name_span: Span::default(),
            });
        }
        model.tables.push(Table {
            name: s("name").unwrap_or_default(),
            refs: strings(t.get("refs")),
            partition_key: s("partition-key").unwrap_or_default(),
            sort_key: s("sort-key"),
            item_count: t
                .get("item-count")
                .and_then(|v| v.as_integer())
                .map(|v| v.max(0) as u64),
            avg_item_size: t
                .get("avg-item-size")
                .and_then(|v| v.as_integer())
                .map(|v| v.max(0) as u64),
            attributes,
            indexes,
            entities: Vec::new(),
            span: Span::default(),
            name_span: Span::default(),
        });
    }
    if problems.is_empty() {
        Ok(model)
    } else {
        Err(problems)
    }
}

fn strings(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}
