//! Key design from the model and the code: a GSI added to the model (with an access
//! pattern that reads it, so it is used), whose partition key the site's put writes as
//! one constant, or as a boolean.

use std::sync::Arc;

use dynalint::attr::AttributeType;
use dynalint::model::{AccessPattern, Attribute, Index, IndexKind, Projection};
use dynalint::scanner::OpKind;

use super::{append_setters, cold, lit, table, whole_chain, DefectCase, Expect, ExpectAt, AV};
use crate::project::Run;
use crate::rewrites::{Cx, Variant};

/// The put's table, the chain, and the check that its writes count.
fn put_site<'a>(cx: &Cx<'a>, run: &Run) -> Result<(&'a crate::site::Chain, String), String> {
    if cx.site.op.kind != OpKind::PutItem {
        return Err("not a PutItem".into());
    }
    if cold(cx) {
        return Err("writes in tests, examples and one-off binaries are sample data".into());
    }
    let t = table(cx, run).ok_or("the site binds to no table of the model")?;
    let chain = whole_chain(cx)?;
    if !chain.setters.iter().any(|s| s.name == "item") {
        return Err("the put sets no `.item(..)` attribute in the chain".into());
    }
    Ok((chain, t.name.clone()))
}

/// A model patch: a global index `index` keyed on `attr` (a string) on `table`, and an
/// access pattern that queries it.
fn add_index(table: String, index: String, attr: String) -> crate::rewrites::Patch {
    Arc::new(move |m| {
        let Some(t) = m.tables.iter_mut().find(|t| t.name == table) else {
            return;
        };
        t.attributes.insert(
            attr.clone(),
            Attribute {
                name: attr.clone(),
                ty: AttributeType::S,
                values: None,
                unique: false,
                cardinality: None,
                span: Default::default(),
                name_span: Default::default(),
                fields: Default::default(),
            },
        );
        t.indexes.push(Index {
            name: index.clone(),
            kind: IndexKind::Global,
            partition_key: attr.clone(),
            sort_key: None,
            projection: Projection::All,
            provisioned: None,
            span: Default::default(),
            name_span: Default::default(),
            fields: Default::default(),
        });
        m.access_patterns.push(AccessPattern {
            name: format!("by {attr}"),
            table: table.clone(),
            index: Some(index.clone()),
            key: [(attr.clone(), format!("{{{attr}}}"))]
                .into_iter()
                .collect(),
            order: None,
            limit: None,
            rate: None,
            span: Default::default(),
            name_span: Default::default(),
            fields: Default::default(),
        });
    })
}

fn cases_for(
    cx: &Cx<'_>,
    chain: &crate::site::Chain,
    table: &str,
    names: &[&str],
    values: &[&str],
    what: &str,
) -> Vec<DefectCase> {
    let mut cases = Vec::new();
    for name in names {
        let attr = format!("{name}_{}", cx.n);
        let index = format!("MmIndex{}_{name}", cx.n);
        for value in values {
            let setter = format!(".item({}, {AV}::S({value}))", lit(&attr));
            cases.push(DefectCase {
                variant: Variant {
                    edits: vec![append_setters(cx, chain, &[setter])],
                    patch: Some(add_index(table.to_string(), index.clone(), attr.clone())),
                },
                expect: Expect {
                    rule: "low-cardinality-pk",
                    at: ExpectAt::Message(format!("index `{index}`")),
                },
                baseline: None,
                label: format!(
                    "{what}-{name}-{}",
                    value.replace(|c: char| !c.is_alphanumeric(), "")
                ),
            });
        }
    }
    cases
}

/// Every write of the new index's partition key is the site's, with one constant.
pub fn constant_gsi_pk(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let (chain, table) = put_site(cx, run)?;
    Ok(cases_for(
        cx,
        chain,
        &table,
        &["gsi1pk", "entity_type", "tenant"],
        &[
            "\"ALL\".to_string()",
            "\"USER\".into()",
            "String::from(\"ORDERS\")",
        ],
        "constant",
    ))
}

/// The new index's partition key holds `"true"` or `"false"`.
pub fn boolean_gsi_pk(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let (chain, table) = put_site(cx, run)?;
    Ok(cases_for(
        cx,
        chain,
        &table,
        &["is_active", "has_paid", "deleted"],
        &[
            "\"true\".to_string()",
            "\"false\".into()",
            "true.to_string()",
        ],
        "boolean",
    ))
}
