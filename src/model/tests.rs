//! Loading and validation, field by field and error by error.

use std::path::Path;

use super::*;
use crate::attr::AttributeType;
use crate::diagnostic::Severity;
use crate::source::Span;

const DESIGN: &str = include_str!("../../test-fixtures/examples/design/dynalint.toml");

fn load(text: &str) -> Model {
    match load_str(Path::new("dynalint.toml"), text) {
        Ok(m) => m,
        Err(p) => panic!("unexpected problems: {p:#?}"),
    }
}

fn problems(text: &str) -> Vec<ModelProblem> {
    match load_str(Path::new("dynalint.toml"), text) {
        Ok(_) => panic!("expected problems in:\n{text}"),
        Err(p) => p,
    }
}

/// The one problem a text has, checked for kind and a message fragment; returns it.
fn one(text: &str, kind: ProblemKind, fragment: &str) -> ModelProblem {
    let p = problems(text);
    assert_eq!(p.len(), 1, "expected one problem, got {p:#?}");
    assert_eq!(p[0].kind, kind, "{p:#?}");
    assert!(
        p[0].message.contains(fragment),
        "`{}` does not contain `{fragment}`",
        p[0].message
    );
    p[0].clone()
}

fn slice(text: &str, span: Span) -> &str {
    &text[span.range()]
}

/// A minimal valid table to build cases on.
const BASE: &str = r#"
[[table]]
name = "T"
partition-key = "PK"
sort-key = "SK"
[table.attributes]
PK = "S"
SK = "S"
"#;

#[test]
fn design_example_loads_every_field_with_spans() {
    let m = load(DESIGN);
    assert_eq!(m.lint.fail_on, Some(Severity::Warning));
    assert_eq!(m.lint.exclude, ["tests/**"]);
    assert_eq!(m.lint.hot_paths, ["src/api/**"]);
    assert_eq!(m.lint.cold_paths, ["src/bin/backfill.rs"]);
    assert_eq!(
        slice(DESIGN, m.lint.fields.get("fail-on").unwrap()),
        "\"warning\""
    );

    let r = &m.rules["low-cardinality-pk"];
    assert_eq!(r.level, Some(RuleLevel::On(Severity::Error)));
    assert_eq!(
        r.options
            .get("min-cardinality")
            .and_then(|v| v.as_integer()),
        Some(100)
    );
    assert!(!r.options.contains_key("level"));
    assert!(slice(DESIGN, r.span).starts_with("low-cardinality-pk = {"));

    let t = &m.tables[0];
    assert_eq!(t.name, "BlogApp");
    assert_eq!(slice(DESIGN, t.name_span), "\"BlogApp\"");
    assert!(slice(DESIGN, t.span).starts_with("[[table]]"));
    assert!(t.is_named_by("BLOG_TABLE"));
    assert_eq!(t.partition_key, "PK");
    assert_eq!(t.sort_key.as_deref(), Some("SK"));
    assert_eq!(
        slice(DESIGN, t.fields.get("partition-key").unwrap()),
        "\"PK\""
    );
    assert_eq!(t.item_count, Some(5_000_000));
    assert_eq!(t.avg_item_size, Some(400));
    // Attributes keep declaration order, not the parser's sorted order.
    assert_eq!(
        t.attributes.keys().collect::<Vec<_>>(),
        ["PK", "SK", "facet", "createdAt", "userEmail"]
    );
    let facet = &t.attributes["facet"];
    assert_eq!(facet.ty, AttributeType::S);
    assert_eq!(
        facet.values,
        Some(ValueSet::List(vec![
            "USER".into(),
            "BLOG".into(),
            "TAG".into()
        ]))
    );
    assert_eq!(slice(DESIGN, facet.name_span), "facet");
    assert!(t.attributes["userEmail"].unique);

    let i = &t.indexes[0];
    assert_eq!(i.name, "ByFacet");
    assert_eq!(i.kind, IndexKind::Global);
    assert_eq!(i.partition_key, "facet");
    assert_eq!(i.sort_key.as_deref(), Some("createdAt"));
    assert_eq!(i.projection, Projection::All);
    assert_eq!(slice(DESIGN, i.name_span), "\"ByFacet\"");

    let e = &t.entities[0];
    assert_eq!(e.name, "Blog");
    assert_eq!(e.count, Some(2_000_000));
    assert_eq!(e.keys["PK"], "USER#{userID}");
    assert_eq!(e.attributes, ["blogID", "title", "createdAt", "facet"]);
    assert_eq!(
        slice(DESIGN, e.fields.get("keys.SK").unwrap()),
        "\"BLOG#{blogID}\""
    );

    let p = &m.access_patterns[0];
    assert_eq!(p.name, "latest blogs");
    assert_eq!(p.table, "BlogApp");
    assert_eq!(p.index.as_deref(), Some("ByFacet"));
    assert_eq!(p.key["facet"], "BLOG");
    assert_eq!(p.order, Some(Order::Desc));
    assert_eq!(p.limit, Some(3));
    assert_eq!(p.rate, Some(50.0));
    assert_eq!(slice(DESIGN, p.name_span), "\"latest blogs\"");
}

#[test]
fn empty_file_is_an_empty_model() {
    let m = load("");
    assert!(m.tables.is_empty() && m.access_patterns.is_empty() && m.rules.is_empty());
}

#[test]
fn attribute_forms() {
    let m = load(&format!(
        "{BASE}status = {{ type = \"S\", values = {{ OPEN = 0.2, PAID = 0.75, VOID = 0.05 }} }}\n\
         shard = {{ type = \"N\", values = [0, 1, 2] }}\n\
         region = {{ type = \"S\", cardinality = 12 }}\n\
         tags = \"SS\"\nflag = \"BOOL\"\n"
    ));
    let t = &m.tables[0];
    let status = &t.attributes["status"];
    match &status.values {
        Some(ValueSet::Shares(s)) => {
            assert_eq!(s.keys().collect::<Vec<_>>(), ["OPEN", "PAID", "VOID"]);
            assert_eq!(s["PAID"], 0.75);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        t.attributes["shard"].values,
        Some(ValueSet::List(vec!["0".into(), "1".into(), "2".into()]))
    );
    assert_eq!(t.attributes["region"].cardinality, Some(12));
    assert_eq!(t.attributes["tags"].ty, AttributeType::SS);
    assert_eq!(t.attributes["flag"].ty, AttributeType::Bool);
}

#[test]
fn index_kinds_and_projections() {
    let m = load(&format!(
        "{BASE}byDate = \"S\"\nGSI1PK = \"S\"\n\
         [[table.index]]\nname = \"L\"\nkind = \"local\"\nsort-key = \"byDate\"\nprojection = \"KEYS_ONLY\"\n\
         [[table.index]]\nname = \"G\"\npartition-key = \"GSI1PK\"\nprojection = {{ include = [\"a\", \"b\"] }}\n\
         [[table.index]]\nname = \"D\"\npartition-key = \"GSI1PK\"\n"
    ));
    let t = &m.tables[0];
    let l = t.index("L").unwrap();
    assert_eq!(l.kind, IndexKind::Local);
    // A local index's partition key defaults to the table's.
    assert_eq!(l.partition_key, "PK");
    assert_eq!(l.projection, Projection::KeysOnly);
    let g = t.index("G").unwrap();
    assert_eq!(
        g.projection,
        Projection::Include(vec!["a".into(), "b".into()])
    );
    assert_eq!(g.sort_key, None);
    assert_eq!(t.index("D").unwrap().projection, Projection::All);
}

#[test]
fn rule_levels() {
    let m = load(
        "[rules]\na = \"off\"\nb = \"info\"\nc = { min-cardinality = 5 }\nd = { level = \"warning\" }\n",
    );
    assert_eq!(m.rules["a"].level, Some(RuleLevel::Off));
    assert_eq!(m.rules["b"].level, Some(RuleLevel::On(Severity::Info)));
    assert_eq!(m.rules["c"].level, None);
    assert_eq!(m.rules["d"].level, Some(RuleLevel::On(Severity::Warning)));
}

#[test]
fn syntax_errors_have_a_location() {
    let text = "[lint]\nfail-on = \n";
    let p = one(text, ProblemKind::Syntax, "invalid TOML");
    assert_eq!(p.span.start, 17);
    let p = problems("[[table]]\nname = \"a\"\nname = \"b\"\n");
    assert!(p.iter().any(|p| p.message.contains("duplicate key")));
}

#[test]
fn a_syntax_error_the_parser_reports_once_per_construct_is_said_once() {
    // Three unclosed arrays end at one place with one message.
    let p = problems("tables = [[[");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(p[0].message.starts_with("invalid TOML"), "{}", p[0].message);
}

#[test]
fn unknown_fields_suggest_the_right_name() {
    let text = format!("{BASE}[[table.index]]\nname = \"I\"\npartition_key = \"PK\"\n");
    let p = problems(&text);
    let unknown = p
        .iter()
        .find(|p| p.kind == ProblemKind::UnknownField)
        .unwrap();
    assert_eq!(slice(&text, unknown.span), "partition_key");
    assert_eq!(
        unknown.help.as_deref(),
        Some("did you mean `partition-key`?")
    );
    // ...and the missing `partition-key` is reported too, at the header.
    let missing = p
        .iter()
        .find(|p| p.kind == ProblemKind::MissingField)
        .unwrap();
    assert_eq!(slice(&text, missing.span), "[[table.index]]");

    one(
        "[[tables]]\nname = \"a\"\n",
        ProblemKind::UnknownField,
        "`tables`",
    );
    one(
        "[lint]\nfailon = \"error\"\n",
        ProblemKind::UnknownField,
        "`failon`",
    );
}

#[test]
fn missing_required_fields() {
    one(
        "[[table]]\nname = \"T\"\n",
        ProblemKind::MissingField,
        "`partition-key`",
    );
    one(
        "[[table]]\npartition-key = \"P\"\n[table.attributes]\nP = \"S\"\n",
        ProblemKind::MissingField,
        "`name`",
    );
    one(
        &format!("{BASE}[[access-pattern]]\ntable = \"T\"\n"),
        ProblemKind::MissingField,
        "`name`",
    );
    one(
        &format!("{BASE}[[table.entity]]\ncount = 1\n"),
        ProblemKind::MissingField,
        "`name`",
    );
    one(
        &format!("{BASE}X = {{ values = [\"a\"] }}\n"),
        ProblemKind::MissingField,
        "`type`",
    );
}

#[test]
fn wrong_types_and_negative_counts() {
    one(
        &BASE.replace("name = \"T\"", "name = \"T\"\nitem-count = \"many\""),
        ProblemKind::WrongType,
        "`item-count` in `[[table]]` must be a whole number, found a string",
    );
    one(
        &BASE.replace("name = \"T\"", "name = \"T\"\nitem-count = -5"),
        ProblemKind::Negative,
        "`item-count` in `[[table]]` cannot be negative",
    );
    one(
        &format!("{BASE}[[table.entity]]\nname = \"E\"\ncount = -1\n"),
        ProblemKind::Negative,
        "`count`",
    );
    one(
        &format!("{BASE}[[access-pattern]]\nname = \"a\"\ntable = \"T\"\nrate = -0.5\n"),
        ProblemKind::Negative,
        "`rate`",
    );
    one(
        &format!("{BASE}X = {{ type = \"S\", cardinality = -3 }}\n"),
        ProblemKind::Negative,
        "`cardinality`",
    );
    one(
        "[table]\nname = \"T\"\n",
        ProblemKind::WrongType,
        "array of tables",
    );
}

#[test]
fn bad_levels_orders_kinds_and_types() {
    let p = one(
        "[lint]\nfail-on = \"warn\"\n",
        ProblemKind::InvalidValue,
        "`fail-on` cannot be `warn`",
    );
    assert_eq!(p.help.as_deref(), Some("did you mean `warning`?"));
    let p = one(
        "[rules]\nx = \"never\"\n",
        ProblemKind::InvalidValue,
        "rule `x` cannot be set to `never`",
    );
    assert_eq!(
        p.help.as_deref(),
        Some("use `error`, `warning`, `info` or `off`")
    );
    one(
        "[rules]\nx = { level = \"err\" }\n",
        ProblemKind::InvalidValue,
        "`err`",
    );
    one("[rules]\nx = 3\n", ProblemKind::WrongType, "rule `x`");
    one(
        &format!("{BASE}[[access-pattern]]\nname = \"a\"\ntable = \"T\"\norder = \"descending\"\n"),
        ProblemKind::InvalidValue,
        "`order` cannot be `descending`",
    );
    one(
        &format!("{BASE}[[table.index]]\nname = \"I\"\nkind = \"lsi\"\npartition-key = \"PK\"\n"),
        ProblemKind::InvalidValue,
        "`kind`",
    );
    let p = one(
        &format!("{BASE}X = \"string\"\n"),
        ProblemKind::InvalidValue,
        "`string`",
    );
    assert_eq!(p.help.as_deref(), Some("did you mean `S`?"));
    one(
        &format!("{BASE}[[table.index]]\nname = \"I\"\npartition-key = \"PK\"\nprojection = \"INCLUDE\"\n"),
        ProblemKind::InvalidValue,
        "projection",
    );
    one(
        "[lint]\nexclude = [\"a/[b\"]\n",
        ProblemKind::InvalidValue,
        "not a valid glob",
    );
}

#[test]
fn untyped_and_non_scalar_keys() {
    let text = "[[table]]\nname = \"T\"\npartition-key = \"PK\"\n";
    let p = one(
        text,
        ProblemKind::UntypedKey,
        "key attribute `PK`, the partition key of table `T`, has no declared type",
    );
    assert_eq!(slice(text, p.span), "\"PK\"");
    let p = one(
        &format!("{BASE}[[table.index]]\nname = \"I\"\npartition-key = \"GSI1PK\"\n"),
        ProblemKind::UntypedKey,
        "`GSI1PK`",
    );
    assert!(p.help.unwrap().contains("GSI1PK = \"S\""));
    let text = BASE.replace("SK = \"S\"", "SK = \"BOOL\"");
    let p = one(
        &text,
        ProblemKind::KeyType,
        "must be scalar: `S`, `N` or `B`",
    );
    assert_eq!(slice(&text, p.span), "\"BOOL\"");
    assert_eq!(p.labels.len(), 1);
    // A broken type declaration is reported once, not again as an untyped key.
    one(
        &BASE.replace("SK = \"S\"", "SK = \"Q\""),
        ProblemKind::InvalidValue,
        "`Q`",
    );
}

#[test]
fn duplicates_point_at_the_first() {
    let text = format!("{BASE}{BASE}");
    let p = one(
        &text,
        ProblemKind::Duplicate,
        "table `T` is defined more than once",
    );
    assert!(p.span.start > p.labels[0].0.start);
    let text = format!(
        "{BASE}[[table.index]]\nname = \"I\"\npartition-key = \"SK\"\n[[table.index]]\nname = \"I\"\npartition-key = \"PK\"\n"
    );
    one(&text, ProblemKind::Duplicate, "index `I`");
    one(
        &format!("{BASE}[[access-pattern]]\nname = \"a\"\ntable = \"T\"\n[[access-pattern]]\nname = \"a\"\ntable = \"T\"\n"),
        ProblemKind::Duplicate,
        "access pattern `a`",
    );
    let two = "[[table]]\nname = \"A\"\nrefs = [\"B\"]\npartition-key = \"P\"\n[table.attributes]\nP = \"S\"\n\
               [[table]]\nname = \"B\"\npartition-key = \"P\"\n[table.attributes]\nP = \"S\"\n";
    one(two, ProblemKind::Duplicate, "already names table `B`");
}

fn indexes(kind: &str, n: usize) -> String {
    let mut s = BASE.to_string();
    s.push_str("LSK = \"S\"\n");
    for i in 0..n {
        s.push_str(&format!(
            "[[table.index]]\nname = \"I{i}\"\nkind = \"{kind}\"\npartition-key = \"PK\"\nsort-key = \"LSK\"\n"
        ));
    }
    s
}

#[test]
fn index_quotas() {
    load(&indexes("global", 20));
    load(&indexes("local", 5));
    let p = one(
        &indexes("global", 22),
        ProblemKind::TooManyIndexes,
        "22 global secondary indexes",
    );
    assert!(p.message.contains("at most 20"));
    one(
        &indexes("local", 6),
        ProblemKind::TooManyIndexes,
        "6 local secondary indexes; DynamoDB allows at most 5",
    );
}

#[test]
fn local_index_must_share_the_partition_key() {
    let text = format!(
        "{BASE}X = \"S\"\n[[table.index]]\nname = \"L\"\nkind = \"local\"\npartition-key = \"X\"\nsort-key = \"SK\"\n"
    );
    let p = one(
        &text,
        ProblemKind::LocalIndexPartitionKey,
        "must use the table's partition key `PK`",
    );
    assert_eq!(slice(&text, p.span), "\"X\"");
    one(
        &format!("{BASE}[[table.index]]\nname = \"L\"\nkind = \"local\"\n"),
        ProblemKind::MissingField,
        "`sort-key`",
    );
}

#[test]
fn include_projection_budget() {
    let attrs = |from: usize, n: usize| {
        (from..from + n)
            .map(|i| format!("\"a{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = |second: usize| {
        format!(
            "{BASE}[[table.index]]\nname = \"A\"\npartition-key = \"SK\"\nprojection = {{ include = [{}] }}\n\
             [[table.index]]\nname = \"B\"\npartition-key = \"SK\"\nprojection = {{ include = [{}] }}\n",
            attrs(0, 60),
            attrs(60, second)
        )
    };
    load(&text(40));
    one(
        &text(41),
        ProblemKind::ProjectionLimit,
        "name 101 attributes",
    );
}

#[test]
fn entity_keys_and_templates() {
    let e = |keys: &str| format!("{BASE}[[table.entity]]\nname = \"E\"\nkeys = {{ {keys} }}\n");
    load(&e("PK = \"USER#{id}\", SK = \"PROFILE\""));
    let text = e("PK = \"USER#{id}\", SK = \"A\", GSI9 = \"x\"");
    let p = one(
        &text,
        ProblemKind::UnknownKey,
        "sets key `GSI9`, which table `T` does not have",
    );
    assert_eq!(slice(&text, p.span), "GSI9");
    let text = e("PK = \"USER#{}\", SK = \"A\"");
    let p = one(&text, ProblemKind::KeyTemplate, "names no attribute");
    assert_eq!(slice(&text, p.span), "{}");
    one(
        &e("PK = \"USER#{id\", SK = \"A\""),
        ProblemKind::KeyTemplate,
        "never closed",
    );
    one(
        &e("PK = \"USER#{id}\""),
        ProblemKind::MissingKey,
        "does not set `SK`",
    );
    one(
        &e("PK = \"USER#{id}\", SK = \"\""),
        ProblemKind::KeyTemplate,
        "empty string into key `SK`",
    );
    let text = BASE.replace("SK = \"S\"", "SK = \"N\"");
    let text = format!(
        "{text}[[table.entity]]\nname = \"E\"\nkeys = {{ PK = \"A\", SK = \"V#{{n}}\" }}\n"
    );
    one(&text, ProblemKind::KeyTemplate, "which is of type `N`");
}

#[test]
fn access_patterns_name_real_tables_indexes_and_keys() {
    let ap = |body: &str| {
        format!("{BASE}GK = \"S\"\n[[table.index]]\nname = \"ByG\"\npartition-key = \"GK\"\n[[access-pattern]]\nname = \"a\"\n{body}\n")
    };
    load(&ap("table = \"T\"\nkey = { PK = \"x\", SK = \"y\" }"));
    load(&ap("table = \"T\"\nindex = \"ByG\"\nkey = { GK = \"x\" }"));
    let p = one(
        &ap("table = \"Tt\""),
        ProblemKind::UnknownTable,
        "names table `Tt`",
    );
    assert_eq!(p.help.as_deref(), Some("did you mean `T`?"));
    one(
        &ap("table = \"T\"\nindex = \"ByH\""),
        ProblemKind::UnknownIndex,
        "index `ByH`",
    );
    one(
        &ap("table = \"T\"\nindex = \"ByG\"\nkey = { GK = \"x\", PK = \"y\" }"),
        ProblemKind::UnknownKey,
        "`PK`, which is not a key of index `ByG`",
    );
    one(
        &ap("table = \"T\"\nkey = { SK = \"y\" }"),
        ProblemKind::MissingKey,
        "partition key `PK`",
    );
}

#[test]
fn share_maps_sum_to_one() {
    load(&format!(
        "{BASE}s = {{ type = \"S\", values = {{ A = 0.333, B = 0.333, C = 0.334 }} }}\n"
    ));
    one(
        &format!("{BASE}s = {{ type = \"S\", values = {{ A = 0.2, B = 0.7 }} }}\n"),
        ProblemKind::Shares,
        "sum to 0.9, not 1",
    );
    one(
        &format!("{BASE}s = {{ type = \"S\", values = {{ A = 1.5 }} }}\n"),
        ProblemKind::Shares,
        "between 0 and 1",
    );
}

#[test]
fn item_size_limit() {
    one(
        &BASE.replace("name = \"T\"", "name = \"T\"\navg-item-size = 500_000"),
        ProblemKind::Limit,
        "400 KB",
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = "[lint]\nfail-on = \"bad\"\n[[table]]\nname = \"T\"\npartition-key = \"PK\"\nitem-count = -1\nbogus = 1\n";
    let p = problems(text);
    let kinds: Vec<_> = p.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        [
            ProblemKind::InvalidValue,
            ProblemKind::UntypedKey,
            ProblemKind::Negative,
            ProblemKind::UnknownField
        ]
    );
}

#[test]
fn unknown_rule_ids_are_reported_against_a_list() {
    let m = load("[rules]\nscan-in-hotpath = \"error\"\n");
    let p = unknown_rules(&m, &["scan-in-hot-path"]);
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].help.as_deref(),
        Some("did you mean `scan-in-hot-path`?")
    );
}

#[test]
fn numbers_in_every_toml_spelling() {
    let with = |line: &str| load(&BASE.replace("name = \"T\"", &format!("name = \"T\"\n{line}")));
    assert_eq!(with("item-count = 0x10").tables[0].item_count, Some(16));
    assert_eq!(with("item-count = 1_000").tables[0].item_count, Some(1000));
    assert_eq!(with("item-count = -0").tables[0].item_count, Some(0));
    one(
        &BASE.replace("name = \"T\"", "name = \"T\"\nitem-count = 1.5"),
        ProblemKind::WrongType,
        "found a float",
    );
    let m = load(&format!(
        "{BASE}[[access-pattern]]\nname = \"a\"\ntable = \"T\"\nrate = 0.25\nkey = {{ PK = 7 }}\n"
    ));
    assert_eq!(m.access_patterns[0].rate, Some(0.25));
    for not_finite in ["nan", "inf", "1e400"] {
        one(
            &BASE.replace(
                "name = \"T\"",
                &format!("name = \"T\"\nwrite-rate = {not_finite}"),
            ),
            ProblemKind::InvalidValue,
            "`write-rate` in `[[table]]` must be a finite number",
        );
    }
    assert_eq!(m.access_patterns[0].key["PK"], "7");
}

#[test]
fn rule_options_keep_every_toml_type() {
    let m = load("[rules]\nr = { level = \"info\", n = 3, f = 0.5, b = true, s = \"x\", a = [1, 2], d = 1979-05-27 }\n");
    let o = &m.rules["r"].options;
    assert_eq!(o.len(), 6);
    assert_eq!(o["f"].as_float(), Some(0.5));
    assert_eq!(o["a"].as_array().map(Vec::len), Some(2));
    assert!(o["d"].as_datetime().is_some());
}

#[test]
fn access_patterns_find_tables_by_ref() {
    let text = BASE.replace("name = \"T\"", "name = \"T\"\nrefs = [\"TABLE_NAME\"]");
    load(&format!(
        "{text}[[access-pattern]]\nname = \"a\"\ntable = \"TABLE_NAME\"\n"
    ));
}

#[test]
fn unique_contradicts_values_and_cardinality() {
    let p = one(
        &format!("{BASE}s = {{ type = \"S\", unique = true, values = [\"A\", \"B\"] }}\n"),
        ProblemKind::InvalidValue,
        "is `unique` but also declares `values`",
    );
    assert_eq!(p.labels.len(), 1);
    one(
        &format!("{BASE}s = {{ type = \"S\", unique = true, cardinality = 3 }}\n"),
        ProblemKind::InvalidValue,
        "`cardinality`",
    );
    load(&format!(
        "{BASE}s = {{ type = \"S\", unique = false, cardinality = 3 }}\n"
    ));
}

#[test]
fn access_pattern_key_values_fit_their_attribute() {
    let ap = |key: &str| {
        format!(
            "{BASE}facet = {{ type = \"S\", values = [\"USER\", \"BLOG\"] }}\nshard = \"N\"\n\
             [[table.index]]\nname = \"ByFacet\"\npartition-key = \"facet\"\nsort-key = \"shard\"\n\
             [[table.index]]\nname = \"ByShard\"\npartition-key = \"shard\"\nsort-key = \"facet\"\n\
             [[access-pattern]]\nname = \"a\"\ntable = \"T\"\n{key}\n"
        )
    };
    load(&ap(
        "index = \"ByFacet\"\nkey = { facet = \"BLOG\", shard = 3 }",
    ));
    load(&ap(
        "index = \"ByFacet\"\nkey = { facet = \"{facet}\", shard = \"{n}\" }",
    ));
    // Values outside the declared list are the `unserved-access-pattern` rule's.
    load(&ap("index = \"ByFacet\"\nkey = { facet = \"TAG\" }"));
    one(
        &ap("index = \"ByShard\"\nkey = { shard = \"x\" }"),
        ProblemKind::InvalidValue,
        "which is of type `N`",
    );
}
