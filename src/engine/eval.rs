//! Evaluates parsed expressions (`crate::expr::ast`) against items: conditions and
//! filters, projections, and update actions, with DynamoDB's semantics (comparisons
//! only between values of one scalar type, `size`, `contains` on strings, sets and
//! lists, nested document paths) and DynamoDB's runtime errors.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use crate::expr::ast::{
    Comparator, Condition, Function, Operand, Path, PathElement, SetOperand, SetValue,
    UpdateClause, UpdateExpr,
};

use super::error::{DynamoError, DynamoResult};
use super::number::Number;
use super::value::{AttributeValue, Item};

/// One step of a resolved document path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Placeholder values of one request: `#name` → attribute name, `:value` → value.
#[derive(Debug, Clone, Default)]
pub struct Placeholders {
    pub names: HashMap<String, String>,
    pub values: HashMap<String, AttributeValue>,
}

impl Placeholders {
    /// A path with its `#names` substituted. Undefined names were rejected before
    /// evaluation; one left over resolves to its own text, which matches nothing.
    pub fn resolve(&self, path: &Path) -> Vec<Step> {
        path.elements
            .iter()
            .map(|e| match e {
                PathElement::Attr(a) => Step::Key(a.clone()),
                PathElement::Name(n) => {
                    Step::Key(self.names.get(n).cloned().unwrap_or_else(|| n.clone()))
                }
                PathElement::Index(i) => Step::Index(*i as usize),
            })
            .collect()
    }

    /// The value of `:v`.
    pub fn value(&self, name: &str) -> DynamoResult<&AttributeValue> {
        self.values.get(name).ok_or_else(|| {
            DynamoError::validation(format!(
                "An expression attribute value used in expression is not defined; attribute value: {name}"
            ))
        })
    }
}

/// The value at `steps` in `item`.
pub fn get_path<'a>(item: &'a Item, steps: &[Step]) -> Option<&'a AttributeValue> {
    let (first, rest) = steps.split_first()?;
    let Step::Key(k) = first else { return None };
    let mut cur = item.get(k)?;
    for s in rest {
        cur = match (s, cur) {
            (Step::Key(k), AttributeValue::M(m)) => m.get(k)?,
            (Step::Index(i), AttributeValue::L(l)) => l.get(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A value an operand evaluates to; `None` when its path is absent.
fn operand<'a>(
    op: &Operand,
    ph: &'a Placeholders,
    item: &'a Item,
) -> DynamoResult<Option<std::borrow::Cow<'a, AttributeValue>>> {
    use std::borrow::Cow;
    Ok(match op {
        Operand::Path(p) => get_path(item, &ph.resolve(p)).map(Cow::Borrowed),
        Operand::Value(v) => Some(Cow::Borrowed(ph.value(&v.name)?)),
        Operand::Size { arg, .. } => operand(arg, ph, item)?
            .and_then(|v| size_of(&v))
            .map(|n| Cow::Owned(AttributeValue::N(Number::from_i64(n as i64)))),
    })
}

/// `size(x)`: string and binary lengths, element counts; nothing for other types.
pub fn size_of(v: &AttributeValue) -> Option<usize> {
    Some(match v {
        AttributeValue::S(s) => s.len(),
        AttributeValue::B(b) => b.len(),
        AttributeValue::SS(s) => s.len(),
        AttributeValue::NS(s) => s.len(),
        AttributeValue::BS(s) => s.len(),
        AttributeValue::M(m) => m.len(),
        AttributeValue::L(l) => l.len(),
        _ => return None,
    })
}

/// Orders two values of the same scalar type; `None` across types or for others.
pub fn compare(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
    match (a, b) {
        (AttributeValue::S(x), AttributeValue::S(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (AttributeValue::N(x), AttributeValue::N(y)) => Some(x.cmp(y)),
        (AttributeValue::B(x), AttributeValue::B(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// Evaluates a condition or filter on `item` (an absent item is an empty one).
pub fn eval_condition(cond: &Condition, ph: &Placeholders, item: &Item) -> DynamoResult<bool> {
    Ok(match cond {
        Condition::Compare {
            left, op, right, ..
        } => {
            let (Some(a), Some(b)) = (operand(left, ph, item)?, operand(right, ph, item)?) else {
                // An absent operand compares unequal to everything.
                return Ok(*op == Comparator::Ne);
            };
            match op {
                Comparator::Eq => a == b,
                Comparator::Ne => a != b,
                _ => match compare(&a, &b) {
                    Some(o) => match op {
                        Comparator::Lt => o == Ordering::Less,
                        Comparator::Le => o != Ordering::Greater,
                        Comparator::Gt => o == Ordering::Greater,
                        Comparator::Ge => o != Ordering::Less,
                        _ => false,
                    },
                    None => false,
                },
            }
        }
        Condition::Between {
            operand: x,
            low,
            high,
            ..
        } => {
            let (Some(v), Some(lo), Some(hi)) = (
                operand(x, ph, item)?,
                operand(low, ph, item)?,
                operand(high, ph, item)?,
            ) else {
                return Ok(false);
            };
            matches!(compare(&v, &lo), Some(Ordering::Greater | Ordering::Equal))
                && matches!(compare(&v, &hi), Some(Ordering::Less | Ordering::Equal))
        }
        Condition::In {
            operand: x, list, ..
        } => {
            let Some(v) = operand(x, ph, item)? else {
                return Ok(false);
            };
            for candidate in list {
                if operand(candidate, ph, item)?.is_some_and(|c| c == v) {
                    return Ok(true);
                }
            }
            false
        }
        Condition::Function { function, .. } => eval_function(function, ph, item)?,
        Condition::And { left, right, .. } => {
            eval_condition(left, ph, item)? && eval_condition(right, ph, item)?
        }
        Condition::Or { left, right, .. } => {
            eval_condition(left, ph, item)? || eval_condition(right, ph, item)?
        }
        Condition::Not { inner, .. } => !eval_condition(inner, ph, item)?,
    })
}

fn eval_function(f: &Function, ph: &Placeholders, item: &Item) -> DynamoResult<bool> {
    Ok(match f {
        Function::AttributeExists(p) => get_path(item, &ph.resolve(p)).is_some(),
        Function::AttributeNotExists(p) => get_path(item, &ph.resolve(p)).is_none(),
        Function::AttributeType(x, t) => {
            let Some(v) = operand(x, ph, item)? else {
                return Ok(false);
            };
            match operand(t, ph, item)?.as_deref() {
                Some(AttributeValue::S(name)) => v.ty().as_str() == name,
                _ => false,
            }
        }
        Function::BeginsWith(x, prefix) => {
            match (
                operand(x, ph, item)?.as_deref(),
                operand(prefix, ph, item)?.as_deref(),
            ) {
                (Some(AttributeValue::S(s)), Some(AttributeValue::S(p))) => {
                    s.starts_with(p.as_str())
                }
                (Some(AttributeValue::B(s)), Some(AttributeValue::B(p))) => s.starts_with(p),
                _ => false,
            }
        }
        Function::Contains(x, needle) => {
            let (Some(hay), Some(n)) = (operand(x, ph, item)?, operand(needle, ph, item)?) else {
                return Ok(false);
            };
            match (hay.as_ref(), n.as_ref()) {
                (AttributeValue::S(s), AttributeValue::S(p)) => s.contains(p.as_str()),
                (AttributeValue::B(s), AttributeValue::B(p)) => {
                    p.is_empty() || s.windows(p.len()).any(|w| w == p.as_slice())
                }
                (AttributeValue::SS(s), AttributeValue::S(p)) => s.contains(p),
                (AttributeValue::NS(s), AttributeValue::N(p)) => s.contains(p),
                (AttributeValue::BS(s), AttributeValue::B(p)) => s.contains(p),
                (AttributeValue::L(l), v) => l.contains(v),
                _ => false,
            }
        }
    })
}

/// The attributes of `item` a projection selects, nested structure kept; list
/// elements picked by index are gathered in index order.
pub fn project(paths: &[Vec<Step>], item: &Item) -> Item {
    let mut out = Item::new();
    for steps in paths {
        let Some(Step::Key(first)) = steps.first() else {
            continue;
        };
        let Some(value) = item.get(first) else {
            continue;
        };
        if let Some(projected) = project_value(value, &steps[1..]) {
            let slot = out.entry(first.clone());
            match slot {
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert(projected);
                }
                std::collections::btree_map::Entry::Occupied(mut o) => {
                    merge(o.get_mut(), projected);
                }
            }
        }
    }
    out
}

/// Partial projections of one value: maps keep keys, lists keep picked indexes (kept
/// in a map by original index until the end, so `[2]` then `[0]` come out `[0], [2]`).
fn project_value(value: &AttributeValue, rest: &[Step]) -> Option<AttributeValue> {
    let Some((step, tail)) = rest.split_first() else {
        return Some(value.clone());
    };
    match (step, value) {
        (Step::Key(k), AttributeValue::M(m)) => {
            let inner = project_value(m.get(k)?, tail)?;
            let mut out = BTreeMap::new();
            out.insert(k.clone(), inner);
            Some(AttributeValue::M(out))
        }
        (Step::Index(i), AttributeValue::L(l)) => {
            let inner = project_value(l.get(*i)?, tail)?;
            // Encode the original index so later merges keep order.
            let mut out = BTreeMap::new();
            out.insert(format!("\u{0}{i:010}"), inner);
            Some(AttributeValue::M(out))
        }
        _ => None,
    }
}

fn merge(into: &mut AttributeValue, other: AttributeValue) {
    if let (AttributeValue::M(a), AttributeValue::M(b)) = (&mut *into, other) {
        for (k, v) in b {
            match a.get_mut(&k) {
                Some(existing) => merge(existing, v),
                None => {
                    a.insert(k, v);
                }
            }
        }
    }
}

/// Turns the index-keyed maps `project_value` builds for lists back into lists.
pub fn finish_projection(item: Item) -> Item {
    item.into_iter().map(|(k, v)| (k, unmark(v))).collect()
}

fn unmark(v: AttributeValue) -> AttributeValue {
    match v {
        AttributeValue::M(m) if m.keys().next().is_some_and(|k| k.starts_with('\u{0}')) => {
            AttributeValue::L(m.into_values().map(unmark).collect())
        }
        AttributeValue::M(m) => {
            AttributeValue::M(m.into_iter().map(|(k, v)| (k, unmark(v))).collect())
        }
        other => other,
    }
}

fn bad_type() -> DynamoError {
    DynamoError::validation("An operand in the update expression has an incorrect data type")
}

fn invalid_path() -> DynamoError {
    DynamoError::validation(
        "The document path provided in the update expression is invalid for update",
    )
}

/// Value of a `SET` operand against the item before the update.
fn set_operand(op: &SetOperand, ph: &Placeholders, old: &Item) -> DynamoResult<AttributeValue> {
    match op {
        SetOperand::Path(p) => get_path(old, &ph.resolve(p)).cloned().ok_or_else(|| {
            DynamoError::validation(
                "The provided expression refers to an attribute that does not exist in the item",
            )
        }),
        SetOperand::Value(v) => ph.value(&v.name).cloned(),
        SetOperand::IfNotExists { path, default, .. } => match get_path(old, &ph.resolve(path)) {
            Some(v) => Ok(v.clone()),
            None => set_operand(default, ph, old),
        },
        SetOperand::ListAppend { first, second, .. } => {
            match (set_operand(first, ph, old)?, set_operand(second, ph, old)?) {
                (AttributeValue::L(mut a), AttributeValue::L(b)) => {
                    a.extend(b);
                    Ok(AttributeValue::L(a))
                }
                _ => Err(bad_type()),
            }
        }
    }
}

fn number_operand(op: &SetOperand, ph: &Placeholders, old: &Item) -> DynamoResult<Number> {
    match set_operand(op, ph, old)? {
        AttributeValue::N(n) => Ok(n),
        _ => Err(bad_type()),
    }
}

fn number_result(r: Result<Number, super::number::NumberError>) -> DynamoResult<AttributeValue> {
    r.map(AttributeValue::N)
        .map_err(|e| DynamoError::validation(e.to_string()))
}

/// Writes `value` at `steps` in `item`: the parent must exist; a list index past the
/// end appends.
pub fn set_path(item: &mut Item, steps: &[Step], value: AttributeValue) -> DynamoResult<()> {
    let Some((Step::Key(first), rest)) = steps.split_first() else {
        return Err(invalid_path());
    };
    if rest.is_empty() {
        item.insert(first.clone(), value);
        return Ok(());
    }
    let mut cur = item.get_mut(first).ok_or_else(invalid_path)?;
    for (i, s) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        cur = match (s, cur) {
            (Step::Key(k), AttributeValue::M(m)) => {
                if last {
                    m.insert(k.clone(), value);
                    return Ok(());
                }
                m.get_mut(k).ok_or_else(invalid_path)?
            }
            (Step::Index(idx), AttributeValue::L(l)) => {
                if last {
                    if *idx < l.len() {
                        l[*idx] = value;
                    } else {
                        l.push(value);
                    }
                    return Ok(());
                }
                l.get_mut(*idx).ok_or_else(invalid_path)?
            }
            _ => return Err(invalid_path()),
        };
    }
    Err(invalid_path())
}

/// Removes the value at `steps`, if any.
pub fn remove_path(item: &mut Item, steps: &[Step]) -> DynamoResult<()> {
    let Some((Step::Key(first), rest)) = steps.split_first() else {
        return Err(invalid_path());
    };
    if rest.is_empty() {
        item.remove(first);
        return Ok(());
    }
    let Some(mut cur) = item.get_mut(first) else {
        return Ok(());
    };
    for (i, s) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        cur = match (s, cur) {
            (Step::Key(k), AttributeValue::M(m)) => {
                if last {
                    m.remove(k);
                    return Ok(());
                }
                match m.get_mut(k) {
                    Some(v) => v,
                    None => return Ok(()),
                }
            }
            (Step::Index(idx), AttributeValue::L(l)) => {
                if last {
                    if *idx < l.len() {
                        l.remove(*idx);
                    }
                    return Ok(());
                }
                match l.get_mut(*idx) {
                    Some(v) => v,
                    None => return Ok(()),
                }
            }
            _ => return Ok(()),
        };
    }
    Ok(())
}

/// Applies an update expression to `old` (empty when the item does not exist yet),
/// returning the new item. All operands read the old item, as in DynamoDB.
pub fn apply_update(update: &UpdateExpr, ph: &Placeholders, old: &Item) -> DynamoResult<Item> {
    let mut new = old.clone();
    for clause in &update.clauses {
        match clause {
            UpdateClause::Set { actions, .. } => {
                for a in actions {
                    let value = match &a.value {
                        SetValue::Operand(op) => set_operand(op, ph, old)?,
                        SetValue::Plus(x, y) => number_result(
                            number_operand(x, ph, old)?.checked_add(&number_operand(y, ph, old)?),
                        )?,
                        SetValue::Minus(x, y) => number_result(
                            number_operand(x, ph, old)?.checked_sub(&number_operand(y, ph, old)?),
                        )?,
                    };
                    set_path(&mut new, &ph.resolve(&a.path), value)?;
                }
            }
            UpdateClause::Remove { paths, .. } => {
                for p in paths {
                    remove_path(&mut new, &ph.resolve(p))?;
                }
            }
            UpdateClause::Add { actions, .. } => {
                for a in actions {
                    let steps = ph.resolve(&a.path);
                    let delta = ph.value(&a.value.name)?.clone();
                    let value = match (get_path(old, &steps), delta) {
                        (
                            None,
                            d @ (AttributeValue::N(_)
                            | AttributeValue::SS(_)
                            | AttributeValue::NS(_)
                            | AttributeValue::BS(_)),
                        ) => d,
                        (Some(AttributeValue::N(x)), AttributeValue::N(y)) => {
                            number_result(x.checked_add(&y))?
                        }
                        (Some(AttributeValue::SS(x)), AttributeValue::SS(y)) => {
                            AttributeValue::string_set(x.iter().cloned().chain(y))
                        }
                        (Some(AttributeValue::NS(x)), AttributeValue::NS(y)) => {
                            AttributeValue::number_set(x.iter().copied().chain(y))
                        }
                        (Some(AttributeValue::BS(x)), AttributeValue::BS(y)) => {
                            AttributeValue::binary_set(x.iter().cloned().chain(y))
                        }
                        _ => return Err(bad_type()),
                    };
                    set_path(&mut new, &steps, value)?;
                }
            }
            UpdateClause::Delete { actions, .. } => {
                for a in actions {
                    let steps = ph.resolve(&a.path);
                    let delta = ph.value(&a.value.name)?.clone();
                    let remaining = match (get_path(old, &steps), delta) {
                        (
                            None,
                            AttributeValue::SS(_) | AttributeValue::NS(_) | AttributeValue::BS(_),
                        ) => continue,
                        (Some(AttributeValue::SS(x)), AttributeValue::SS(y)) => {
                            let v: Vec<String> =
                                x.iter().filter(|e| !y.contains(e)).cloned().collect();
                            (!v.is_empty()).then(|| AttributeValue::string_set(v))
                        }
                        (Some(AttributeValue::NS(x)), AttributeValue::NS(y)) => {
                            let v: Vec<Number> =
                                x.iter().filter(|e| !y.contains(e)).copied().collect();
                            (!v.is_empty()).then(|| AttributeValue::number_set(v))
                        }
                        (Some(AttributeValue::BS(x)), AttributeValue::BS(y)) => {
                            let v: Vec<Vec<u8>> =
                                x.iter().filter(|e| !y.contains(e)).cloned().collect();
                            (!v.is_empty()).then(|| AttributeValue::binary_set(v))
                        }
                        _ => return Err(bad_type()),
                    };
                    match remaining {
                        Some(v) => set_path(&mut new, &steps, v)?,
                        None => remove_path(&mut new, &steps)?,
                    }
                }
            }
        }
    }
    Ok(new)
}
