//! Facts rules derive from the model: what an index projects, which entities land in
//! which index (sparse indexes), how many distinct values an attribute takes, and how
//! big tables, entities and item collections are. Plain functions over the model;
//! each returns "unknown" rather than guessing when the model lacks a figure.

use super::template::KeyTemplate;
use super::types::*;

/// How many distinct values an attribute takes, and how we know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    /// `values = [..]` or a share map: exactly this many values.
    Values(u64),
    /// `cardinality = n`.
    Declared(u64),
    /// `unique = true`: a value per item; the table's item count when declared.
    Unique(Option<u64>),
    /// Nothing declared.
    Unknown,
}

impl Cardinality {
    /// The number of distinct values, when known.
    pub fn count(self) -> Option<u64> {
        match self {
            Self::Values(n) | Self::Declared(n) => Some(n),
            Self::Unique(n) => n,
            Self::Unknown => None,
        }
    }
}

/// Whether an entity's items are written to an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The entity writes every key attribute of the index.
    Present,
    /// The entity declares its keys/attributes and one of the index's key attributes
    /// is not among them: DynamoDB leaves its items out (a sparse index).
    Absent,
    /// The entity declares neither `keys` nor `attributes`.
    Unknown,
}

/// The attributes an index holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projected {
    /// `ALL`: every attribute of the item.
    All,
    /// `KEYS_ONLY` or `INCLUDE`: the table's and the index's keys, plus any included
    /// attributes, in that order and without repeats.
    Only(Vec<String>),
}

impl Projected {
    /// Whether an attribute can be read from the index.
    pub fn contains(&self, attr: &str) -> bool {
        match self {
            Self::All => true,
            Self::Only(a) => a.iter().any(|x| x == attr),
        }
    }
}

/// How items spread over the partition key values of a table or index.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemCollection {
    /// The partition key attribute.
    pub partition_key: String,
    /// Its distinct values.
    pub keys: Cardinality,
    /// Items in the table or index.
    pub items: u64,
    /// Average items per partition key value, when the key's cardinality is known.
    pub avg_items: Option<f64>,
    /// Items under the most common value: from the share map when declared, else
    /// the average (an even spread is all we can assume).
    pub max_items: Option<f64>,
    /// `avg_items` × `avg-item-size`, when the size is declared.
    pub avg_bytes: Option<f64>,
    /// `max_items` × `avg-item-size`, when the size is declared.
    pub max_bytes: Option<f64>,
}

impl ValueSet {
    /// The declared share of one value (`None` for plain lists or unknown values).
    pub fn share(&self, value: &str) -> Option<f64> {
        match self {
            Self::Shares(m) => m.get(value).copied(),
            Self::List(_) => None,
        }
    }

    /// The most common value and its share, for share maps.
    pub fn max_share(&self) -> Option<(&str, f64)> {
        match self {
            Self::Shares(m) => m
                .iter()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(k, v)| (k.as_str(), *v)),
            Self::List(_) => None,
        }
    }

    /// The declared values, in declaration order.
    pub fn values(&self) -> Vec<&str> {
        match self {
            Self::List(v) => v.iter().map(String::as_str).collect(),
            Self::Shares(m) => m.keys().map(String::as_str).collect(),
        }
    }
}

impl Table {
    /// The table's own key attributes: partition key, then sort key.
    pub fn key_attributes(&self) -> Vec<&str> {
        std::iter::once(self.partition_key.as_str())
            .chain(self.sort_key.as_deref())
            .collect()
    }

    /// Whether an attribute is a key of the table or of any of its indexes.
    pub fn is_key_attribute(&self, attr: &str) -> bool {
        self.key_attributes().contains(&attr)
            || self
                .indexes
                .iter()
                .any(|i| i.key_attributes().contains(&attr))
    }

    /// Looks an entity up by name.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// How many distinct values an attribute takes: declared `values` first, then
    /// `cardinality`, then `unique` (one per item).
    pub fn cardinality(&self, attr: &str) -> Cardinality {
        let Some(a) = self.attribute(attr) else {
            return Cardinality::Unknown;
        };
        if let Some(v) = &a.values {
            if !v.is_empty() {
                return Cardinality::Values(v.len() as u64);
            }
        }
        if let Some(c) = a.cardinality {
            return Cardinality::Declared(c);
        }
        if a.unique {
            return Cardinality::Unique(self.item_count);
        }
        Cardinality::Unknown
    }

    /// The table's size: `item-count` × `avg-item-size`.
    pub fn size_bytes(&self) -> Option<u64> {
        self.item_count?.checked_mul(self.avg_item_size?)
    }

    /// The entities and whether each lands in `index`.
    pub fn entities_in(&self, index: &Index) -> Vec<(&Entity, Presence)> {
        self.entities
            .iter()
            .map(|e| (e, e.presence_in(self, index)))
            .collect()
    }

    /// Items in the table (`index` = `None`) or in one of its indexes. A sparse
    /// index holds only its present entities' items, so it needs their `count`s.
    pub fn items_in(&self, index: Option<&Index>) -> Option<u64> {
        let Some(index) = index else {
            // No entities is no count, not zero items.
            return self.item_count.or_else(|| {
                (!self.entities.is_empty())
                    .then(|| self.entities.iter().map(|e| e.count).sum())
                    .flatten()
            });
        };
        if !index.is_sparse(self) {
            return self.items_in(None);
        }
        self.entities_in(index)
            .into_iter()
            .filter(|(_, p)| *p != Presence::Absent)
            .map(|(e, _)| e.count)
            .sum()
    }

    /// How items spread over partition key values in the table or an index: the
    /// figure behind hot partitions and the 10 GB item-collection limit of tables
    /// with a local secondary index. `None` without an item count.
    pub fn item_collection(&self, index: Option<&Index>) -> Option<ItemCollection> {
        let pk = index.map_or(self.partition_key.as_str(), |i| i.partition_key.as_str());
        let items = self.items_in(index)?;
        let keys = self.cardinality(pk);
        let avg_items = keys
            .count()
            .filter(|&n| n > 0)
            .map(|n| items as f64 / n as f64);
        let max_items = self
            .attribute(pk)
            .and_then(|a| a.values.as_ref())
            .and_then(ValueSet::max_share)
            .map(|(_, share)| items as f64 * share)
            .or(avg_items);
        let size = self.avg_item_size.map(|s| s as f64);
        Some(ItemCollection {
            partition_key: pk.to_string(),
            keys,
            items,
            avg_items,
            max_items,
            avg_bytes: size.zip(avg_items).map(|(s, n)| s * n),
            max_bytes: size.zip(max_items).map(|(s, n)| s * n),
        })
    }
}

impl Index {
    /// The index's key attributes: partition key, then sort key.
    pub fn key_attributes(&self) -> Vec<&str> {
        std::iter::once(self.partition_key.as_str())
            .chain(self.sort_key.as_deref())
            .collect()
    }

    /// What the index holds. The table's and the index's keys are always projected.
    pub fn projected_attributes(&self, table: &Table) -> Projected {
        let included: &[String] = match &self.projection {
            Projection::All => return Projected::All,
            Projection::KeysOnly => &[],
            Projection::Include(a) => a,
        };
        let mut out: Vec<String> = Vec::new();
        let keys = table
            .key_attributes()
            .into_iter()
            .chain(self.key_attributes())
            .chain(included.iter().map(String::as_str));
        for k in keys {
            if !k.is_empty() && !out.iter().any(|o| o == k) {
                out.push(k.to_string());
            }
        }
        Projected::Only(out)
    }

    /// Whether an attribute can be read from the index without a table fetch.
    pub fn projects(&self, table: &Table, attr: &str) -> bool {
        self.projected_attributes(table).contains(attr)
    }

    /// True when some declared entity is absent from the index (its items do not
    /// write the index's key attributes). Without entities nothing is known: false.
    pub fn is_sparse(&self, table: &Table) -> bool {
        table
            .entities
            .iter()
            .any(|e| e.presence_in(table, self) == Presence::Absent)
    }
}

impl Entity {
    /// Whether the entity declares anything it writes (`keys` or `attributes`).
    pub fn declares_attributes(&self) -> bool {
        !self.keys.is_empty() || !self.attributes.is_empty()
    }

    /// Whether the entity's items carry `attr`: a key it sets, a listed attribute,
    /// or the table's primary key (every item has it). `None` when the entity
    /// declares nothing.
    pub fn writes(&self, table: &Table, attr: &str) -> Option<bool> {
        if table.key_attributes().contains(&attr) {
            return Some(true);
        }
        if !self.declares_attributes() {
            return None;
        }
        Some(self.keys.contains_key(attr) || self.attributes.iter().any(|a| a == attr))
    }

    /// Whether the entity's items land in `index`: only when they carry every key
    /// attribute of the index.
    pub fn presence_in(&self, table: &Table, index: &Index) -> Presence {
        let mut unknown = false;
        for k in index.key_attributes() {
            match self.writes(table, k) {
                Some(true) => {}
                Some(false) => return Presence::Absent,
                None => unknown = true,
            }
        }
        if unknown {
            Presence::Unknown
        } else {
            Presence::Present
        }
    }

    /// The parsed template of a key attribute (`None` when not set, or not a valid
    /// template; loading reports the latter).
    pub fn template(&self, attr: &str) -> Option<KeyTemplate> {
        KeyTemplate::parse(self.keys.get(attr)?).ok()
    }

    /// The entity whose template for `attr` could have produced `value`, e.g. which
    /// entity a literal `PK = "USER#42"` in the code reads.
    pub fn matching<'t>(table: &'t Table, attr: &str, value: &str) -> Vec<&'t Entity> {
        table
            .entities
            .iter()
            .filter(|e| e.template(attr).is_some_and(|t| t.matches(value)))
            .collect()
    }

    /// The entity's share of storage: `count` × the table's `avg-item-size`.
    pub fn size_bytes(&self, table: &Table) -> Option<u64> {
        self.count?.checked_mul(table.avg_item_size?)
    }
}

/// Lowercase letters and digits only: `BLOG_TAG_RELATION` and `BlogTagRelation` agree.
fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The value of a type attribute that names `entity`, if exactly one does.
pub fn entity_constant<'a>(values: &'a ValueSet, entity: &str) -> Option<&'a str> {
    let want = normalize(entity);
    let mut hits = values.values().into_iter().filter(|v| normalize(v) == want);
    let first = hits.next()?;
    hits.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::model::load_str;

    #[test]
    fn a_table_without_count_or_entities_has_no_item_count() {
        let m = load_str(
            Path::new("m.toml"),
            "[[table]]\nname = \"T\"\npartition-key = \"PK\"\n[table.attributes]\nPK = \"S\"\nGK = \"S\"\n\
             [[table.index]]\nname = \"G\"\npartition-key = \"GK\"\n",
        )
        .unwrap();
        let t = &m.tables[0];
        assert_eq!(t.items_in(None), None);
        assert_eq!(t.items_in(t.index("G")), None);
    }

    const BLOG: &str = r#"
[[table]]
name = "BlogApp"
partition-key = "PK"
sort-key = "SK"
item-count = 1000
avg-item-size = 400
[table.attributes]
PK = "S"
SK = "S"
facet = { type = "S", values = { USER = 0.1, BLOG = 0.9 } }
createdAt = "S"
userEmail = { type = "S", unique = true }
region = { type = "S", cardinality = 4 }
[[table.index]]
name = "ByFacet"
partition-key = "facet"
sort-key = "createdAt"
projection = { include = ["title", "PK"] }
[[table.index]]
name = "ByEmail"
partition-key = "userEmail"
projection = "KEYS_ONLY"
[[table.index]]
name = "ByRegion"
partition-key = "region"
[[table.entity]]
name = "User"
count = 100
keys = { PK = "USER#{userID}", SK = "PROFILE" }
attributes = ["userEmail", "facet", "region"]
[[table.entity]]
name = "Blog"
count = 900
keys = { PK = "USER#{userID}", SK = "BLOG#{blogID}" }
attributes = ["title", "createdAt", "facet"]
[[table.entity]]
name = "Legacy"
"#;

    fn table() -> Table {
        match load_str(Path::new("m.toml"), BLOG) {
            Ok(m) => m.tables[0].clone(),
            Err(p) => panic!("{p:#?}"),
        }
    }

    #[test]
    fn projections_always_hold_the_keys() {
        let t = table();
        let by_facet = t.index("ByFacet").unwrap();
        assert_eq!(
            by_facet.projected_attributes(&t),
            Projected::Only(vec![
                "PK".into(),
                "SK".into(),
                "facet".into(),
                "createdAt".into(),
                "title".into()
            ])
        );
        assert!(!by_facet.projects(&t, "userEmail"));
        let by_email = t.index("ByEmail").unwrap();
        assert_eq!(
            by_email.projected_attributes(&t),
            Projected::Only(vec!["PK".into(), "SK".into(), "userEmail".into()])
        );
        assert!(t.index("ByRegion").unwrap().projects(&t, "anything"));
    }

    #[test]
    fn entities_without_an_index_key_are_absent() {
        let t = table();
        let by_facet = t.index("ByFacet").unwrap();
        let presence: Vec<_> = t
            .entities_in(by_facet)
            .into_iter()
            .map(|(e, p)| (e.name.as_str(), p))
            .collect();
        assert_eq!(
            presence,
            [
                ("User", Presence::Absent),
                ("Blog", Presence::Present),
                ("Legacy", Presence::Unknown)
            ]
        );
        assert!(by_facet.is_sparse(&t));
        assert_eq!(t.index("ByEmail").unwrap().presence_in_names(&t), ["User"]);
        // Only Blog (900) is known to be in ByFacet; Legacy has no count.
        assert_eq!(t.items_in(Some(by_facet)), None);
        assert_eq!(t.items_in(None), Some(1000));
    }

    #[test]
    fn cardinality_from_values_cardinality_and_unique() {
        let t = table();
        assert_eq!(t.cardinality("facet"), Cardinality::Values(2));
        assert_eq!(t.cardinality("region"), Cardinality::Declared(4));
        assert_eq!(t.cardinality("userEmail"), Cardinality::Unique(Some(1000)));
        assert_eq!(t.cardinality("createdAt"), Cardinality::Unknown);
        assert_eq!(t.cardinality("nope").count(), None);
    }

    #[test]
    fn sizes_and_item_collections() {
        let t = table();
        assert_eq!(t.size_bytes(), Some(400_000));
        assert_eq!(t.entity("Blog").unwrap().size_bytes(&t), Some(360_000));
        assert_eq!(t.entity("Legacy").unwrap().size_bytes(&t), None);
        // The table's partition key has no declared cardinality.
        let c = t.item_collection(None).unwrap();
        assert_eq!((c.items, c.avg_items, c.max_bytes), (1000, None, None));
        // Without the count-less Legacy entity, sparse indexes can be sized.
        let mut t2 = t.clone();
        t2.entities.pop();
        let c = t2
            .item_collection(Some(t2.index("ByRegion").unwrap()))
            .unwrap();
        assert_eq!(c.items, 100);
        assert_eq!(c.avg_items, Some(25.0));
        assert_eq!(c.max_bytes, Some(10_000.0));
        let c = t2
            .item_collection(Some(t2.index("ByFacet").unwrap()))
            .unwrap();
        // Only blogs land in ByFacet, and the share map says 90% of items are BLOG.
        assert_eq!(c.items, 900);
        assert_eq!(c.avg_items, Some(450.0));
        assert_eq!(c.max_items, Some(810.0));
    }

    #[test]
    fn templates_identify_entities() {
        let t = table();
        let names = |v: Vec<&Entity>| v.into_iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(Entity::matching(&t, "SK", "BLOG#7")), ["Blog"]);
        assert_eq!(names(Entity::matching(&t, "SK", "PROFILE")), ["User"]);
        assert_eq!(
            t.entity("Blog")
                .unwrap()
                .template("PK")
                .unwrap()
                .literal_prefix(),
            "USER#"
        );
    }

    impl Index {
        fn presence_in_names(&self, t: &Table) -> Vec<String> {
            t.entities_in(self)
                .into_iter()
                .filter(|(_, p)| *p == Presence::Present)
                .map(|(e, _)| e.name.clone())
                .collect()
        }
    }
}
