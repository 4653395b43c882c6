//! A request's expressions, parsed (by `crate::expr`) and checked as one: placeholder
//! maps well-formed, every `#name`/`:value` defined, none unused, legacy parameters
//! not mixed in, in DynamoDB's order and words.

use std::collections::HashMap;

use crate::expr::ast::{
    Condition, Function, Operand, Path, PathElement, SetOperand, SetValue, UpdateClause, UpdateExpr,
};
use crate::expr::{self, ExprError, ExprKind};

use super::error::{DynamoError, DynamoResult};
use super::eval::{Placeholders, Step};
use super::legacy;
use super::wire::{value_from_json, Body};

/// The parsed expressions of one request and its placeholder values.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    pub key_condition: Option<Condition>,
    pub condition: Option<Condition>,
    pub filter: Option<Condition>,
    /// Resolved paths of the ProjectionExpression (or `AttributesToGet`).
    pub projection: Option<Vec<Vec<Step>>>,
    pub update: Option<UpdateExpr>,
    pub ph: Placeholders,
}

fn to_dynamo(e: ExprError) -> DynamoError {
    DynamoError::validation(e.message)
}

/// Which placeholders an expression uses, in order of first use.
#[derive(Default)]
struct Uses {
    names: Vec<String>,
    values: Vec<String>,
}

impl Uses {
    fn name(&mut self, n: &str) {
        if !self.names.iter().any(|x| x == n) {
            self.names.push(n.to_string());
        }
    }
    fn value(&mut self, v: &str) {
        if !self.values.iter().any(|x| x == v) {
            self.values.push(v.to_string());
        }
    }
    fn path(&mut self, p: &Path) {
        for e in &p.elements {
            if let PathElement::Name(n) = e {
                self.name(n);
            }
        }
    }
    fn operand(&mut self, o: &Operand) {
        match o {
            Operand::Path(p) => self.path(p),
            Operand::Value(v) => self.value(&v.name),
            Operand::Size { arg, .. } => self.operand(arg),
        }
    }
    fn condition(&mut self, c: &Condition) {
        match c {
            Condition::Compare { left, right, .. } => {
                self.operand(left);
                self.operand(right);
            }
            Condition::Between {
                operand, low, high, ..
            } => {
                self.operand(operand);
                self.operand(low);
                self.operand(high);
            }
            Condition::In { operand, list, .. } => {
                self.operand(operand);
                list.iter().for_each(|o| self.operand(o));
            }
            Condition::Function { function, .. } => match function {
                Function::AttributeExists(p) | Function::AttributeNotExists(p) => self.path(p),
                Function::AttributeType(a, b)
                | Function::BeginsWith(a, b)
                | Function::Contains(a, b) => {
                    self.operand(a);
                    self.operand(b);
                }
            },
            Condition::And { left, right, .. } | Condition::Or { left, right, .. } => {
                self.condition(left);
                self.condition(right);
            }
            Condition::Not { inner, .. } => self.condition(inner),
        }
    }
    fn set_operand(&mut self, o: &SetOperand) {
        match o {
            SetOperand::Path(p) => self.path(p),
            SetOperand::Value(v) => self.value(&v.name),
            SetOperand::IfNotExists { path, default, .. } => {
                self.path(path);
                self.set_operand(default);
            }
            SetOperand::ListAppend { first, second, .. } => {
                self.set_operand(first);
                self.set_operand(second);
            }
        }
    }
    fn update(&mut self, u: &UpdateExpr) {
        for c in &u.clauses {
            match c {
                UpdateClause::Set { actions, .. } => {
                    for a in actions {
                        self.path(&a.path);
                        match &a.value {
                            SetValue::Operand(o) => self.set_operand(o),
                            SetValue::Plus(x, y) | SetValue::Minus(x, y) => {
                                self.set_operand(x);
                                self.set_operand(y);
                            }
                        }
                    }
                }
                UpdateClause::Remove { paths, .. } => paths.iter().for_each(|p| self.path(p)),
                UpdateClause::Add { actions, .. } | UpdateClause::Delete { actions, .. } => {
                    for a in actions {
                        self.path(&a.path);
                        self.value(&a.value.name);
                    }
                }
            }
        }
    }
}

/// Placeholder key syntax: `#` or `:` followed by one or more word characters.
fn valid_key(key: &str, sigil: char) -> bool {
    let mut chars = key.chars();
    chars.next() == Some(sigil)
        && key.len() > 1
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Which expression parameters a request may carry.
#[derive(Debug, Clone, Copy)]
pub struct Allowed {
    pub key_condition: bool,
    pub condition: bool,
    pub filter: bool,
    pub projection: bool,
    pub update: bool,
    /// GetItem and BatchGetItem take no `ExpressionAttributeValues`: they are ignored.
    pub values: bool,
}

impl Allowed {
    /// Nothing allowed; switch on what a request takes.
    pub const NONE: Allowed = Allowed {
        key_condition: false,
        condition: false,
        filter: false,
        projection: false,
        update: false,
        values: true,
    };
}

impl Allowed {
    /// The expression parameters the operation takes, in the order DynamoDB names
    /// them in its messages.
    fn expression_params(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (on, name) in [
            (self.projection, "ProjectionExpression"),
            (self.filter, "FilterExpression"),
            (self.key_condition, "KeyConditionExpression"),
            (self.update, "UpdateExpression"),
            (self.condition, "ConditionExpression"),
        ] {
            if on {
                out.push(name);
            }
        }
        out
    }

    /// The legacy parameters the operation takes.
    fn legacy_params(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (on, name) in [
            (self.projection, "AttributesToGet"),
            (self.key_condition && self.filter, "QueryFilter"),
            (!self.key_condition && self.filter, "ScanFilter"),
            (self.filter || self.condition, "ConditionalOperator"),
            (self.key_condition, "KeyConditions"),
            (self.condition, "Expected"),
            (self.update, "AttributeUpdates"),
        ] {
            if on {
                out.push(name);
            }
        }
        out
    }
}

/// The checks on which expression and legacy parameters a request carries, before
/// its attribute values are read: no mixing of the two forms, no placeholder maps
/// without an expression that could use them.
pub fn check_forms(b: &Body<'_>, allowed: Allowed) -> DynamoResult<()> {
    let legacy_params = allowed.legacy_params();
    let expr_params = allowed.expression_params();
    if let Some(msg) = legacy::mixed(b, &legacy_params, &expr_params) {
        return Err(DynamoError::validation(msg));
    }
    let present = expr_params.iter().any(|e| b.has(e));
    if b.has("ExpressionAttributeNames") && !present {
        return Err(DynamoError::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    let value_exprs: Vec<&str> = expr_params
        .iter()
        .copied()
        .filter(|e| *e != "ProjectionExpression")
        .collect();
    if allowed.values && b.has("ExpressionAttributeValues") && !value_exprs.iter().any(|e| b.has(e))
    {
        return Err(DynamoError::validation(format!(
            "ExpressionAttributeValues can only be specified when using expressions: {} {} null",
            value_exprs.join(" and "),
            if value_exprs.len() > 1 { "are" } else { "is" }
        )));
    }
    Ok(())
}

/// Parses and checks the expressions of a request body, legacy parameters included
/// (rewritten as expressions once checked, see [`super::legacy`]).
pub fn prepare(b: &Body<'_>, allowed: Allowed) -> DynamoResult<Prepared> {
    check_forms(b, allowed)?;
    let legacy_params = allowed.legacy_params();
    match legacy::rewrite(b, &legacy_params)? {
        Some(rewritten) => prepare_expressions(&Body::new(&rewritten)?, allowed),
        None => prepare_expressions(b, allowed),
    }
}

/// Parses and checks the expression parameters of a body without legacy parameters.
fn prepare_expressions(b: &Body<'_>, allowed: Allowed) -> DynamoResult<Prepared> {
    let text = |name: &str, on: bool| -> DynamoResult<Option<&str>> {
        if on {
            b.str(name)
        } else {
            Ok(None)
        }
    };
    let kce = text("KeyConditionExpression", allowed.key_condition)?;
    let cond = text("ConditionExpression", allowed.condition)?;
    let filter = text("FilterExpression", allowed.filter)?;
    let proj = text("ProjectionExpression", allowed.projection)?;
    let update = text("UpdateExpression", allowed.update)?;
    let any_expr = [kce, cond, filter, proj, update]
        .iter()
        .any(Option::is_some);

    let names = b.string_map("ExpressionAttributeNames")?;
    let values_body = if allowed.values {
        b.object("ExpressionAttributeValues")?
    } else {
        None
    };
    if let Some(names) = &names {
        if names.is_empty() {
            return Err(DynamoError::validation(
                "ExpressionAttributeNames must not be empty",
            ));
        }
        if let Some((k, _)) = names.iter().find(|(k, _)| !valid_key(k, '#')) {
            return Err(DynamoError::validation(format!(
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"{k}\""
            )));
        }
    }
    let mut ph = Placeholders::default();
    if let Some(vb) = values_body.filter(|_| any_expr) {
        let entries: Vec<_> = vb.entries().collect();
        if entries.is_empty() {
            return Err(DynamoError::validation(
                "ExpressionAttributeValues must not be empty",
            ));
        }
        for (k, v) in entries {
            if !valid_key(k, ':') {
                return Err(DynamoError::validation(format!(
                    "ExpressionAttributeValues contains invalid key: Syntax error; key: \"{k}\""
                )));
            }
            let value = value_from_json(v)?;
            ph.values.insert(k.clone(), value);
        }
    }
    ph.names = names
        .clone()
        .unwrap_or_default()
        .into_iter()
        .collect::<HashMap<_, _>>();

    let mut out = Prepared::default();
    let mut used = Uses::default();
    let check_defined = |kind: ExprKind, uses: &Uses, ph: &Placeholders| -> DynamoResult<()> {
        if let Some(n) = uses.names.iter().find(|n| !ph.names.contains_key(*n)) {
            return Err(DynamoError::validation(format!(
                "Invalid {}: An expression attribute name used in the document path is not defined; attribute name: {n}",
                kind.parameter()
            )));
        }
        if let Some(v) = uses.values.iter().find(|v| !ph.values.contains_key(*v)) {
            return Err(DynamoError::validation(format!(
                "Invalid {}: An expression attribute value used in expression is not defined; attribute value: {v}",
                kind.parameter()
            )));
        }
        Ok(())
    };
    if let Some(src) = update {
        let u = expr::parse_update(src).map_err(to_dynamo)?;
        let mut uses = Uses::default();
        uses.update(&u);
        check_defined(ExprKind::Update, &uses, &ph)?;
        let targets: Vec<Vec<Step>> = u
            .target_paths()
            .into_iter()
            .map(|x| ph.resolve(x))
            .collect();
        check_overlap(&targets, ExprKind::Update)?;
        used.update(&u);
        out.update = Some(u);
    }
    for (src, kind) in [
        (kce, ExprKind::KeyCondition),
        (cond, ExprKind::Condition),
        (filter, ExprKind::Filter),
    ] {
        let Some(src) = src else { continue };
        let c = if kind == ExprKind::KeyCondition {
            expr::parse_key_condition(src)
        } else {
            expr::parse_condition(src, kind)
        }
        .map_err(to_dynamo)?;
        check_operator_counts(&c, kind)?;
        let mut uses = Uses::default();
        uses.condition(&c);
        check_defined(kind, &uses, &ph)?;
        check_operand_types(&c, kind, &ph)?;
        used.condition(&c);
        match kind {
            ExprKind::KeyCondition => out.key_condition = Some(c),
            ExprKind::Condition => out.condition = Some(c),
            _ => out.filter = Some(c),
        }
    }
    if let Some(src) = proj {
        let p = expr::parse_projection(src).map_err(to_dynamo)?;
        let mut uses = Uses::default();
        p.paths.iter().for_each(|x| uses.path(x));
        check_defined(ExprKind::Projection, &uses, &ph)?;
        p.paths.iter().for_each(|x| used.path(x));
        let resolved: Vec<Vec<Step>> = p.paths.iter().map(|x| ph.resolve(x)).collect();
        check_overlap(&resolved, ExprKind::Projection)?;
        out.projection = Some(resolved);
    }
    let mut unused_names: Vec<&String> = ph
        .names
        .keys()
        .filter(|n| !used.names.contains(n))
        .collect();
    unused_names.sort();
    if !unused_names.is_empty() {
        return Err(DynamoError::validation(format!(
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {{{}}}",
            unused_names
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut unused_values: Vec<&String> = ph
        .values
        .keys()
        .filter(|v| !used.values.contains(v))
        .collect();
    unused_values.sort();
    if !unused_values.is_empty() {
        return Err(DynamoError::validation(format!(
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {{{}}}",
            unused_values
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    out.ph = ph;
    Ok(out)
}

/// Attribute names (top level) a condition reads, for the rule that a Query filter
/// may not name key attributes.
pub fn top_level_names(c: &Condition, ph: &Placeholders) -> Vec<String> {
    let mut names = Vec::new();
    crate::expr::visit::walk_condition(c, &mut |r| {
        if let crate::expr::visit::Ref::Path(p) = r {
            if let Some(Step::Key(k)) = ph.resolve(p).into_iter().next() {
                names.push(k);
            }
        }
    });
    names
}

/// DynamoDB's rendering of a document path in messages: `[info, dims, [0]]`.
fn render_path(steps: &[Step]) -> String {
    let parts: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Two paths of one projection or update may not overlap (one a prefix of the other).
fn check_overlap(paths: &[Vec<Step>], kind: ExprKind) -> DynamoResult<()> {
    for (i, a) in paths.iter().enumerate() {
        for b in &paths[i + 1..] {
            let n = a.len().min(b.len());
            if a[..n] == b[..n] {
                return Err(DynamoError::validation(format!(
                    "Invalid {}: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: {}, path two: {}",
                    kind.parameter(),
                    render_path(a),
                    render_path(b)
                )));
            }
        }
    }
    Ok(())
}

/// Most operators and functions in one expression.
pub const MAX_OPERATORS: usize = 300;
/// Most values in one `IN` list.
pub const MAX_IN_OPERANDS: usize = 100;

/// Operators and functions in `c` (comparisons, `BETWEEN`, `IN`, functions, `size`,
/// `AND`, `OR`, `NOT`); fails on an `IN` list over [`MAX_IN_OPERANDS`].
fn count_operators(c: &Condition, kind: ExprKind) -> DynamoResult<usize> {
    let sizes = |o: &Operand| -> usize {
        let mut n = 0;
        let mut cur = o;
        while let Operand::Size { arg, .. } = cur {
            n += 1;
            cur = arg;
        }
        n
    };
    Ok(match c {
        Condition::Compare { left, right, .. } => 1 + sizes(left) + sizes(right),
        Condition::Between {
            operand, low, high, ..
        } => 1 + sizes(operand) + sizes(low) + sizes(high),
        Condition::In { operand, list, .. } => {
            if list.len() > MAX_IN_OPERANDS {
                return Err(DynamoError::validation(format!(
                    "Invalid {}: The IN operator is provided with too many operands; number of operands: {}",
                    kind.parameter(),
                    list.len()
                )));
            }
            1 + sizes(operand) + list.iter().map(sizes).sum::<usize>()
        }
        Condition::Function { function, .. } => {
            1 + match function {
                Function::AttributeExists(_) | Function::AttributeNotExists(_) => 0,
                Function::AttributeType(a, b)
                | Function::BeginsWith(a, b)
                | Function::Contains(a, b) => sizes(a) + sizes(b),
            }
        }
        Condition::And { left, right, .. } | Condition::Or { left, right, .. } => {
            1 + count_operators(left, kind)? + count_operators(right, kind)?
        }
        Condition::Not { inner, .. } => 1 + count_operators(inner, kind)?,
    })
}

/// DynamoDB's limits on one condition: [`MAX_IN_OPERANDS`] per `IN`,
/// [`MAX_OPERATORS`] in all.
fn check_operator_counts(c: &Condition, kind: ExprKind) -> DynamoResult<()> {
    let n = count_operators(c, kind)?;
    if n > MAX_OPERATORS {
        return Err(DynamoError::validation(format!(
            "Invalid {}: The expression contains too many operators; operator count: {n}",
            kind.parameter()
        )));
    }
    Ok(())
}

/// `size(:v)` of a value that has no size (a number, a boolean, NULL).
fn check_size_operand(o: &Operand, kind: ExprKind, ph: &Placeholders) -> DynamoResult<()> {
    if let Operand::Size { arg, .. } = o {
        if let Operand::Value(v) = arg.as_ref() {
            if let Some(t) = ph.values.get(&v.name).map(|x| x.ty()) {
                if matches!(
                    t,
                    crate::attr::AttributeType::N
                        | crate::attr::AttributeType::Bool
                        | crate::attr::AttributeType::Null
                ) {
                    return Err(DynamoError::validation(format!(
                        "Invalid {}: Incorrect operand type for operator or function; operator or function: size, operand type: {t}",
                        kind.parameter()
                    )));
                }
            }
        }
        check_size_operand(arg, kind, ph)?;
    }
    Ok(())
}

/// Operand types DynamoDB rejects before reading any item: a `begins_with` value that
/// is not a string or binary, an `attribute_type` type name it does not know, the size
/// of a number, and (outside key conditions, which check them against the schema)
/// `BETWEEN` bounds of two types or in the wrong order.
fn check_operand_types(c: &Condition, kind: ExprKind, ph: &Placeholders) -> DynamoResult<()> {
    let value_type = |o: &Operand| match o {
        Operand::Value(v) => ph.values.get(&v.name).map(|x| x.ty()),
        _ => None,
    };
    if kind != ExprKind::KeyCondition {
        match c {
            Condition::Compare { left, right, .. } => {
                check_size_operand(left, kind, ph)?;
                check_size_operand(right, kind, ph)?;
            }
            Condition::Between {
                operand, low, high, ..
            } => {
                for o in [operand, low, high] {
                    check_size_operand(o, kind, ph)?;
                }
                if let (Operand::Value(lo), Operand::Value(hi)) = (low, high) {
                    if let (Some(l), Some(h)) = (ph.values.get(&lo.name), ph.values.get(&hi.name)) {
                        let shown = format!(
                            "lower bound operand: AttributeValue: {}, upper bound operand: AttributeValue: {}",
                            super::keycond::wire_repr(l),
                            super::keycond::wire_repr(h)
                        );
                        if l.ty() != h.ty() {
                            return Err(DynamoError::validation(format!(
                                "Invalid {}: The BETWEEN operator requires same data type for lower and upper bounds; {shown}",
                                kind.parameter()
                            )));
                        }
                        if super::eval::compare(l, h) == Some(std::cmp::Ordering::Greater) {
                            return Err(DynamoError::validation(format!(
                                "Invalid {}: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; {shown}",
                                kind.parameter()
                            )));
                        }
                    }
                }
            }
            Condition::In { operand, list, .. } => {
                check_size_operand(operand, kind, ph)?;
                for o in list {
                    check_size_operand(o, kind, ph)?;
                }
            }
            _ => {}
        }
    }
    match c {
        Condition::Function { function, .. } => match function {
            Function::BeginsWith(a, b) => {
                for o in [a, b] {
                    if let Some(t) = value_type(o) {
                        if !matches!(
                            t,
                            crate::attr::AttributeType::S | crate::attr::AttributeType::B
                        ) {
                            return Err(DynamoError::validation(format!(
                                "Invalid {}: Incorrect operand type for operator or function; operator or function: begins_with, operand type: {t}",
                                kind.parameter()
                            )));
                        }
                    }
                }
                Ok(())
            }
            Function::AttributeType(_, t) => {
                if let Operand::Value(v) = t {
                    match ph.values.get(&v.name) {
                        Some(super::value::AttributeValue::S(name))
                            if crate::attr::AttributeType::parse(name).is_some() => {}
                        Some(super::value::AttributeValue::S(name)) => {
                            return Err(DynamoError::validation(format!(
                                "Invalid {}: Invalid attribute type name found; type: {name}, valid types: {{ B,NULL,SS,BOOL,L,BS,N,NS,S,M }}",
                                kind.parameter()
                            )))
                        }
                        Some(other) => {
                            return Err(DynamoError::validation(format!(
                                "Invalid {}: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: {}",
                                kind.parameter(),
                                other.ty()
                            )))
                        }
                        None => {}
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        },
        Condition::And { left, right, .. } | Condition::Or { left, right, .. } => {
            check_operand_types(left, kind, ph)?;
            check_operand_types(right, kind, ph)
        }
        Condition::Not { inner, .. } => check_operand_types(inner, kind, ph),
        _ => Ok(()),
    }
}
