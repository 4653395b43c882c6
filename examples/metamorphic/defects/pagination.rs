//! The pagination of a Query or Scan removed, from two sources:
//!
//! - a site that paginates (`into_paginator()`, an `exclusive_start_key` loop) loses its
//!   own pagination: `into_paginator()..send()` becomes `send()`, or the start key the
//!   loop feeds back is dropped;
//! - at every Query or Scan site a copy of its request is read beside it, page by page,
//!   in one of nine shapes (a `loop` or a `while let` feeding `last_evaluated_key` back,
//!   the paginator's pages or items, collected or streamed): that is the baseline the
//!   defect is compared with. The defect is the same code with the pagination taken out
//!   (one `send()` whose page the same code consumes, or the start key no longer fed
//!   back). A paginated shape dynalint does not recognise is flagged in the baseline
//!   too, so the defect adds nothing: a miss.
//!
//! A site whose own one-page read dynalint does not flag (the model sizes its key range
//! within a page, it reads one item or the first) gives no copies: one page of that
//! read is what the code needs, not a defect.

use dynalint::scanner::{ColdReason, OpKind, Operation};

use super::{Baseline, DefectCase, Expect, AV};
use crate::edit::Edit;
use crate::project::Run;
use crate::rewrites::{before_statement, chain, client_chain, node_at, place, Cx, Variant};
use crate::syntax::text_of;

pub fn remove_pagination(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !matches!(op.kind, OpKind::Query | OpKind::Scan) {
        return Err("not a Query or Scan".into());
    }
    if matches!(op.context.cold, Some(ColdReason::Test | ColdReason::Bench)) {
        return Err("tests read the small tables they seed: the rule leaves them out".into());
    }
    if op.kind == OpKind::Query && cx.site.table.is_none() {
        return Err("a Query of a table the model does not have: its size is unknown, and the rule does not guess".into());
    }
    if op.limit.is_some() {
        return Err(
            "a bounded read (`limit`): the rule takes one page as what the limit asks for".into(),
        );
    }
    let own = own_pagination_removed(cx);
    let copies = paged_copies(cx, run);
    match (own, copies) {
        (Ok(mut a), Ok(b)) => {
            a.extend(b);
            Ok(a)
        }
        (Ok(a), Err(_)) => Ok(a),
        (Err(_), Ok(b)) => Ok(b),
        (Err(_), Err(why)) => Err(why),
    }
}

/// The site's own pagination dropped.
fn own_pagination_removed(cx: &Cx<'_>) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    if !op.paginated && !op.exclusive_start_key {
        return Err("the read is not paginated".into());
    }
    let chain = chain(cx)?;
    let mut cases = Vec::new();
    // `.into_paginator()[.items()].send()` → `.send()`.
    if let Some((name, r)) = &chain.other_terminal {
        if name == "into_paginator" {
            let mut n = node_at(cx.tree, r.clone()).ok_or("the paginator is no expression")?;
            let mut send_end = None;
            while let (Some(p), Some(gp)) = (n.parent(), n.parent().and_then(|p| p.parent())) {
                if p.kind() != "field_expression" || gp.kind() != "call_expression" {
                    break;
                }
                let m = p
                    .child_by_field_name("field")
                    .map(|f| text_of(f, cx.text))
                    .unwrap_or("");
                n = gp;
                if m == "send" {
                    send_end = Some(gp.end_byte());
                    break;
                }
            }
            let end = send_end.ok_or("the paginator is not sent in the chain")?;
            cases.push(DefectCase {
                variant: Variant::code(vec![Edit::replace(chain.builder.end..end, ".send()")]),
                expect: Expect::at_site("unpaginated-query"),
                baseline: None,
                label: "paginator-to-send".into(),
            });
        }
    }
    // `.set_exclusive_start_key(last)` / `.exclusive_start_key(k, v)` dropped.
    let esk: Vec<Edit> = chain
        .setters
        .iter()
        .filter(|s| is_start_key(&s.name))
        .map(|s| Edit::replace(s.call.clone(), ""))
        .collect();
    if !esk.is_empty() {
        cases.push(DefectCase {
            variant: Variant::code(esk),
            // The loop that paged now sends the first page again each time round.
            expect: Expect::at_site("unpaginated-query").repeating_in_loop(paged_by_loop(op)),
            baseline: None,
            label: "start-key-dropped".into(),
        });
    }
    if cases.is_empty() {
        return Err("the pagination is not in the chain (a builder variable, a helper)".into());
    }
    Ok(cases)
}

/// Whether the site is read page by page by a loop around it (it sets the start key
/// and dynalint reads it as paginated).
fn paged_by_loop(op: &Operation) -> bool {
    op.paginated && op.exclusive_start_key
}

fn is_start_key(setter: &str) -> bool {
    matches!(setter, "set_exclusive_start_key" | "exclusive_start_key")
}

/// What the code does with the items it read: every shape reads them the same way in
/// its paginated and its one-page form.
#[derive(Clone, Copy)]
enum Consumer {
    /// Collects the items into a `Vec`.
    Items,
    /// Counts them.
    Count,
    /// Collects one attribute of each.
    Ids,
    /// Keeps a set of their debug texts.
    Seen,
}

impl Consumer {
    const ALL: [Consumer; 4] = [
        Consumer::Items,
        Consumer::Count,
        Consumer::Ids,
        Consumer::Seen,
    ];

    fn name(self) -> &'static str {
        match self {
            Consumer::Items => "items",
            Consumer::Count => "count",
            Consumer::Ids => "ids",
            Consumer::Seen => "seen",
        }
    }

    /// The accumulator's declaration.
    fn declare(self, acc: &str) -> String {
        match self {
            Consumer::Items => {
                format!("let mut {acc}: Vec<std::collections::HashMap<String, {AV}>> = Vec::new();")
            }
            Consumer::Count => format!("let mut {acc}: usize = 0;"),
            Consumer::Ids => format!("let mut {acc}: Vec<{AV}> = Vec::new();"),
            Consumer::Seen => format!("let mut {acc} = std::collections::HashSet::new();"),
        }
    }

    /// Statements that take in one page (`page`, a Query or Scan output).
    fn page(self, acc: &str, page: &str) -> String {
        match self {
            Consumer::Items => format!("{acc}.extend({page}.items().iter().cloned());"),
            Consumer::Count => format!("{acc} += {page}.items().len();"),
            Consumer::Ids => format!(
                "{acc}.extend({page}.items().iter().filter_map(|mm_i| mm_i.get(\"id\")).cloned());"
            ),
            Consumer::Seen => {
                format!("for mm_i in {page}.items() {{ {acc}.insert(format!(\"{{mm_i:?}}\")); }}")
            }
        }
    }

    /// Statements that take in one item (`item`).
    fn item(self, acc: &str, item: &str) -> String {
        match self {
            Consumer::Items => format!("{acc}.push({item});"),
            Consumer::Count => format!("let _ = {item}; {acc} += 1;"),
            Consumer::Ids => {
                format!("if let Some(mm_v) = {item}.get(\"id\") {{ {acc}.push(mm_v.clone()); }}")
            }
            Consumer::Seen => format!("{acc}.insert(format!(\"{{{item}:?}}\"));"),
        }
    }
}

/// One paginated shape: its name, the statements of its paginated form (the baseline),
/// and the statements of each form with the pagination taken out (label, statements).
struct Shape {
    name: &'static str,
    paged: Vec<String>,
    removed: Vec<(&'static str, Vec<String>)>,
}

/// Nine paginated reads of the request `b` (the site's builder, without its limit and
/// start key), each with its forms without pagination, consuming pages with `c`.
fn shapes(b: &str, n: usize, c: Consumer) -> Vec<Shape> {
    let acc = format!("mm_acc{n}");
    let start = format!("mm_start{n}");
    let decl = c.declare(&acc);
    let take_page = c.page(&acc, "mm_page");
    let take_item = c.item(&acc, "mm_item");
    let one_page = vec![
        decl.clone(),
        format!("if let Ok(mm_page) = {b}.send().await {{ {take_page} }}"),
    ];
    vec![
        Shape {
            name: "start-key-loop",
            paged: vec![
                decl.clone(),
                format!("let mut {start} = None;"),
                format!(
                    "loop {{ match {b}.set_exclusive_start_key({start}.take()).send().await {{ Ok(mm_page) => {{ {take_page} {start} = mm_page.last_evaluated_key().cloned(); if {start}.is_none() {{ break; }} }} Err(_) => break, }} }}"
                ),
            ],
            removed: vec![
                (
                    "one-send",
                    vec![
                        decl.clone(),
                        format!(
                            "match {b}.send().await {{ Ok(mm_page) => {{ {take_page} }} Err(_) => {{}} }}"
                        ),
                    ],
                ),
            ],
        },
        Shape {
            name: "while-let-start-key",
            paged: vec![
                decl.clone(),
                format!("let mut {start} = None;"),
                format!(
                    "while let Ok(mm_page) = {b}.set_exclusive_start_key({start}.take()).send().await {{ {take_page} {start} = mm_page.last_evaluated_key().cloned(); if {start}.is_none() {{ break; }} }}"
                ),
            ],
            removed: vec![
                ("one-send", one_page.clone()),
                (
                    "retry-loop",
                    vec![
                        decl.clone(),
                        format!(
                            "for mm_attempt in 0..3 {{ match {b}.send().await {{ Ok(mm_page) => {{ {take_page} break; }} Err(_) if mm_attempt < 2 => continue, Err(_) => break, }} }}"
                        ),
                    ],
                ),
            ],
        },
        Shape {
            name: "last-key-field-loop",
            paged: vec![
                decl.clone(),
                format!("let mut {start}: Option<std::collections::HashMap<String, {AV}>> = None;"),
                format!(
                    "loop {{ let Ok(mm_page) = {b}.set_exclusive_start_key({start}).send().await else {{ break; }}; {take_page} match mm_page.last_evaluated_key {{ Some(k) => {start} = Some(k), None => break, }} }}"
                ),
            ],
            removed: vec![(
                "one-send",
                vec![
                    decl.clone(),
                    format!("let mm_page = {b}.send().await.ok();"),
                    format!("if let Some(mm_page) = mm_page {{ {take_page} }}"),
                ],
            )],
        },
        Shape {
            name: "paginator-items-collect",
            paged: vec![format!(
                "let {acc}: Vec<_> = {b}.into_paginator().items().send().collect::<Vec<_>>().await;"
            )],
            removed: vec![(
                "one-send",
                vec![format!(
                    "let {acc}: Vec<_> = {b}.send().await.map(|mm_page| mm_page.items().to_vec()).unwrap_or_default();"
                )],
            )],
        },
        Shape {
            name: "paginator-items-stream",
            paged: vec![
                decl.clone(),
                format!("let mut mm_stream{n} = {b}.into_paginator().items().send();"),
                format!("while let Some(Ok(mm_item)) = mm_stream{n}.next().await {{ {take_item} }}"),
            ],
            removed: vec![(
                "one-send",
                vec![
                    decl.clone(),
                    format!(
                        "if let Ok(mm_page) = {b}.send().await {{ for mm_item in mm_page.items().iter().cloned() {{ {take_item} }} }}"
                    ),
                ],
            )],
        },
        Shape {
            name: "paginator-pages-next",
            paged: vec![
                decl.clone(),
                format!("let mut mm_pages{n} = {b}.into_paginator().send();"),
                format!("while let Some(Ok(mm_page)) = mm_pages{n}.next().await {{ {take_page} }}"),
            ],
            removed: vec![("one-send", one_page.clone())],
        },
        Shape {
            name: "paginator-items-try-collect",
            paged: vec![
                decl.clone(),
                format!(
                    "if let Ok(mm_all) = {b}.into_paginator().items().send().try_collect().await {{ for mm_item in mm_all {{ {take_item} }} }}"
                ),
            ],
            removed: vec![(
                "one-send",
                vec![
                    decl.clone(),
                    format!(
                        "if let Ok(mm_all) = {b}.send().await.map(|mm_page| mm_page.items().to_vec()) {{ for mm_item in mm_all {{ {take_item} }} }}"
                    ),
                ],
            )],
        },
        Shape {
            name: "builder-var-loop",
            paged: vec![
                format!("let mm_req{n} = {b};"),
                decl.clone(),
                format!("let mut {start} = None;"),
                format!(
                    "loop {{ match mm_req{n}.clone().set_exclusive_start_key({start}.take()).send().await {{ Ok(mm_page) => {{ {take_page} {start} = mm_page.last_evaluated_key().cloned(); if {start}.is_none() {{ break; }} }} Err(_) => break, }} }}"
                ),
            ],
            removed: vec![(
                "one-send",
                vec![
                    format!("let mm_req{n} = {b};"),
                    decl.clone(),
                    format!("if let Ok(mm_page) = mm_req{n}.send().await {{ {take_page} }}"),
                ],
            )],
        },
        Shape {
            name: "paginator-try-next",
            paged: vec![
                decl.clone(),
                format!("let mut mm_pages{n} = {b}.into_paginator().page_size(100).send();"),
                format!("while let Ok(Some(mm_page)) = mm_pages{n}.try_next().await {{ {take_page} }}"),
            ],
            removed: vec![(
                "one-send",
                vec![
                    decl,
                    format!(
                        "let mm_page = {b}.send().await; if let Ok(mm_page) = mm_page {{ {take_page} }}"
                    ),
                ],
            )],
        },
    ]
}

/// A copy of the site's request read page by page beside it (the baseline), and the
/// same code with the pagination taken out (the defect).
fn paged_copies(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let op = &cx.site.op;
    let chain = client_chain(cx)?;
    if chain.awaited.is_none() {
        return Err("the site's send is not awaited at once (no async statement to add to)".into());
    }
    let place = place(cx)?;
    if place.statement.is_none() {
        return Err(
            "no statement of its own to put code before (a closure, a match arm, ...)".into(),
        );
    }
    if !op.paginated && !op.exclusive_start_key && !flagged(cx, run) {
        return Err("dynalint does not flag the site's own one-page read (the model sizes it within a page, or it reads one item or the first): one page of it is no defect".into());
    }
    // The builder without the setters a paginated read sets itself.
    let mut b = String::new();
    let mut at = chain.builder.start;
    for s in &chain.setters {
        if is_start_key(&s.name) || matches!(s.name.as_str(), "limit" | "set_limit") {
            b.push_str(&cx.text[at..s.call.start]);
            at = s.call.end;
        }
    }
    b.push_str(&cx.text[at..chain.builder.end]);
    let n = cx.n;
    let mut cases = Vec::new();
    for c in Consumer::ALL {
        for shape in shapes(&b, n, c) {
            let key = format!("{}-{}", shape.name, c.name());
            let baseline = Baseline::new(
                key.clone(),
                Variant::code(vec![before_statement(place, &shape.paged)?]),
            );
            for (label, lines) in shape.removed {
                cases.push(DefectCase {
                    variant: Variant::code(vec![before_statement(place, &lines)?]),
                    // Put before the site's statement, the copy sits in the site's
                    // page loop, if any, and is sent again each time round.
                    expect: Expect::at_site("unpaginated-query")
                        .repeating_in_loop(paged_by_loop(op)),
                    baseline: Some(baseline.clone()),
                    label: format!("{key}-{label}"),
                });
            }
        }
    }
    Ok(cases)
}

/// The untouched tree has an `unpaginated-query` finding on the site.
fn flagged(cx: &Cx<'_>, run: &Run) -> bool {
    let span = cx.site.op.span;
    run.diagnostics.iter().any(|d| {
        d.rule == "unpaginated-query"
            && crate::compare::display(&d.location.file) == cx.site.path
            && span.start <= d.location.span.start
            && d.location.span.start < span.end
    })
}
