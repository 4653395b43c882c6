//! Substituting `#name` placeholders with the attribute names they stand for.

use std::fmt;

use super::ast::{Ast, Path, PathElement};
use super::visit::for_each_path_mut;

/// A request's `ExpressionAttributeNames`: placeholder → attribute name, in the order
/// given. The name is `None` when the caller knows the placeholder is provided but not
/// what it stands for (a value computed at run time).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    entries: Vec<(String, Option<String>)>,
}

impl Names {
    /// No placeholders.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) `placeholder` → `name`.
    pub fn insert(&mut self, placeholder: impl Into<String>, name: Option<String>) {
        let placeholder = placeholder.into();
        match self.entries.iter_mut().find(|(k, _)| *k == placeholder) {
            Some(entry) => entry.1 = name,
            None => self.entries.push((placeholder, name)),
        }
    }

    /// From known pairs: `Names::from_pairs([("#s", "status")])`.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        let mut names = Self::new();
        for (k, v) in pairs {
            names.insert(k, Some(v.into()));
        }
        names
    }

    /// `None` when `placeholder` is not provided; `Some(None)` when provided but unknown.
    pub fn get(&self, placeholder: &str) -> Option<Option<&str>> {
        self.entries
            .iter()
            .find(|(k, _)| k == placeholder)
            .map(|(_, v)| v.as_deref())
    }

    /// The placeholders, in the order given.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// How many placeholders are given.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for an empty map (DynamoDB rejects one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// One element of a resolved path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttrElement {
    Attr(String),
    Index(u32),
}

/// A document path with every `#name` replaced by the attribute name: what the item
/// really holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AttrPath(pub Vec<AttrElement>);

impl AttrPath {
    /// The top-level attribute the path starts at.
    pub fn top(&self) -> Option<&str> {
        match self.0.first() {
            Some(AttrElement::Attr(a)) => Some(a),
            _ => None,
        }
    }

    /// True when the path is a single top-level attribute.
    pub fn is_top_level(&self) -> bool {
        self.0.len() == 1
    }
}

impl fmt::Display for AttrPath {
    /// `a.b[0]`, names raw (not re-escaped: this is for people, not for parsing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            match e {
                AttrElement::Attr(a) if i == 0 => f.write_str(a)?,
                AttrElement::Attr(a) => write!(f, ".{a}")?,
                AttrElement::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Why a path could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// The `#name` is not in the request's `ExpressionAttributeNames`.
    Undefined(String),
    /// It is, but the caller does not know its value.
    Unknown(String),
}

impl Path {
    /// The path with its `#names` substituted.
    pub fn resolve(&self, names: &Names) -> Result<AttrPath, Unresolved> {
        self.elements
            .iter()
            .map(|e| match e {
                PathElement::Attr(a) => Ok(AttrElement::Attr(a.clone())),
                PathElement::Index(i) => Ok(AttrElement::Index(*i)),
                PathElement::Name(n) => match names.get(n) {
                    Some(Some(real)) => Ok(AttrElement::Attr(real.to_string())),
                    Some(None) => Err(Unresolved::Unknown(n.clone())),
                    None => Err(Unresolved::Undefined(n.clone())),
                },
            })
            .collect::<Result<Vec<_>, _>>()
            .map(AttrPath)
    }
}

/// A copy of `ast` with every known `#name` replaced by its attribute name; unknown or
/// undefined placeholders stay as they are. Printing the result shows the real names
/// (which may not be valid expression text: a reserved or odd name is not re-aliased).
pub fn resolve_names(ast: &Ast, names: &Names) -> Ast {
    let mut out = ast.clone();
    for_each_path_mut(&mut out, &mut |path| {
        for e in &mut path.elements {
            if let PathElement::Name(n) = e {
                if let Some(Some(real)) = names.get(n) {
                    *e = PathElement::Attr(real.to_string());
                }
            }
        }
    });
    out
}
