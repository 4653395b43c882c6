//! Requests added next to the site, on its client and table: a GetItem sent once per
//! element of a `Vec`, and a whole-table Scan (paginated) on a request path, the
//! site's or a new entry point's.

use dynalint::attr::AttributeType;
use dynalint::scanner::OpKind;

use super::{cold, lit, table, DefectCase, Expect, AV};
use crate::project::Run;
use crate::rewrites::{
    after_item, before_statement, client_chain, node_at, place, table_arg, Cx, Variant,
};

/// The site's client and table argument as text, for a request on the same table.
fn client_and_table(cx: &Cx<'_>) -> Result<(String, String), String> {
    let chain = client_chain(cx)?;
    if chain.awaited.is_none() {
        return Err("the site's send is not awaited at once (no async statement to add to)".into());
    }
    let (_, _, arg) = table_arg(cx, chain).ok_or("the chain sets no table name argument")?;
    Ok((
        cx.text[chain.receiver.clone()].to_string(),
        cx.text[arg].to_string(),
    ))
}

/// The key attributes of a request on the site's table: the bound table's, or the
/// site's own GetItem key.
fn key_of(cx: &Cx<'_>, run: &Run) -> Result<Vec<(String, AttributeType)>, String> {
    if let Some(t) = table(cx, run) {
        let ty = |a: &str| t.attribute(a).map_or(AttributeType::S, |x| x.ty);
        let mut key = vec![(t.partition_key.clone(), ty(&t.partition_key))];
        if let Some(sk) = &t.sort_key {
            key.push((sk.clone(), ty(sk)));
        }
        return Ok(key);
    }
    let op = &cx.site.op;
    match (&op.kind, &op.key) {
        (OpKind::GetItem, Some(k)) if k.complete && !k.attributes.is_empty() => Ok(k
            .attributes
            .iter()
            .filter_map(|a| a.name.value().map(|n| (n.to_string(), AttributeType::S)))
            .collect()),
        _ => Err(
            "the site's table is not in the model and it is no GetItem: its key is not known"
                .into(),
        ),
    }
}

/// `AttributeValue` of a key attribute from the loop's element `e`.
fn key_value(ty: AttributeType, e: &str, shape: usize) -> Option<String> {
    Some(match (ty, shape % 2) {
        (AttributeType::S, 0) => format!("{AV}::S({e}.to_string())"),
        (AttributeType::S, _) => format!("{AV}::S({e}.clone())"),
        (AttributeType::N, 0) => format!("{AV}::N({e}.len().to_string())"),
        (AttributeType::N, _) => format!("{AV}::N(format!(\"{{}}\", {e}.len()))"),
        _ => return None,
    })
}

/// A GetItem per element of a `Vec<String>`, in five loop shapes and two value shapes.
pub fn get_per_element(cx: &Cx<'_>, run: &Run) -> Result<Vec<DefectCase>, String> {
    let (client, table_text) = client_and_table(cx)?;
    let key = key_of(cx, run)?;
    let place = place(cx)?;
    let n = cx.n;
    let ids = format!("mm_ids{n}");
    let mut cases = Vec::new();
    let shapes = [
        "for-ref",
        "for-iter",
        "for-enumerate",
        "while-pop",
        "join-all",
    ];
    let elems = ["id", "user_id"];
    for (si, shape) in shapes.iter().enumerate() {
        for (ei, e) in elems.iter().enumerate() {
            let mut keys = String::new();
            for (name, ty) in &key {
                let v = key_value(*ty, e, si + ei)
                    .ok_or("a key attribute of type B: no value shape for it")?;
                keys.push_str(&format!(".key({}, {v})", lit(name)));
            }
            let get = format!("{client}.get_item().table_name({table_text}){keys}.send()");
            let decl = format!("let mut {ids}: Vec<String> = std::env::args().collect();");
            let body = match *shape {
                "for-ref" => format!("for {e} in &{ids} {{ let _ = {get}.await; }}"),
                "for-iter" => format!("for {e} in {ids}.iter() {{ let _ = {get}.await; }}"),
                "for-enumerate" => {
                    format!("for (_i, {e}) in {ids}.iter().enumerate() {{ let _ = {get}.await; }}")
                }
                "while-pop" => {
                    format!("while let Some({e}) = {ids}.pop() {{ let _ = {get}.await; }}")
                }
                _ => format!(
                    "let _ = futures::future::join_all({ids}.iter().map(|{e}| {get})).await;"
                ),
            };
            let edit = before_statement(place, &[decl, body])?;
            cases.push(DefectCase {
                variant: Variant::code(vec![edit]),
                expect: Expect::at_site("get-item-in-loop"),
                baseline: None,
                label: format!("{shape}-{e}"),
            });
        }
    }
    Ok(cases)
}

/// A Scan of the site's table, read page by page, on a request path: at a site on one,
/// beside it (four shapes of reading every page), in a task it spawns, in a closure,
/// in a helper it calls or a helper's helper; at any site whose table argument reads
/// nothing of its scope (a literal, a const, an env var), in a new entry point of the
/// site's file: an axum route, an actix-web route, a `lambda_runtime::service_fn`, a
/// tonic service method, a warp filter, and an axum route two calls above the Scan.
pub fn scan_in_handler(cx: &Cx<'_>, _run: &Run) -> Result<Vec<DefectCase>, String> {
    let (client, table_text) = client_and_table(cx)?;
    let place = place(cx)?;
    let n = cx.n;
    let mut cases = Vec::new();
    let mut why = "the site is not on a request path".to_string();
    if cx.site.op.context.hot.is_some() {
        match on_the_path(cx, place, &client, &table_text) {
            Ok(c) => cases.extend(c),
            Err(e) => why = e,
        }
    }
    match entry_table(cx) {
        Ok(table) => {
            for (label, item) in entry_points(n, &table) {
                cases.push(DefectCase {
                    variant: Variant::code(vec![after_item(place, &item)]),
                    expect: Expect::at_site("scan-in-hot-path"),
                    baseline: None,
                    label: label.into(),
                });
            }
        }
        Err(e) => why = format!("{why}, and {e}"),
    }
    if cases.is_empty() {
        return Err(why);
    }
    Ok(cases)
}

/// The Scan added on the request path the site is on.
fn on_the_path(
    cx: &Cx<'_>,
    place: &crate::site::Place,
    client: &str,
    table_text: &str,
) -> Result<Vec<DefectCase>, String> {
    let n = cx.n;
    let scan = format!("{client}.scan().table_name({table_text})");
    let all = ".into_paginator().items().send().collect::<Vec<_>>().await";
    let helper = format!(
        "async fn mm_scan_all{n}(client: &aws_sdk_dynamodb::Client, table: &str) -> usize {{\n    let items: Vec<_> = client.scan().table_name(table){all};\n    items.len()\n}}"
    );
    let helper_of_helper = format!(
        "{helper}\n\nasync fn mm_count{n}(client: &aws_sdk_dynamodb::Client, table: &str) -> usize {{\n    mm_scan_all{n}(client, table).await\n}}"
    );
    // (label, statements before the site's, an item after the site's)
    let shapes: Vec<(&str, Vec<String>, Option<String>)> = vec![
        (
            "paginator-items",
            vec![format!("let mm_all{n}: Vec<_> = {scan}{all};")],
            None,
        ),
        (
            "paginator-pages",
            vec![format!(
                "let mm_pages{n}: Vec<_> = {scan}.limit(100).into_paginator().send().collect::<Vec<_>>().await;"
            )],
            None,
        ),
        (
            "start-key-loop",
            vec![
                format!("let mut mm_start{n} = None;"),
                format!(
                    "loop {{ let mm_page = {scan}.set_exclusive_start_key(mm_start{n}.take()).send().await; match mm_page {{ Ok(p) => {{ mm_start{n} = p.last_evaluated_key().cloned(); if mm_start{n}.is_none() {{ break; }} }} Err(_) => break, }} }}"
                ),
            ],
            None,
        ),
        (
            "projected-paginator",
            vec![format!(
                "let mm_ids{n}: Vec<_> = {scan}.projection_expression(\"#mm\").expression_attribute_names(\"#mm\", \"mm_id\"){all};"
            )],
            None,
        ),
        (
            "spawned-task",
            vec![
                format!("let mm_client{n} = {client}.clone();"),
                format!("let mm_table{n}: String = ({table_text}).to_string();"),
                format!(
                    "let mm_task{n} = tokio::spawn(async move {{ let items: Vec<_> = mm_client{n}.scan().table_name(mm_table{n}){all}; items.len() }});"
                ),
            ],
            None,
        ),
        (
            "closure",
            vec![
                format!("let mm_scan{n} = || {scan}.into_paginator().items().send();"),
                format!("let mm_items{n}: Vec<_> = mm_scan{n}().collect::<Vec<_>>().await;"),
            ],
            None,
        ),
        (
            "helper",
            vec![format!(
                "let mm_count{n} = mm_scan_all{n}(&{client}, &{table_text}).await;"
            )],
            Some(helper),
        ),
        (
            "helper-of-helper",
            vec![format!(
                "let mm_total{n} = mm_count{n}(&{client}, &{table_text}).await;"
            )],
            Some(helper_of_helper),
        ),
    ];
    shapes
        .into_iter()
        .map(|(label, lines, item)| {
            let mut edits = vec![before_statement(place, &lines)?];
            if let Some(item) = item {
                edits.push(after_item(place, &item));
            }
            Ok(DefectCase {
                variant: Variant::code(edits),
                expect: Expect::at_site("scan-in-hot-path"),
                baseline: None,
                label: label.into(),
            })
        })
        .collect()
}

/// The site's table argument, when a new function of the file can name it as it is:
/// it reads nothing of the scope (a literal, a const, an env var), outside tests.
fn entry_table(cx: &Cx<'_>) -> Result<String, String> {
    if cold(cx) {
        return Err("the site is in a test, an example or a one-off binary".into());
    }
    let chain = client_chain(cx)?;
    let (_, _, arg) = table_arg(cx, chain).ok_or("the chain sets no table name argument")?;
    let text = &cx.text[arg.clone()];
    let closed = node_at(cx.tree, arg).is_some_and(|a| crate::syntax::is_closed(a, cx.text));
    if !closed || text.contains("Self") {
        return Err("its table argument reads the scope".into());
    }
    Ok(text.to_string())
}

/// New entry points of the file that Scan `table`, read page by page: (label, items).
fn entry_points(n: usize, table: &str) -> Vec<(&'static str, String)> {
    const C: &str = "aws_sdk_dynamodb::Client";
    let scan = |client: &str| {
        format!(
            "let items: Vec<_> = {client}.scan().table_name({table}).into_paginator().items().send().collect::<Vec<_>>().await;"
        )
    };
    vec![
        (
            "axum-route",
            format!(
                "async fn mm_list{n}(axum::extract::State(client): axum::extract::State<{C}>) -> axum::Json<usize> {{\n    {}\n    axum::Json(items.len())\n}}\n\npub fn mm_routes{n}() -> axum::Router<{C}> {{\n    axum::Router::new().route(\"/mm/items\", axum::routing::get(mm_list{n}))\n}}",
                scan("client")
            ),
        ),
        (
            "actix-route",
            format!(
                "#[actix_web::get(\"/mm/items\")]\nasync fn mm_list{n}(client: actix_web::web::Data<{C}>) -> actix_web::HttpResponse {{\n    {}\n    actix_web::HttpResponse::Ok().body(items.len().to_string())\n}}",
                scan("client")
            ),
        ),
        (
            "lambda-service-fn",
            format!(
                "async fn mm_handler{n}(_event: lambda_runtime::LambdaEvent<serde_json::Value>) -> Result<usize, lambda_runtime::Error> {{\n    let config = aws_config::load_from_env().await;\n    let client = {C}::new(&config);\n    {}\n    Ok(items.len())\n}}\n\npub async fn mm_run{n}() -> Result<(), lambda_runtime::Error> {{\n    lambda_runtime::run(lambda_runtime::service_fn(mm_handler{n})).await\n}}",
                scan("client")
            ),
        ),
        (
            "tonic-method",
            format!(
                "pub struct MmItems{n} {{\n    client: {C},\n}}\n\n#[tonic::async_trait]\nimpl mm_items_server{n}::MmItems for MmItems{n} {{\n    async fn list_items(&self, _request: tonic::Request<()>) -> Result<tonic::Response<u64>, tonic::Status> {{\n        {}\n        Ok(tonic::Response::new(items.len() as u64))\n    }}\n}}",
                scan("self.client")
            ),
        ),
        (
            "warp-filter",
            format!(
                "async fn mm_list{n}(client: {C}) -> Result<impl warp::Reply, warp::Rejection> {{\n    {}\n    Ok(warp::reply::json(&items.len()))\n}}\n\npub fn mm_filter{n}(client: {C}) -> impl warp::Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {{\n    use warp::Filter;\n    warp::path!(\"mm\" / \"items\").and(warp::get()).and(warp::any().map(move || client.clone())).and_then(mm_list{n})\n}}",
                scan("client")
            ),
        ),
        (
            "axum-route-two-calls-above",
            format!(
                "async fn mm_scan_all{n}(client: &{C}) -> usize {{\n    {}\n    items.len()\n}}\n\nasync fn mm_count{n}(client: &{C}) -> usize {{\n    mm_scan_all{n}(client).await\n}}\n\nasync fn mm_list{n}(axum::extract::State(client): axum::extract::State<{C}>) -> axum::Json<usize> {{\n    axum::Json(mm_count{n}(&client).await)\n}}\n\npub fn mm_routes{n}() -> axum::Router<{C}> {{\n    axum::Router::new().route(\"/mm/items\", axum::routing::get(mm_list{n}))\n}}",
                scan("client")
            ),
        ),
    ]
}
