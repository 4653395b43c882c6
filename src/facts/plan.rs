//! How a read is served: an access pattern (or a code Query) turned into a plan —
//! which table or index, GetItem/Query/Scan, the partition key value, the sort-key
//! condition, what is left to a filter, how many shards it fans out to.

use serde::Serialize;

use crate::model::{AccessPattern, Index, KeyTemplate, Model, Order, Table};

use super::align::{align, Slot};

/// A `{lo..hi}` placeholder: a shard range written in an access pattern.
pub fn parse_range(name: &str) -> Option<(i64, i64)> {
    let (lo, hi) = name.split_once("..")?;
    let (lo, hi) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (lo <= hi).then_some((lo, hi))
}

/// The API that serves a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Access {
    GetItem,
    Query,
    Scan,
}

impl Access {
    /// DynamoDB's name of the API.
    pub fn api_name(self) -> &'static str {
        match self {
            Self::GetItem => "GetItem",
            Self::Query => "Query",
            Self::Scan => "Scan",
        }
    }
}

/// A sort-key condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum SortCondition {
    /// `SK = value`; the value may hold placeholders filled from generated items.
    Eq { value: String },
    /// `begins_with(SK, prefix)`.
    BeginsWith { prefix: String },
}

/// A read, planned against the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadPlan {
    pub table: String,
    /// `None`: the table itself.
    pub index: Option<String>,
    pub access: Access,
    /// The target's partition key attribute and the value asked for (a template).
    pub partition: Option<(String, String)>,
    /// The target's sort key attribute and its condition.
    pub sort: Option<(String, SortCondition)>,
    /// Attribute = value conditions the key cannot serve: applied after reading.
    pub filters: Vec<(String, String)>,
    /// A `{lo..hi}` shard range in the partition value: one request per shard.
    pub fan_out: Option<(i64, i64)>,
    /// Read order: `false` for `order = "desc"` (`ScanIndexForward = false`).
    pub forward: bool,
    /// Results wanted per call.
    pub limit: Option<u64>,
    /// The call sends one request and reads no further page (code without
    /// pagination): `limit` then caps the items read. Access patterns page.
    pub one_request: bool,
    /// Strongly consistent reads (only table and LSI reads can be).
    pub consistent: bool,
    /// `total_segments` of a code's parallel Scan: one call reads one segment.
    pub segments: Option<u64>,
    /// Why the plan needs a Scan or a filter, in words.
    pub why: Vec<String>,
}

impl ReadPlan {
    /// Requests one call makes: the shard count of a fan-out, else one.
    pub fn requests_per_call(&self) -> u64 {
        self.fan_out
            .map_or(1, |(lo, hi)| u64::try_from(hi - lo + 1).unwrap_or(1).max(1))
    }

    /// `Query ByFacet` / `GetItem table`: a short label.
    pub fn served_by(&self) -> String {
        format!(
            "{} {}",
            self.access.api_name(),
            self.index.as_deref().map_or_else(
                || format!("table `{}`", self.table),
                |i| format!("index `{i}`")
            )
        )
    }

    /// The key condition as DynamoDB would read it: `facet = "BLOG"`,
    /// `PK = "USER#{userID}" AND begins_with(SK, "BLOG#")`.
    pub fn key_condition(&self) -> Option<String> {
        let (pk, v) = self.partition.as_ref()?;
        let mut s = format!("{pk} = \"{v}\"");
        match &self.sort {
            Some((sk, SortCondition::Eq { value })) => {
                s.push_str(&format!(" AND {sk} = \"{value}\""))
            }
            Some((sk, SortCondition::BeginsWith { prefix })) => {
                s.push_str(&format!(" AND begins_with({sk}, \"{prefix}\")"));
            }
            None => {}
        }
        Some(s)
    }
}

/// Why an access pattern cannot be planned at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("table `{0}` is not in the model")]
    UnknownTable(String),
    #[error("table `{table}` has no index `{index}`")]
    UnknownIndex { table: String, index: String },
    #[error("key value `{value}` of `{attr}` is not a valid template: {reason}")]
    BadTemplate {
        attr: String,
        value: String,
        reason: String,
    },
}

/// The keys of the table or of one of its indexes.
fn target_keys<'a>(table: &'a Table, index: Option<&'a Index>) -> (&'a str, Option<&'a str>) {
    match index {
        Some(i) => (i.partition_key.as_str(), i.sort_key.as_deref()),
        None => (table.partition_key.as_str(), table.sort_key.as_deref()),
    }
}

/// Plans an access pattern as declared: on its table, or the index it names.
pub fn plan_pattern(model: &Model, p: &AccessPattern) -> Result<ReadPlan, PlanError> {
    let table = model
        .table(&p.table)
        .ok_or_else(|| PlanError::UnknownTable(p.table.clone()))?;
    let index = match &p.index {
        Some(name) => Some(table.index(name).ok_or_else(|| PlanError::UnknownIndex {
            table: table.name.clone(),
            index: name.clone(),
        })?),
        None => None,
    };
    let (pk, sk) = target_keys(table, index);
    let mut plan = ReadPlan {
        table: table.name.clone(),
        index: index.map(|i| i.name.clone()),
        access: Access::Query,
        partition: None,
        sort: None,
        filters: Vec::new(),
        fan_out: None,
        forward: p.order != Some(Order::Desc),
        limit: p.limit,
        one_request: false,
        consistent: false,
        segments: None,
        why: Vec::new(),
    };
    let mut sort_key = None;
    for (attr, value) in &p.key {
        let t = KeyTemplate::parse(value).map_err(|e| PlanError::BadTemplate {
            attr: attr.clone(),
            value: value.clone(),
            reason: e.to_string(),
        })?;
        if attr == pk {
            plan.fan_out = t.placeholders().find_map(parse_range);
            plan.partition = Some((attr.clone(), value.clone()));
        } else if Some(attr.as_str()) == sk {
            sort_key = Some((attr.clone(), t, value.clone()));
        } else {
            plan.filters.push((attr.clone(), value.clone()));
        }
    }
    if let Some((attr, t, value)) = sort_key {
        let pv = plan
            .partition
            .as_ref()
            .and_then(|(a, v)| Some((a.as_str(), KeyTemplate::parse(v).ok()?)));
        plan.sort = Some((attr.clone(), sort_condition(table, pv, &attr, &t, &value)));
    }
    let target = plan.index.as_deref().map_or_else(
        || format!("table `{}`", table.name),
        |i| format!("index `{i}`"),
    );
    if plan.partition.is_none() {
        plan.access = Access::Scan;
        plan.sort = None;
        plan.why.push(format!(
            "the key does not give `{pk}`, the partition key of {target}"
        ));
        // A Scan evaluates every key condition as a filter.
        plan.filters = p.key.iter().map(|(a, v)| (a.clone(), v.clone())).collect();
    } else if index.is_none()
        && plan.filters.is_empty()
        && plan.fan_out.is_none()
        && (sk.is_none() || matches!(plan.sort, Some((_, SortCondition::Eq { .. }))))
    {
        plan.access = Access::GetItem;
    }
    for (a, _) in plan.filters.iter().filter(|_| plan.access != Access::Scan) {
        plan.why.push(format!(
            "`{a}` is not a key of {target}, so it is filtered after reading"
        ));
    }
    Ok(plan)
}

/// `SK = "BLOG#"` with no entity writing exactly `BLOG#` means "begins with"; so
/// does a template no entity's template lines up with (`"{OrderState}#"` against
/// `"{OrderState}#{orderDate}"`): its placeholders are filled, the rest is open.
fn sort_condition(
    table: &Table,
    partition: Option<(&str, KeyTemplate)>,
    attr: &str,
    t: &KeyTemplate,
    value: &str,
) -> SortCondition {
    // Only entities that can live in the partition asked for decide.
    let lines_up = |a: &KeyTemplate, b: &KeyTemplate| {
        align(a, b).is_some_and(|slots| slots.iter().all(|(_, s)| *s != Slot::Mixed))
    };
    let templates: Vec<KeyTemplate> = table
        .entities
        .iter()
        .filter(|e| {
            match (
                &partition,
                partition.as_ref().and_then(|(a, _)| e.template(a)),
            ) {
                (Some((_, pt)), Some(et)) => {
                    (pt.is_constant() && et.matches(&pt.to_string())) || lines_up(pt, &et)
                }
                _ => true,
            }
        })
        .filter_map(|e| e.template(attr))
        .collect();
    let exact = if t.is_constant() {
        templates.iter().any(|et| et.matches(value))
    } else {
        // Without entity templates (a plain attribute) a template value is a value.
        templates.is_empty() || templates.iter().any(|et| lines_up(t, et))
    };
    if exact {
        SortCondition::Eq {
            value: value.to_string(),
        }
    } else {
        SortCondition::BeginsWith {
            prefix: value.to_string(),
        }
    }
}

/// The table or index (by name) among `table`'s, if any, whose key serves every
/// attribute of `key` without a Scan or a filter: its partition key is in `key` and
/// every other attribute of `key` is its sort key.
pub fn serving_targets(table: &Table, key: &[&str]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let candidates = std::iter::once(None).chain(table.indexes.iter().map(Some));
    for index in candidates {
        let (pk, sk) = target_keys(table, index);
        let serves = key.contains(&pk) && key.iter().all(|a| *a == pk || Some(*a) == sk);
        if serves {
            out.push(index.map(|i| i.name.clone()));
        }
    }
    out
}
