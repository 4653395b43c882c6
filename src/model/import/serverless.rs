//! Serverless Framework services (`serverless.yml`): the CloudFormation under
//! `resources.Resources`, with the framework's variables (`${self:custom.table}`,
//! `${sls:stage}`, `${opt:stage, 'dev'}`, `${env:NAME}`) resolved first — to their value
//! when the file says it, to a `{placeholder}` when a deployment fills it in. The
//! `environment` of the provider and of each function gives the tables their `refs`.

use super::cloudformation::{add_env_refs, import_resources, Template};
use super::tree::{Node, Value};
use super::{Found, Imported};
use crate::model::types::OriginKind;
use crate::source::FilePath;

/// Variables referring to variables stop here (a cycle, or a file nobody writes).
const MAX_DEPTH: usize = 10;

/// True for a Serverless service: `service` and `provider`.
pub fn is_serverless(doc: &Node) -> bool {
    doc.get("service").is_some() && doc.get("provider").is_some()
}

/// Imports the tables under `resources` (a mapping, or a list of them), including the
/// files it names (`- ${file(resources/tables.yml)}`), read relative to the service
/// with the service's variables.
pub fn import(file: FilePath, doc: &Node) -> Imported {
    let mut found = Found::new(file.clone(), OriginKind::Serverless);
    let resolved = resolve_node(doc, doc, 0);
    let cfn = Template::with_placeholders(&resolved);
    let raw = doc.get("resources").unwrap_or(Node::null());
    let resources = resolved.get("resources").unwrap_or(Node::null());
    let blocks: Vec<(&Node, &Node)> = match (&raw.value, &resources.value) {
        (Value::Seq(r), Value::Seq(items)) => r.iter().zip(items).collect(),
        _ => vec![(raw, resources)],
    };
    let mut included = Vec::new();
    for (raw, b) in blocks {
        if let Some(r) = b.get("Resources") {
            import_resources(&cfn, Some(r), &mut found);
        } else if let Some((path, key)) = raw.text().and_then(file_include) {
            let dir = file.parent().unwrap_or(std::path::Path::new(""));
            let p = dir.join(path);
            let text = match crate::encoding::read_to_string(&p) {
                Ok(t) => t,
                Err(e) => {
                    found.note(
                        raw,
                        format!("cannot read `{path}`, which `resources` includes: {e}"),
                    );
                    continue;
                }
            };
            let mut inc = Found::new(std::sync::Arc::from(p.as_path()), OriginKind::Serverless);
            match super::tree::parse(&text) {
                Ok(d) => {
                    let d = resolve_node(&d, doc, 0);
                    let block = match key {
                        Some(k) => d.get(k).cloned().unwrap_or_else(|| Node::null().clone()),
                        None => d,
                    };
                    // `${file(x.yml):Resources}` is the mapping itself.
                    let r = block
                        .get("Resources")
                        .or(key.filter(|k| *k == "Resources").map(|_| &block));
                    import_resources(&cfn, r, &mut inc);
                }
                Err(e) => inc.note_at(
                    crate::source::Span::new(e.offset, e.offset),
                    e.line,
                    format!("cannot read this file as YAML or JSON: {}", e.message),
                ),
            }
            add_env_refs(&cfn, &resolved, &mut inc);
            included.push(inc);
        }
    }
    add_env_refs(&cfn, &resolved, &mut found);
    let mut out = found.finish();
    for inc in included {
        super::merge(&mut out, inc.finish());
    }
    out
}

/// `${file(resources/tables.yml)}` → (`resources/tables.yml`, None);
/// `${file(./t.yml):Resources}` → (`./t.yml`, Some("Resources")).
fn file_include(s: &str) -> Option<(&str, Option<&str>)> {
    let inner = s.trim().strip_prefix("${file(")?.strip_suffix('}')?;
    let (path, rest) = inner.split_once(')')?;
    let key = rest
        .strip_prefix(':')
        .map(str::trim)
        .filter(|k| !k.is_empty());
    Some((path.trim().trim_matches(['\'', '"']), key))
}

/// A copy of `node` with every string's variables resolved.
fn resolve_node(node: &Node, root: &Node, depth: usize) -> Node {
    let value = match &node.value {
        Value::String(s) if s.contains("${") => match resolve_str(s, root, 0) {
            Some(r) => Value::String(r),
            // Unknown: a value no key name or table name can be read from.
            None => Value::Null,
        },
        Value::Seq(items) if depth < 64 => Value::Seq(
            items
                .iter()
                .map(|i| resolve_node(i, root, depth + 1))
                .collect(),
        ),
        Value::Map(entries) if depth < 64 => Value::Map(
            entries
                .iter()
                .map(|(k, s, v)| (k.clone(), *s, resolve_node(v, root, depth + 1)))
                .collect(),
        ),
        Value::Tagged(t, inner) if depth < 64 => {
            Value::Tagged(t.clone(), Box::new(resolve_node(inner, root, depth + 1)))
        }
        other => other.clone(),
    };
    Node {
        span: node.span,
        line: node.line,
        value,
    }
}

/// `orders-${sls:stage}` → `orders-{stage}`; `None` when a part cannot be known.
fn resolve_str(s: &str, root: &Node, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let body_start = start + 2;
        let end = matching_brace(rest, body_start)?;
        let body = &rest[body_start..end];
        // Nested variables (`${self:custom.${sls:stage}.table}`) resolve inside out.
        let body = if body.contains("${") {
            resolve_str(body, root, depth + 1)?
        } else {
            body.to_string()
        };
        out.push_str(&variable(&body, root, depth)?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The index of the `}` closing the variable whose body starts at `from`.
fn matching_brace(s: &str, from: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(from + i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// One variable's value: `self:custom.table`, `sls:stage`, `opt:stage, 'dev'`.
fn variable(body: &str, root: &Node, depth: usize) -> Option<String> {
    // `source, fallback`: the source decides at deploy time when it can.
    let source = body.split(',').next().unwrap_or(body).trim();
    let (kind, address) = source.split_once(':').unwrap_or(("", source));
    match kind {
        "self" => {
            let path: Vec<&str> = address.split('.').filter(|p| !p.is_empty()).collect();
            match root.at(&path) {
                Some(n) => match n.text() {
                    Some(t) if t.contains("${") => resolve_str(t, root, depth + 1),
                    Some(t) => Some(t.to_string()),
                    None => None,
                },
                // `${self:provider.stage}` unset: the stage the deployment picks.
                None => deploy_time(path.last().copied().unwrap_or(address)),
            }
        }
        "sls" | "opt" => deploy_time(address),
        "env" => Some(format!("{{{}}}", clean(address))),
        _ => None,
    }
}

/// `{stage}`, `{region}`: what only the deployment knows.
fn deploy_time(name: &str) -> Option<String> {
    let name = clean(name);
    (!name.is_empty()).then(|| format!("{{{name}}}"))
}

fn clean(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_variables_to_values_or_placeholders() {
        let doc = super::super::tree::parse(
            "service: shop\nprovider:\n  name: aws\ncustom:\n  table: ${self:service}-orders-${sls:stage}\n  stage: ${opt:stage, 'dev'}\n",
        )
        .unwrap();
        assert_eq!(
            resolve_str("${self:custom.table}", &doc, 0).as_deref(),
            Some("shop-orders-{stage}")
        );
        assert_eq!(
            resolve_str("${self:custom.stage}", &doc, 0).as_deref(),
            Some("{stage}")
        );
        assert_eq!(
            resolve_str("${env:TABLE}", &doc, 0).as_deref(),
            Some("{TABLE}")
        );
        assert_eq!(resolve_str("${ssm:/x}", &doc, 0), None);
        assert_eq!(resolve_str("${self:custom.x", &doc, 0), None);
    }

    #[test]
    fn self_reference_cycles_end() {
        let doc = super::super::tree::parse("service: s\nprovider: {}\na: ${self:a}\n").unwrap();
        assert_eq!(resolve_str("${self:a}", &doc, 0), None);
    }
}
