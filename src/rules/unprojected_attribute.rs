//! `unprojected-attribute`: prose in `rules/unprojected-attribute.md`.
//!
//! A GSI holds only the attributes it projects, and a Query or Scan of it cannot fetch
//! the others from the table. DynamoDB does not reject a ProjectionExpression or a
//! FilterExpression naming them: the attribute is simply absent from every item.
//! (`Select = ALL_ATTRIBUTES` on such an index *is* rejected: `rejected-request`.)

use super::{Rule, RuleContext, RuleMeta};
use crate::expr::visit::Ref;
use crate::expr::{self, ExprKind};
use crate::facts::conditions::{file_span, root_name};
use crate::facts::BoundOperation;
use crate::model::{IndexKind, Projection};
use crate::scanner::{ExprArg, NameArg, OpKind};
use crate::source::Span;

crate::declare_rule! {
    pub UnprojectedAttribute,
    id: "unprojected-attribute",
    category: Suspicious,
    summary: "a GSI read names an attribute the index does not project: it is silently absent",
}

impl Rule for UnprojectedAttribute {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_operation(&self, cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
        let op = bound.op;
        let (Some(table), Some(index)) = (bound.table, bound.index) else {
            return;
        };
        if !matches!(op.kind, OpKind::Query | OpKind::Scan)
            || index.kind != IndexKind::Global
            || index.projection == Projection::All
        {
            return;
        }
        let projects = match &index.projection {
            Projection::KeysOnly => "KEYS_ONLY".to_string(),
            Projection::Include(list) => format!("INCLUDE [{}]", list.join(", ")),
            Projection::All => return,
        };
        let model_path = table.origin.path.clone();
        let mut seen: Vec<String> = Vec::new();
        for (kind, arg) in [
            (ExprKind::Projection, &op.projection),
            (ExprKind::Filter, &op.filter),
        ] {
            let Some(arg) = arg else { continue };
            for (attr, span) in referenced(arg, kind, &op.names) {
                if index.projects(table, &attr) || seen.contains(&attr) {
                    continue;
                }
                seen.push(attr.clone());
                let consequence = match kind {
                    ExprKind::Projection => format!(
                        "the `{}` returns every item without it, and no error",
                        op.kind.sdk_method()
                    ),
                    _ => "the filter sees it as absent on every item".to_string(),
                };
                let d = cx.report(
                    op.file.clone(),
                    file_span(arg, span),
                    format!(
                        "GSI `{}` of `{}` does not project `{attr}`: {consequence}",
                        index.name, table.name
                    ),
                );
                if let Some(p) = index.fields.get("projection") {
                    d.label(
                        model_path.clone(),
                        p,
                        format!("`{}` projects {projects}", index.name),
                    );
                }
                d.help(format!(
                    "add `{attr}` to the projection of `{}` (`projection = {{ include = [..] }}`), or fetch the full items from `{}` by the returned keys with `batch_get_item`",
                    index.name, table.name
                ));
            }
        }
    }
}

/// The top-level attributes an expression argument names, with the span of the path
/// that first names each, in the expression string.
fn referenced(
    arg: &ExprArg,
    kind: ExprKind,
    names: &indexmap::IndexMap<String, NameArg>,
) -> Vec<(String, Span)> {
    let Some(text) = arg.text.value() else {
        return Vec::new();
    };
    let Ok(ast) = expr::parse(text, kind) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Span)> = Vec::new();
    ast.walk(&mut |r| {
        if let Ref::Path(p) = r {
            if let Some(name) = root_name(p, names) {
                if !out.iter().any(|(n, _)| *n == name) {
                    out.push((name, p.span));
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{model, run, Op};
    use crate::scanner::OpKind::{Query, Scan};

    const ORDERS: &str = r#"
[[table]]
name = "Orders"
partition-key = "OrderId"

[table.attributes]
OrderId = "S"
CustomerId = "S"
OrderDate = "S"
Status = "S"

[[table.index]]
name = "ByCustomer"
partition-key = "CustomerId"
sort-key = "OrderDate"
projection = { include = ["Status"] }

[[table.index]]
name = "Everything"
partition-key = "Status"
projection = "ALL"

[[table.index]]
name = "ByDate"
kind = "local"
partition-key = "OrderId"
sort-key = "OrderDate"
projection = "KEYS_ONLY"
"#;

    fn q(index: &str) -> Op {
        Op::new(Query, "Orders")
            .index(index)
            .key("CustomerId = :c")
            .name("#s", "Status")
            .name("#a", "Address")
    }

    #[test]
    fn flags_unprojected_paths_once_each_on_gsis_only() {
        let m = model(ORDERS);
        let mut op = q("ByCustomer");
        op.0.projection = Some(Box::new(crate::scanner::ExprArg {
            text: crate::scanner::Resolved::literal("OrderId, #s, Amount, #a.city, Amount"),
            span: crate::source::Span::new(400, 438),
            literal_start: Some(401),
            conditional: false,
            paths: Box::default(),
        }));
        let op = op.filter("attribute_exists(Notes) AND #s = :s");
        let got = run("unprojected-attribute", &m, &[op]);
        let msgs: Vec<&str> = got.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            vec![
                "GSI `ByCustomer` of `Orders` does not project `Amount`: the `query` returns every item without it, and no error",
                "GSI `ByCustomer` of `Orders` does not project `Address`: the `query` returns every item without it, and no error",
                "GSI `ByCustomer` of `Orders` does not project `Notes`: the filter sees it as absent on every item",
            ]
        );
        // `Amount` is at byte 13 of the projection literal.
        assert_eq!(got[0].location.span, crate::source::Span::new(414, 420));
        assert!(got[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("batch_get_item"));

        for quiet in [
            q("Everything").filter("Notes = :n"),
            q("ByDate").filter("Notes = :n"),
            Op::new(Scan, "Orders").filter("Notes = :n"),
            q("ByCustomer").filter("#s = :s AND CustomerId = :c"),
        ] {
            assert!(run("unprojected-attribute", &m, &[quiet]).is_empty());
        }
    }
}
