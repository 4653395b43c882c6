//! A table's shape as plain data: name, key schema with types, secondary indexes with
//! their projections. Built from a CreateTable request by the engine, or directly by
//! the analysis layer from the key model (symbolic validation needs nothing more).

use crate::attr::AttributeType;

/// One key attribute: its name and type (S, N or B).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAttribute {
    pub name: String,
    pub ty: AttributeType,
}

impl KeyAttribute {
    /// A key attribute named `name` of type `ty`.
    pub fn new(name: impl Into<String>, ty: AttributeType) -> Self {
        Self {
            name: name.into(),
            ty,
        }
    }
}

/// A partition key and an optional sort key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySchema {
    pub hash: KeyAttribute,
    pub range: Option<KeyAttribute>,
}

impl KeySchema {
    /// The key attributes, partition key first.
    pub fn attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        std::iter::once(&self.hash).chain(self.range.iter())
    }

    /// True when `name` is one of these key attributes.
    pub fn contains(&self, name: &str) -> bool {
        self.attributes().any(|k| k.name == name)
    }

    /// The key attribute called `name`.
    pub fn get(&self, name: &str) -> Option<&KeyAttribute> {
        self.attributes().find(|k| k.name == name)
    }
}

/// What an index copies besides the table's and its own keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    All,
    KeysOnly,
    Include(Vec<String>),
}

impl Projection {
    /// The wire name of the projection type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::All => "ALL",
            Self::KeysOnly => "KEYS_ONLY",
            Self::Include(_) => "INCLUDE",
        }
    }
}

/// Global or local secondary index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSchema {
    pub name: String,
    pub kind: IndexKind,
    pub keys: KeySchema,
    pub projection: Projection,
}

/// A table's description: everything validation needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSchema {
    pub name: String,
    pub keys: KeySchema,
    pub indexes: Vec<IndexSchema>,
}

impl TableSchema {
    /// The secondary index called `name`.
    pub fn index(&self, name: &str) -> Option<&IndexSchema> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// True when `name` is a key attribute of the table or of any index.
    pub fn is_any_key(&self, name: &str) -> bool {
        self.keys.contains(name) || self.indexes.iter().any(|i| i.keys.contains(name))
    }

    /// Attributes an index entry holds besides its projection: the table's keys and the
    /// index's keys.
    pub fn index_key_names<'a>(&'a self, index: &'a IndexSchema) -> Vec<&'a str> {
        let mut names: Vec<&str> = Vec::new();
        for k in self.keys.attributes().chain(index.keys.attributes()) {
            if !names.contains(&k.name.as_str()) {
                names.push(&k.name);
            }
        }
        names
    }

    /// True when an index with `index`'s projection stores attribute `name`.
    pub fn index_projects(&self, index: &IndexSchema, name: &str) -> bool {
        match &index.projection {
            Projection::All => true,
            Projection::KeysOnly => self.index_key_names(index).contains(&name),
            Projection::Include(list) => {
                self.index_key_names(index).contains(&name) || list.iter().any(|a| a == name)
            }
        }
    }

    /// The type of `name` when it is a key attribute of the table or of an index.
    pub fn key_type(&self, name: &str) -> Option<AttributeType> {
        self.keys
            .get(name)
            .or_else(|| self.indexes.iter().find_map(|i| i.keys.get(name)))
            .map(|k| k.ty)
    }

    /// A table description from the key model (names, key attributes with their
    /// declared types, indexes with projections). Key attributes the model gives no type
    /// for are taken as strings, the common case, so validation still runs.
    pub fn from_model(table: &crate::model::Table) -> TableSchema {
        let key = |name: &str| {
            let ty = table
                .attribute(name)
                .map(|a| a.ty)
                .filter(|t| t.is_key_type())
                .unwrap_or(AttributeType::S);
            KeyAttribute::new(name, ty)
        };
        let keys = |pk: &str, sk: &Option<String>| KeySchema {
            hash: key(pk),
            range: sk.as_deref().map(key),
        };
        TableSchema {
            name: table.name.clone(),
            keys: keys(&table.partition_key, &table.sort_key),
            indexes: table
                .indexes
                .iter()
                .map(|i| IndexSchema {
                    name: i.name.clone(),
                    kind: match i.kind {
                        crate::model::IndexKind::Global => IndexKind::Global,
                        crate::model::IndexKind::Local => IndexKind::Local,
                    },
                    keys: keys(&i.partition_key, &i.sort_key),
                    projection: match &i.projection {
                        crate::model::Projection::All => Projection::All,
                        crate::model::Projection::KeysOnly => Projection::KeysOnly,
                        crate::model::Projection::Include(v) => Projection::Include(v.clone()),
                    },
                })
                .collect(),
        }
    }
}
