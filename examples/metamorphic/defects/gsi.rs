//! Key design from the model and the code: a GSI added to the model (with an access
//! pattern that reads it, so it is used, ten times a second where the model states the
//! table's load), whose partition key a put writes as one constant, or as a boolean.
//! The put is the site's own (its chain gets the attribute), or one sent beside the
//! site on its client and table (any request whose table the model has): the value
//! is a literal, a `const`, a `format!` of consts, a `let` binding, a `bool`'s text.

use std::sync::Arc;

use dynalint::attr::AttributeType;
use dynalint::model::{AccessPattern, Attribute, Index, IndexKind, Projection};
use dynalint::scanner::OpKind;

use super::{append_setters, cold, lit, table, whole_chain, DefectCase, Expect, ExpectAt, AV};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{before_item, before_statement, client_chain, place, table_arg, Cx, Variant};

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

/// A model patch: a global index `index` keyed on `attr` (of type `ty`) on `table`,
/// and an access pattern that queries it.
fn add_index(
    table: String,
    index: String,
    attr: String,
    ty: AttributeType,
) -> crate::rewrites::Patch {
    Arc::new(move |m| {
        let Some(t) = m.tables.iter_mut().find(|t| t.name == table) else {
            return;
        };
        // A table whose model states its write load is sized by it: one constant that
        // carries a few writes a second is no hot partition. The pattern states a
        // read rate of its own, whose reads of the one value are what one partition
        // cannot serve; without a stated load the rule says what the code shows,
        // unsized.
        let rate = t
            .write_rate
            .map(|_| past_one_partition(t.item_count, t.avg_item_size));
        t.attributes.insert(
            attr.clone(),
            Attribute {
                name: attr.clone(),
                ty,
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
            rate,
            span: Default::default(),
            name_span: Default::default(),
            fields: Default::default(),
        });
    })
}

/// Reads a second of the index's one value (or one of a boolean's two) that need
/// several partitions: 10, or more when the table's figures make each read small
/// enough for one partition to serve 10 (a 10,000-item catalogue of 120 B items is
/// 1.2 MB a read, 146 RCU eventually consistent: 10 a second is 1,460 of the 3,000
/// RCU one partition serves).
fn past_one_partition(items: Option<u64>, size: Option<u64>) -> f64 {
    const PARTITION_RCU: f64 = 3_000.0;
    let (Some(items), Some(size)) = (items, size) else {
        return 10.0;
    };
    // Half the items under one value (a boolean's), eventually consistent: half an
    // RCU per 4 KB.
    let per_read = (items as f64 * size as f64 / 2.0 / 4_096.0 / 2.0).max(0.5);
    (4.0 * PARTITION_RCU / per_read).ceil().max(10.0)
}

/// How a put writes the index's partition key: the `AttributeValue` it sends, the
/// attribute's type, and what the value needs declared first.
struct Value {
    label: &'static str,
    /// The `AttributeValue` expression; `{n}` is the variant's number.
    value: &'static str,
    ty: AttributeType,
    /// Module-level items (consts) the value names, put before the site's item.
    items: &'static [&'static str],
    /// Statements the value names, put before the site's statement (a put beside the
    /// site only: the site's own chain may have no statement of its own).
    lets: &'static [&'static str],
}

const fn v(label: &'static str, value: &'static str) -> Value {
    Value {
        label,
        value,
        ty: AttributeType::S,
        items: &[],
        lets: &[],
    }
}

/// One constant, written seven ways.
const CONSTANTS: &[Value] = &[
    v("literal", "S(\"ALL\".to_string())"),
    v("into", "S(\"USER\".into())"),
    v("string-from", "S(String::from(\"ORDERS\"))"),
    Value {
        items: &["const MM_KIND{n}: &str = \"INVOICE\";"],
        ..v("const", "S(MM_KIND{n}.to_string())")
    },
    Value {
        items: &[
            "const MM_PREFIX{n}: &str = \"TENANT\";",
            "const MM_SCOPE{n}: &str = \"GLOBAL\";",
        ],
        ..v(
            "format-of-consts",
            "S(format!(\"{}#{}\", MM_PREFIX{n}, MM_SCOPE{n}))",
        )
    },
    Value {
        lets: &["let mm_bucket{n} = \"DEFAULT\";"],
        ..v("let-binding", "S(mm_bucket{n}.to_string())")
    },
    Value {
        ty: AttributeType::N,
        ..v("number", "N(\"100\".to_string())")
    },
];

/// A boolean kept as text or a number (a key cannot be a BOOL), written six ways.
const BOOLEANS: &[Value] = &[
    v("true-literal", "S(\"true\".to_string())"),
    v("false-into", "S(\"false\".into())"),
    v("bool-to-string", "S(true.to_string())"),
    Value {
        items: &["const MM_ENABLED{n}: bool = false;"],
        ..v("const-bool", "S(MM_ENABLED{n}.to_string())")
    },
    Value {
        lets: &["let mm_flag{n}: bool = false;"],
        ..v("let-bool", "S(mm_flag{n}.to_string())")
    },
    Value {
        ty: AttributeType::N,
        ..v("one-as-number", "N(\"1\".to_string())")
    },
];

fn expand(s: &str, n: usize) -> String {
    s.replace("{n}", &n.to_string())
}

/// The expected finding: `low-cardinality-pk` on the new index.
fn expect(index: &str) -> Expect {
    Expect {
        rule: "low-cardinality-pk",
        at: ExpectAt::Message(format!("index `{index}`")),
        repeats_in_loop: false,
    }
}

/// A case: `edits` write `attr` with `value`, and the model gains `index` on `table`,
/// keyed on `attr`, whose `low-cardinality-pk` finding is expected.
fn on_new_index(
    edits: Vec<Edit>,
    table: &str,
    index: &str,
    attr: &str,
    value: &Value,
    label: String,
) -> DefectCase {
    DefectCase {
        variant: Variant {
            edits,
            patch: Some(add_index(
                table.to_string(),
                index.to_string(),
                attr.to_string(),
                value.ty,
            )),
        },
        expect: expect(index),
        baseline: None,
        label,
    }
}

/// The put's own chain writes the attribute: every attribute name with every value
/// that needs no statement of its own.
fn in_chain(
    cx: &Cx<'_>,
    chain: &crate::site::Chain,
    table: &str,
    names: &[&str],
    values: &[Value],
    what: &str,
) -> Result<Vec<DefectCase>, String> {
    let n = cx.n;
    let mut cases = Vec::new();
    for name in names {
        let attr = format!("{name}_{n}");
        let index = format!("MmIndex{n}_{name}");
        for value in values.iter().filter(|v| v.lets.is_empty()) {
            let setter = format!(".item({}, {AV}::{})", lit(&attr), expand(value.value, n));
            let mut edits = vec![append_setters(cx, chain, &[setter])];
            if !value.items.is_empty() {
                let items: Vec<String> = value.items.iter().map(|i| expand(i, n)).collect();
                edits.push(before_item(place(cx)?, &items.join("\n")));
            }
            cases.push(on_new_index(
                edits,
                table,
                &index,
                &attr,
                value,
                format!("{what}-{name}-{}", value.label),
            ));
        }
    }
    Ok(cases)
}

/// A put of a new item sent beside the site, on its client and table: its key from a
/// generated id, and the index's partition key. Each value once, the attribute name
/// turning with it.
fn beside(
    cx: &Cx<'_>,
    run: &Run,
    names: &[&str],
    values: &[Value],
    what: &str,
) -> Result<Vec<DefectCase>, String> {
    if cold(cx) {
        return Err("writes in tests, examples and one-off binaries are sample data".into());
    }
    let t = table(cx, run).ok_or("the site binds to no table of the model")?;
    let chain = client_chain(cx)?;
    if chain.awaited.is_none() {
        return Err("the site's send is not awaited at once (no async statement to add to)".into());
    }
    let (si, _, arg) = table_arg(cx, chain).ok_or("the chain sets no table name argument")?;
    if chain.setters[si].name != "table_name" {
        return Err("the table is set by another setter than `table_name`".into());
    }
    let place = place(cx)?;
    let n = cx.n;
    let client = &cx.text[chain.receiver.clone()];
    let table_text = &cx.text[arg];
    let mut key = String::new();
    for k in std::iter::once(&t.partition_key).chain(&t.sort_key) {
        let v = match t.attribute(k).map_or(AttributeType::S, |a| a.ty) {
            AttributeType::S => format!("{AV}::S(mm_id{n}.clone())"),
            AttributeType::N => format!("{AV}::N(mm_at{n}.to_string())"),
            _ => return Err("a key attribute of type B: no value shape for it".into()),
        };
        key.push_str(&format!(".item({}, {v})", lit(k)));
    }
    let mut cases = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let name = names[(i + n) % names.len()];
        let attr = format!("{name}_{n}");
        let index = format!("MmIndex{n}_{name}");
        let mut lines = vec![
            format!("let mm_id{n} = uuid::Uuid::new_v4().to_string();"),
            format!("let mm_at{n} = chrono::Utc::now().timestamp_millis();"),
        ];
        lines.extend(value.lets.iter().map(|l| expand(l, n)));
        lines.push(format!(
            "let _ = {client}.put_item().table_name({table_text}){key}.item({}, {AV}::{}).send().await;",
            lit(&attr),
            expand(value.value, n)
        ));
        let mut edits: Vec<Edit> = vec![before_statement(place, &lines)?];
        if !value.items.is_empty() {
            let items: Vec<String> = value.items.iter().map(|i| expand(i, n)).collect();
            edits.push(before_item(place, &items.join("\n")));
        }
        cases.push(on_new_index(
            edits,
            &t.name,
            &index,
            &attr,
            value,
            format!("{what}-beside-{name}-{}", value.label),
        ));
    }
    Ok(cases)
}

/// The site's own put's cases, then a put beside the site's; the first reason either
/// cannot apply when neither does.
fn cases(
    cx: &Cx<'_>,
    run: &Run,
    names: &[&str],
    values: &[Value],
    what: &str,
) -> Result<Vec<DefectCase>, String> {
    let own = put_site(cx, run)
        .and_then(|(chain, table)| in_chain(cx, chain, &table, names, values, what));
    let near = beside(cx, run, names, values, what);
    match (own, near) {
        (Ok(mut a), Ok(b)) => {
            a.extend(b);
            Ok(a)
        }
        (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
        (Err(_), Err(e)) => Err(e),
    }
}

/// Every write of the new index's partition key is one constant.
pub fn constant_gsi_pk(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    cases(
        cx,
        run,
        &["gsi1pk", "entity_type", "tenant"],
        CONSTANTS,
        "constant",
    )
}

/// The new index's partition key holds a boolean's text or 0/1.
pub fn boolean_gsi_pk(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    cases(
        cx,
        run,
        &["is_active", "has_paid", "deleted"],
        BOOLEANS,
        "boolean",
    )
}
