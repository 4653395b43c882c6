//! Seeded defects: one known defect injected at a real call site, with the finding it
//! must produce there and nothing else new. Each kind varies what it injects (names,
//! values, shapes), so its cases are distinct programs, not copies.

mod expressions;
mod gsi;
mod keys;
mod loops;
mod pagination;

use std::sync::Arc;

use dynalint::model::Table;

use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{line_indent, Cx, Variant};
use crate::site::Chain;

/// Where the expected finding is.
#[derive(Clone, Debug)]
pub enum ExpectAt {
    /// At the site (inside the text the defect wrote).
    Site,
    /// Anywhere, its message naming this (a model entry: ``index `I` ``).
    Message(String),
}

/// The finding a defect must produce.
#[derive(Clone, Debug)]
pub struct Expect {
    pub rule: &'static str,
    pub at: ExpectAt,
    /// The defect also makes a request at the site repeat once per iteration of the
    /// loop around it (a page loop whose start key is dropped, or a one-page copy put
    /// inside it): that finding at the site is the defect's too, not another one.
    pub repeats_in_loop: bool,
}

impl Expect {
    pub fn at_site(rule: &'static str) -> Self {
        Self {
            rule,
            at: ExpectAt::Site,
            repeats_in_loop: false,
        }
    }

    /// The same, where the defect also makes the site's request repeat in its loop.
    pub fn repeating_in_loop(mut self, repeats: bool) -> Self {
        self.repeats_in_loop = repeats;
        self
    }
}

/// Code a defect is compared with instead of the untouched tree: the site with a
/// correct form of what the defect gets wrong (a paginated read the defect reads as one
/// page). Cases of one site with the same key share one analysis of it.
#[derive(Clone)]
pub struct Baseline {
    pub key: String,
    pub variant: Arc<Variant>,
}

impl Baseline {
    pub fn new(key: String, variant: Variant) -> Self {
        Self {
            key,
            variant: Arc::new(variant),
        }
    }
}

/// One injected defect.
pub struct DefectCase {
    pub variant: Variant,
    pub expect: Expect,
    /// What the defect is compared with, when not the untouched tree.
    pub baseline: Option<Baseline>,
    /// What was varied (names, values, shape).
    pub label: String,
}

/// A kind of defect and how to inject it.
pub struct Defect {
    pub name: &'static str,
    pub does: &'static str,
    pub make: fn(&Cx<'_>, &Run) -> Result<Vec<DefectCase>, String>,
}

/// Every defect kind, in the order reports list them.
pub const DEFECTS: &[Defect] = &[
    Defect {
        name: "no-pagination",
        does: "the pagination of a Query or Scan is removed: its own, or that of a copy read page by page beside it in nine shapes",
        make: pagination::remove_pagination,
    },
    Defect {
        name: "get-per-element",
        does: "a GetItem on the site's table is sent once per element of a `Vec`",
        make: loops::get_per_element,
    },
    Defect {
        name: "filter-non-key",
        does: "a Query or Scan (of a table or an index) filters on a non-key attribute, each the model declares and four it is told of, by each operator a key could serve, in four shapes",
        make: expressions::filter_non_key,
    },
    Defect {
        name: "undefined-placeholder",
        does: "an expression references a `#name` or `:value` the request does not define",
        make: expressions::undefined_placeholder,
    },
    Defect {
        name: "wrong-key",
        does: "the partition or sort key's name is replaced: made up, misspelt, the other key, an index's key, a non-key attribute",
        make: keys::wrong_key,
    },
    Defect {
        name: "scan-in-handler",
        does: "a paginated Scan of the site's table on a request path: beside a hot site (eight shapes), or in a new entry point of its file (six)",
        make: loops::scan_in_handler,
    },
    Defect {
        name: "constant-gsi-pk",
        does: "a put (the site's, or one beside any site) writes one constant into the partition key of a GSI (added to the model)",
        make: gsi::constant_gsi_pk,
    },
    Defect {
        name: "boolean-gsi-pk",
        does: "a GSI (added to the model) is keyed on an attribute a put (the site's, or one beside any site) writes as a boolean's text or 0/1",
        make: gsi::boolean_gsi_pk,
    },
];

/// The `AttributeValue` path injected code names.
pub const AV: &str = "aws_sdk_dynamodb::types::AttributeValue";

/// The model table the site binds to.
pub fn table<'a>(cx: &Cx<'_>, run: &'a Run) -> Option<&'a Table> {
    let name = cx.site.table.as_ref()?;
    run.model.tables.iter().find(|t| &t.name == name)
}

/// Setters appended to the builder, each on its own line.
pub fn append_setters(cx: &Cx<'_>, chain: &Chain, setters: &[String]) -> Edit {
    let last = chain
        .setters
        .last()
        .map_or(chain.op_call.start, |s| s.call.start);
    let ind = format!("{}    ", line_indent(cx.text, chain.receiver.start));
    let ind = if cx.text[chain.receiver.start..last].contains('\n') {
        line_indent(cx.text, last)
    } else {
        ind
    };
    let text: String = setters.iter().map(|s| format!("\n{ind}{s}")).collect();
    Edit::insert(chain.builder.end, text)
}

/// A Rust string literal of `s`.
pub fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// The site's chain, when it is the whole request: sent (or paginated) where it is
/// built. A builder a variable or a helper's caller continues may still get the
/// setters a defect's finding would need to be sure (a `#name`, a key, an item).
pub fn whole_chain<'a>(cx: &Cx<'a>) -> Result<&'a Chain, String> {
    let chain = crate::rewrites::chain(cx)?;
    if chain.send.is_none() && chain.other_terminal.is_none() {
        return Err("the builder is continued elsewhere (a variable, a helper's caller)".into());
    }
    Ok(chain)
}

/// DynamoDB's legacy parameters (`KeyConditions`, `ScanFilter`, `Expected`, ...), which
/// cannot be mixed with expressions.
pub fn legacy(cx: &Cx<'_>) -> bool {
    const LEGACY: &[&str] = &[
        "key_conditions",
        "scan_filter",
        "query_filter",
        "attributes_to_get",
        "expected",
        "attribute_updates",
        "conditional_operator",
    ];
    cx.site.op.setters.iter().any(|s| {
        LEGACY
            .iter()
            .any(|l| s.method == *l || s.method.strip_prefix("set_") == Some(l))
    })
}

/// Tests, benches, examples and one-off binaries: sample code several rules leave out
/// by design.
pub fn cold(cx: &Cx<'_>) -> bool {
    cx.site.op.context.cold.is_some()
}

/// Whether the untouched tree already reports the site's request as rejected: DynamoDB
/// answers a request with its first error only, so a second one seeded into it cannot
/// show (a request without a table name, a reserved word in its key condition).
pub fn already_rejected(cx: &Cx<'_>, run: &Run) -> bool {
    let op = &cx.site.op;
    run.diagnostics.iter().any(|d| {
        d.rule == "rejected-request"
            && d.location.file == op.file
            && op.span.start <= d.location.span.start
            && d.location.span.end <= op.span.end
    })
}
