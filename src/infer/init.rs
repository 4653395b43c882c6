//! `dynalint init`: the inferred model written out as a `dynalint.toml` to start from.
//! Every table says where it was found; the figures no file declares (`item-count`,
//! `avg-item-size`, `write-rate`, `values`, an access pattern's `rate`) are commented-out
//! lines saying what each unlocks, so the file is valid as written and the user only
//! uncomments. The output must pass `dynalint model check` unchanged.

use std::fmt::Write;

use super::Inferred;
use crate::model::{IndexKind, Projection, Table};

/// A TOML string literal.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key: bare when it can be, quoted otherwise.
fn key(s: &str) -> String {
    let bare = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        s.to_string()
    } else {
        q(s)
    }
}

/// The text of a `dynalint.toml` for the inferred model. A model with no table is
/// nothing to write: a `dynalint.toml` without tables would only turn inference off
/// (`dynalint init` says so and writes nothing).
pub fn render(inferred: &Inferred) -> String {
    let mut out = String::new();
    out.push_str(
        "# The key model dynalint checks DynamoDB calls against, written by `dynalint init`\n\
         # from the tables this repository declares. Edit freely: this file now wins over\n\
         # what the templates and code say. Figures no file declares are commented out;\n\
         # uncomment and fill them in to unlock the findings that need them.\n\
         # `dynalint model check` validates this file; `dynalint explain RULE` says what a\n\
         # rule needs.\n",
    );
    if !inferred.notes.is_empty() {
        out.push_str("#\n# What `dynalint init` could not use:\n");
        for n in &inferred.notes {
            for (i, line) in n.lines().enumerate() {
                let lead = if i == 0 { "#   - " } else { "#     " };
                let _ = writeln!(out, "{lead}{line}");
            }
        }
    }
    for t in &inferred.model.tables {
        table(
            &mut out,
            t,
            &crate::model::show::origin(&inferred.model, &t.origin),
        );
    }
    access_pattern_example(&mut out, inferred.model.tables.first());
    out
}

fn table(out: &mut String, t: &Table, origin: &str) {
    out.push_str("\n[[table]]\n");
    let _ = writeln!(out, "# from {origin}");
    if t.origin.kind == crate::model::OriginKind::Usage {
        out.push_str(
            "# CHECK: no file declares this table; its key is the one the code's calls agree\n\
             # on (get/delete/update keys, query key conditions). Once it is here, findings on\n\
             # it are errors where they were warnings: confirm the key first.\n",
        );
    }
    let _ = writeln!(out, "name = {}", q(&t.name));
    if !t.refs.is_empty() {
        let refs: Vec<String> = t.refs.iter().map(|r| q(r)).collect();
        let _ = writeln!(
            out,
            "refs = [{}]   # env vars and consts the code names this table by",
            refs.join(", ")
        );
    }
    let _ = writeln!(out, "partition-key = {}", q(&t.partition_key));
    if let Some(sk) = &t.sort_key {
        let _ = writeln!(out, "sort-key = {}", q(sk));
    }
    if let Some(m) = t.billing_mode {
        let _ = writeln!(out, "billing-mode = {}", q(m.as_str()));
    }
    capacity(out, t.provisioned);
    if let Some(c) = t.table_class {
        let _ = writeln!(out, "table-class = {}", q(c.as_str()));
    }
    out.push_str(
        "# item-count = 1_000_000   # how many items: decides whether an unpaginated read can\n\
         #                          # pass 1 MB, what a scan or filter costs, and partition heat\n\
         # avg-item-size = 400      # bytes per item: decides read and write costs\n\
         # write-rate = 100         # items written per second at peak: decides whether\n\
         #                          # one partition key value takes more writes than it can\n",
    );
    // Every key attribute needs a type; one the declaration leaves out is written as
    // `S`, marked, so the file is valid and the guess is the user's to check.
    let mut untyped: Vec<&str> = Vec::new();
    for k in key_attributes(t) {
        if t.attribute(k).is_none() && !untyped.contains(&k) {
            untyped.push(k);
        }
    }
    if !t.attributes.is_empty() || !untyped.is_empty() {
        out.push_str("\n[table.attributes]\n");
        for (name, a) in &t.attributes {
            if a.unique {
                // Only inference sets it here: what the code's reads of an index show.
                let _ = writeln!(
                    out,
                    "{} = {{ type = {}, unique = true }}   # CHECK: every query of its index reads one item",
                    key(name),
                    q(a.ty.as_str())
                );
            } else {
                let _ = writeln!(out, "{} = {}", key(name), q(a.ty.as_str()));
            }
        }
        for k in &untyped {
            let _ = writeln!(
                out,
                "{} = \"S\"   # CHECK: the declaration does not say this key's type",
                key(k)
            );
        }
    }
    // Partition keys of GSIs are where few distinct values hurt most.
    let low: Vec<&str> = t
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global)
        .map(|i| i.partition_key.as_str())
        .filter(|pk| *pk != t.partition_key)
        .collect();
    for (n, pk) in low.iter().enumerate() {
        if low[..n].contains(pk) || t.attribute(pk).is_some_and(|a| a.unique) {
            continue;
        }
        let ty = t.attribute(pk).map_or("S", |a| a.ty.as_str());
        let _ = writeln!(
            out,
            "# {} = {{ type = {}, values = [\"A\", \"B\"] }}   # its values, if few: decides\n\
             #   whether index partitions on `{pk}` run hot (low-cardinality-pk)",
            key(pk),
            q(ty)
        );
    }
    for i in &t.indexes {
        out.push_str("\n[[table.index]]\n");
        if t.origin.kind == crate::model::OriginKind::Usage {
            out.push_str(
                "# CHECK: keyed as the code's Queries that name this index read it; its\n\
                 # projection is not known (ALL is written).\n",
            );
        }
        let _ = writeln!(out, "name = {}", q(&i.name));
        if i.kind == IndexKind::Local {
            out.push_str("kind = \"local\"\n");
        }
        let _ = writeln!(out, "partition-key = {}", q(&i.partition_key));
        if let Some(sk) = &i.sort_key {
            let _ = writeln!(out, "sort-key = {}", q(sk));
        }
        let projection = match &i.projection {
            Projection::All => q("ALL"),
            Projection::KeysOnly => q("KEYS_ONLY"),
            Projection::Include(attrs) => {
                let a: Vec<String> = attrs.iter().map(|x| q(x)).collect();
                format!("{{ include = [{}] }}", a.join(", "))
            }
        };
        let _ = writeln!(out, "projection = {projection}");
        capacity(out, i.provisioned);
    }
}

/// `read-capacity` / `write-capacity`, each when the declaration gives it.
fn capacity(out: &mut String, p: Option<crate::model::Throughput>) {
    let Some(p) = p else { return };
    if let Some(r) = p.read {
        let _ = writeln!(out, "read-capacity = {r}");
    }
    if let Some(w) = p.write {
        let _ = writeln!(out, "write-capacity = {w}");
    }
}

/// The table's and its indexes' key attributes, in order.
fn key_attributes(t: &Table) -> Vec<&str> {
    let mut v = vec![t.partition_key.as_str()];
    v.extend(t.sort_key.as_deref());
    for i in &t.indexes {
        v.push(i.partition_key.as_str());
        v.extend(i.sort_key.as_deref());
    }
    v
}

fn access_pattern_example(out: &mut String, t: Option<&Table>) {
    let (table, pk, sk) = match t {
        Some(t) => (
            t.name.as_str(),
            t.partition_key.as_str(),
            t.sort_key.as_deref(),
        ),
        None => ("orders", "PK", Some("SK")),
    };
    let _ = write!(
        out,
        "\n# The reads your code serves, with how often: dynalint checks the model can serve\n\
         # each one and, from `rate`, how hot its partitions run (`dynalint simulate`).\n\
         # [[access-pattern]]\n\
         # name = \"items of one {pk}\"\n\
         # table = {}\n\
         # key = {{ {} = \"{{{pk}}}\" }}\n",
        q(table),
        key(pk)
    );
    if let Some(sk) = sk {
        let _ = writeln!(out, "# order = \"desc\"   # by `{sk}`");
    }
    out.push_str("# limit = 20\n# rate = 50   # requests per second at peak\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{scan, ScanSettings};
    use crate::source::SourceFile;

    const CODE: &str = r#"
pub const ORDERS: &str = "orders";
async fn setup(c: &Client) -> Result<()> {
    c.create_table().table_name(ORDERS)
        .key_schema(KeySchemaElement::builder().attribute_name("pk").key_type(KeyType::Hash).build()?)
        .key_schema(KeySchemaElement::builder().attribute_name("sk").key_type(KeyType::Range).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("pk").attribute_type(ScalarAttributeType::S).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("sk").attribute_type(ScalarAttributeType::N).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("status").attribute_type(ScalarAttributeType::S).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("day").attribute_type(ScalarAttributeType::S).build()?)
        .global_secondary_indexes(GlobalSecondaryIndex::builder().index_name("by status")
            .key_schema(KeySchemaElement::builder().attribute_name("status").key_type(KeyType::Hash).build()?)
            .projection(Projection::builder().projection_type(ProjectionType::Include).non_key_attributes("total").build())
            .provisioned_throughput(ProvisionedThroughput::builder().read_capacity_units(3).write_capacity_units(1).build()?).build()?)
        .billing_mode(BillingMode::Provisioned)
        .provisioned_throughput(ProvisionedThroughput::builder().read_capacity_units(10).write_capacity_units(4).build()?)
        .local_secondary_indexes(LocalSecondaryIndex::builder().index_name("by_day")
            .key_schema(KeySchemaElement::builder().attribute_name("pk").key_type(KeyType::Hash).build()?)
            .key_schema(KeySchemaElement::builder().attribute_name("day").key_type(KeyType::Range).build()?)
            .projection(Projection::builder().projection_type(ProjectionType::KeysOnly).build()).build()?)
        .send().await?;
    c.create_table().table_name(format!("{}-audit", stage()))
        .key_schema(KeySchemaElement::builder().attribute_name("id").key_type(KeyType::Hash).build()?)
        .send().await?;
    c.create_table().table_name(name_from_somewhere()).send().await?;
    Ok(())
}
"#;

    fn inferred() -> Inferred {
        let f = SourceFile::new("src/bin/setup.rs", CODE);
        let scanned = scan(std::slice::from_ref(&f), &ScanSettings::default());
        let imported = crate::model::import::Imported::default();
        super::super::infer_with(
            std::path::Path::new("."),
            imported,
            &scanned.tables,
            &scanned.operations,
            &[f],
        )
    }

    #[test]
    fn init_output_loads_as_the_same_model() {
        let inf = inferred();
        assert_eq!(inf.model.tables.len(), 2, "{:?}", inf.notes);
        let text = render(&inf);
        let loaded = crate::model::load_str(std::path::Path::new("dynalint.toml"), &text)
            .unwrap_or_else(|p| panic!("{p:#?}\n{text}"));
        assert_eq!(loaded.tables.len(), 2);
        for (a, b) in loaded.tables.iter().zip(&inf.model.tables) {
            assert_eq!(
                (
                    &a.name,
                    &a.refs,
                    &a.partition_key,
                    &a.sort_key,
                    a.billing_mode,
                    a.provisioned
                ),
                (
                    &b.name,
                    &b.refs,
                    &b.partition_key,
                    &b.sort_key,
                    b.billing_mode,
                    b.provisioned
                )
            );
            let idx = |t: &Table| -> Vec<(String, IndexKind, String, Option<String>, Projection)> {
                t.indexes
                    .iter()
                    .map(|i| {
                        (
                            i.name.clone(),
                            i.kind,
                            i.partition_key.clone(),
                            i.sort_key.clone(),
                            i.projection.clone(),
                        )
                    })
                    .collect()
            };
            assert_eq!(idx(a), idx(b));
        }
        assert!(text.contains("# from src/bin/setup.rs:4"), "{text}");
        assert!(
            text.contains("billing-mode = \"PROVISIONED\"\nread-capacity = 10\nwrite-capacity = 4"),
            "{text}"
        );
        assert_eq!(
            loaded.tables[0]
                .index("by status")
                .and_then(|i| i.provisioned),
            Some(crate::model::Throughput {
                read: Some(3),
                write: Some(1)
            })
        );
        assert!(text.contains("# item-count = "), "{text}");
        assert!(text.contains("# status = { type = \"S\", values"), "{text}");
        assert!(text.contains("# [[access-pattern]]"), "{text}");
        assert!(text.contains("# rate = "), "{text}");
        assert!(
            text.contains("name_from_somewhere"),
            "the note about the unnamed table is kept: {text}"
        );
    }

    #[test]
    fn with_no_table_the_file_is_still_valid() {
        let imported = crate::model::import::Imported::default();
        let inf = super::super::infer_with(std::path::Path::new("."), imported, &[], &[], &[]);
        let text = render(&inf);
        let loaded = crate::model::load_str(std::path::Path::new("dynalint.toml"), &text)
            .unwrap_or_else(|p| panic!("{p:#?}\n{text}"));
        // `dynalint init` writes nothing then; the text still loads.
        assert!(loaded.tables.is_empty());
    }
}
