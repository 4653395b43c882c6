//! Request-level checks of `ExpressionAttributeNames`/`Values` against all the
//! expressions of one request: malformed or empty maps, placeholders used but not
//! provided, provided but used by no expression, and overlapping document paths.
//!
//! DynamoDB checks the union of a request's expressions: a `:v` used only in the
//! FilterExpression counts as used for the whole request.

use std::collections::HashSet;

use super::ast::{Ast, Path, PathElement};
use super::condition::path_for_message;
use super::error::{ErrorCode, ExprError, ExprKind};
use super::resolve::Names;

/// The order DynamoDB examines a request's expressions in (as dynalite, whose tests ran
/// against DynamoDB, does): the first failing one is reported.
const CHECK_ORDER: [ExprKind; 5] = [
    ExprKind::Update,
    ExprKind::Condition,
    ExprKind::KeyCondition,
    ExprKind::Filter,
    ExprKind::Projection,
];

fn valid_key(key: &str, sigil: char) -> bool {
    let mut chars = key.chars();
    chars.next() == Some(sigil)
        && key.len() > 1
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Checks the maps on their own: not empty, every key `#word` / `:word`.
///
/// DynamoDB runs this before parsing the expressions.
pub fn check_maps(names: Option<&Names>, values: Option<&[&str]>) -> Result<(), ExprError> {
    if let Some(names) = names {
        if names.is_empty() {
            // Conformance expr_attrs cases (phrase); DynamoDB Local's error list.
            return Err(ExprError::request(
                ErrorCode::InvalidPlaceholderMap,
                "ExpressionAttributeNames must not be empty",
            ));
        }
        if let Some(bad) = names.keys().find(|k| !valid_key(k, '#')) {
            // Wording: conformance expr_attrs/err_name_key_without_hash (candidate).
            return Err(ExprError::request(
                ErrorCode::InvalidPlaceholderMap,
                format!(
                    "ExpressionAttributeNames contains invalid key: Syntax error; key: \"{bad}\""
                ),
            ));
        }
    }
    if let Some(values) = values {
        if values.is_empty() {
            // Conformance expr_attrs/err_empty_values_map.
            return Err(ExprError::request(
                ErrorCode::InvalidPlaceholderMap,
                "ExpressionAttributeValues must not be empty",
            ));
        }
        if let Some(bad) = values.iter().find(|k| !valid_key(k, ':')) {
            // Conformance expr_attrs/err_value_key_without_colon.
            return Err(ExprError::request(
                ErrorCode::InvalidPlaceholderMap,
                format!(
                    "ExpressionAttributeValues contains invalid key: Syntax error; key: \"{bad}\""
                ),
            ));
        }
    }
    Ok(())
}

/// Checks one request's parsed expressions against the placeholders it provides.
///
/// `names`/`values` are `None` when the request has no such map. Reports, in
/// DynamoDB's order: a bad map ([`check_maps`]); per expression, an undefined `#name`
/// or `:value`, then overlapping paths (projection, update targets); then unused
/// names; then unused values.
pub fn check_placeholders(
    exprs: &[(ExprKind, &Ast)],
    names: Option<&Names>,
    values: Option<&[&str]>,
) -> Result<(), ExprError> {
    let kinds: Vec<ExprKind> = exprs.iter().map(|(k, _)| *k).collect();
    check_parameters(&kinds, names, values)?;
    check_maps(names, values)?;
    let empty = Names::new();
    let names_map = names.unwrap_or(&empty);
    let value_keys = values.unwrap_or(&[]);
    for (kind, ast) in in_check_order(exprs) {
        check_defined(*kind, ast, names_map, value_keys)?;
        check_overlaps(*kind, ast, names_map)?;
    }
    check_unused(exprs, names, values)
}

/// Parses and checks all the expressions of one request, in DynamoDB's order: the maps
/// given without expressions, the maps' keys, then each expression (parse errors, then
/// its undefined placeholders and overlapping paths) in turn, then unused placeholders.
/// Returns the trees, in the order given.
///
/// Pass `values` only for operations that have an `ExpressionAttributeValues`
/// parameter: GetItem and BatchGetItem do not, and DynamoDB ignores one sent to them.
///
/// The key-schema rules of a KeyConditionExpression come after all of these
/// ([`super::check_key_condition`]).
pub fn check_request(
    exprs: &[(ExprKind, &str)],
    names: Option<&Names>,
    values: Option<&[&str]>,
    limits: &super::Limits,
) -> Result<Vec<(ExprKind, Ast)>, ExprError> {
    let kinds: Vec<ExprKind> = exprs.iter().map(|(k, _)| *k).collect();
    check_parameters(&kinds, names, values)?;
    check_maps(names, values)?;
    let empty = Names::new();
    let names_map = names.unwrap_or(&empty);
    let value_keys = values.unwrap_or(&[]);
    let mut parsed: Vec<Option<Ast>> = exprs.iter().map(|_| None).collect();
    for kind in CHECK_ORDER {
        for (i, (k, src)) in exprs.iter().enumerate() {
            if *k != kind {
                continue;
            }
            let ast = super::parse_with(src, kind, limits)?;
            check_defined(kind, &ast, names_map, value_keys)?;
            check_overlaps(kind, &ast, names_map)?;
            parsed[i] = Some(ast);
        }
    }
    let out: Vec<(ExprKind, Ast)> = exprs
        .iter()
        .zip(parsed)
        .filter_map(|((k, _), ast)| ast.map(|a| (*k, a)))
        .collect();
    let refs: Vec<(ExprKind, &Ast)> = out.iter().map(|(k, a)| (*k, a)).collect();
    check_unused(&refs, names, values)?;
    Ok(out)
}

/// The first `#name` or `:value` one of `exprs` uses that the maps do not define, in
/// DynamoDB's order; an expression that does not parse is passed over. For a request
/// some of whose expressions are not known: expressions use placeholders and only the
/// maps define them, so what the unknown ones hold cannot define this one. Pass
/// `values` as for [`check_request`].
pub fn first_undefined(
    exprs: &[(ExprKind, &str)],
    names: &Names,
    values: &[&str],
    limits: &super::Limits,
) -> Option<ExprError> {
    CHECK_ORDER.iter().find_map(|kind| {
        exprs
            .iter()
            .filter(|(k, _)| k == kind)
            .find_map(|(k, src)| {
                let ast = super::parse_with(src, *k, limits).ok()?;
                check_defined(*k, &ast, names, values).err()
            })
    })
}

fn in_check_order<'a, 'b>(
    exprs: &'b [(ExprKind, &'a Ast)],
) -> impl Iterator<Item = &'b (ExprKind, &'a Ast)> {
    CHECK_ORDER
        .iter()
        .flat_map(move |k| exprs.iter().filter(move |(kind, _)| kind == k))
}

/// Maps given with no expression to use them.
fn check_parameters(
    kinds: &[ExprKind],
    names: Option<&Names>,
    values: Option<&[&str]>,
) -> Result<(), ExprError> {
    if names.is_some() && kinds.is_empty() {
        // Conformance expr_attrs/err_scan_names_without_expression.
        return Err(ExprError::request(
            ErrorCode::InvalidPlaceholderMap,
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    if values.is_some() && kinds.iter().all(|k| *k == ExprKind::Projection) {
        // Conformance expr_attrs/err_scan_values_without_expression (the phrase;
        // DynamoDB appends which of the operation's expressions are null).
        return Err(ExprError::request(
            ErrorCode::InvalidPlaceholderMap,
            "ExpressionAttributeValues can only be specified when using expressions",
        ));
    }
    Ok(())
}

fn check_unused(
    exprs: &[(ExprKind, &Ast)],
    names: Option<&Names>,
    values: Option<&[&str]>,
) -> Result<(), ExprError> {
    if let Some(names) = names {
        let used: HashSet<&str> = exprs
            .iter()
            .flat_map(|(_, ast)| ast.name_placeholders().into_iter().map(|(n, _)| n))
            .collect();
        let unused: Vec<&str> = names.keys().filter(|k| !used.contains(k)).collect();
        if !unused.is_empty() {
            // Conformance expr_attrs/err_unused_name.
            return Err(ExprError::request(
                ErrorCode::UnusedNames,
                format!(
                    "Value provided in ExpressionAttributeNames unused in expressions: keys: {{{}}}",
                    unused.join(", ")
                ),
            ));
        }
    }
    if let Some(values) = values {
        let used: HashSet<&str> = exprs
            .iter()
            .flat_map(|(_, ast)| {
                ast.value_placeholders()
                    .into_iter()
                    .map(|v| v.name.as_str())
            })
            .collect();
        let unused: Vec<&str> = values
            .iter()
            .copied()
            .filter(|k| !used.contains(k))
            .collect();
        if !unused.is_empty() {
            // Conformance expr_attrs/err_unused_value, filter/err_unused_value.
            return Err(ExprError::request(
                ErrorCode::UnusedValues,
                format!(
                    "Value provided in ExpressionAttributeValues unused in expressions: keys: {{{}}}",
                    unused.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn undefined_name(kind: ExprKind, name: &str, path: &Path) -> ExprError {
    // Conformance projection/err_undefined_name.
    ExprError::in_expr(
        kind,
        ErrorCode::UndefinedName,
        path.span,
        format_args!(
            "An expression attribute name used in the document path is not defined; \
             attribute name: {name}"
        ),
    )
}

fn check_defined(
    kind: ExprKind,
    ast: &Ast,
    names: &Names,
    values: &[&str],
) -> Result<(), ExprError> {
    let undefined_value = |v: &super::ast::ValueRef| {
        // Conformance expr_attrs/err_missing_value_kce, filter/err_missing_value.
        ExprError::in_expr(
            kind,
            ErrorCode::UndefinedValue,
            v.span,
            format_args!(
                "An expression attribute value used in expression is not defined; \
                 attribute value: {}",
                v.name
            ),
        )
    };
    let name_missing = |n: &str| names.get(n).is_none();
    let value_missing = |v: &str| !values.contains(&v);
    if kind == ExprKind::Update {
        // Updates report names before values (dynalite's order).
        if let Some((n, p)) = ast
            .name_placeholders()
            .into_iter()
            .find(|(n, _)| name_missing(n))
        {
            return Err(undefined_name(kind, n, p));
        }
        if let Some(v) = ast
            .value_placeholders()
            .into_iter()
            .find(|v| value_missing(&v.name))
        {
            return Err(undefined_value(v));
        }
        return Ok(());
    }
    // Conditions and projections: whichever comes first in the text.
    let mut first: Option<ExprError> = None;
    ast.walk(&mut |r| {
        if first.is_some() {
            return;
        }
        match r {
            super::visit::Ref::Path(p) => {
                for e in &p.elements {
                    if let PathElement::Name(n) = e {
                        if name_missing(n) {
                            first = Some(undefined_name(kind, n, p));
                            return;
                        }
                    }
                }
            }
            super::visit::Ref::Value(v) => {
                if value_missing(&v.name) {
                    first = Some(undefined_value(v));
                }
            }
        }
    });
    first.map_or(Ok(()), Err)
}

/// A path as DynamoDB compares and prints it: known names substituted.
fn comparable(path: &Path, names: &Names) -> Path {
    let mut out = path.clone();
    for e in &mut out.elements {
        if let PathElement::Name(n) = e {
            if let Some(Some(real)) = names.get(n) {
                *e = PathElement::Attr(real.to_string());
            }
        }
    }
    out
}

/// How two paths relate for overlap purposes.
enum Relation {
    /// Neither is a prefix of the other.
    Distinct,
    /// One is a prefix of (or equal to) the other.
    Overlap,
    /// Same prefix, then a map key in one and a list index in the other.
    Conflict,
}

fn relation(a: &Path, b: &Path) -> Relation {
    for (x, y) in a.elements.iter().zip(&b.elements) {
        let x_index = matches!(x, PathElement::Index(_));
        let y_index = matches!(y, PathElement::Index(_));
        if x_index != y_index {
            return Relation::Conflict;
        }
        if x != y {
            return Relation::Distinct;
        }
    }
    Relation::Overlap
}

/// Above this many paths the pairwise check (which reports the same pair DynamoDB
/// does) gives way to a sort that finds some offending pair in `n log n`: a 4 KB
/// expression cannot hold this many paths, so only oversized input takes that road.
const PAIRWISE_LIMIT: usize = 2048;

/// Projection paths and update targets may not overlap (`a` and `a.b`, or `a` twice)
/// or conflict (`a.b` and `a[0]`).
fn check_overlaps(kind: ExprKind, ast: &Ast, names: &Names) -> Result<(), ExprError> {
    let paths: Vec<&Path> = match ast {
        Ast::Projection(p) => p.paths.iter().collect(),
        Ast::Update(u) => u.target_paths(),
        Ast::Condition(_) => return Ok(()),
    };
    let paths: Vec<(Path, &Path)> = paths
        .into_iter()
        .map(|p| (comparable(p, names), p))
        .collect();
    let report = |code: ErrorCode, a: &Path, b: &Path, span| {
        // Overlap wording: conformance projection/err_duplicate_path; conflict wording:
        // dynalite (tested against DynamoDB).
        let what = if code == ErrorCode::PathOverlap {
            "overlap"
        } else {
            "conflict"
        };
        ExprError::in_expr(
            kind,
            code,
            span,
            format_args!(
                "Two document paths {what} with each other; must remove or rewrite one of \
                 these paths; path one: {}, path two: {}",
                path_for_message(a),
                path_for_message(b)
            ),
        )
    };
    let mut conflict: Option<ExprError> = None;
    if paths.len() <= PAIRWISE_LIMIT {
        for (j, (b, b_orig)) in paths.iter().enumerate() {
            for (a, _) in &paths[..j] {
                match relation(a, b) {
                    Relation::Distinct => {}
                    Relation::Overlap => {
                        return Err(report(ErrorCode::PathOverlap, a, b, b_orig.span))
                    }
                    Relation::Conflict => {
                        if conflict.is_none() {
                            conflict = Some(report(ErrorCode::PathConflict, a, b, b_orig.span));
                        }
                    }
                }
            }
        }
        return conflict.map_or(Ok(()), Err);
    }
    // Sorted, a prefix sits right before a path it prefixes, and map keys sort before
    // list indexes after a shared prefix, so an offending pair is always adjacent.
    let key = |p: &Path| -> Vec<(u8, String, u32)> {
        p.elements
            .iter()
            .map(|e| match e {
                PathElement::Attr(s) | PathElement::Name(s) => (0, s.clone(), 0),
                PathElement::Index(i) => (1, String::new(), *i),
            })
            .collect()
    };
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by_cached_key(|&i| (key(&paths[i].0), i));
    for w in order.windows(2) {
        let (i, j) = (w[0].min(w[1]), w[0].max(w[1]));
        let (a, b) = (&paths[i].0, &paths[j].0);
        match relation(a, b) {
            Relation::Distinct => {}
            Relation::Overlap => return Err(report(ErrorCode::PathOverlap, a, b, paths[j].1.span)),
            Relation::Conflict => {
                if conflict.is_none() {
                    conflict = Some(report(ErrorCode::PathConflict, a, b, paths[j].1.span));
                }
            }
        }
    }
    conflict.map_or(Ok(()), Err)
}
