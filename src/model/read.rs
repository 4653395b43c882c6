//! Turning the parsed TOML document into [`Model`] values, field by field, with the
//! span of every item and value. Problems local to one field (wrong type, unknown
//! field, bad level, negative count) are found here; problems that relate items to
//! each other are `validate`'s.

use std::collections::HashSet;

use indexmap::IndexMap;
use toml::de::{DeTable, DeValue};

use super::problem::{backticked, did_you_mean, ModelProblem, ProblemKind};
use super::toml_read::{
    array_of_tables, entries, extent, keep, span_of, to_plain_table, type_name, Fields, Value,
};
use super::types::*;
use crate::attr::AttributeType;
use crate::diagnostic::Severity;
use crate::source::Span;

const TOP_FIELDS: &[&str] = &[
    "import",
    "lint",
    "rules",
    "pricing",
    "table",
    "access-pattern",
];
const LINT_FIELDS: &[&str] = &[
    "fail-on",
    "exclude",
    "hot-paths",
    "cold-paths",
    "skipped-files",
];
const TABLE_FIELDS: &[&str] = &[
    "name",
    "refs",
    "partition-key",
    "sort-key",
    "item-count",
    "avg-item-size",
    "write-rate",
    "attributes",
    "index",
    "entity",
    "billing-mode",
    "read-capacity",
    "write-capacity",
    "table-class",
    "replicas",
];
const ATTRIBUTE_FIELDS: &[&str] = &["type", "values", "unique", "cardinality"];
const INDEX_FIELDS: &[&str] = &[
    "name",
    "kind",
    "partition-key",
    "sort-key",
    "projection",
    "read-capacity",
    "write-capacity",
];
const ENTITY_FIELDS: &[&str] = &["name", "count", "keys", "attributes", "write-rate"];
const PATTERN_FIELDS: &[&str] = &["name", "table", "index", "key", "order", "limit", "rate"];
/// The levels a `[rules]` entry may set.
pub const RULE_LEVELS: &[&str] = &["error", "warning", "info", "off"];

/// What reading learnt besides the model: declarations that were broken, so that
/// validation does not report their consequences a second time.
#[derive(Debug, Default)]
pub struct Broken {
    /// (table index, attribute name) whose declaration did not read.
    pub attributes: HashSet<(usize, String)>,
    /// Names of tables an `import`ed file declares: a `[[table]]` of that name may
    /// leave out its keys and only add figures.
    pub imported: HashSet<String>,
}

/// Reads a whole document. The model is best effort when `problems` grows.
pub fn document(
    doc: &DeTable<'_>,
    model: &mut Model,
    broken: &mut Broken,
    problems: &mut Vec<ModelProblem>,
) {
    let top = Fields::new(
        doc,
        Span::default(),
        "`dynalint.toml`",
        TOP_FIELDS,
        problems,
    );
    if let Some((files, span)) = top.strings("import", problems) {
        model.imports = files
            .into_iter()
            .map(|(file, span)| Import { file, span })
            .collect();
        model.import_span = Some(span);
    }
    if let Some((t, at)) = top.table("lint", problems) {
        model.lint = lint(t, at, problems);
    }
    if let Some((t, _)) = top.table("rules", problems) {
        model.rules = rules(t, problems);
    }
    if let Some((t, at)) = top.table("pricing", problems) {
        model.pricing = super::pricing_read::pricing(t, at, problems);
    }
    for (i, t) in array_of_tables(top.get("table"), "table", "`dynalint.toml`", problems)
        .into_iter()
        .enumerate()
    {
        let origin = TableOrigin::toml(model.path.clone());
        model.tables.push(table(i, t, origin, broken, problems));
    }
    for p in array_of_tables(
        top.get("access-pattern"),
        "access-pattern",
        "`dynalint.toml`",
        problems,
    ) {
        model.access_patterns.push(access_pattern(p, problems));
    }
}

fn lint(t: &DeTable<'_>, at: Span, problems: &mut Vec<ModelProblem>) -> LintSettings {
    let f = Fields::new(t, at, "`[lint]`", LINT_FIELDS, problems);
    let mut lint = LintSettings::default();
    if let Some((s, span)) = f.string("fail-on", problems) {
        lint.fields.insert("fail-on", span);
        match s.parse::<Severity>() {
            Ok(sev) => lint.fail_on = Some(sev),
            Err(_) => problems.push(bad_choice(
                span,
                format!("`fail-on` cannot be `{s}`"),
                &s,
                &["error", "warning", "info"],
            )),
        }
    }
    if let Some((s, span)) = f.string("skipped-files", problems) {
        lint.fields.insert("skipped-files", span);
        match s.as_str() {
            "error" => lint.allow_skipped = false,
            "allow" => lint.allow_skipped = true,
            _ => problems.push(bad_choice(
                span,
                format!("`skipped-files` cannot be `{s}`"),
                &s,
                &["error", "allow"],
            )),
        }
    }
    for (key, out) in [
        ("exclude", &mut lint.exclude),
        ("hot-paths", &mut lint.hot_paths),
        ("cold-paths", &mut lint.cold_paths),
    ] {
        let Some((globs, span)) = f.strings(key, problems) else {
            continue;
        };
        lint.fields.insert(key, span);
        for (g, gspan) in globs {
            // Globs are compiled by the CLI; checking them here gives the location.
            match globset::Glob::new(&g) {
                Ok(_) => out.push(g),
                Err(e) => problems.push(ModelProblem::of(
                    ProblemKind::InvalidValue,
                    gspan,
                    format!("`{g}` in `{key}` is not a valid glob: {}", e.kind()),
                )),
            }
        }
    }
    lint
}

/// A "cannot be `x`" problem with the allowed values as help.
pub(super) fn bad_choice(
    span: Span,
    message: String,
    value: &str,
    allowed: &[&str],
) -> ModelProblem {
    let help = match did_you_mean(value, allowed.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("use {}", backticked(allowed)),
    };
    ModelProblem::of(ProblemKind::InvalidValue, span, message).with_help(help)
}

fn rules(t: &DeTable<'_>, problems: &mut Vec<ModelProblem>) -> IndexMap<String, RuleSettings> {
    let mut out = IndexMap::new();
    for (id, key_span, v) in entries(t) {
        let span = key_span.cover(extent(v));
        let (level, options) = match v.get_ref() {
            DeValue::String(s) => (Some((s.to_string(), span_of(v))), toml::Table::new()),
            DeValue::Table(t) => {
                let level = match t.get("level") {
                    None => None,
                    Some(l) => match l.get_ref() {
                        DeValue::String(s) => Some((s.to_string(), span_of(l))),
                        other => {
                            problems.push(ModelProblem::of(
                                ProblemKind::WrongType,
                                span_of(l),
                                format!(
                                    "`level` of rule `{id}` must be a string, found {}",
                                    type_name(other)
                                ),
                            ));
                            None
                        }
                    },
                };
                let mut options = keep(to_plain_table(t), problems).unwrap_or_default();
                options.remove("level");
                (level, options)
            }
            other => {
                problems.push(
                    ModelProblem::of(
                        ProblemKind::WrongType,
                        span_of(v),
                        format!(
                            "rule `{id}` must be set to a level or a table, found {}",
                            type_name(other)
                        ),
                    )
                    .with_help(format!(
                        "write `{id} = \"warning\"` or `{id} = {{ level = \"error\", .. }}`"
                    )),
                );
                continue;
            }
        };
        let level = level.and_then(|(l, lspan)| match l.as_str() {
            "off" => Some(RuleLevel::Off),
            other => match other.parse::<Severity>() {
                Ok(sev) => Some(RuleLevel::On(sev)),
                Err(_) => {
                    problems.push(bad_choice(
                        lspan,
                        format!("rule `{id}` cannot be set to `{l}`"),
                        &l,
                        RULE_LEVELS,
                    ));
                    None
                }
            },
        });
        out.insert(
            id.to_string(),
            RuleSettings {
                level,
                options,
                span,
            },
        );
    }
    out
}

fn table(
    index_in_model: usize,
    v: &Value<'_>,
    origin: TableOrigin,
    broken: &mut Broken,
    problems: &mut Vec<ModelProblem>,
) -> Table {
    let empty = DeTable::default();
    let t = v.get_ref().as_table().unwrap_or(&empty);
    let f = Fields::new(t, span_of(v), "`[[table]]`", TABLE_FIELDS, problems);
    let mut fields = FieldSpans::default();
    let (name, name_span) = f.required_string("name", problems).unwrap_or_default();
    let what_name = if name.is_empty() { "?" } else { &name };
    let keys_imported = broken.imported.contains(&name);
    let partition_key = string_field(&f, "partition-key", !keys_imported, &mut fields, problems);
    let sort_key = string_field(&f, "sort-key", false, &mut fields, problems);
    let refs = f
        .strings("refs", problems)
        .map(|(r, span)| {
            fields.insert("refs", span);
            r.into_iter().map(|(s, _)| s).collect()
        })
        .unwrap_or_default();
    let item_count = count_field(&f, "item-count", &mut fields, problems);
    let avg_item_size = count_field(&f, "avg-item-size", &mut fields, problems);
    let write_rate = rate_field(&f, "write-rate", &mut fields, problems);
    let billing_mode = f.string("billing-mode", problems).and_then(|(m, span)| {
        fields.insert("billing-mode", span);
        let mode = BillingMode::parse(&m);
        if mode.is_none() {
            problems.push(bad_choice(
                span,
                format!("`billing-mode` cannot be `{m}`"),
                &m,
                &["PAY_PER_REQUEST", "PROVISIONED"],
            ));
        }
        mode
    });
    let provisioned = throughput(&f, &mut fields, problems);
    let table_class = f.string("table-class", problems).and_then(|(c, span)| {
        fields.insert("table-class", span);
        let class = TableClass::parse(&c);
        if class.is_none() {
            problems.push(bad_choice(
                span,
                format!("`table-class` cannot be `{c}`"),
                &c,
                &["STANDARD", "STANDARD_INFREQUENT_ACCESS"],
            ));
        }
        class
    });
    let replicas = f
        .strings("replicas", problems)
        .map(|(r, span)| {
            fields.insert("replicas", span);
            r.into_iter().map(|(s, _)| s).collect()
        })
        .unwrap_or_default();

    let mut attributes = IndexMap::new();
    if let Some((attrs, span)) = f.table("attributes", problems) {
        fields.insert("attributes", span);
        for (name, key_span, av) in entries(attrs) {
            match attribute(name, key_span, av, what_name, problems) {
                Some(a) => {
                    attributes.insert(name.to_string(), a);
                }
                None => {
                    broken.attributes.insert((index_in_model, name.to_string()));
                }
            }
        }
    }
    let indexes = f
        .tables("index", problems)
        .into_iter()
        .map(|i| index(i, &partition_key, problems))
        .collect();
    let entities = f
        .tables("entity", problems)
        .into_iter()
        .map(|e| entity(e, problems))
        .collect();
    Table {
        name,
        refs,
        partition_key: partition_key.unwrap_or_default(),
        sort_key,
        item_count,
        avg_item_size,
        write_rate,
        attributes,
        indexes,
        entities,
        billing_mode,
        provisioned,
        table_class,
        replicas,
        origin,
        span: extent(v),
        name_span,
        fields,
    }
}

/// `read-capacity` and `write-capacity`: provisioned throughput, when either is given.
fn throughput(
    f: &Fields<'_, '_>,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Option<Throughput> {
    let read = count_field(f, "read-capacity", fields, problems);
    let write = count_field(f, "write-capacity", fields, problems);
    (read.is_some() || write.is_some()).then_some(Throughput { read, write })
}

/// A string field recorded in `fields`.
fn string_field(
    f: &Fields<'_, '_>,
    key: &str,
    required: bool,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Option<String> {
    let r = if required {
        f.required_string(key, problems)
    } else {
        f.string(key, problems)
    };
    r.map(|(s, span)| {
        fields.insert(key, span);
        s
    })
}

/// A per-second rate (`rate`, `write-rate`) recorded in `fields`.
fn rate_field(
    f: &Fields<'_, '_>,
    key: &str,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Option<f64> {
    f.number(key, problems).map(|(r, span)| {
        fields.insert(key, span);
        r
    })
}

/// A count field recorded in `fields`.
fn count_field(
    f: &Fields<'_, '_>,
    key: &str,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Option<u64> {
    f.count(key, problems).map(|(n, span)| {
        fields.insert(key, span);
        n
    })
}

/// One `[table.attributes]` entry; `None` when its type cannot be known.
fn attribute(
    name: &str,
    name_span: Span,
    v: &Value<'_>,
    table: &str,
    problems: &mut Vec<ModelProblem>,
) -> Option<Attribute> {
    let mut a = Attribute {
        name: name.to_string(),
        ty: AttributeType::S,
        values: None,
        unique: false,
        cardinality: None,
        span: name_span.cover(extent(v)),
        name_span,
        fields: FieldSpans::default(),
    };
    match v.get_ref() {
        DeValue::String(s) => {
            a.ty = attribute_type(s, span_of(v), problems)?;
            a.fields.insert("type", span_of(v));
        }
        DeValue::Table(t) => {
            let what = format!("attribute `{name}` of table `{table}`");
            let f = Fields::new(t, span_of(v), what, ATTRIBUTE_FIELDS, problems);
            if let Some((u, span)) = f.boolean("unique", problems) {
                a.unique = u;
                a.fields.insert("unique", span);
            }
            if let Some((c, span)) = f.count("cardinality", problems) {
                a.cardinality = Some(c);
                a.fields.insert("cardinality", span);
            }
            if let Some(values) = f.get("values") {
                a.fields.insert("values", span_of(values));
                a.values = value_set(name, values, &mut a.fields, problems);
            }
            let (ty, span) = f.required_string("type", problems)?;
            a.ty = attribute_type(&ty, span, problems)?;
            a.fields.insert("type", span);
        }
        other => {
            problems.push(
                ModelProblem::of(
                    ProblemKind::WrongType,
                    span_of(v),
                    format!(
                        "attribute `{name}` must be a type like `\"S\"` or a table like \
                         `{{ type = \"S\", values = [..] }}`, found {}",
                        type_name(other)
                    ),
                )
                .with_help(format!("write `{name} = \"S\"`")),
            );
            return None;
        }
    }
    Some(a)
}

fn attribute_type(s: &str, span: Span, problems: &mut Vec<ModelProblem>) -> Option<AttributeType> {
    let t = AttributeType::parse(s);
    if t.is_none() {
        let names: Vec<&str> = AttributeType::ALL.iter().map(|t| t.as_str()).collect();
        let upper = s.to_ascii_uppercase();
        let suggestion = AttributeType::parse(&upper)
            .map(|t| t.as_str())
            .or_else(|| did_you_mean(s, names.iter().copied()))
            .or(match upper.as_str() {
                "STRING" => Some("S"),
                "NUMBER" | "INT" | "INTEGER" => Some("N"),
                "BINARY" | "BYTES" => Some("B"),
                "BOOLEAN" => Some("BOOL"),
                "MAP" => Some("M"),
                "LIST" => Some("L"),
                _ => None,
            });
        let help = match suggestion {
            Some(t) => format!("did you mean `{t}`?"),
            None => format!("DynamoDB's attribute types are {}", backticked(&names)),
        };
        problems.push(
            ModelProblem::of(
                ProblemKind::InvalidValue,
                span,
                format!("`{s}` is not a DynamoDB attribute type"),
            )
            .with_help(help),
        );
    }
    t
}

/// `values = ["A", "B"]` or `values = { A = 0.2, B = 0.8 }`.
fn value_set(
    attr: &str,
    v: &Value<'_>,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Option<ValueSet> {
    match v.get_ref() {
        DeValue::Array(items) => {
            let mut out = Vec::new();
            for item in items.iter() {
                match scalar_text(item.get_ref()) {
                    Some(s) => out.push(s),
                    None => problems.push(ModelProblem::of(
                        ProblemKind::WrongType,
                        span_of(item),
                        format!(
                            "values of attribute `{attr}` must be strings, numbers or \
                             booleans, found {}",
                            type_name(item.get_ref())
                        ),
                    )),
                }
            }
            Some(ValueSet::List(out))
        }
        DeValue::Table(t) => {
            let mut out = IndexMap::new();
            for (value, key_span, share) in entries(t) {
                fields.insert(format!("values.{value}"), key_span.cover(span_of(share)));
                match super::toml_read::number_value(share) {
                    Ok(s) if s <= 1.0 => {
                        out.insert(value.to_string(), s);
                    }
                    Ok(_) | Err(super::toml_read::NumberError::Negative) => {
                        problems.push(ModelProblem::of(
                            ProblemKind::Shares,
                            span_of(share),
                            format!(
                                "share of `{value}` in attribute `{attr}` must be between \
                                 0 and 1 (the fraction of items with this value)"
                            ),
                        ))
                    }
                    Err(_) => problems.push(ModelProblem::of(
                        ProblemKind::WrongType,
                        span_of(share),
                        format!(
                            "share of `{value}` in attribute `{attr}` must be a number, found {}",
                            type_name(share.get_ref())
                        ),
                    )),
                }
            }
            Some(ValueSet::Shares(out))
        }
        other => {
            problems.push(ModelProblem::of(
                ProblemKind::WrongType,
                span_of(v),
                format!(
                    "`values` of attribute `{attr}` must be a list or a map from value to \
                     share, found {}",
                    type_name(other)
                ),
            ));
            None
        }
    }
}

/// The text of a scalar value as DynamoDB would hold it in a key.
fn scalar_text(v: &DeValue<'_>) -> Option<String> {
    match v {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => Some(
            i128::from_str_radix(i.as_str(), i.radix())
                .map(|n| n.to_string())
                .unwrap_or_else(|_| i.as_str().to_string()),
        ),
        DeValue::Float(f) => Some(f.as_str().to_string()),
        DeValue::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn index(v: &Value<'_>, table_pk: &Option<String>, problems: &mut Vec<ModelProblem>) -> Index {
    let empty = DeTable::default();
    let t = v.get_ref().as_table().unwrap_or(&empty);
    let f = Fields::new(t, span_of(v), "`[[table.index]]`", INDEX_FIELDS, problems);
    let mut fields = FieldSpans::default();
    let (name, name_span) = f.required_string("name", problems).unwrap_or_default();
    let kind = match f.string("kind", problems) {
        None => IndexKind::Global,
        Some((k, span)) => {
            fields.insert("kind", span);
            match k.as_str() {
                "global" => IndexKind::Global,
                "local" => IndexKind::Local,
                _ => {
                    problems.push(bad_choice(
                        span,
                        format!("index `kind` cannot be `{k}`"),
                        &k,
                        &["global", "local"],
                    ));
                    IndexKind::Global
                }
            }
        }
    };
    // A local index always shares the table's partition key, so it may be left out.
    let partition_key = string_field(
        &f,
        "partition-key",
        kind == IndexKind::Global,
        &mut fields,
        problems,
    )
    .or_else(|| table_pk.clone())
    .unwrap_or_default();
    let sort_key = string_field(
        &f,
        "sort-key",
        kind == IndexKind::Local,
        &mut fields,
        problems,
    );
    let projection = f
        .get("projection")
        .map(|p| {
            fields.insert("projection", span_of(p));
            projection(p, &mut fields, problems)
        })
        .unwrap_or(Projection::All);
    let provisioned = throughput(&f, &mut fields, problems);
    Index {
        name,
        kind,
        partition_key,
        sort_key,
        projection,
        provisioned,
        span: extent(v),
        name_span,
        fields,
    }
}

/// `"ALL"`, `"KEYS_ONLY"` or `{ include = [..] }`; anything else reads as `ALL`, the
/// projection under which no attribute is falsely reported missing.
fn projection(
    v: &Value<'_>,
    fields: &mut FieldSpans,
    problems: &mut Vec<ModelProblem>,
) -> Projection {
    const CHOICES: &[&str] = &["ALL", "KEYS_ONLY"];
    let help = "use `\"ALL\"`, `\"KEYS_ONLY\"` or `{ include = [\"attr\", ..] }`";
    match v.get_ref() {
        DeValue::String(s) => match s.as_ref() {
            "ALL" => Projection::All,
            "KEYS_ONLY" => Projection::KeysOnly,
            other => {
                let mut p = ModelProblem::of(
                    ProblemKind::InvalidValue,
                    span_of(v),
                    format!("`{other}` is not a projection"),
                );
                p = match did_you_mean(other, CHOICES.iter().copied()) {
                    Some(c) if !other.eq_ignore_ascii_case("INCLUDE") => {
                        p.with_help(format!("did you mean `{c}`?"))
                    }
                    _ => p.with_help(help),
                };
                problems.push(p);
                Projection::All
            }
        },
        DeValue::Table(t) => {
            let f = Fields::new(t, span_of(v), "`projection`", &["include"], problems);
            match f.strings("include", problems) {
                Some((attrs, span)) => {
                    fields.insert("projection.include", span);
                    for (n, (_, item)) in attrs.iter().enumerate() {
                        fields.insert(format!("projection.include.{n}"), *item);
                    }
                    Projection::Include(attrs.into_iter().map(|(a, _)| a).collect())
                }
                None => {
                    if f.get("include").is_none() {
                        problems.push(
                            ModelProblem::of(
                                ProblemKind::MissingField,
                                span_of(v),
                                "`projection` table is missing the required field `include`",
                            )
                            .with_help(help),
                        );
                    }
                    Projection::All
                }
            }
        }
        other => {
            problems.push(
                ModelProblem::of(
                    ProblemKind::WrongType,
                    span_of(v),
                    format!(
                        "`projection` must be a string or a table, found {}",
                        type_name(other)
                    ),
                )
                .with_help(help),
            );
            Projection::All
        }
    }
}

fn entity(v: &Value<'_>, problems: &mut Vec<ModelProblem>) -> Entity {
    let empty = DeTable::default();
    let t = v.get_ref().as_table().unwrap_or(&empty);
    let f = Fields::new(t, span_of(v), "`[[table.entity]]`", ENTITY_FIELDS, problems);
    let mut fields = FieldSpans::default();
    let (name, name_span) = f.required_string("name", problems).unwrap_or_default();
    let count = count_field(&f, "count", &mut fields, problems);
    let mut keys = IndexMap::new();
    if let Some((k, span)) = f.table("keys", problems) {
        fields.insert("keys", span);
        for (attr, key_span, tv) in entries(k) {
            match scalar_text(tv.get_ref()) {
                Some(text) => {
                    fields.insert(format!("keys.{attr}"), span_of(tv));
                    fields.insert(format!("keys.{attr}.name"), key_span);
                    keys.insert(attr.to_string(), text);
                }
                None => problems.push(ModelProblem::of(
                    ProblemKind::WrongType,
                    span_of(tv),
                    format!(
                        "key template of `{attr}` must be a string like `\"USER#{{userID}}\"`, \
                         found {}",
                        type_name(tv.get_ref())
                    ),
                )),
            }
        }
    }
    let attributes = f
        .strings("attributes", problems)
        .map(|(a, span)| {
            fields.insert("attributes", span);
            a.into_iter().map(|(s, _)| s).collect()
        })
        .unwrap_or_default();
    let write_rate = rate_field(&f, "write-rate", &mut fields, problems);
    Entity {
        name,
        count,
        keys,
        attributes,
        write_rate,
        span: extent(v),
        name_span,
        fields,
    }
}

fn access_pattern(v: &Value<'_>, problems: &mut Vec<ModelProblem>) -> AccessPattern {
    let empty = DeTable::default();
    let t = v.get_ref().as_table().unwrap_or(&empty);
    let f = Fields::new(
        t,
        span_of(v),
        "`[[access-pattern]]`",
        PATTERN_FIELDS,
        problems,
    );
    let mut fields = FieldSpans::default();
    let (name, name_span) = f.required_string("name", problems).unwrap_or_default();
    let table = string_field(&f, "table", true, &mut fields, problems).unwrap_or_default();
    let index = string_field(&f, "index", false, &mut fields, problems);
    let mut key = IndexMap::new();
    if let Some((k, span)) = f.table("key", problems) {
        fields.insert("key", span);
        for (attr, key_span, kv) in entries(k) {
            match scalar_text(kv.get_ref()) {
                Some(text) => {
                    fields.insert(format!("key.{attr}"), span_of(kv));
                    fields.insert(format!("key.{attr}.name"), key_span);
                    key.insert(attr.to_string(), text);
                }
                None => problems.push(ModelProblem::of(
                    ProblemKind::WrongType,
                    span_of(kv),
                    format!(
                        "key value of `{attr}` must be a string or number, found {}",
                        type_name(kv.get_ref())
                    ),
                )),
            }
        }
    }
    let order = f.string("order", problems).and_then(|(o, span)| {
        fields.insert("order", span);
        match o.as_str() {
            "asc" => Some(Order::Asc),
            "desc" => Some(Order::Desc),
            _ => {
                problems.push(bad_choice(
                    span,
                    format!("`order` cannot be `{o}`"),
                    &o,
                    &["asc", "desc"],
                ));
                None
            }
        }
    });
    let limit = count_field(&f, "limit", &mut fields, problems);
    let rate = rate_field(&f, "rate", &mut fields, problems);
    AccessPattern {
        name,
        table,
        index,
        key,
        order,
        limit,
        rate,
        span: extent(v),
        name_span,
        fields,
    }
}
